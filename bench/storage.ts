// Bytes on disk per game day of a Smallville run (25 agents, 8,640 steps, offline), by part,
// next to the time to read a snapshot (compressed, as runs store them, and the same snapshot as
// plain JSON, as runs stored them before), to seal the logs at a snapshot, to read frames at
// random steps from the IDE's index and to restore a state at random steps, each against a copy
// of the run whose logs are plain JSON lines (as runs stored them before sealed blocks).

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listSnapshotSteps, readSnapshotFile } from '../src/lib/server/journal/journal';
import { BLOCKS_DIR, compressBlock, listBlocks, LOG_NAMES, logBytes, readBlock, readLogBytes, tailFile } from '../src/lib/server/journal/log';
import { RunData } from '../src/lib/server/read/run-data';
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
		const logs = Object.fromEntries(LOG_NAMES.map((l) => [l, logBytes(dir, l)]));
		const parts = ['snapshots', 'lance'];
		const sizes = Object.fromEntries(parts.map((p) => [p, bytesOf(path.join(dir, p))]));
		const total = bytesOf(dir);
		const logDisk = LOG_NAMES.reduce((n, l) => n + logs[l].disk, 0);
		const steps = listSnapshotSteps(dir);

		// sealing at a snapshot: the three logs' lines since the last one compressed into blocks
		const sealMs: number[] = [];
		const blocks = LOG_NAMES.map((l) => listBlocks(dir, l).map((b) => ({ b, text: readBlock(b) })));
		for (let i = 0; i < blocks[0].length; i++) {
			const t = performance.now();
			for (const list of blocks) {
				const one = list.find((x) => x.b.from <= blocks[0][i].b.to && x.b.to >= blocks[0][i].b.from);
				if (one) compressBlock(one.text);
			}
			sealMs.push(performance.now() - t);
		}

		// the same run with its logs as plain JSON lines, in a data home of its own
		const plainHome = mkdtempSync(path.join(tmpdir(), 'bench-storage-plainlogs-'));
		const plainRun = path.join(plainHome, 'runs', s.run);
		cpSync(dir, plainRun, { recursive: true });
		for (const l of LOG_NAMES) writeFileSync(tailFile(plainRun, l), readLogBytes(dir, l));
		rmSync(path.join(plainRun, BLOCKS_DIR), { recursive: true, force: true });

		// frames at random steps from the IDE's index (built once), sealed blocks and plain logs
		const seek = (runDir: string) => {
			const data = new RunData(s.run, runDir);
			const t0 = performance.now();
			data.committed();
			const index = performance.now() - t0;
			const times: number[] = [];
			for (let i = 0; i < 200; i++) {
				const n = 2 + ((i * 7919) % (DAY - 1));
				const t = performance.now();
				data.frameTextsFromLines(n, n, 10);
				times.push(performance.now() - t);
			}
			const t1 = performance.now();
			const many = data.frameTextsFromLines(4001, 6000, 10).length;
			return { index, median: median(times), many: performance.now() - t1, frames: many };
		};
		const seekSealed = seek(dir);
		const seekPlain = seek(plainRun);

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

		// restoring a state: the nearest snapshot, then the logged steps replayed (alternately
		// from the sealed run and its plain copy)
		const restores: number[] = [];
		const restoresPlain: number[] = [];
		for (let i = 0; i < 12; i++) {
			const step = Math.floor((((i >> 1) * 7919) % 97) / 97 * DAY);
			// the same step from both, in turn first
			const sealed = (i % 2 === 0) === ((i >> 1) % 2 === 0);
			const t = performance.now();
			await loadState(s.run, step, { home: sealed ? home : plainHome });
			(sealed ? restores : restoresPlain).push(performance.now() - t);
		}
		rmSync(plainHome, { recursive: true, force: true });

		const name = 'run on disk, one game day of Smallville (25 agents, 8,640 steps), offline';
		const other = total - parts.reduce((n, p) => n + sizes[p], 0) - logDisk;
		const ms = (n: number) => `${n.toFixed(1)} ms`;
		return [
			{ bench: name, figure: 'bytes per game day', value: mb(total / days) },
			{
				bench: name,
				figure: 'of which snapshots / steps log / calls log / traces log / LanceDB / other',
				value: `${mb(sizes.snapshots)} / ${mb(logs.steps.disk)} / ${mb(logs.calls.disk)} / ${mb(logs.traces.disk)} / ${mb(sizes.lance)} / ${mb(other)}`
			},
			{
				bench: name,
				figure: 'logs in sealed Brotli blocks / as plain JSON lines (steps, calls, traces)',
				value: `${mb(logDisk)} / ${mb(LOG_NAMES.reduce((n, l) => n + logs[l].text, 0))}`
			},
			{ bench: name, figure: `seal at a snapshot (three logs, 120 steps), median (max) of ${sealMs.length}`, value: `${ms(median(sealMs))} (${ms(Math.max(...sealMs))})` },
			{ bench: name, figure: "IDE index of the steps log built, sealed blocks / plain", value: `${ms(seekSealed.index)} / ${ms(seekPlain.index)}` },
			{ bench: name, figure: 'one frame at a random step from the index, median of 200, sealed blocks / plain', value: `${seekSealed.median.toFixed(2)} ms / ${seekPlain.median.toFixed(2)} ms` },
			{ bench: name, figure: `${seekSealed.frames} frames in one request, sealed blocks / plain`, value: `${ms(seekSealed.many)} / ${ms(seekPlain.many)}` },
			{ bench: name, figure: `${steps.length} snapshots compressed / as plain JSON`, value: `${mb(sizes.snapshots)} / ${mb(plainBytes)}` },
			{ bench: name, figure: 'snapshot read, compressed / plain JSON, median', value: `${median(readCompressed).toFixed(1)} ms / ${median(readPlain).toFixed(1)} ms` },
			{
				bench: name,
				figure: 'restore a state at a random step, median (max) of 6, sealed blocks / plain logs',
				value: `${median(restores).toFixed(0)} ms (${Math.max(...restores).toFixed(0)} ms) / ${median(restoresPlain).toFixed(0)} ms (${Math.max(...restoresPlain).toFixed(0)} ms)`
			}
		];
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
