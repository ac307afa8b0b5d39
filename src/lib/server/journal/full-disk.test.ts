// A full disk while a run is written: the run stops naming the file it was writing and saying to
// free space and resume; no temporary file stays; resumed, it ends exactly as a run that never
// stopped. The disk is made full by `failWrites` (half the bytes written, then ENOSPC).

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openRun, resumeRun, startRun } from '../run/runner';
import { checkRun } from '../store/upkeep';
import { copyWorld, removeWorldCopies } from '../world/testing';
import { failWrites, isTempFile } from '../fs/atomic';
import { DiskFullError } from '../fs/disk-full';

const dirs: string[] = [];
let undo: (() => void) | undefined;
afterEach(() => {
	undo?.();
	undo = undefined;
});
afterAll(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
	removeWorldCopies();
});
function newDir(): string {
	const d = mkdtempSync(path.join(tmpdir(), 'disk-'));
	dirs.push(d);
	return d;
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

describe('a run on a full disk', () => {
	const world = copyWorld();
	const opts = { world, seed: 5, steps: 50, snapshotEvery: 10 };

	it('stops naming the file and how to go on, leaves no temporary file, and resumed ends as a run that never stopped', async () => {
		const home = newDir();
		const reference = await startRun({ ...opts, home });
		expect(reference.status).toBe('done');

		const cases: [string, (file: string) => boolean, RegExp][] = [
			// sealing a log block at the snapshot after step 20 (what the report saw)
			['a sealed block', (f) => /logs\/\w+\.\d+-\d+\.br$/.test(f) && Number(/\.(\d+)-\d+\.br$/.exec(f)?.[1]) >= 10, /\/logs\/\w+\.\d+-\d+\.br$/],
			['a snapshot', (f) => f.endsWith(`${path.sep}20.json.br`), /\/snapshots\/20\.json\.br$/],
			['a log tail', (f) => f.endsWith('steps.jsonl') && existsSync(path.join(path.dirname(f), 'snapshots', '30.json.br')), /\/steps\.jsonl$/],
			['run.json', (f) => f.endsWith('run.json') && existsSync(path.join(path.dirname(f), 'snapshots', '10.json.br')), /\/run\.json$/]
		];
		for (const [what, match, file] of cases) {
			undo = failWrites(match);
			const err = await startRun({ ...opts, home }).catch((e: unknown) => e);
			undo();
			expect(err, what).toBeInstanceOf(DiskFullError);
			const full = err as DiskFullError;
			expect(full.file, what).toMatch(file);
			expect(full.run, what).toBeDefined();
			expect(full.message, what).toBe(
				`no space left on the disk (ENOSPC) while writing ${full.file}; the run stopped at its last committed step: free some space, then resume it (\`npm run simulacra -- resume ${full.run}\`, or play it in the studio)`
			);
			const dir = openRun(full.run!, home).dir;
			expect(filesBelow(dir).filter((f) => isTempFile(path.basename(f))), what).toEqual([]);
			// space freed: resumed, it ends where the run that never stopped ended
			const resumed = await resumeRun(full.run!, { home });
			expect([resumed.status, resumed.steps, resumed.stateHash], what).toEqual(['done', 50, reference.stateHash]);
			expect((await checkRun(full.run!, home)).problems, what).toEqual([]);
		}
	}, 120_000);
});
