import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../engine/sim';
import { RunReader, RunWriter } from './journal';
import { testMeta } from './testing';
import { openRun, startRun } from '../run/runner';
import { BLOCKS_DIR, checkLog, committedSteps, compressBlock, listBlocks, LogIndex, logBytes, logStamp, readLogBytes, readLogLines, sealLogs, tailFile, tornTail, type LogName } from './log';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newDir(): string {
	const d = mkdtempSync(path.join(tmpdir(), 'log-'));
	dirs.push(d);
	return d;
}

const stepLine = (step: number, extra = '') => JSON.stringify({ step, time: step * 10, inputs: [], events: [], conversations: [], agents: [{ id: 'a', x: step, note: `é ${extra}` }], calls: 1, memories: 0 });
const callLine = (s: number, n = 0) => JSON.stringify({ s, key: `${s}/a/${n}`, template: 't', tokens: { prompt: 3, completion: 1 }, prompt: `prompt ${s} ${'x'.repeat(40)}`, answer: 'ok' });
const traceLine = (s: number) => JSON.stringify({ s, id: `r${s}`, agent: 'a', scores: [1, 2, 3] });

/** Appends the lines of steps [from, to) to the three tails (creation lines: step -1). */
function writeSteps(dir: string, from: number, to: number): void {
	for (let s = from; s < to; s++) {
		appendFileSync(tailFile(dir, 'calls'), callLine(s) + '\n' + callLine(s, 1) + '\n');
		if (s % 3 === 0) appendFileSync(tailFile(dir, 'traces'), traceLine(s) + '\n');
		if (s >= 0) appendFileSync(tailFile(dir, 'steps'), stepLine(s) + '\n');
	}
}

function allLines(dir: string): Record<LogName, string[]> {
	return { steps: readLogLines(dir, 'steps'), calls: readLogLines(dir, 'calls'), traces: readLogLines(dir, 'traces') };
}

describe('sealed logs', () => {
	it('seals the tails into blocks and reads the same lines as a log never sealed', () => {
		const sealed = newDir();
		const plain = newDir();
		for (const dir of [sealed, plain]) writeSteps(dir, -1, 0);
		sealLogs(sealed, -1);
		for (let s = 0; s < 50; s += 10) {
			for (const dir of [sealed, plain]) writeSteps(dir, s, s + 10);
			if (s < 40) sealLogs(sealed, s + 9);
		}
		expect(allLines(sealed)).toEqual(allLines(plain));
		expect(readLogBytes(sealed, 'calls').equals(readLogBytes(plain, 'calls'))).toBe(true);
		expect(listBlocks(sealed, 'steps').map((b) => [b.from, b.to])).toEqual([
			[0, 9],
			[10, 19],
			[20, 29],
			[30, 39]
		]);
		expect(listBlocks(sealed, 'calls')[0]).toMatchObject({ from: -1, to: -1 });
		// sealed tails are empty; the last ten steps are still plain
		expect(readLogLines(sealed, 'steps')).toHaveLength(50);
		expect(readFileSync(tailFile(sealed, 'steps'), 'utf8').split('\n').filter(Boolean)).toHaveLength(10);
		expect(committedSteps(sealed, { firstStep: 0 })).toBe(50);
		for (const log of ['steps', 'calls', 'traces'] as const) expect(checkLog(sealed, log)).toEqual([]);
	});

	it('reads the lines of a range of steps from the blocks that hold them and the tail', () => {
		const dir = newDir();
		writeSteps(dir, -1, 30);
		sealLogs(dir, 19);
		// a seal stopped before its cut: the tail repeats a block's lines
		const dupe = readLogLines(dir, 'calls', { from: 15, to: 20 });
		appendFileSync(tailFile(dir, 'calls'), dupe.join('\n') + '\n');
		writeSteps(dir, 30, 40);
		const all = readLogLines(dir, 'calls');
		for (const [from, to] of [
			[-1, 0],
			[5, 25],
			[18, 35],
			[0, 100]
		]) {
			expect(readLogLines(dir, 'calls', { from, to })).toEqual(all.filter((l) => JSON.parse(l).s >= from && JSON.parse(l).s < to));
		}
		expect(readLogLines(dir, 'steps', { from: 18, to: 22 }).map((l) => JSON.parse(l).step)).toEqual([18, 19, 20, 21]);
	});

	it('gives a stamp that changes when a log grows or is sealed (what cached diffs compare)', () => {
		const dir = newDir();
		const stamps = [logStamp(dir, 'calls')];
		writeSteps(dir, 0, 3);
		stamps.push(logStamp(dir, 'calls'));
		sealLogs(dir, 2);
		stamps.push(logStamp(dir, 'calls'));
		expect(new Set(stamps).size).toBe(3);
		expect(logStamp(dir, 'calls')).toBe(stamps[2]);
	});

	it('counts committed steps from block names when the tail is empty', () => {
		const dir = newDir();
		expect(committedSteps(dir, { firstStep: 7 })).toBe(7);
		writeSteps(dir, 0, 12);
		sealLogs(dir, 11);
		expect(statSync(tailFile(dir, 'steps')).size).toBe(0);
		expect(committedSteps(dir, { firstStep: 0 })).toBe(12);
		// a torn line after the seal is not a commit
		appendFileSync(tailFile(dir, 'steps'), '{"step":12,"ti');
		expect(committedSteps(dir, { firstStep: 0 })).toBe(12);
		expect(tornTail(dir, 'steps')).toBe('{"step":12,"ti'.length);
	});

	it('leaves a tail holding a line after the snapshot, or a torn line, for the next seal', () => {
		const dir = newDir();
		writeSteps(dir, 0, 5);
		// steps and calls hold lines of step 4; traces only of steps 0 and 3
		expect(sealLogs(dir, 3).map((b) => b.log)).toEqual(['traces']);
		appendFileSync(tailFile(dir, 'steps'), '{"step":5');
		expect(sealLogs(dir, 4).map((b) => b.log)).toEqual(['calls']);
		expect(readLogLines(dir, 'steps')).toHaveLength(5);
	});

	it('reads no line twice after a crash between the block rename and the tail cut, and reopening cuts them', () => {
		const dir = newDir();
		mkdirSync(path.join(dir, 'snapshots'));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify(testMeta()));
		writeFileSync(path.join(dir, 'snapshots', '0.json'), '{}');
		writeSteps(dir, -1, 20);
		const before = allLines(dir);
		// the block written and renamed, the tail not yet cut
		mkdirSync(path.join(dir, BLOCKS_DIR));
		for (const log of ['steps', 'calls', 'traces'] as const) {
			const lines = readFileSync(tailFile(dir, log));
			const first = log === 'steps' ? 0 : -1;
			writeFileSync(path.join(dir, BLOCKS_DIR, `${log}.${first}-${log === 'traces' ? 18 : 19}.br`), compressBlock(lines));
		}
		writeFileSync(path.join(dir, BLOCKS_DIR, 'steps.20-29.br.tmp'), 'half');
		expect(allLines(dir)).toEqual(before);
		expect(committedSteps(dir, { firstStep: 0 })).toBe(20);
		expect(checkLog(dir, 'steps').map((p) => p.repair).sort()).toEqual(['delete', 'resume']);
		const index = new LogIndex(dir, 'calls', (l) => JSON.parse(l) as { s: number });
		expect(index.refresh().count).toBe(before.calls.length);

		const { writer, committed } = RunWriter.reopen(dir, 'CLI');
		writer.close();
		expect(committed).toBe(20);
		for (const log of ['steps', 'calls', 'traces'] as const) expect(statSync(tailFile(dir, log)).size).toBe(0);
		expect(readdirSync(path.join(dir, BLOCKS_DIR)).some((f) => f.endsWith('.tmp'))).toBe(false);
		expect(allLines(dir)).toEqual(before);
		expect(checkLog(dir, 'steps')).toEqual([]);
	});

	it('reads a run from before blocks (plain logs only), its torn tail left out', () => {
		const dir = newDir();
		writeSteps(dir, 0, 5);
		appendFileSync(tailFile(dir, 'steps'), '{"step":5,"time"');
		expect(readLogLines(dir, 'steps').map((l) => JSON.parse(l).step)).toEqual([0, 1, 2, 3, 4]);
		expect(committedSteps(dir, { firstStep: 0 })).toBe(5);
		expect(listBlocks(dir, 'steps')).toEqual([]);
		expect(readLogLines(newDir(), 'calls')).toEqual([]);
	});

	it('names a block that does not decompress or whose lines disagree with its name', () => {
		const dir = newDir();
		writeSteps(dir, 0, 10);
		sealLogs(dir, 9);
		writeFileSync(path.join(dir, BLOCKS_DIR, 'steps.12-13.br'), compressBlock(Buffer.from(stepLine(12) + '\n' + stepLine(14) + '\n')));
		writeFileSync(path.join(dir, BLOCKS_DIR, 'calls.10-11.br'), 'not brotli');
		const steps = checkLog(dir, 'steps').map((p) => `${p.where}: ${p.what}`);
		expect(steps).toEqual([`${BLOCKS_DIR}/steps.12-13.br: holds the lines of steps 12..14, not 12..13 as its name says`, `${BLOCKS_DIR}/steps.12-13.br: follows steps.0-9.br: steps 10..11 are missing`]);
		expect(checkLog(dir, 'calls')[0].what).toMatch(/^does not decompress/);
		expect(() => readLogLines(dir, 'calls')).toThrow(/cannot read the log block calls\.10-11\.br/);
	});

	it('stores a long run compressed: the blocks are a small fraction of the text', () => {
		const dir = newDir();
		for (let s = 0; s < 1200; s += 120) {
			writeSteps(dir, s, s + 120);
			sealLogs(dir, s + 119);
		}
		for (const log of ['steps', 'calls'] as const) {
			const { disk, text } = logBytes(dir, log);
			expect(text).toBeGreaterThan(100_000);
			expect(disk).toBeLessThan(text / 8);
		}
	});
});

describe('the writer seals at each snapshot', () => {
	it('a run of many steps keeps its logs compressed: a small fraction of their text on disk', async () => {
		const home = newDir();
		const run = await startRun({ world: 'the-ville-3', seed: 3, home, steps: 240, snapshotEvery: 20 });
		const dir = openRun(run.run, home).dir;
		expect(listBlocks(dir, 'steps')).toHaveLength(12);
		expect(committedSteps(dir, { firstStep: 0 })).toBe(240);
		for (const log of ['steps', 'calls'] as const) {
			const { disk, text } = logBytes(dir, log);
			expect(disk).toBeLessThan(text / 5);
		}
		expect(readLogLines(dir, 'steps').map((l) => JSON.parse(l).step)).toEqual(Array.from({ length: 240 }, (_, i) => i));
	}, 120_000);


	it('a run written through RunWriter keeps its lines in blocks plus a tail, read back whole', () => {
		const runs = newDir();
		const w = RunWriter.create(runs, { ...testMeta(), snapshotEvery: 4 }, 'CLI');
		const snap = (step: number) => ({ state: { step } }) as unknown as Snapshot;
		const out = (step: number) => ({ step, time: step, memories: [], traces: [{ id: `t${step}`, agent: 'a' }], conversations: [], events: [] }) as never;
		const call = (s: number) => ({ key: `${s}/a/0`, template: 't', version: 'v', prompt: 'p', answer: 'a', parsed: null, agent: 'a' }) as never;
		w.commit(out(-1), [], [call(-1)], []);
		w.snapshot(snap(0));
		for (let s = 0; s < 10; s++) {
			w.commit(out(s), [], [call(s)], []);
			if ((s + 1) % 4 === 0) w.snapshot(snap(s + 1));
		}
		w.close();
		const dir = path.join(runs, 'r');
		expect(listBlocks(dir, 'steps').map((b) => `${b.from}-${b.to}`)).toEqual(['0-3', '4-7']);
		expect(listBlocks(dir, 'calls').map((b) => `${b.from}-${b.to}`)).toEqual(['-1--1', '0-3', '4-7']);
		const reader = new RunReader(dir);
		expect(reader.steps().map((l) => l.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(reader.calls().map((c) => c.s)).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(reader.traces().map((t) => t.s)).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(reader.committed()).toBe(10);
	});
});

describe('LogIndex', () => {
	it('indexes complete lines as the tail grows, skips a torn tail, drops entries when the tail is cut', () => {
		const dir = newDir();
		const file = tailFile(dir, 'calls');
		writeFileSync(file, '{"s":0,"v":"a"}\n{"s":1,"v":"é ü"}\n{"s":2,');
		const seen: number[] = [];
		const index = new LogIndex(dir, 'calls', (line, i) => {
			seen.push(i);
			return JSON.parse(line) as { s: number };
		});
		expect(index.refresh().count).toBe(2);
		expect(index.lines(0, 2).map((l) => JSON.parse(l).v)).toEqual(['a', 'é ü']);
		appendFileSync(file, '"v":"c"}\n\n{"s":3,"v":"d"}\n');
		expect(index.refresh().count).toBe(4);
		expect(seen).toEqual([0, 1, 2, 3]); // each line summarised once
		expect(index.line(3)).toBe('{"s":3,"v":"d"}');
		expect(index.lines(1, 4).map((l) => JSON.parse(l).s)).toEqual([1, 2, 3]);
		expect(index.lowerBound(2, (x) => x.s)).toBe(2);
		expect(index.lowerBound(9, (x) => x.s)).toBe(4);
		const generation = index.generation;
		truncateSync(file, '{"s":0,"v":"a"}\n'.length);
		expect(index.refresh().count).toBe(1);
		expect(index.generation).toBe(generation + 1);
	});

	it('decodes only the members before the cut key', () => {
		const dir = newDir();
		const lines = [
			{ step: 0, conversations: [{ agents: ['a', 'b'] }], agents: [{ id: 'x' }], calls: 1 },
			{ step: 1, text: 'says ,"agents": in a string', agents: [], calls: 0 }
		];
		writeFileSync(tailFile(dir, 'steps'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
		const heads: string[] = [];
		const index = new LogIndex(dir, 'steps', (head) => (heads.push(head), head), { stop: 'agents', last: true });
		index.refresh();
		expect(heads.map((h) => JSON.parse(h))).toEqual([
			{ step: 0, conversations: [{ agents: ['a', 'b'] }] },
			{ step: 1, text: 'says ,"agents": in a string' }
		]);
		sealLogs(dir, 1);
		// the seal moves the lines into a block: the same indices, not a reset
		const generation = index.generation;
		expect(index.refresh().count).toBe(2);
		expect(index.generation).toBe(generation);
		expect(JSON.parse(index.line(1)).text).toBe('says ,"agents": in a string');
	});

	it('reads line i in a sealed block and in the tail, across blocks, as the run grows and seals', () => {
		const dir = newDir();
		const index = new LogIndex(dir, 'steps', (head) => JSON.parse(head) as { step: number; time: number }, { stop: 'agents', last: true });
		expect(index.refresh().count).toBe(0);
		writeSteps(dir, 0, 25);
		expect(index.refresh().count).toBe(25);
		sealLogs(dir, 24);
		writeSteps(dir, 25, 40);
		const generation = index.generation;
		expect(index.refresh().count).toBe(40);
		sealLogs(dir, 39);
		writeSteps(dir, 40, 47);
		expect(index.refresh().count).toBe(47);
		expect(index.generation).toBe(generation);
		expect(listBlocks(dir, 'steps')).toHaveLength(2);
		expect(index.summaries.map((s) => s.step)).toEqual(Array.from({ length: 47 }, (_, i) => i));
		expect(index.summaries[30]).toEqual({ step: 30, time: 300, inputs: [], events: [], conversations: [] });
		expect(index.line(3)).toBe(stepLine(3));
		expect(index.line(44)).toBe(stepLine(44));
		expect(index.lines(20, 45)).toEqual(Array.from({ length: 25 }, (_, i) => stepLine(20 + i)));
		// a fresh index over the same run reads the same
		const again = new LogIndex(dir, 'steps', (head) => JSON.parse(head) as { step: number }, { stop: 'agents', last: true }).refresh();
		expect(again.lines(0, 47)).toEqual(index.lines(0, 47));
		expect(() => index.line(47)).toThrow(/no line 47/);
	});

	it('reads lines a seal moved into a block after the last refresh', () => {
		const dir = newDir();
		writeSteps(dir, 0, 6);
		const index = new LogIndex(dir, 'steps', (l) => JSON.parse(l) as { step: number }).refresh();
		sealLogs(dir, 5);
		writeSteps(dir, 6, 30);
		expect(index.lines(2, 6)).toEqual([2, 3, 4, 5].map((s) => stepLine(s)));
		expect(index.count).toBe(30);
	});

	it('sees lines through a seal that happens between two refreshes with a torn line in the tail', () => {
		const dir = newDir();
		writeSteps(dir, 0, 5);
		const index = new LogIndex(dir, 'calls', (l) => JSON.parse(l) as { s: number });
		expect(index.refresh().count).toBe(10);
		writeSteps(dir, 5, 8);
		sealLogs(dir, 7);
		writeSteps(dir, 8, 9);
		appendFileSync(tailFile(dir, 'calls'), '{"s":9,');
		expect(index.refresh().summaries.map((c) => c.s)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]);
		expect(existsSync(path.join(dir, BLOCKS_DIR))).toBe(true);
	});
});
