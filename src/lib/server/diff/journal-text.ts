// A run's JSONL logs read for comparison: the whole log's text (../journal/log.ts decompresses
// its sealed blocks) kept as bytes and as
// Latin-1 strings of the same lengths, so that offsets in a string are byte offsets. The
// strings are what the diff scans and compares (one byte = one character: equal slices mean
// equal bytes, and no UTF-8 decoding of tens of megabytes); text meant for people is decoded
// from the bytes, as UTF-8, only where it is shown. A long log is held as several strings
// (chunks, cut between lines), as a JavaScript string has a maximum length.
//
// JSON written by JSON.stringify never holds an unescaped `"` inside a string, so a search for
// `,"key":` finds that member and never text inside a value.

import { existsSync, readFileSync } from 'node:fs';

/** Bytes per string: well below V8's limit for one string (2^29 - 24 one-byte characters). */
export const CHUNK_BYTES = 1 << 28;

export class JournalText {
	/** start and end (exclusive, without the newline) of every complete line, within its chunk */
	readonly starts: number[] = [];
	readonly ends: number[] = [];
	/** the chunk of every line */
	private readonly chunkOf: number[] = [];
	private readonly chunks: string[] = [];
	/** byte offset of every chunk in the file */
	private readonly offsets: number[] = [];

	private constructor(
		readonly file: string,
		readonly bytes: Buffer,
		chunkBytes: number
	) {
		let pos = 0;
		let chunkStart = 0;
		let lineInChunk = 0;
		const flush = (end: number) => {
			this.chunks.push(bytes.toString('latin1', chunkStart, end));
			this.offsets.push(chunkStart);
			chunkStart = end;
			lineInChunk = 0;
		};
		for (;;) {
			const nl = bytes.indexOf(10, pos);
			// a torn last line (a crash mid-write) is not part of the log
			if (nl < 0) break;
			if (nl + 1 - chunkStart > chunkBytes && lineInChunk > 0) {
				flush(pos);
			}
			if (nl > pos) {
				this.starts.push(pos - chunkStart);
				this.ends.push(nl - chunkStart);
				this.chunkOf.push(this.chunks.length);
				lineInChunk++;
			}
			pos = nl + 1;
		}
		if (pos > chunkStart) flush(pos);
	}

	/** The complete lines of a log's text (`name` names it in messages). */
	static of(name: string, bytes: Buffer, chunkBytes = CHUNK_BYTES): JournalText {
		return new JournalText(name, bytes, chunkBytes);
	}

	/** The complete lines of a JSONL file (none when the file does not exist). */
	static read(file: string, chunkBytes = CHUNK_BYTES): JournalText {
		let bytes: Buffer;
		try {
			bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
		} catch (e) {
			throw new Error(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
		}
		return new JournalText(file, bytes, chunkBytes);
	}

	get count(): number {
		return this.starts.length;
	}

	/** The Latin-1 string that holds line i (at starts[i]..ends[i]). */
	text(i: number): string {
		return this.chunks[this.chunkOf[i]];
	}

	/** Line i as Latin-1 (for comparison). */
	line(i: number): string {
		return this.text(i).slice(this.starts[i], this.ends[i]);
	}

	/** Bytes [from, to) of line i's chunk decoded as UTF-8. */
	utf8(i: number, from: number, to: number): string {
		const base = this.offsets[this.chunkOf[i]];
		return this.bytes.toString('utf8', base + from, base + to);
	}

	/** Line i parsed. */
	json<T>(i: number): T {
		return JSON.parse(this.utf8(i, this.starts[i], this.ends[i])) as T;
	}
}

