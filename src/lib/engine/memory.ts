// The memory stream of one agent and retrieval by recency, importance and relevance.
// Vectors live in one contiguous Float32Array and the numeric columns in typed arrays, so a
// retrieval is a linear scan without an object per memory.

import { HOUR } from './clock';
import type { RetrievalSettings, RetrievalWeights } from './types';

export type MemoryKind = 'observation' | 'reflection' | 'plan' | 'conversation' | 'thought';
export const MEMORY_KINDS: readonly MemoryKind[] = [
	'observation',
	'reflection',
	'plan',
	'conversation',
	'thought'
];

/** The immutable part of a memory: written once to the run's memory log. */
export interface MemoryRecord {
	id: string;
	agent: string;
	/** position in the agent's stream, 0-based */
	index: number;
	kind: MemoryKind;
	description: string;
	/** game ms */
	created: number;
	step: number;
	importance: number;
	/** ids of the memories a reflection cites */
	evidence?: string[];
	/** plan memories: where, when and for how long */
	plan?: { address: string; start: number; minutes: number };
	/** the other party of a conversation */
	with?: string;
	embedding: Float32Array;
}

export interface ScoreRow {
	id: string;
	index: number;
	recency: number;
	importance: number;
	relevance: number;
	recencyNorm: number;
	importanceNorm: number;
	relevanceNorm: number;
	score: number;
}

export interface ScoreColumns {
	recency: Float64Array;
	importance: Float64Array;
	relevance: Float64Array;
	recencyNorm: Float64Array;
	importanceNorm: Float64Array;
	relevanceNorm: Float64Array;
	score: Float64Array;
}

/** What the min-max normalisation gives when every candidate has the same raw value. */
export const FLAT_NORM = 0.5;

export class MemoryStream {
	readonly records: MemoryRecord[] = [];
	private vectors: Float32Array;
	private lastAccessCol: Float64Array;
	private importanceCol: Float32Array;

	constructor(
		readonly agent: string,
		readonly dimensions: number,
		capacity = 256
	) {
		this.vectors = new Float32Array(capacity * dimensions);
		this.lastAccessCol = new Float64Array(capacity);
		this.importanceCol = new Float32Array(capacity);
	}

	get size(): number {
		return this.records.length;
	}

	lastAccess(index: number): number {
		return this.lastAccessCol[index];
	}

	/** The last-access column, for snapshots. */
	lastAccessList(): number[] {
		return Array.from(this.lastAccessCol.subarray(0, this.size));
	}

	setLastAccess(values: ArrayLike<number>): void {
		if (values.length !== this.size) {
			throw new Error(`memory stream of ${this.agent}: ${values.length} access times for ${this.size} memories`);
		}
		for (let i = 0; i < values.length; i++) this.lastAccessCol[i] = values[i];
	}

	add(record: Omit<MemoryRecord, 'index' | 'id' | 'agent'> & { id?: string }): MemoryRecord {
		const index = this.size;
		const full: MemoryRecord = {
			...record,
			id: record.id ?? `${this.agent}/m${index}`,
			agent: this.agent,
			index
		};
		if (full.embedding.length !== this.dimensions) {
			throw new Error(`memory of ${this.agent}: embedding has ${full.embedding.length} dimensions, expected ${this.dimensions}`);
		}
		this.ensureCapacity(index + 1);
		this.vectors.set(full.embedding, index * this.dimensions);
		// The stored record shares the column's memory rather than keeping a second copy.
		full.embedding = this.vectors.subarray(index * this.dimensions, (index + 1) * this.dimensions);
		this.lastAccessCol[index] = full.created;
		this.importanceCol[index] = full.importance;
		this.records.push(full);
		return full;
	}

	/** Re-attaches the embedding views after the column buffer grew. */
	private ensureCapacity(n: number): void {
		const cap = this.lastAccessCol.length;
		if (n <= cap) return;
		const next = Math.max(n, cap * 2);
		const vectors = new Float32Array(next * this.dimensions);
		vectors.set(this.vectors);
		this.vectors = vectors;
		const access = new Float64Array(next);
		access.set(this.lastAccessCol);
		this.lastAccessCol = access;
		const imp = new Float32Array(next);
		imp.set(this.importanceCol);
		this.importanceCol = imp;
		for (const r of this.records) {
			r.embedding = this.vectors.subarray(r.index * this.dimensions, (r.index + 1) * this.dimensions);
		}
	}

	byId(id: string): MemoryRecord | undefined {
		const slash = id.lastIndexOf('/m');
		const index = Number(id.slice(slash + 2));
		const rec = this.records[index];
		return rec && rec.id === id ? rec : undefined;
	}

	/** The n most recent memories, oldest first, optionally excluding some kinds. */
	recent(n: number, exclude: readonly MemoryKind[] = []): MemoryRecord[] {
		const out: MemoryRecord[] = [];
		for (let i = this.size - 1; i >= 0 && out.length < n; i--) {
			if (!exclude.includes(this.records[i].kind)) out.push(this.records[i]);
		}
		return out.reverse();
	}

	/**
	 * The three raw components and the weighted score of each candidate (indices; all memories
	 * when omitted) for a query vector at game time `now`, as columns. Pure: does not touch
	 * last-access times. `lastAccessOf` overrides the stored column (to reproduce a past retrieval).
	 */
	columns(
		query: Float32Array,
		now: number,
		settings: Pick<RetrievalSettings, 'weights' | 'decay'>,
		candidates?: ArrayLike<number>,
		lastAccessOf?: (index: number) => number
	): ScoreColumns {
		const n = candidates ? candidates.length : this.size;
		const dim = this.dimensions;
		const recency = new Float64Array(n);
		const importance = new Float64Array(n);
		const relevance = new Float64Array(n);
		const logDecay = Math.log(settings.decay);
		const vectors = this.vectors;
		const access = this.lastAccessCol;
		const imp = this.importanceCol;
		for (let c = 0; c < n; c++) {
			const i = candidates ? candidates[c] : c;
			const last = lastAccessOf ? lastAccessOf(i) : access[i];
			const hours = now > last ? (now - last) / HOUR : 0;
			recency[c] = Math.exp(logDecay * hours);
			importance[c] = imp[i];
			relevance[c] = dot(vectors, i * dim, query, dim);
		}
		const recencyNorm = normalise(recency);
		const importanceNorm = normalise(importance);
		const relevanceNorm = normalise(relevance);
		const w = settings.weights;
		const score = new Float64Array(n);
		for (let c = 0; c < n; c++) {
			score[c] = w.recency * recencyNorm[c] + w.importance * importanceNorm[c] + w.relevance * relevanceNorm[c];
		}
		return { recency, importance, relevance, recencyNorm, importanceNorm, relevanceNorm, score };
	}

	/** The full score table (one row per candidate), for inspection. */
	score(
		query: Float32Array,
		now: number,
		settings: Pick<RetrievalSettings, 'weights' | 'decay'>,
		candidates?: ArrayLike<number>,
		lastAccessOf?: (index: number) => number
	): ScoreRow[] {
		const col = this.columns(query, now, settings, candidates, lastAccessOf);
		const rows: ScoreRow[] = new Array(col.score.length);
		for (let c = 0; c < rows.length; c++) {
			const i = candidates ? candidates[c] : c;
			rows[c] = {
				id: this.records[i].id,
				index: i,
				recency: col.recency[c],
				importance: col.importance[c],
				relevance: col.relevance[c],
				recencyNorm: col.recencyNorm[c],
				importanceNorm: col.importanceNorm[c],
				relevanceNorm: col.relevanceNorm[c],
				score: col.score[c]
			};
		}
		return rows;
	}

	/** Marks memories as accessed at `now` (retrieval does this for what it returns). */
	touch(indices: readonly number[], now: number): void {
		for (const i of indices) this.lastAccessCol[i] = now;
	}
}

/** Min-max normalisation to [0, 1]; a flat column becomes FLAT_NORM everywhere. */
export function normalise(values: Float64Array): Float64Array {
	let min = Infinity;
	let max = -Infinity;
	for (const v of values) {
		if (v < min) min = v;
		if (v > max) max = v;
	}
	const out = new Float64Array(values.length);
	const range = max - min;
	if (!(range > 0)) {
		out.fill(FLAT_NORM);
		return out;
	}
	for (let i = 0; i < values.length; i++) out[i] = (values[i] - min) / range;
	return out;
}

/**
 * Positions of the k best scores, best first: by score, ties broken by the higher memory index
 * (the newer memory), so the order never depends on sort stability. `indexOf` maps a position to
 * its memory index. One pass with a small sorted buffer: no full sort of large streams.
 */
export function selectTop(scores: ArrayLike<number>, k: number, indexOf: (pos: number) => number): number[] {
	const best: number[] = [];
	if (k <= 0) return best;
	const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && indexOf(a) > indexOf(b));
	for (let p = 0; p < scores.length; p++) {
		if (best.length === k && !better(p, best[k - 1])) continue;
		let at = best.length < k ? best.length : k - 1;
		if (best.length < k) best.push(p);
		while (at > 0 && better(p, best[at - 1])) {
			best[at] = best[at - 1];
			at--;
		}
		best[at] = p;
	}
	return best;
}

/** Positions of the k best rows of a score table, with the same order as `selectTop`. */
export function topK(rows: readonly ScoreRow[], k: number): number[] {
	return selectTop(
		rows.map((r) => r.score),
		k,
		(p) => rows[p].index
	);
}

export function sameWeights(a: RetrievalWeights, b: RetrievalWeights): boolean {
	return a.recency === b.recency && a.importance === b.importance && a.relevance === b.relevance;
}

/** Dot product of a stored vector (at `base` in `vectors`) with the query, unrolled by four. */
function dot(vectors: Float32Array, base: number, query: Float32Array, dim: number): number {
	let a = 0;
	let b = 0;
	let c = 0;
	let d = 0;
	let k = 0;
	for (; k + 3 < dim; k += 4) {
		a += vectors[base + k] * query[k];
		b += vectors[base + k + 1] * query[k + 1];
		c += vectors[base + k + 2] * query[k + 2];
		d += vectors[base + k + 3] * query[k + 3];
	}
	for (; k < dim; k++) a += vectors[base + k] * query[k];
	return a + b + c + d;
}
