// An incremental index over an append-only JSONL log: the byte range of every complete line
// and a small summary of it, so that any line (or a run of lines) is read back with one
// positioned read instead of parsing the whole file. The log only grows while a run is live;
// a shorter file (a resume cut the tail) rebuilds the index.

import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

const CHUNK = 4 << 20;

export class JsonlIndex<S> {
	/** byte range of line i (without its newline) */
	private starts: number[] = [];
	private ends: number[] = [];
	/** bytes indexed: the end of the last complete line */
	private indexed = 0;
	readonly summaries: S[] = [];
	/** bumps on every reset, so derived caches know to start over */
	generation = 0;

	private readonly stop: Buffer | null;
	private readonly stopLast: boolean;

	constructor(
		readonly file: string,
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

	/** Forgets everything (the file was rewritten). */
	reset(): void {
		this.generation++;
		this.starts = [];
		this.ends = [];
		this.indexed = 0;
		this.summaries.length = 0;
	}

	/** Indexes the lines appended since the last refresh. */
	refresh(): this {
		if (!existsSync(this.file)) {
			this.reset();
			return this;
		}
		const size = statSync(this.file).size;
		let pos = this.indexed;
		if (size < pos) {
			this.reset();
			pos = 0;
		}
		if (size === pos) return this;
		const fd = openSync(this.file, 'r');
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
					if (nl > from) {
						this.summaries.push(this.summarize(this.headOf(chunk, from, nl), this.summaries.length));
						this.starts.push(pos + from);
						this.ends.push(pos + nl);
					}
					from = nl + 1;
				}
				pos += end + 1;
				this.indexed = pos;
			}
		} finally {
			closeSync(fd);
		}
		return this;
	}

	private headOf(chunk: Buffer, from: number, nl: number): string {
		const stop = this.stop;
		if (stop) {
			const at = this.stopLast ? chunk.lastIndexOf(stop, nl - stop.length) : chunk.indexOf(stop, from);
			if (at >= from && at < nl) return chunk.toString('utf8', from, at) + '}';
		}
		return chunk.toString('utf8', from, nl);
	}

	/** Lines [from, to) as text. */
	lines(from: number, to: number): string[] {
		from = Math.max(0, from);
		to = Math.min(this.count, to);
		if (to <= from) return [];
		const start = this.starts[from];
		const buf = Buffer.allocUnsafe(this.ends[to - 1] - start);
		const fd = openSync(this.file, 'r');
		try {
			let off = 0;
			while (off < buf.length) {
				const got = readSync(fd, buf, off, buf.length - off, start + off);
				if (got <= 0) throw new Error(`${this.file} is shorter than its index: it was cut while being read`);
				off += got;
			}
		} finally {
			closeSync(fd);
		}
		const out: string[] = [];
		for (let i = from; i < to; i++) out.push(buf.toString('utf8', this.starts[i] - start, this.ends[i] - start));
		return out;
	}

	line(i: number): string {
		const [l] = this.lines(i, i + 1);
		if (l === undefined) throw new Error(`${this.file} has no line ${i}`);
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
