import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../engine/sim';
import { decodeSnapshot, encodeSnapshot, readSnapshotAt, snapshotStepOf, writeSnapshotAt } from './codec';
import { listSnapshotSteps, readSnapshotFile } from './journal';

const root = mkdtempSync(path.join(tmpdir(), 'codec-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A snapshot-shaped value of some size, repetitive as real states are. */
function snap(step: number, agents = 25): Snapshot {
	return {
		schema: 1,
		state: {
			step,
			agents: Array.from({ length: agents }, (_, i) => ({
				id: `agent-${i}`,
				plan: Array.from({ length: 40 }, (_, k) => ({ start: k * 900, activity: `doing thing ${k} at home`, emoji: '🏠' })),
				tile: [i, step % 100]
			}))
		},
		memory: { 'agent-0': { size: 3, lastAccess: [1, 2, 3] } }
	} as unknown as Snapshot;
}

let n = 0;
const fresh = () => {
	const dir = path.join(root, String(++n));
	mkdirSync(path.join(dir, 'snapshots'), { recursive: true });
	return dir;
};

describe('snapshot encoding', () => {
	it('stores a snapshot compressed, at a fraction of its JSON, and reads back the same value', () => {
		const run = fresh();
		const s = snap(120);
		const file = writeSnapshotAt(path.join(run, 'snapshots'), s);
		expect(path.basename(file)).toBe('120.json.br');
		expect(statSync(file).size).toBeLessThan(JSON.stringify(s).length / 5);
		expect(readSnapshotFile(run, 120)).toEqual(s);
		expect(readdirSync(path.join(run, 'snapshots'))).toEqual(['120.json.br']);
	});

	it('still reads runs written with plain JSON snapshots, and lists each step once', () => {
		const run = fresh();
		const dir = path.join(run, 'snapshots');
		writeFileSync(path.join(dir, '0.json'), JSON.stringify(snap(0)));
		writeSnapshotAt(dir, snap(120));
		writeFileSync(path.join(dir, '240.json'), JSON.stringify(snap(240)));
		writeFileSync(path.join(dir, '360.json.br.tmp'), 'torn');
		expect(listSnapshotSteps(run)).toEqual([0, 120, 240]);
		expect(readSnapshotFile(run, 0)).toEqual(snap(0));
		expect(readSnapshotFile(run, 240)).toEqual(snap(240));
		// writing a step again replaces its plain file
		writeSnapshotAt(dir, snap(240));
		expect(existsSync(path.join(dir, '240.json'))).toBe(false);
		expect(listSnapshotSteps(run)).toEqual([0, 120, 240]);
		expect(readSnapshotAt(dir, 240)).toEqual(snap(240));
	});

	it('names the file and what to do when a snapshot cannot be read', () => {
		const run = fresh();
		const dir = path.join(run, 'snapshots');
		writeFileSync(path.join(dir, '120.json.br'), Buffer.from('not brotli at all'));
		expect(() => readSnapshotFile(run, 120)).toThrow(/120\.json\.br is not a readable compressed snapshot .*delete it/);
		writeFileSync(path.join(dir, '240.json'), '{"schema":');
		expect(() => readSnapshotFile(run, 240)).toThrow(/240\.json is not a valid snapshot/);
		expect(() => readSnapshotFile(run, 360)).toThrow(/no snapshot of step 360/);
	});

	it('recognises snapshot file names only', () => {
		expect(snapshotStepOf('120.json')).toBe(120);
		expect(snapshotStepOf('120.json.br')).toBe(120);
		expect(snapshotStepOf('120.json.br.tmp')).toBeNull();
		expect(snapshotStepOf('x.json')).toBeNull();
		expect(decodeSnapshot(encodeSnapshot(snap(7)), '7.json.br')).toEqual(snap(7));
	});
});
