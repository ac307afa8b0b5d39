// A run's logs (steps, calls, traces): sealed Brotli blocks and a plain tail.
//
//   <run>/<log>.jsonl                 the tail: lines appended since the last seal
//   <run>/logs/<log>.<from>-<to>.br   a sealed block: the complete lines of steps from..to
//
// Every line carries the step that commits it: `step` in steps lines, `s` in calls and traces
// lines (-1 for the run's creation). When the writer writes a snapshot it seals each log: the
// tail's complete lines go into one block (written to a temporary file, synced, renamed), then the
// tail is cut to nothing. A crash between the rename and the cut leaves lines both sealed and in
// the tail: readers drop tail lines whose step is at most the last block's `to`, and reopening
// the run cuts them. A block never changes once written. Runs from before blocks have only the
// tail and read as before. This module is the only one that reads or writes these files (its
// writes go through ../fs/atomic.ts, which names the file on a full disk and leaves no temporary
// file behind).

import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	readSync,
	readdirSync,
	statSync,
	truncateSync
} from 'node:fs';
import path from 'node:path';
import { isTempFile, removeTempFiles, tempTarget, writeFileAtomic } from '../fs/atomic';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export type LogName = 'steps' | 'calls' | 'traces';
export const LOG_NAMES: readonly LogName[] = ['steps', 'calls', 'traces'];

/** The folder of a run's sealed blocks. */
export const BLOCKS_DIR = 'logs';

/**
 * Brotli quality of a block. Measured on Smallville blocks of 120 steps (about 1 MB of text):
 * quality 6 seals a block in a few milliseconds at ratios near quality 9's (steps 110:1, calls
 * 18:1, traces 4.5:1), where quality 9 takes 10 to 50 times as long.
 */
const QUALITY = 6;

export interface Block {
	log: LogName;
	/** steps of the block's first and last lines */
	from: number;
	to: number;
	/** path of the block file */
	file: string;
}

/** The tail file of a log. */
export function tailFile(dir: string, log: LogName): string {
	return path.join(dir, `${log}.jsonl`);
}

const BLOCK_NAME = /^(steps|calls|traces)\.(-?\d+)-(-?\d+)\.br$/;

/** The sealed blocks of a log, in step order. */
export function listBlocks(dir: string, log: LogName): Block[] {
	const folder = path.join(dir, BLOCKS_DIR);
	if (!existsSync(folder)) return [];
	const out: Block[] = [];
	for (const f of readdirSync(folder)) {
		const m = BLOCK_NAME.exec(f);
		if (!m || m[1] !== log) continue;
		out.push({ log, from: Number(m[2]), to: Number(m[3]), file: path.join(folder, f) });
	}
	return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

/** The last step a log's blocks hold (-Infinity without blocks). */
function sealedTo(blocks: readonly Block[]): number {
	return blocks.length > 0 ? blocks[blocks.length - 1].to : -Infinity;
}

const STEP_KEY: Record<LogName, string> = { steps: '{"step":', calls: '{"s":', traces: '{"s":' };

/** The whole number written at `at` (digits, optionally after a minus sign); NaN when there is none. */
export function intAt(t: string, at: number): number {
	let i = at;
	let sign = 1;
	if (t.charCodeAt(i) === 45) {
		sign = -1;
		i++;
	}
	let n = 0;
	const first = i;
	for (let c = t.charCodeAt(i); c >= 48 && c <= 57; c = t.charCodeAt(++i)) n = n * 10 + (c - 48);
	return i === first ? NaN : sign * n;
}

/** The step a line carries (read from its first member, else parsed); NaN when it has none. */
export function lineStep(log: LogName, line: string): number {
	const key = STEP_KEY[log];
	if (line.startsWith(key)) {
		const n = intAt(line, key.length);
		if (!Number.isNaN(n)) return n;
	}
	try {
		const v = (JSON.parse(line) as Record<string, unknown>)[log === 'steps' ? 'step' : 's'];
		return typeof v === 'number' ? v : NaN;
	} catch {
		return NaN;
	}
}

/** Step of the line at bytes [from, to) of a buffer. */
function bufferLineStep(log: LogName, buf: Buffer, from: number, to: number): number {
	const head = buf.toString('latin1', from, Math.min(to, from + 24));
	const key = STEP_KEY[log];
	const m = head.startsWith(key) ? /^-?\d+[,}]/.exec(head.slice(key.length)) : null;
	return m ? Number(m[0].slice(0, -1)) : lineStep(log, buf.toString('utf8', from, to));
}

/** A block's text, decompressed (an error names the block when it cannot be). */
export function readBlock(block: Pick<Block, 'file'>): Buffer {
	try {
		return brotliDecompressSync(readFileSync(block.file));
	} catch (e) {
		throw new Error(`cannot read the log block ${path.basename(block.file)}: ${e instanceof Error ? e.message : String(e)}`);
	}
}

/** Complete lines of a text (a torn last line is left out), as [start, end) byte ranges. */
function lineRanges(buf: Buffer, until = buf.length): [number, number][] {
	const out: [number, number][] = [];
	let pos = 0;
	for (;;) {
		const nl = buf.indexOf(0x0a, pos);
		if (nl < 0 || nl >= until) break;
		if (nl > pos) out.push([pos, nl]);
		pos = nl + 1;
	}
	return out;
}

/** The tail's bytes (none when it does not exist). */
function readTail(dir: string, log: LogName): Buffer {
	const file = tailFile(dir, log);
	return existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
}

/**
 * A log's complete lines as one text (blocks, then the tail's lines after them), each line
 * followed by a newline. The tail is read before the blocks are listed, so a seal happening
 * meanwhile loses nothing (its lines are in the tail read or in a block listed).
 */
export function readLogBytes(dir: string, log: LogName): Buffer {
	const tail = readTail(dir, log);
	const blocks = listBlocks(dir, log);
	const parts = blocks.map(readBlock);
	const to = sealedTo(blocks);
	const ranges = lineRanges(tail);
	let first = 0;
	while (first < ranges.length && bufferLineStep(log, tail, ranges[first][0], ranges[first][1]) <= to) first++;
	if (first < ranges.length) parts.push(tail.subarray(ranges[first][0], ranges[ranges.length - 1][1] + 1));
	return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/** Steps [from, to) of a log, for reading only part of it. */
export interface StepRange {
	from: number;
	to: number;
}

/**
 * A log's complete lines, oldest first; with `range`, only the lines of those steps, read from
 * the blocks that hold them and the tail (a restore replays a few steps of a long run).
 */
export function readLogLines(dir: string, log: LogName, range?: StepRange): string[] {
	if (!range) return splitLines(readLogBytes(dir, log));
	const tail = readTail(dir, log);
	const blocks = listBlocks(dir, log);
	const to = sealedTo(blocks);
	const out: string[] = [];
	const take = (buf: Buffer) => {
		for (const [a, z] of lineRanges(buf)) {
			const s = bufferLineStep(log, buf, a, z);
			if (s >= range.from && s < range.to && !(buf === tail && s <= to)) out.push(buf.toString('utf8', a, z));
		}
	};
	for (const b of blocks) if (b.to >= range.from && b.from < range.to) take(readBlock(b));
	take(tail);
	return out;
}

function splitLines(buf: Buffer): string[] {
	const text = buf.toString('utf8');
	const end = text.lastIndexOf('\n');
	if (end < 0) return [];
	return text
		.slice(0, end)
		.split('\n')
		.filter((l) => l.length > 0);
}

/** A log's complete lines as text (for scans that look into lines without parsing them). */
export function readLogText(dir: string, log: LogName): string {
	return readLogBytes(dir, log).toString('utf8');
}

/** The tail's complete lines that no block holds, with their steps. */
function tailLines(dir: string, log: LogName, to: number): { lines: string[]; steps: number[]; dupes: number; bytes: number; torn: number } {
	const tail = readTail(dir, log);
	const ranges = lineRanges(tail);
	const lines: string[] = [];
	const steps: number[] = [];
	let dupes = 0;
	for (const [a, b] of ranges) {
		const line = tail.toString('utf8', a, b);
		const s = lineStep(log, line);
		if (s <= to) {
			dupes++;
			continue;
		}
		lines.push(line);
		steps.push(s);
	}
	const end = tail.lastIndexOf(0x0a);
	return { lines, steps, dupes, bytes: tail.length, torn: tail.length - (end + 1) };
}

/**
 * The committed step count: after the last steps line (the tail's last complete line, else the
 * last block's `to`), without decompressing any block; `firstStep` when there is none.
 */
export function committedSteps(dir: string, meta: { firstStep: number }): number {
	// the tail first: a seal meanwhile moves its lines into a block listed after
	const last = lastTailStep(dir);
	const to = sealedTo(listBlocks(dir, 'steps'));
	const step = Math.max(last, to);
	return Number.isFinite(step) ? step + 1 : meta.firstStep;
}

/** The step of the steps tail's last complete line (-Infinity when it has none). */
function lastTailStep(dir: string): number {
	const file = tailFile(dir, 'steps');
	if (!existsSync(file)) return -Infinity;
	const size = statSync(file).size;
	let window = 1 << 16;
	for (;;) {
		const from = Math.max(0, size - window);
		const text = readRange(file, from, size - from);
		const end = text.lastIndexOf('\n');
		if (end < 0) {
			if (from === 0) return -Infinity;
			window *= 4;
			continue;
		}
		const start = text.lastIndexOf('\n', end - 1);
		if (start < 0 && from > 0) {
			window *= 4;
			continue;
		}
		const line = text.slice(start + 1, end);
		if (!line.trim()) return -Infinity;
		const s = lineStep('steps', line);
		return Number.isNaN(s) ? -Infinity : s;
	}
}

function readRange(file: string, from: number, length: number): string {
	const buf = Buffer.allocUnsafe(length);
	const fd = openSync(file, 'r');
	try {
		const got = readSync(fd, buf, 0, length, from);
		return buf.toString('utf8', 0, got);
	} finally {
		closeSync(fd);
	}
}

/** The step of a log's last line (blocks and tail); -Infinity when it has none. */
export function lastLogStep(dir: string, log: LogName): number {
	const to = sealedTo(listBlocks(dir, log));
	const { steps } = tailLines(dir, log, to);
	return steps.length > 0 ? steps[steps.length - 1] : to;
}

/**
 * Cuts a log's tail back (the run is reopened by its one writer): lines of steps after `last`,
 * a torn last line, and lines a block already holds (a seal stopped before its cut) go.
 */
export function cutLog(dir: string, log: LogName, last: number): void {
	const file = tailFile(dir, log);
	if (!existsSync(file)) return;
	const to = sealedTo(listBlocks(dir, log));
	const { lines, steps, dupes, bytes } = tailLines(dir, log, to);
	let keep = lines.length;
	while (keep > 0 && steps[keep - 1] > last) keep--;
	const kept = lines.slice(0, keep);
	const size = kept.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
	if (dupes === 0) {
		if (bytes !== size) truncateSync(file, size);
		return;
	}
	writeAtomic(file, kept.length > 0 ? kept.join('\n') + '\n' : '');
}

/** Removes block files a stopped seal left half-written (by the writer that holds the run). */
export function removeUnfinishedBlocks(dir: string): void {
	for (const log of LOG_NAMES) removeTempFiles(dir, path.basename(tailFile(dir, log)));
	removeTempFiles(path.join(dir, BLOCKS_DIR));
}

/** A whole file written atomically; on a failure no temporary file stays, and a full disk names the file (../fs/atomic.ts). */
const writeAtomic = writeFileAtomic;

/** Compresses a block's text. */
export function compressBlock(text: Buffer): Buffer {
	const lgwin = Math.max(16, Math.min(24, Math.ceil(Math.log2(text.length + 1))));
	return brotliCompressSync(text, {
		params: {
			[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
			[constants.BROTLI_PARAM_QUALITY]: QUALITY,
			[constants.BROTLI_PARAM_LGWIN]: lgwin,
			[constants.BROTLI_PARAM_SIZE_HINT]: text.length
		}
	});
}

/**
 * Seals the tail of each log (called by the writer, which holds the run, once the lines are
 * synced): its complete lines, all of steps up to `upTo`, go into one block, then the tail is
 * cut to nothing. A log whose tail holds a line after `upTo` or a torn line is left for the
 * next seal. Returns the blocks written.
 */
export function sealLogs(dir: string, upTo: number): Block[] {
	const written: Block[] = [];
	for (const log of LOG_NAMES) {
		const block = sealLog(dir, log, upTo);
		if (block) written.push(block);
	}
	return written;
}

function sealLog(dir: string, log: LogName, upTo: number): Block | null {
	const file = tailFile(dir, log);
	if (!existsSync(file)) return null;
	const to = sealedTo(listBlocks(dir, log));
	const { lines, steps, torn } = tailLines(dir, log, to);
	if (torn > 0 || lines.length === 0 || steps.some((s, i) => Number.isNaN(s) || s > upTo || (i > 0 && s < steps[i - 1]))) return null;
	const block: Block = { log, from: steps[0], to: steps[steps.length - 1], file: '' };
	const folder = path.join(dir, BLOCKS_DIR);
	mkdirSync(folder, { recursive: true });
	block.file = path.join(folder, `${log}.${block.from}-${block.to}.br`);
	writeAtomic(block.file, compressBlock(Buffer.from(lines.join('\n') + '\n')));
	truncateSync(file, 0);
	return block;
}

// ---------------------------------------------------------------------------
// checking

export interface LogProblem {
	/** the file, relative to the run folder */
	where: string;
	what: string;
	/** how to repair it: `resume` (resuming repairs it), `delete` (the file is not used), `fork` */
	repair: 'resume' | 'delete' | 'fork';
}

/**
 * Checks a log's blocks: each decompresses, holds whole lines in step order whose first and last
 * steps are its name's range, ranges follow each other (without gaps for steps), and the
 * tail holds no line a block holds. Also reports files left by a seal that was stopped.
 */
export function checkLog(dir: string, log: LogName): LogProblem[] {
	const problems: LogProblem[] = [];
	const blocks = listBlocks(dir, log);
	const name = (b: Block) => `${BLOCKS_DIR}/${path.basename(b.file)}`;
	let prev: Block | null = null;
	for (const b of blocks) {
		let text: Buffer;
		try {
			text = readBlock(b);
		} catch (e) {
			problems.push({ where: name(b), what: `does not decompress (${e instanceof Error ? e.message.slice(0, 120) : String(e)})`, repair: 'fork' });
			prev = b;
			continue;
		}
		const ranges = lineRanges(text);
		if (text.length > 0 && text[text.length - 1] !== 0x0a) problems.push({ where: name(b), what: 'ends in a torn line', repair: 'fork' });
		const steps = ranges.map(([a, z]) => lineStep(log, text.toString('utf8', a, z)));
		if (steps.length === 0) problems.push({ where: name(b), what: 'holds no lines', repair: 'delete' });
		else if (steps.some((s, i) => Number.isNaN(s) || (i > 0 && s < steps[i - 1]))) problems.push({ where: name(b), what: 'holds lines out of step order or without a step', repair: 'fork' });
		else if (steps[0] !== b.from || steps[steps.length - 1] !== b.to) {
			problems.push({ where: name(b), what: `holds the lines of steps ${steps[0]}..${steps[steps.length - 1]}, not ${b.from}..${b.to} as its name says`, repair: 'fork' });
		} else if (log === 'steps' && steps.some((s, i) => s !== b.from + i)) {
			problems.push({ where: name(b), what: 'does not hold one commit line per step', repair: 'fork' });
		}
		if (prev) {
			if (b.from <= prev.to) problems.push({ where: name(b), what: `overlaps ${path.basename(prev.file)}`, repair: 'fork' });
			else if (log === 'steps' && b.from !== prev.to + 1) problems.push({ where: name(b), what: `follows ${path.basename(prev.file)}: steps ${prev.to + 1}..${b.from - 1} are missing`, repair: 'fork' });
		}
		prev = b;
	}
	const { dupes } = tailLines(dir, log, sealedTo(blocks));
	if (dupes > 0) {
		problems.push({ where: `${log}.jsonl`, what: `${dupes} line(s) repeat steps a block already holds (a seal was stopped before it cut the log)`, repair: 'resume' });
	}
	const folder = path.join(dir, BLOCKS_DIR);
	if (existsSync(folder)) {
		for (const f of readdirSync(folder)) {
			if (isTempFile(f) && tempTarget(f)?.startsWith(`${log}.`)) problems.push({ where: `${BLOCKS_DIR}/${f}`, what: 'is a block that was being written when the writer stopped', repair: 'delete' });
		}
	}
	return problems;
}

/** A text that changes whenever a log gains lines or is sealed or cut (for caches). */
export function logStamp(dir: string, log: LogName): string {
	const st = statSync(tailFile(dir, log), { throwIfNoEntry: false });
	const tail = st ? `${st.size}:${st.mtimeMs}` : '-';
	return `${tail}/${listBlocks(dir, log)
		.map((b) => `${b.from}-${b.to}`)
		.join(',')}`;
}

/** Bytes of a torn last line of a log's tail (a writer stopped mid-line). */
export function tornTail(dir: string, log: LogName): number {
	const file = tailFile(dir, log);
	if (!existsSync(file)) return 0;
	const text = readFileSync(file);
	return text.length - (text.lastIndexOf(0x0a) + 1);
}

/** Bytes of a log on disk (blocks and tail) and of its text. */
export function logBytes(dir: string, log: LogName): { disk: number; text: number } {
	let disk = existsSync(tailFile(dir, log)) ? statSync(tailFile(dir, log)).size : 0;
	for (const b of listBlocks(dir, log)) disk += statSync(b.file).size;
	return { disk, text: readLogBytes(dir, log).length };
}

// ---------------------------------------------------------------------------
// the indexed reader

const CHUNK = 4 << 20;
/** decompressed blocks kept per index */
const KEPT_BLOCKS = 4;

interface IndexedBlock {
	block: Block;
	/** global index of its first line */
	first: number;
	/** byte ranges of its lines within the decompressed text */
	starts: Int32Array;
	ends: Int32Array;
}

/**
 * An incremental index over a log: a small summary of every complete line, built once per
 * line, and any line (or run of lines) read back fast. A sealed block never changes: its lines
 * are summarised when it is first seen, and its text, decompressed when a line of it is asked
 * for, is kept in a small LRU. Tail lines are indexed by byte range, incrementally as the live
 * run appends. A seal moves tail lines into a block without changing their indices; a tail cut
 * back by a resume drops the tail's entries and bumps `generation`.
 */
export class LogIndex<S> {
	readonly summaries: S[] = [];
	/** bumps when indexed lines were dropped or replaced, so that derived caches start over */
	generation = 0;

	private blocks: IndexedBlock[] = [];
	/** lines of the blocks */
	private sealedCount = 0;
	private sealedTo = -Infinity;
	/** tail lines: byte ranges in the tail file */
	private tailStarts: number[] = [];
	private tailEnds: number[] = [];
	private tailIndexed = 0;
	private readonly kept = new Map<string, Buffer>();

	private readonly stop: Buffer | null;
	private readonly stopLast: boolean;

	constructor(
		readonly dir: string,
		readonly log: LogName,
		/** called once per line, in order, when the line is indexed */
		private readonly summarize: (line: string, index: number) => S,
		/**
		 * Hand `summarize` only the members before this key, as a JSON object: `{"a":1,"b":[..],
		 * "stop":...}` -> `{"a":1,"b":[..]}`. A quoted key followed by a colon cannot occur
		 * unescaped inside a JSON string, so the cut always falls between two members; `last`
		 * takes the last occurrence (when nested objects use the key too). The bytes after the
		 * cut are never decoded, which keeps indexing a long log fast.
		 */
		head?: { stop: string; last?: boolean }
	) {
		this.stop = head ? Buffer.from(`,"${head.stop}":`) : null;
		this.stopLast = head?.last ?? false;
	}

	get count(): number {
		return this.summaries.length;
	}

	/** Forgets everything. */
	reset(): void {
		this.generation++;
		this.blocks = [];
		this.sealedCount = 0;
		this.sealedTo = -Infinity;
		this.kept.clear();
		this.resetTail();
		this.summaries.length = 0;
	}

	private resetTail(): void {
		this.tailStarts = [];
		this.tailEnds = [];
		this.tailIndexed = 0;
		this.summaries.length = this.sealedCount;
	}

	/** Indexes the lines added since the last refresh. */
	refresh(): this {
		for (let attempt = 0; ; attempt++) {
			const before = listBlocks(this.dir, this.log);
			const moved = this.adoptBlocks(before);
			let changed = this.refreshTail();
			// the lines that were in the tail are now in the blocks (or the tail): the same lines,
			// unless the tail was cut back and written again in between
			if (moved) {
				for (let i = 0; i < moved.old.length && !changed; i++) {
					const now = this.summaries[moved.at + i];
					if (now === undefined || JSON.stringify(now) !== JSON.stringify(moved.old[i])) changed = true;
				}
			}
			if (changed) this.generation++;
			const after = listBlocks(this.dir, this.log);
			// a seal between the two listings: take its lines from its block
			if (after.length === before.length || attempt > 3) return this;
		}
	}

	/**
	 * Takes in blocks not indexed yet; the tail's entries are dropped (to be indexed again
	 * after them). Returns where those entries were and their summaries.
	 */
	private adoptBlocks(blocks: Block[]): { at: number; old: S[] } | null {
		const known = this.blocks.length;
		if (blocks.length < known || blocks.slice(0, known).some((b, i) => b.file !== this.blocks[i].block.file)) {
			// blocks only ever come after the ones before: the folder was replaced
			this.reset();
		}
		if (blocks.length === this.blocks.length) return null;
		const at = this.sealedCount;
		const old = this.summaries.slice(at);
		this.resetTail();
		for (const block of blocks.slice(this.blocks.length)) {
			const text = readBlock(block);
			const ranges = lineRanges(text);
			const starts = new Int32Array(ranges.length);
			const ends = new Int32Array(ranges.length);
			ranges.forEach(([a, z], i) => {
				starts[i] = a;
				ends[i] = z;
				this.summaries.push(this.summarize(this.headOf(text, a, z), this.summaries.length));
			});
			this.blocks.push({ block, first: this.sealedCount, starts, ends });
			this.sealedCount += ranges.length;
			this.sealedTo = block.to;
			this.keep(block.file, text);
		}
		return { at, old };
	}

	/** Indexes the tail's new lines; true when the tail was cut back (entries dropped). */
	private refreshTail(): boolean {
		const file = tailFile(this.dir, this.log);
		const size = existsSync(file) ? statSync(file).size : 0;
		let cut = false;
		let pos = this.tailIndexed;
		if (size < pos) {
			cut = this.summaries.length > this.sealedCount;
			this.resetTail();
			pos = 0;
		}
		if (size === pos) return cut;
		const fd = openSync(file, 'r');
		try {
			let chunk = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
			while (pos < size) {
				const want = Math.min(chunk.length, size - pos);
				const got = readSync(fd, chunk, 0, want, pos);
				if (got <= 0) break;
				const end = chunk.lastIndexOf(0x0a, got - 1);
				if (end < 0) {
					// one line longer than the buffer: grow it, or stop at a torn last line
					if (pos + got >= size) break;
					chunk = Buffer.allocUnsafe(chunk.length * 2);
					continue;
				}
				let from = 0;
				while (from <= end) {
					const nl = chunk.indexOf(0x0a, from);
					if (nl > from && !(this.sealedTo > -Infinity && bufferLineStep(this.log, chunk, from, nl) <= this.sealedTo)) {
						this.summaries.push(this.summarize(this.headOf(chunk, from, nl), this.summaries.length));
						this.tailStarts.push(pos + from);
						this.tailEnds.push(pos + nl);
					}
					from = nl + 1;
				}
				pos += end + 1;
				this.tailIndexed = pos;
			}
		} finally {
			closeSync(fd);
		}
		return cut;
	}

	private headOf(chunk: Buffer, from: number, nl: number): string {
		const stop = this.stop;
		if (stop) {
			const at = this.stopLast ? chunk.lastIndexOf(stop, nl - stop.length) : chunk.indexOf(stop, from);
			if (at >= from && at < nl) return chunk.toString('utf8', from, at) + '}';
		}
		return chunk.toString('utf8', from, nl);
	}

	private keep(file: string, text: Buffer): void {
		this.kept.delete(file);
		this.kept.set(file, text);
		while (this.kept.size > KEPT_BLOCKS) this.kept.delete(this.kept.keys().next().value as string);
	}

	private textOf(b: IndexedBlock): Buffer {
		let text = this.kept.get(b.block.file);
		if (!text) text = readBlock(b.block);
		this.keep(b.block.file, text);
		return text;
	}

	/** The block holding line i (i < sealedCount). */
	private blockOf(i: number): IndexedBlock {
		let lo = 0;
		let hi = this.blocks.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.blocks[mid].first <= i) lo = mid;
			else hi = mid - 1;
		}
		return this.blocks[lo];
	}

	/** Lines [from, to) as text. */
	lines(from: number, to: number): string[] {
		from = Math.max(0, from);
		to = Math.min(this.count, to);
		const out: string[] = [];
		let i = from;
		while (i < to && i < this.sealedCount) {
			const b = this.blockOf(i);
			const text = this.textOf(b);
			const last = Math.min(to, b.first + b.starts.length);
			for (; i < last; i++) out.push(text.toString('utf8', b.starts[i - b.first], b.ends[i - b.first]));
		}
		if (i < to) {
			let tail: string[] | null;
			try {
				tail = this.tailRange(i - this.sealedCount, to - this.sealedCount);
			} catch {
				tail = null;
			}
			// a seal since the last refresh moved those lines into a block (the same indices)
			if (!tail || listBlocks(this.dir, this.log).length !== this.blocks.length) {
				this.refresh();
				if (!tail && i >= this.sealedCount) throw new Error(`${this.log} log was cut back while being read; read it again`);
				return this.lines(from, to);
			}
			out.push(...tail);
		}
		return out;
	}

	private tailRange(from: number, to: number): string[] {
		const start = this.tailStarts[from];
		const buf = Buffer.allocUnsafe(this.tailEnds[to - 1] - start);
		const file = tailFile(this.dir, this.log);
		const fd = openSync(file, 'r');
		try {
			let off = 0;
			while (off < buf.length) {
				const got = readSync(fd, buf, off, buf.length - off, start + off);
				if (got <= 0) throw new Error(`${this.log}.jsonl is shorter than its index: it was cut while being read; read it again`);
				off += got;
			}
		} finally {
			closeSync(fd);
		}
		const out: string[] = [];
		for (let i = from; i < to; i++) out.push(buf.toString('utf8', this.tailStarts[i] - start, this.tailEnds[i] - start));
		return out;
	}

	line(i: number): string {
		const [l] = this.lines(i, i + 1);
		if (l === undefined) throw new Error(`${this.log} log has no line ${i}`);
		return l;
	}

	/** First line index whose key is >= `value`, for summaries sorted by `key`. */
	lowerBound(value: number, key: (s: S) => number): number {
		let lo = 0;
		let hi = this.count;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (key(this.summaries[mid]) < value) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}
}
