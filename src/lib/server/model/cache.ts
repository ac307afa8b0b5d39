// Content-addressed cache of model answers and embeddings under `<dataHome>/cache/`.
//
// A key is the SHA-256 of everything that determines an answer (provider, endpoint host, model,
// sampling settings, the exact messages and the sampling index of an experiment's replicate; for
// embeddings provider, endpoint host, model and
// text), so the same model name served elsewhere is asked anew, and a re-run with
// unchanged prompts is answered from disk: free, and identical. Everything is held in memory
// and appended to disk as it arrives:
//   answers.jsonl   one JSON object per line; a cut-off last line is skipped on load
//   embeddings.bin  fixed-layout records [32-byte key][u32 LE dims][dims x f32 LE]; a cut-off
//                   last record is trimmed on open
// Binary embeddings keep the file compact (a 1536-dimension vector is 6 KB instead of ~30 KB
// as JSON) and load quickly for tens of thousands of entries. Appends are synchronous writes on
// an open descriptor: a crash loses at most the entry being written.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
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
 * The key of a chat answer. `sample` is the sampling index of an experiment's replicate: the
 * same request under another index is another draw from the model (asked anew, then replayed
 * exactly under its own index). Index 0 (or none) keys as before it existed.
 */
export function chatCacheKey(parts: { provider: string; endpoint: string; model: string; sampling: Sampling; messages: ChatMessage[]; sample?: number }): string {
	const sample = samplingIndex(parts.sample);
	return sha256(
		JSON.stringify([
			'chat',
			parts.provider,
			parts.endpoint,
			parts.model,
			sortedSampling(parts.sampling),
			parts.messages.map((m) => [m.role, m.content]),
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

const KEY_BYTES = 32;
const HEADER_BYTES = KEY_BYTES + 4;

export class AnswerCache {
	private readonly answers = new Map<string, CachedAnswer>();
	private readonly embeddings = new Map<string, Float32Array>();
	private answersFd: number | undefined;
	private embeddingsFd: number | undefined;

	private constructor(readonly dir: string | undefined) {}

	/** A cache that lives only in memory (tests, throwaway runs). */
	static memory(): AnswerCache {
		return new AnswerCache(undefined);
	}

	/** Opens (creating if needed) the cache in `dir`, default `<dataHome>/cache`. */
	static open(dir: string = path.join(dataHome(), 'cache')): AnswerCache {
		const cache = new AnswerCache(dir);
		try {
			mkdirSync(dir, { recursive: true });
			cache.loadAnswers(path.join(dir, 'answers.jsonl'));
			cache.loadEmbeddings(path.join(dir, 'embeddings.bin'));
		} catch (e) {
			cache.close();
			throw new Error(`cannot open the model cache in ${dir}: ${(e as Error).message}`);
		}
		return cache;
	}

	get size(): { answers: number; embeddings: number } {
		return { answers: this.answers.size, embeddings: this.embeddings.size };
	}

	getAnswer(key: string): CachedAnswer | undefined {
		return this.answers.get(key);
	}

	putAnswer(key: string, answer: CachedAnswer): void {
		this.answers.set(key, answer);
		if (this.answersFd === undefined) return;
		const line = JSON.stringify({
			k: key,
			t: answer.text,
			v: answer.value,
			f: answer.failsafe,
			a: answer.attempts,
			p: answer.tokens.prompt,
			c: answer.tokens.completion
		});
		writeSync(this.answersFd, line + '\n');
	}

	getEmbedding(key: string): Float32Array | undefined {
		return this.embeddings.get(key);
	}

	putEmbeddings(entries: [key: string, vector: Float32Array][]): void {
		if (!entries.length) return;
		for (const [key, vector] of entries) this.embeddings.set(key, vector);
		if (this.embeddingsFd === undefined) return;
		const size = entries.reduce((n, [, v]) => n + HEADER_BYTES + v.length * 4, 0);
		const buf = Buffer.alloc(size);
		let at = 0;
		for (const [key, vector] of entries) {
			buf.write(key, at, KEY_BYTES, 'hex');
			buf.writeUInt32LE(vector.length, at + KEY_BYTES);
			at += HEADER_BYTES;
			for (let i = 0; i < vector.length; i++, at += 4) buf.writeFloatLE(vector[i], at);
		}
		writeSync(this.embeddingsFd, buf);
	}

	close(): void {
		if (this.answersFd !== undefined) closeSync(this.answersFd);
		if (this.embeddingsFd !== undefined) closeSync(this.embeddingsFd);
		this.answersFd = this.embeddingsFd = undefined;
	}

	private loadAnswers(file: string): void {
		if (existsSync(file)) {
			const text = readFileSync(file, 'utf8');
			for (const line of text.split('\n')) {
				if (!line) continue;
				try {
					const e = JSON.parse(line) as { k: string; t: string; v: unknown; f: boolean; a: number; p: number; c: number };
					if (typeof e.k !== 'string') continue;
					this.answers.set(e.k, { text: e.t, value: e.v, failsafe: e.f === true, attempts: e.a ?? 1, tokens: { prompt: e.p ?? 0, completion: e.c ?? 0 } });
				} catch {
					// A line cut off by a crash: skip it.
				}
			}
		}
		this.answersFd = openSync(file, 'a');
		// Start appends on a fresh line if the last write was cut off.
		const { size } = fstatSync(this.answersFd);
		if (size > 0) {
			const last = Buffer.alloc(1);
			const fd = openSync(file, 'r');
			try {
				readSync(fd, last, 0, 1, size - 1);
			} finally {
				closeSync(fd);
			}
			if (last[0] !== 0x0a) writeSync(this.answersFd, '\n');
		}
	}

	private loadEmbeddings(file: string): void {
		let valid = 0;
		if (existsSync(file)) {
			const buf = readFileSync(file);
			let at = 0;
			while (at + HEADER_BYTES <= buf.length) {
				const dims = buf.readUInt32LE(at + KEY_BYTES);
				const end = at + HEADER_BYTES + dims * 4;
				if (dims === 0 || end > buf.length) break;
				const key = buf.toString('hex', at, at + KEY_BYTES);
				// Copy into an aligned buffer; the platforms Node runs on are little-endian.
				const bytes = new Uint8Array(dims * 4);
				bytes.set(buf.subarray(at + HEADER_BYTES, end));
				this.embeddings.set(key, new Float32Array(bytes.buffer));
				at = end;
			}
			valid = at;
		}
		this.embeddingsFd = openSync(file, 'a');
		// Drop a cut-off record so the next append starts on a record boundary.
		if (fstatSync(this.embeddingsFd).size !== valid) ftruncateSync(this.embeddingsFd, valid);
	}
}
