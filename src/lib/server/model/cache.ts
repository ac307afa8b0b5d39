// Content-addressed cache of model answers and embeddings under `<dataHome>/cache/`.
//
// A key is the SHA-256 of everything that determines an answer (provider, endpoint host, model,
// sampling settings, the exact messages and the sampling index of an experiment's replicate; for
// embeddings provider, endpoint host, model and
// text), so the same model name served elsewhere is asked anew, and a re-run with
// unchanged prompts is answered from disk: free, and identical.
//
//   answers.jsonl   one JSON object a line, `{"k":"<64 hex>","t":..,"v":..,"f":..,"a":..,"p":..,"c":..}`
//   embeddings.bin  fixed-layout records [32-byte key][u32 LE dims][dims x f32 LE]
//
// Neither file is read into memory: opening scans it in chunks and keeps only an index from a
// key to where its line or record is (about 30-60 bytes a key, whatever the answers' size);
// answers and vectors are read from the file when asked for. The key of a line sits at a fixed
// place (JSON.stringify puts "k" first), so the scan parses no JSON.
//
// The FIRST line (record) for a key in file order is the answer, in every process: several
// processes (experiment workers, the CLI, the IDE server) may append to the same files at once.
// Each append is one write on a descriptor opened for appending, which on Linux does not
// interleave with other appends; after appending, and on a miss, a process catches up with what
// the others appended since (indexing complete lines only, so a write in progress is picked up
// later). A later line for a key already indexed is never used.
//
// Damage: a line that is not of the form above, or is longer than the size limit of one answer,
// is skipped with a warning naming it; a line that passes those checks but does not parse when
// read is not used (warning), and the next line for its key, if any, takes its place. A cut-off
// last line (a crash) is skipped silently and appends start on a fresh line; a cut-off last
// embedding record is trimmed on open.

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Sampling } from '../../prompts/template';
import { dataHome } from '../paths';
import type { ChatMessage, TokenCounts } from './providers/types';

export interface CachedAnswer {
	/** raw text of the answer that was used (the last attempt) */
	text: string;
	value: unknown;
	failsafe: boolean;
	attempts: number;
	/** tokens spent when the answer was first obtained */
	tokens: TokenCounts;
}

function sha256(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

function sortedSampling(sampling: Sampling): [string, unknown][] {
	return Object.entries(sampling)
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * The key of a chat answer. `schema` is the JSON Schema the request carries (an edit of a
 * template's output schema asks anew). `sample` is the sampling index of an experiment's
 * replicate: the same request under another index is another draw from the model (asked anew,
 * then replayed exactly under its own index).
 */
export function chatCacheKey(parts: {
	provider: string;
	endpoint: string;
	model: string;
	sampling: Sampling;
	messages: ChatMessage[];
	schema?: Record<string, unknown>;
	sample?: number;
}): string {
	const sample = samplingIndex(parts.sample);
	return sha256(
		JSON.stringify([
			'chat',
			parts.provider,
			parts.endpoint,
			parts.model,
			sortedSampling(parts.sampling),
			parts.messages.map((m) => [m.role, m.content]),
			...(parts.schema ? [['schema', parts.schema]] : []),
			...(sample > 0 ? [['sample', sample]] : [])
		])
	);
}

/** A sampling index: a whole number from 0; anything else is refused with the value named. */
export function samplingIndex(value: unknown): number {
	if (value === undefined || value === null || value === '') return 0;
	const n = typeof value === 'string' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`a sampling index is a whole number from 0, not ${JSON.stringify(value)}`);
	return n;
}

/** The environment variable that gives a process's runs their sampling index. */
export const SAMPLING_INDEX_ENV = 'SIMULACRA_SAMPLING_INDEX';

export function embedCacheKey(parts: { provider: string; endpoint: string; model: string; text: string }): string {
	return sha256(JSON.stringify(['embed', parts.provider, parts.endpoint, parts.model, parts.text]));
}

/** The longest line of one answer in answers.jsonl, in bytes (its newline not counted). */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024;

export interface AnswerCacheOptions {
	/** An answer whose line would be longer is not written; a longer line is skipped on load. */
	maxAnswerBytes?: number;
	/** Where warnings about damaged lines and records go (default console.warn). */
	onWarning?: (message: string) => void;
}

const KEY_HEX = /^[0-9a-f]{64}$/;
const KEY_BYTES = 32;
const HEADER_BYTES = KEY_BYTES + 4;
/** every line starts `{"k":"<64 hex>"` */
const LINE_START = Buffer.from('{"k":"');
const KEY_AT = LINE_START.length;
const KEY_END = KEY_AT + 64;
const MIN_LINE = KEY_END + 2;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
/** bytes read at a time when scanning a file */
const CHUNK = 4 << 20;
const MAX_WARNINGS = 100;

function isKey(key: string): boolean {
	return KEY_HEX.test(key);
}

function checkKey(key: string): void {
	if (!isKey(key)) throw new Error(`a model cache key is 64 lowercase hex digits, not ${JSON.stringify(key)}`);
}

function hexDigit(c: number): number {
	if (c >= 0x30 && c <= 0x39) return c - 0x30;
	if (c >= 0x61 && c <= 0x66) return c - 0x57;
	return -1;
}

/** The 8 hex digits at buf[at] as a number. */
function hexU32(buf: Uint8Array, at: number): number {
	let v = 0;
	for (let i = 0; i < 8; i++) v = (v << 4) | hexDigit(buf[at + i]);
	return v >>> 0;
}

/** Why the line buf[start, start + length) cannot be indexed, or undefined if it can. */
function lineProblem(buf: Buffer, start: number, length: number): string | undefined {
	let keyed = length >= MIN_LINE && buf[start + KEY_END] === QUOTE;
	for (let i = 0; keyed && i < KEY_AT; i++) keyed = buf[start + i] === LINE_START[i];
	for (let i = start + KEY_AT; keyed && i < start + KEY_END; i++) keyed = hexDigit(buf[i]) >= 0;
	if (!keyed) return 'it does not start with {"k":"<64 hex digits>"';
	if (buf[start + length - 1] !== CLOSE_BRACE) return 'it is cut off or damaged (it does not end with "}")';
	return undefined;
}

/** The answer on a line read back, or why it cannot be used. */
function parseAnswer(bytes: Buffer, key: string): CachedAnswer | string {
	let e: unknown;
	try {
		e = JSON.parse(bytes.toString('utf8'));
	} catch (err) {
		return `it does not parse (${(err as Error).message})`;
	}
	if (!e || typeof e !== 'object') return 'it is not a JSON object';
	const o = e as { k?: unknown; t?: unknown; v?: unknown; f?: unknown; a?: unknown; p?: unknown; c?: unknown };
	if (o.k !== key) return 'its "k" is not the key at its start';
	if (typeof o.t !== 'string') return 'its "t" is not a string';
	const num = (x: unknown, d: number) => (typeof x === 'number' ? x : d);
	return { text: o.t, value: o.v, failsafe: o.f === true, attempts: num(o.a, 1), tokens: { prompt: num(o.p, 0), completion: num(o.c, 0) } };
}

function answerLine(key: string, answer: CachedAnswer): string {
	return JSON.stringify({ k: key, t: answer.text, v: answer.value, f: answer.failsafe, a: answer.attempts, p: answer.tokens.prompt, c: answer.tokens.completion });
}

function readAt(fd: number, at: number, length: number): Buffer {
	const buf = Buffer.allocUnsafe(length);
	const n = readSync(fd, buf, 0, length, at);
	return n === length ? buf : buf.subarray(0, n);
}

/** One write of the whole buffer (Node may write less than asked: the rest follows). */
function append(fd: number, buf: Uint8Array): void {
	let done = 0;
	while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
}

const EMPTY = 0;
const REMOVED = 0xffffffff;

/**
 * An open-addressing hash table (linear probing) in typed arrays, from a key's first 8 bytes to
 * where its line or record is in a file (offset, and a length or dimension count that is never
 * 0): 20 bytes a slot, at most 70% full. Keys that share their first 8 bytes are told apart by
 * `same`, which reads the full key from the file.
 */
class KeyIndex {
	private hi!: Uint32Array;
	private lo!: Uint32Array;
	private at!: Float64Array;
	private len!: Uint32Array;
	/** live and removed slots */
	private used = 0;
	count = 0;

	constructor(capacity = 1024) {
		this.allocate(capacity);
	}

	private allocate(capacity: number): void {
		this.hi = new Uint32Array(capacity);
		this.lo = new Uint32Array(capacity);
		this.at = new Float64Array(capacity);
		this.len = new Uint32Array(capacity);
		this.used = this.count = 0;
	}

	private static home(hi: number, lo: number): number {
		const h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
		return (h ^ (h >>> 15)) >>> 0;
	}

	/** The slot of the key, or -1. */
	find(hi: number, lo: number, same: (at: number, len: number) => boolean): number {
		const mask = this.len.length - 1;
		for (let i = KeyIndex.home(hi, lo) & mask; ; i = (i + 1) & mask) {
			const n = this.len[i];
			if (n === EMPTY) return -1;
			if (n !== REMOVED && this.hi[i] === hi && this.lo[i] === lo && same(this.at[i], n)) return i;
		}
	}

	/** Adds the key unless it is there already (the first place stays); whether it was added. */
	add(hi: number, lo: number, at: number, len: number, same: (at: number, len: number) => boolean): boolean {
		if ((this.used + 1) * 10 > this.len.length * 7) this.grow();
		const mask = this.len.length - 1;
		let free = -1;
		for (let i = KeyIndex.home(hi, lo) & mask; ; i = (i + 1) & mask) {
			const n = this.len[i];
			if (n === EMPTY) {
				if (free < 0) {
					free = i;
					this.used++;
				}
				break;
			}
			if (n === REMOVED) {
				if (free < 0) free = i;
			} else if (this.hi[i] === hi && this.lo[i] === lo && same(this.at[i], n)) return false;
		}
		this.hi[free] = hi;
		this.lo[free] = lo;
		this.at[free] = at;
		this.len[free] = len;
		this.count++;
		return true;
	}

	place(slot: number): { at: number; len: number } {
		return { at: this.at[slot], len: this.len[slot] };
	}

	move(slot: number, at: number, len: number): void {
		this.at[slot] = at;
		this.len[slot] = len;
	}

	remove(slot: number): void {
		this.len[slot] = REMOVED;
		this.count--;
	}

	private grow(): void {
		const { hi, lo, at, len } = this;
		const capacity = (this.count + 1) * 10 > len.length * 3.5 ? len.length * 2 : len.length;
		this.allocate(capacity);
		const mask = capacity - 1;
		for (let j = 0; j < len.length; j++) {
			if (len[j] === EMPTY || len[j] === REMOVED) continue;
			let i = KeyIndex.home(hi[j], lo[j]) & mask;
			while (this.len[i] !== EMPTY) i = (i + 1) & mask;
			this.hi[i] = hi[j];
			this.lo[i] = lo[j];
			this.at[i] = at[j];
			this.len[i] = len[j];
			this.used++;
			this.count++;
		}
	}
}

/** A line of answers.jsonl: its offset and length; `buf[start, start + length)` holds it unless it is longer than the limit. */
type LineVisitor = (at: number, length: number, buf: Buffer | undefined, start: number) => boolean | void;

export class AnswerCache {
	/** The first warnings (at most 100) about damaged lines and records. */
	readonly warnings: string[] = [];
	private warningCount = 0;
	private readonly maxAnswerBytes: number;
	private readonly onWarning: (message: string) => void;
	/** memory-only form */
	private readonly memoryAnswers?: Map<string, CachedAnswer>;
	private readonly memoryEmbeddings?: Map<string, Float32Array>;

	private readonly answers = new KeyIndex();
	private answersFile = '';
	private answersFd: number | undefined;
	/** offset after the last complete line indexed, and that line's number */
	private answersEnd = 0;
	private answersLine = 0;
	/** the file's size when last looked at */
	private answersSeen = 0;
	/** where a cut-off last line found on open starts: once complete it is skipped silently */
	private cutLineAt = -1;
	/** a write failed part way: the next append starts on a fresh line */
	private answersTorn = false;

	private readonly embeddings = new KeyIndex();
	private embeddingsFile = '';
	private embeddingsFd: number | undefined;
	private embeddingsEnd = 0;
	private embeddingsSeen = 0;
	/** where a damaged record was found (warned about once) */
	private damagedRecordAt = -1;

	private constructor(
		readonly dir: string | undefined,
		options: AnswerCacheOptions
	) {
		this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
		if (!Number.isSafeInteger(this.maxAnswerBytes) || this.maxAnswerBytes < MIN_LINE) throw new Error(`maxAnswerBytes must be a whole number from ${MIN_LINE}, not ${this.maxAnswerBytes}`);
		this.onWarning = options.onWarning ?? ((message) => console.warn(message));
		if (dir === undefined) {
			this.memoryAnswers = new Map();
			this.memoryEmbeddings = new Map();
		}
	}

	/** A cache that lives only in memory (tests, throwaway runs), first answer wins as on disk. */
	static memory(options: Pick<AnswerCacheOptions, 'maxAnswerBytes'> = {}): AnswerCache {
		return new AnswerCache(undefined, options);
	}

	/** Opens (creating if needed) the cache in `dir`, default `<dataHome>/cache`. */
	static open(dir: string = path.join(dataHome(), 'cache'), options: AnswerCacheOptions = {}): AnswerCache {
		const cache = new AnswerCache(dir, options);
		try {
			mkdirSync(dir, { recursive: true });
			cache.openAnswers(path.join(dir, 'answers.jsonl'));
			cache.openEmbeddings(path.join(dir, 'embeddings.bin'));
		} catch (e) {
			cache.close();
			throw new Error(`cannot open the model cache in ${dir}: ${(e as Error).message}`);
		}
		return cache;
	}

	/** Entries indexed (on disk: as of the last catching up with other processes). */
	get size(): { answers: number; embeddings: number } {
		if (this.memoryAnswers && this.memoryEmbeddings) return { answers: this.memoryAnswers.size, embeddings: this.memoryEmbeddings.size };
		return { answers: this.answers.count, embeddings: this.embeddings.count };
	}

	/** The first answer recorded for the key, by any process; each call reads it anew (a fresh object). */
	getAnswer(key: string): CachedAnswer | undefined {
		if (this.memoryAnswers) return this.memoryAnswers.get(key);
		if (this.answersFd === undefined || !isKey(key)) return undefined;
		return (this.findAnswer(key) ?? (this.catchUpAnswers() ? this.findAnswer(key) : undefined))?.answer;
	}

	/**
	 * Records an answer unless one is recorded for the key already, and returns the answer that
	 * counts: the FIRST recorded for the key, which may be another process's earlier one. An
	 * answer whose line would be longer than `maxAnswerBytes` is not written (and is returned).
	 * `key` must be 64 lowercase hex digits (a key from chatCacheKey).
	 */
	putAnswer(key: string, answer: CachedAnswer): CachedAnswer {
		checkKey(key);
		if (this.memoryAnswers) {
			const first = this.memoryAnswers.get(key);
			if (first) return first;
			if (Buffer.byteLength(answerLine(key, answer)) <= this.maxAnswerBytes) this.memoryAnswers.set(key, answer);
			return answer;
		}
		const fd = this.answersFd;
		if (fd === undefined) return answer;
		const known = this.findAnswer(key);
		if (known) return known.answer;
		const text = answerLine(key, answer);
		const length = Buffer.byteLength(text);
		if (length > this.maxAnswerBytes) return answer;
		const fresh = this.answersTorn ? 1 : 0;
		const line = Buffer.allocUnsafe(fresh + length + 1);
		if (fresh) line[0] = NEWLINE;
		line.write(text, fresh, 'utf8');
		line[fresh + length] = NEWLINE;
		this.answersTorn = true;
		append(fd, line);
		this.answersTorn = false;
		this.catchUpAnswers();
		const first = this.findAnswer(key);
		if (!first) return answer;
		// our own line: hand back the caller's object
		return first.bytes.equals(line.subarray(fresh, fresh + length)) ? answer : first.answer;
	}

	/** The first vector recorded for the key, by any process (a fresh array). */
	getEmbedding(key: string): Float32Array | undefined {
		if (this.memoryEmbeddings) return this.memoryEmbeddings.get(key);
		if (this.embeddingsFd === undefined || !isKey(key)) return undefined;
		return this.findEmbedding(key, true) ?? (this.catchUpEmbeddings() ? this.findEmbedding(key, true) : undefined);
	}

	/** Records vectors for keys that have none yet (the first one recorded stays); empty vectors are not recorded. */
	putEmbeddings(entries: [key: string, vector: Float32Array][]): void {
		for (const [key] of entries) checkKey(key);
		if (this.memoryEmbeddings) {
			for (const [key, vector] of entries) if (vector.length && !this.memoryEmbeddings.has(key)) this.memoryEmbeddings.set(key, vector);
			return;
		}
		const fd = this.embeddingsFd;
		if (fd === undefined) return;
		const seen = new Set<string>();
		const fresh = entries.filter(([key, vector]) => {
			if (!vector.length || seen.has(key)) return false;
			seen.add(key);
			return !this.findEmbedding(key, false);
		});
		if (!fresh.length) return;
		const buf = Buffer.alloc(fresh.reduce((n, [, v]) => n + HEADER_BYTES + v.length * 4, 0));
		let at = 0;
		for (const [key, vector] of fresh) {
			buf.write(key, at, KEY_BYTES, 'hex');
			buf.writeUInt32LE(vector.length, at + KEY_BYTES);
			at += HEADER_BYTES;
			// the platforms Node runs on are little-endian
			buf.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.length * 4), at);
			at += vector.length * 4;
		}
		append(fd, buf);
		this.catchUpEmbeddings();
	}

	close(): void {
		if (this.answersFd !== undefined) closeSync(this.answersFd);
		if (this.embeddingsFd !== undefined) closeSync(this.embeddingsFd);
		this.answersFd = this.embeddingsFd = undefined;
	}

	private warn(message: string): void {
		this.warningCount++;
		if (this.warningCount <= MAX_WARNINGS) {
			this.warnings.push(message);
			this.onWarning(message);
		} else if (this.warningCount === MAX_WARNINGS + 1) {
			this.onWarning(`model cache in ${this.dir}: more than ${MAX_WARNINGS} warnings; the others are not shown`);
		}
	}

	// ---- answers.jsonl

	private openAnswers(file: string): void {
		this.answersFile = file;
		const fd = (this.answersFd = openSync(file, 'a+'));
		const size = fstatSync(fd).size;
		this.answersEnd = this.indexAnswers(0, size);
		this.answersSeen = size;
		if (this.answersEnd < size) {
			// A cut-off last line (a crash, or another process's write under way): appends start
			// on a fresh line; once complete, the cut line is skipped without a warning.
			this.cutLineAt = this.answersEnd;
			append(fd, Buffer.from('\n'));
		}
	}

	/** Indexes what other processes (and this one) appended since the last time; whether anything was. */
	private catchUpAnswers(): boolean {
		const fd = this.answersFd;
		if (fd === undefined) return false;
		const size = fstatSync(fd).size;
		if (size <= this.answersSeen) return false;
		this.answersSeen = size;
		const end = this.indexAnswers(this.answersEnd, size);
		const grew = end > this.answersEnd;
		this.answersEnd = end;
		return grew;
	}

	/** Indexes the complete lines in [from, to); returns the offset after the last one. */
	private indexAnswers(from: number, to: number): number {
		const fd = this.answersFd!;
		const key = Buffer.allocUnsafe(64);
		return this.scanLines(from, to, (at, length, buf, start) => {
			const line = ++this.answersLine;
			if (length === 0) return;
			const problem = buf ? lineProblem(buf, start, length) : `it is longer than the limit of ${this.maxAnswerBytes} bytes (${length} bytes)`;
			if (at === this.cutLineAt) {
				this.cutLineAt = -1;
				if (problem) return;
			}
			if (problem || !buf) {
				this.warn(`${this.answersFile}: line ${line} (byte ${at}) is skipped: ${problem}`);
				return;
			}
			const k = start + KEY_AT;
			this.answers.add(hexU32(buf, k), hexU32(buf, k + 8), at, length, (other) => {
				readSync(fd, key, 0, 64, other + KEY_AT);
				return key.equals(buf.subarray(k, k + 64));
			});
		});
	}

	/**
	 * Walks the complete lines of answers.jsonl in [from, to), a chunk at a time, without holding a
	 * line longer than the limit; stops early when `visit` returns true. Returns the offset after
	 * the last line visited (an unfinished last line is left for later).
	 */
	private scanLines(from: number, to: number, visit: LineVisitor): number {
		const fd = this.answersFd!;
		const max = this.maxAnswerBytes;
		if (to <= from) return from;
		const buf = Buffer.allocUnsafe(Math.min(Math.max(CHUNK, max + 1), to - from));
		let pos = from;
		while (pos < to) {
			const want = Math.min(buf.length, to - pos);
			const n = readSync(fd, buf, 0, want, pos);
			if (n < want) to = pos + n;
			const view = n === buf.length ? buf : buf.subarray(0, n);
			let i = 0;
			for (let nl = view.indexOf(NEWLINE, i); nl >= 0; nl = view.indexOf(NEWLINE, i)) {
				const stop = nl - i > max ? visit(pos + i, nl - i, undefined, 0) : visit(pos + i, nl - i, view, i);
				i = nl + 1;
				if (stop) return pos + i;
			}
			if (n - i > max) {
				// a line longer than the limit: find its end without holding it
				const start = pos + i;
				const nl = this.findNewline(pos + n, to);
				if (nl < 0) return start;
				pos = nl + 1;
				if (visit(start, nl - start, undefined, 0)) return pos;
				continue;
			}
			if (pos + n >= to) return pos + i;
			pos += i;
		}
		return pos;
	}

	private findNewline(from: number, to: number): number {
		const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, to - from)));
		for (let pos = from; pos < to; ) {
			const n = readSync(this.answersFd!, buf, 0, Math.min(buf.length, to - pos), pos);
			if (n <= 0) break;
			const nl = buf.subarray(0, n).indexOf(NEWLINE);
			if (nl >= 0) return pos + nl;
			pos += n;
		}
		return -1;
	}

	/**
	 * The first usable answer for the key among the lines indexed so far. A first line that does
	 * not read back is replaced by the next line for the key (or, if none, dropped).
	 */
	private findAnswer(key: string): { answer: CachedAnswer; bytes: Buffer } | undefined {
		const fd = this.answersFd;
		if (fd === undefined) return undefined;
		let bytes = undefined as Buffer | undefined;
		const slot = this.answers.find(parseInt(key.slice(0, 8), 16), parseInt(key.slice(8, 16), 16), (at, length) => {
			bytes = readAt(fd, at, length);
			return bytes.toString('latin1', KEY_AT, KEY_END) === key;
		});
		if (slot < 0 || !bytes) return undefined;
		const answer = parseAnswer(bytes, key);
		if (typeof answer !== 'string') return { answer, bytes };

		const { at, len } = this.answers.place(slot);
		this.warn(`${this.answersFile}: the line at byte ${at} (key ${key}) is not used: ${answer}`);
		let next: { answer: CachedAnswer; bytes: Buffer; at: number } | undefined;
		this.scanLines(at + len + 1, this.answersEnd, (lineAt, length, buf, start) => {
			if (!buf || length < MIN_LINE || buf.toString('latin1', start + KEY_AT, start + KEY_END) !== key) return false;
			const line = Buffer.from(buf.subarray(start, start + length));
			const parsed = parseAnswer(line, key);
			if (typeof parsed === 'string') return false;
			next = { answer: parsed, bytes: line, at: lineAt };
			return true;
		});
		if (!next) {
			this.answers.remove(slot);
			return undefined;
		}
		this.answers.move(slot, next.at, next.bytes.length);
		return next;
	}

	// ---- embeddings.bin

	private openEmbeddings(file: string): void {
		this.embeddingsFile = file;
		const fd = (this.embeddingsFd = openSync(file, 'a+'));
		const size = fstatSync(fd).size;
		const valid = this.indexEmbeddings(0, size);
		// Drop a cut-off record so the next append starts on a record boundary.
		if (valid !== size) ftruncateSync(fd, valid);
		this.embeddingsEnd = this.embeddingsSeen = valid;
	}

	private catchUpEmbeddings(): boolean {
		const fd = this.embeddingsFd;
		if (fd === undefined) return false;
		const size = fstatSync(fd).size;
		if (size <= this.embeddingsSeen) return false;
		this.embeddingsSeen = size;
		const end = this.indexEmbeddings(this.embeddingsEnd, size);
		const grew = end > this.embeddingsEnd;
		this.embeddingsEnd = end;
		return grew;
	}

	/** Indexes the complete records in [from, to); returns the offset after the last one. */
	private indexEmbeddings(from: number, to: number): number {
		const fd = this.embeddingsFd!;
		if (to - from < HEADER_BYTES) return from;
		const buf = Buffer.allocUnsafe(Math.min(CHUNK, to - from));
		const other = Buffer.allocUnsafe(KEY_BYTES);
		let start = from;
		let n = 0;
		let pos = from;
		while (pos + HEADER_BYTES <= to) {
			if (pos + HEADER_BYTES > start + n) {
				start = pos;
				n = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
				if (n < HEADER_BYTES) break;
			}
			const rel = pos - start;
			const dims = buf.readUInt32LE(rel + KEY_BYTES);
			const end = pos + HEADER_BYTES + dims * 4;
			if (dims === 0) {
				if (this.damagedRecordAt !== pos) this.warn(`${this.embeddingsFile}: the record at byte ${pos} is damaged (0 dimensions): no record from there on is used`);
				this.damagedRecordAt = pos;
				break;
			}
			if (end > to) break;
			const key = buf.subarray(rel, rel + KEY_BYTES);
			this.embeddings.add(buf.readUInt32BE(rel), buf.readUInt32BE(rel + 4), pos, dims, (at) => {
				readSync(fd, other, 0, KEY_BYTES, at);
				return other.equals(key);
			});
			pos = end;
		}
		return pos;
	}

	/** The vector of the key among the records indexed so far (with `read` false, an empty array if there is one). */
	private findEmbedding(key: string, read: boolean): Float32Array | undefined {
		const fd = this.embeddingsFd;
		if (fd === undefined) return undefined;
		const want = Buffer.from(key, 'hex');
		let record = undefined as Uint8Array | undefined;
		const slot = this.embeddings.find(want.readUInt32BE(0), want.readUInt32BE(4), (at, dims) => {
			record = new Uint8Array(read ? HEADER_BYTES + dims * 4 : KEY_BYTES);
			readSync(fd, record, 0, record.length, at);
			return want.equals(record.subarray(0, KEY_BYTES));
		});
		if (slot < 0 || !record) return undefined;
		return read ? new Float32Array(record.buffer.slice(HEADER_BYTES)) : new Float32Array(0);
	}
}
