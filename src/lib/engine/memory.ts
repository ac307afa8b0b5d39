// The memory stream of one agent and retrieval by recency, importance and relevance.
// Vectors live in one contiguous table (a WebAssembly memory scanned by a SIMD kernel where the
// runtime has one, see simd.ts) and the numeric columns in typed arrays, so a retrieval is a
// linear scan without an object per memory.

import { HOUR } from './clock';
import { VectorTable, type VectorBackend } from './simd';
import type { RetrievalSettings, RetrievalWeights } from './types';

export type MemoryKind = 'observation' | 'reflection' | 'plan' | 'conversation' | 'thought';
export const MEMORY_KINDS: readonly MemoryKind[] = [
	'observation',
	'reflection',
	'plan',
	'conversation',
	'thought'
];

/**
 * Where a memory came from (its provenance), which decides what an ablation condition hides:
 * `seed` persona and scenario seeds; `observed` perceived events and the agent's own actions;
 * `conversation` what was heard in a conversation, with the notes taken from it; `planned`
 * plans and re-plans; `reflected` reflections; `inner-voice` a user's inner voice and the
 * thought it produced; `interview` an interview the agent remembers.
 */
export type MemorySource = 'seed' | 'observed' | 'conversation' | 'planned' | 'reflected' | 'inner-voice' | 'interview';
export const MEMORY_SOURCES: readonly MemorySource[] = ['seed', 'observed', 'conversation', 'planned', 'reflected', 'inner-voice', 'interview'];

/** The source a memory of this kind has when nothing else is known (thoughts need `sourceOf`). */
export const SOURCE_OF_KIND: Readonly<Record<Exclude<MemoryKind, 'thought'>, MemorySource>> = {
	observation: 'observed',
	reflection: 'reflected',
	plan: 'planned',
	conversation: 'conversation'
};

/**
 * The source of a memory stored before memories recorded theirs: from its kind, and for a
 * thought from what it holds: a note taken after a conversation names the other party, a
 * thought stored at step 0 is a seed, any other thought came from an inner voice.
 */
export function sourceOf(m: Pick<MemoryRecord, 'kind' | 'with' | 'step'>): MemorySource {
	if (m.kind !== 'thought') return SOURCE_OF_KIND[m.kind] ?? 'observed';
	if (m.with !== undefined) return 'conversation';
	return m.step === 0 ? 'seed' : 'inner-voice';
}

/** The sources an ablation condition hides from retrieval. */
export function hiddenSources(ablation: { reflection: boolean; planning: boolean; observation: boolean }): MemorySource[] {
	const hidden: MemorySource[] = [];
	if (ablation.reflection) hidden.push('reflected');
	if (ablation.planning) hidden.push('planned');
	// without observation the agent has heard nothing either: no conversations, no interviews
	if (ablation.observation) hidden.push('observed', 'conversation', 'interview');
	return hidden;
}

/**
 * Which memories of a stream a set of hidden sources hides: those of a hidden source, and
 * those derived only from hidden memories (a reflection whose cited evidence is all hidden).
 * Evidence always cites earlier memories, so one pass in stream order decides each.
 */
export function hiddenMask(records: readonly MemoryRecord[], hidden: readonly MemorySource[], from = 0, mask?: Uint8Array): Uint8Array {
	const out = mask && mask.length >= records.length ? mask : growMask(mask, records.length);
	const byId = new Map<string, number>();
	const indexOf = (id: string): number | undefined => {
		const slash = id.lastIndexOf('/m');
		const i = Number(id.slice(slash + 2));
		if (Number.isInteger(i) && records[i]?.id === id) return i;
		if (byId.size === 0) records.forEach((r, k) => byId.set(r.id, k));
		return byId.get(id);
	};
	for (let i = from; i < records.length; i++) {
		const r = records[i];
		let hide = hidden.includes(r.source);
		if (!hide && r.evidence && r.evidence.length > 0) {
			hide = r.evidence.every((id) => {
				const k = indexOf(id);
				return k !== undefined && k < i && out[k] === 1;
			});
		}
		out[i] = hide ? 1 : 0;
	}
	return out;
}

function growMask(mask: Uint8Array | undefined, n: number): Uint8Array {
	const next = new Uint8Array(Math.max(n, 16, (mask?.length ?? 0) * 2));
	if (mask) next.set(mask);
	return next;
}

/** The immutable part of a memory: written once to the run's memory log. */
export interface MemoryRecord {
	id: string;
	agent: string;
	/** position in the agent's stream, 0-based */
	index: number;
	kind: MemoryKind;
	/** where it came from (see MemorySource) */
	source: MemorySource;
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
	private readonly vectors: VectorTable;
	private lastAccessCol: Float64Array;
	private importanceCol: Float32Array;

	/**
	 * `backend` picks the dot-product kernel: WebAssembly SIMD where the runtime supports it,
	 * else plain JavaScript. Both give the same scores, bit for bit.
	 */
	constructor(
		readonly agent: string,
		readonly dimensions: number,
		capacity = 256,
		backend?: VectorBackend
	) {
		this.vectors = new VectorTable(dimensions, capacity, backend, `memory stream of ${agent}`);
		this.lastAccessCol = new Float64Array(this.vectors.capacity);
		this.importanceCol = new Float32Array(this.vectors.capacity);
	}

	/** Which kernel scores this stream. */
	get backend(): VectorBackend {
		return this.vectors.backend;
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

	/** Appends a memory; without a `source` (a record stored before sources were), it is derived by `sourceOf`. */
	add(record: Omit<MemoryRecord, 'index' | 'id' | 'agent' | 'source'> & { id?: string; source?: MemorySource }): MemoryRecord {
		const index = this.size;
		const full: MemoryRecord = {
			...record,
			id: record.id ?? `${this.agent}/m${index}`,
			agent: this.agent,
			index,
			source: record.source ?? sourceOf({ kind: record.kind, with: record.with, step: record.step })
		};
		if (full.embedding.length !== this.dimensions) {
			throw new Error(`memory of ${this.agent}: embedding has ${full.embedding.length} dimensions, expected ${this.dimensions}`);
		}
		// Growing replaces the table's buffer, which would empty a view into it: copy such a source first.
		const source = index >= this.vectors.capacity && this.vectors.holds(full.embedding) ? full.embedding.slice() : full.embedding;
		this.ensureCapacity(index + 1);
		this.vectors.set(index, source);
		// The stored record shares the table's memory rather than keeping a second copy.
		full.embedding = this.vectors.row(index);
		this.lastAccessCol[index] = full.created;
		this.importanceCol[index] = full.importance;
		this.records.push(full);
		return full;
	}

	/** Grows the columns; re-attaches the embedding views when the vector table moved. */
	private ensureCapacity(n: number): void {
		if (n <= this.lastAccessCol.length) return;
		this.vectors.reserve(n);
		const next = this.vectors.capacity;
		const access = new Float64Array(next);
		access.set(this.lastAccessCol);
		this.lastAccessCol = access;
		const imp = new Float32Array(next);
		imp.set(this.importanceCol);
		this.importanceCol = imp;
		const records = this.records;
		for (let i = 0; i < records.length; i++) records[i].embedding = this.vectors.row(i);
	}

	/** A copy with the same memories (the first `size`) and access times, to add foreseen memories to (work ahead). */
	copy(size = this.size): MemoryStream {
		const n = Math.min(size, this.size);
		const c = new MemoryStream(this.agent, this.dimensions, Math.max(256, n + 64), this.backend);
		for (let i = 0; i < n; i++) c.add(this.records[i]);
		c.setLastAccess(this.lastAccessCol.subarray(0, n));
		return c;
	}

	byId(id: string): MemoryRecord | undefined {
		const slash = id.lastIndexOf('/m');
		const index = Number(id.slice(slash + 2));
		const rec = this.records[index];
		return rec && rec.id === id ? rec : undefined;
	}

	/**
	 * The n most recent memories, oldest first, optionally excluding some: memories of the given
	 * kinds, or those a mask (as from `hiddenMask`) marks with 1; null excludes none.
	 */
	recent(n: number, exclude: readonly MemoryKind[] | Uint8Array | null = []): MemoryRecord[] {
		const out: MemoryRecord[] = [];
		const mask = exclude instanceof Uint8Array ? exclude : null;
		const kinds = mask || !exclude ? [] : (exclude as readonly MemoryKind[]);
		for (let i = this.size - 1; i >= 0 && out.length < n; i--) {
			if (mask ? mask[i] !== 1 : !kinds.includes(this.records[i].kind)) out.push(this.records[i]);
		}
		return out.reverse();
	}

	/**
	 * The three raw components and the weighted score of each candidate (indices; all memories
	 * when omitted) for a query vector at game time `now`, as columns. Pure: does not touch
	 * last-access times. `lastAccessOf` overrides the stored column (to reproduce a past retrieval).
	 * Relevance is the dot product from the vector kernel (f32, a fixed order of operations).
	 */
	columns(
		query: Float32Array,
		now: number,
		settings: Pick<RetrievalSettings, 'weights' | 'decay'>,
		candidates?: ArrayLike<number>,
		lastAccessOf?: (index: number) => number
	): ScoreColumns {
		if (query.length !== this.dimensions) {
			throw new Error(`memory stream of ${this.agent}: the query has ${query.length} dimensions, expected ${this.dimensions}`);
		}
		const size = this.size;
		const n = candidates ? candidates.length : size;
		const recency = new Float64Array(n);
		const importance = new Float64Array(n);
		const relevance = new Float64Array(n);
		const logDecay = Math.log(settings.decay);
		const access = this.lastAccessCol;
		const imp = this.importanceCol;
		// Recency and importance of each candidate. Loops are specialised (no per-row branching on
		// the optional arguments); the fast path, every memory with stored access times, calls nothing.
		if (candidates) {
			for (let c = 0; c < n; c++) {
				const i = candidates[c];
				if (!(i >= 0 && i < size && Number.isInteger(i))) {
					throw new Error(`memory stream of ${this.agent}: candidate ${i} (at position ${c}) is not one of its ${size} memories`);
				}
				recency[c] = recencyAt(now, lastAccessOf ? lastAccessOf(i) : access[i], logDecay);
				importance[c] = imp[i];
			}
			this.vectors.dotsAt(query, candidates, relevance);
		} else {
			if (lastAccessOf) for (let i = 0; i < n; i++) recency[i] = recencyAt(now, lastAccessOf(i), logDecay);
			else for (let i = 0; i < n; i++) recency[i] = recencyAt(now, access[i], logDecay);
			importance.set(imp.subarray(0, n));
			this.vectors.dots(query, n, relevance);
		}
		// Min-max normalisation (as `normalise`) and the weighted sum in one pass.
		const [recMin, recRange] = spread(recency);
		const [impMin, impRange] = spread(importance);
		const [relMin, relRange] = spread(relevance);
		const recencyNorm = new Float64Array(n);
		const importanceNorm = new Float64Array(n);
		const relevanceNorm = new Float64Array(n);
		const score = new Float64Array(n);
		const wr = settings.weights.recency;
		const wi = settings.weights.importance;
		const wv = settings.weights.relevance;
		const recFlat = !(recRange > 0);
		const impFlat = !(impRange > 0);
		const relFlat = !(relRange > 0);
		for (let c = 0; c < n; c++) {
			const r = recFlat ? FLAT_NORM : (recency[c] - recMin) / recRange;
			const m = impFlat ? FLAT_NORM : (importance[c] - impMin) / impRange;
			const v = relFlat ? FLAT_NORM : (relevance[c] - relMin) / relRange;
			recencyNorm[c] = r;
			importanceNorm[c] = m;
			relevanceNorm[c] = v;
			score[c] = wr * r + wi * m + wv * v;
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
	const [min, range] = spread(values);
	const out = new Float64Array(values.length);
	if (!(range > 0)) {
		out.fill(FLAT_NORM);
		return out;
	}
	for (let i = 0; i < values.length; i++) out[i] = (values[i] - min) / range;
	return out;
}

/** [min, max - min] of a column (NaN entries are skipped). */
function spread(values: Float64Array): [number, number] {
	let min = Infinity;
	let max = -Infinity;
	for (let i = 0; i < values.length; i++) {
		const v = values[i];
		if (v < min) min = v;
		if (v > max) max = v;
	}
	return [min, max - min];
}

/** decay^hours since the last access (no growth for an access in the future). */
function recencyAt(now: number, last: number, logDecay: number): number {
	const hours = now > last ? (now - last) / HOUR : 0;
	return Math.exp(logDecay * hours);
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
