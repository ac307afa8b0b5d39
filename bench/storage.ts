// Bytes on disk per game day of a Smallville run (25 agents, 8,640 steps, offline), by part,
// next to the time to read a snapshot (compressed, as runs store them, and the same snapshot as
// plain JSON, as runs stored them before) and to restore a state at random steps.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listSnapshotSteps, readSnapshotFile } from '../src/lib/server/journal/journal';
import { loadState, openRun, startRun } from '../src/lib/server/run/runner';

const DAY = 8640;

interface Row {
	bench: string;
	figure: string;
	value: string;
}

/** Bytes of a file, or of every file under a folder. */
function bytesOf(p: string): number {
	const st = statSync(p, { throwIfNoEntry: false });
	if (!st) return 0;
	if (!st.isDirectory()) return st.size;
	return readdirSync(p).reduce((n, f) => n + bytesOf(path.join(p, f)), 0);
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

export async function benchStorage(): Promise<Row[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-storage-'));
	try {
		const s = await startRun({ world: 'smallville', steps: DAY, seed: 1, home });
		const dir = openRun(s.run, home).dir;
		// the run is one game day long
		const days = 1;
		const parts = ['snapshots', 'steps.jsonl', 'calls.jsonl', 'traces.jsonl', 'lance'];
		const sizes = Object.fromEntries(parts.map((p) => [p, bytesOf(path.join(dir, p))]));
		const total = bytesOf(dir);
		const steps = listSnapshotSteps(dir);

		// the same snapshots as plain JSON (how runs stored them before compression)
		const plainDir = mkdtempSync(path.join(tmpdir(), 'bench-storage-plain-'));
		let plainBytes = 0;
		for (const step of steps) {
			const text = JSON.stringify(readSnapshotFile(dir, step));
			plainBytes += Buffer.byteLength(text);
			writeFileSync(path.join(plainDir, `${step}.json`), text);
		}
		const readCompressed: number[] = [];
		const readPlain: number[] = [];
		const time = (read: () => unknown, into: number[]) => {
			const t = performance.now();
			read();
			into.push(performance.now() - t);
		};
		for (let round = 0; round < 4; round++) {
			for (const step of steps) {
				const compressed = () => time(() => readSnapshotFile(dir, step), readCompressed);
				const plain = () => time(() => JSON.parse(readFileSync(path.join(plainDir, `${step}.json`), 'utf8')), readPlain);
				// alternate which goes first, so that neither gains from the other's work
				if ((round + step / 120) % 2 === 0) {
					compressed();
					plain();
				} else {
					plain();
					compressed();
				}
			}
		}
		rmSync(plainDir, { recursive: true, force: true });

		// restoring a state: the nearest snapshot, then the logged steps replayed
		const restores: number[] = [];
		for (let i = 0; i < 12; i++) {
			const step = Math.floor(((i * 7919) % 97) / 97 * DAY);
			const t = performance.now();
			await loadState(s.run, step, { home });
			restores.push(performance.now() - t);
		}

		const name = 'run on disk, one game day of Smallville (25 agents, 8,640 steps), offline';
		const other = total - parts.reduce((n, p) => n + sizes[p], 0);
		return [
			{ bench: name, figure: 'bytes per game day', value: mb(total / days) },
			{
				bench: name,
				figure: 'of which snapshots / steps.jsonl / calls.jsonl / traces.jsonl / LanceDB / other',
				value: `${mb(sizes.snapshots)} / ${mb(sizes['steps.jsonl'])} / ${mb(sizes['calls.jsonl'])} / ${mb(sizes['traces.jsonl'])} / ${mb(sizes.lance)} / ${mb(other)}`
			},
			{ bench: name, figure: `${steps.length} snapshots compressed / as plain JSON`, value: `${mb(sizes.snapshots)} / ${mb(plainBytes)}` },
			{ bench: name, figure: 'snapshot read, compressed / plain JSON, median', value: `${median(readCompressed).toFixed(1)} ms / ${median(readPlain).toFixed(1)} ms` },
			{ bench: name, figure: 'restore a state at a random step, median (max) of 12', value: `${median(restores).toFixed(0)} ms (${Math.max(...restores).toFixed(0)} ms)` }
		];
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
