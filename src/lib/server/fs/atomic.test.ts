// Whole writes: a temporary file of the write's own, synced and renamed; nothing stays when a
// write fails, and a full disk names the file (see ./atomic.ts, ./disk-full.ts).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { failWrites, isTempFile, removeTempFiles, tempFileOf, tempTarget, writeFileAtomic, writeFileAtomicAsync } from './atomic';
import { asDiskFull, DiskFullError, isDiskFull } from './disk-full';

const dirs: string[] = [];
let undo: (() => void) | undefined;
afterEach(() => {
	undo?.();
	undo = undefined;
});
afterAll(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function newDir(): string {
	const d = mkdtempSync(path.join(tmpdir(), 'atomic-'));
	dirs.push(d);
	return d;
}

describe('writeFileAtomic', () => {
	it('on a full disk throws a DiskFullError naming the file, leaves no .tmp and the old file whole', () => {
		const dir = newDir();
		const file = path.join(dir, 'steps.0-119.br');
		writeFileSync(file, 'old');
		undo = failWrites((f) => f === file);
		const err = (() => {
			try {
				writeFileAtomic(file, Buffer.alloc(4096, 1));
			} catch (e) {
				return e;
			}
		})();
		expect(err).toBeInstanceOf(DiskFullError);
		expect((err as Error).message).toBe(`no space left on the disk (ENOSPC) while writing ${file}; free some space, then try again`);
		expect(readdirSync(dir)).toEqual(['steps.0-119.br']);
		expect(readFileSync(file, 'utf8')).toBe('old');
		undo();
		writeFileAtomic(file, 'new');
		expect(readFileSync(file, 'utf8')).toBe('new');
	});

	it('names a quota as one, and tells a full disk however it is reported', () => {
		const e = asDiskFull(Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }), '/d/run.json', 'r1') as DiskFullError;
		expect(e.message).toBe(
			'the disk quota is used up (EDQUOT) while writing /d/run.json; the run stopped at its last committed step: free some space, then resume it (`npm run simulacra -- resume r1`, or play it in the studio)'
		);
		expect(isDiskFull(new Error('lance error: LanceError(IO): No space left on device (os error 28)'))).toBe(true);
		expect(isDiskFull(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))).toBe(false);
		const other = new Error('boom');
		expect(asDiskFull(other, '/x')).toBe(other);
	});
});

describe('temporary files', () => {
	it('are hidden, beside the file, unique to each write, and told from other files', () => {
		const a = tempFileOf('/d/run.json');
		const b = tempFileOf('/d/run.json');
		expect(a).not.toBe(b);
		expect(path.dirname(a)).toBe('/d');
		expect(path.basename(a)).toMatch(/^\.run\.json\.\d+\.[0-9a-f]{8}\.tmp$/);
		expect(tempTarget(path.basename(a))).toBe('run.json');
		// the names older writers used
		expect(tempTarget('steps.20-29.br.tmp')).toBe('steps.20-29.br');
		expect(tempTarget('manifest.json.4242.tmp')).toBe('manifest.json');
		expect(isTempFile('run.json')).toBe(false);
		expect(isTempFile('.run.json.1.0123abcd.tmp', 'steps.jsonl')).toBe(false);
	});

	it('left by a stopped writer are removed, those of one file or all', () => {
		const dir = newDir();
		for (const f of ['run.json', '.run.json.7.0123abcd.tmp', 'run.json.tmp', '.steps.jsonl.7.0123abcd.tmp']) writeFileSync(path.join(dir, f), 'x');
		removeTempFiles(dir, 'run.json');
		expect(readdirSync(dir).sort()).toEqual(['.steps.jsonl.7.0123abcd.tmp', 'run.json']);
		removeTempFiles(dir);
		expect(readdirSync(dir)).toEqual(['run.json']);
		removeTempFiles(path.join(dir, 'missing'));
	});
});

describe('writeFileAtomicAsync', () => {
	it('writes the file whole; on a full disk throws a DiskFullError and leaves the old file and no temporary file', async () => {
		const dir = newDir();
		const file = path.join(dir, 'world.json');
		await writeFileAtomicAsync(file, 'one');
		expect(readFileSync(file, 'utf8')).toBe('one');
		undo = failWrites((f) => f === file);
		const err = await writeFileAtomicAsync(file, 'two').catch((e: unknown) => e);
		expect(err).toBeInstanceOf(DiskFullError);
		expect(readdirSync(dir)).toEqual(['world.json']);
		expect(readFileSync(file, 'utf8')).toBe('one');
	});
});
