// Searching a run: memories of every agent by meaning (the run's own embedder, LanceDB vector
// search) and by words (LanceDB's full-text index over descriptions), model calls by the words
// of their prompt and answer and conversations by line (the run's text index, ./text-index.ts),
// in one ranked list.
//
// The four lists (memories by meaning, memories by words, calls, lines) score on scales that
// cannot be compared (cosine similarity, BM25 over texts of different lengths), so they are
// fused by reciprocal rank (RRF, k = 60): first a memory's two ranks, summed as 1 / (60 + rank)
// (a memory found by meaning and by words comes first among memories), then the three kinds'
// rankings, so the best memory, line and call lead the list and the kinds interleave by rank.
//
// A fork's memory table holds the memories it inherited; its calls and lines before the fork
// step are in its ancestors' journals, so each run of the lineage has its own text index and
// gives the steps it holds for the fork.

import { MEMORY_KINDS, type MemoryKind } from '../../engine/memory';
import type { SearchAnswer, SearchKind, SearchResult } from '../../api/search';
import { MemoryStore, type MemoryHit } from '../memory/lance-store';
import { languageModelProvider, OfflineProvider } from '../model';
import { dataHome } from '../paths';
import { openRun, runLineage } from '../store/store';
import type { RunReader } from '../journal/journal';
import { TextIndex, type TextHit, type TextKind } from './text-index';
import { InvalidError, NotFoundError } from '../errors';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY } from '../../api/search';

/** Reciprocal-rank constant (the usual 60: ranks far down a list count little). */
export const RRF_K = 60;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = MAX_SEARCH_LIMIT;
export const MAX_QUERY = MAX_SEARCH_QUERY;

/** What a search takes: result kinds and memory kinds (`memory` = every memory kind). */
export interface SearchFilter {
	/** which kinds of results (default: all three) */
	kinds: Set<SearchKind>;
	/** which memory kinds, when memories are searched (null: all) */
	memoryKinds: MemoryKind[] | null;
}

/**
 * `--kind` / `?kind=`: a comma list of `memory`, `call`, `conversation` (conversation lines),
 * or a memory kind (`observation`, `reflection`, `plan`, `thought`; `memory:conversation` for
 * the memories conversations left).
 */
export function parseKinds(text: string | undefined | null): SearchFilter {
	const parts = (text ?? '')
		.split(',')
		.map((p) => p.trim().toLowerCase())
		.filter(Boolean);
	if (parts.length === 0) return { kinds: new Set(['memory', 'call', 'conversation']), memoryKinds: null };
	const kinds = new Set<SearchKind>();
	const memoryKinds = new Set<MemoryKind>();
	let allMemories = false;
	for (const p of parts) {
		const memoryKind = p.startsWith('memory:') ? p.slice('memory:'.length) : p === 'conversation' ? null : p;
		if (p === 'memory' || p === 'memories') {
			kinds.add('memory');
			allMemories = true;
		} else if (p === 'call' || p === 'calls') kinds.add('call');
		else if (p === 'conversation' || p === 'conversations' || p === 'line' || p === 'lines') kinds.add('conversation');
		else if (memoryKind && (MEMORY_KINDS as readonly string[]).includes(memoryKind)) {
			kinds.add('memory');
			memoryKinds.add(memoryKind as MemoryKind);
		} else {
			throw new SearchError(`kind "${p}" is not one of memory, call, conversation, ${MEMORY_KINDS.filter((k) => k !== 'conversation').join(', ')}, memory:conversation`);
		}
	}
	return { kinds, memoryKinds: allMemories || memoryKinds.size === 0 ? null : [...memoryKinds] };
}

/** A search that cannot be made as asked (`invalid`). */
export class SearchError extends InvalidError {}

export interface SearchOptions {
	/** an agent id (or full name, any case) */
	agent?: string;
	filter?: SearchFilter;
	limit?: number;
	home?: string;
}

/** Embeds a query as the run embeds its memories. */
export type Embed = (text: string) => Promise<Float32Array>;

/**
 * A run open for searching: its memory table, the text index of every run of its lineage and
 * its embedder. Keep one to search a run many times (the IDE); `close` when done.
 */
export class RunSearcher {
	private texts = new Map<string, TextIndex>();

	private constructor(
		readonly id: string,
		readonly home: string,
		private readonly reader: RunReader,
		private readonly memories: MemoryStore,
		private readonly embed: Embed | null,
		private readonly embedProblem: string | null
	) {}

	static async open(id: string, opts: { home?: string; embed?: Embed } = {}): Promise<RunSearcher> {
		const home = opts.home ?? dataHome();
		const reader = openRun(id, home);
		const memories = await MemoryStore.open(reader.dir, reader.meta.dimensions);
		let embed = opts.embed ?? null;
		let problem: string | null = null;
		if (!embed) {
			try {
				// the provider's embedder alone (a gateway would also load the prompt set, which a search does not need)
				const provider = reader.meta.model.provider === 'offline' ? new OfflineProvider() : languageModelProvider(process.env);
				embed = async (text) => {
					const [v] = await provider.embed([text]);
					if (!v || v.length !== reader.meta.dimensions) throw new Error(`the run's embedder gives ${v?.length ?? 0} dimensions, its memories have ${reader.meta.dimensions}`);
					return v;
				};
			} catch (e) {
				// words still work without the embedder (a run made with an endpoint not configured now)
				problem = `memories are searched by words only: the run's embedder cannot be made (${e instanceof Error ? e.message : String(e)})`;
			}
		}
		return new RunSearcher(id, home, reader, memories, embed, problem);
	}

	/** Builds what is missing: the memory table's full-text index, each lineage run's text index up to its committed steps. */
	async ensureIndexes(): Promise<SearchAnswer['indexes']> {
		const memory = await this.memories.ensureTextIndex();
		const texts: SearchAnswer['indexes']['texts'] = [];
		for (const span of runLineage(this.id, { home: this.home })) {
			const index = await this.textIndex(span.run);
			const { added, ms } = await index.update(span.run === this.id ? this.reader : openRun(span.run, this.home));
			const s = index.stats();
			texts.push({ run: span.run, added, ms: round(ms), rows: s.rows, bytes: s.bytes });
		}
		return {
			memories: { created: memory.created, ms: round(memory.ms), bytes: memory.bytes, indexedRows: memory.indexedRows, unindexedRows: memory.unindexedRows },
			texts
		};
	}

	async search(query: string, opts: Omit<SearchOptions, 'home'> = {}): Promise<SearchAnswer> {
		const t0 = performance.now();
		const q = query.trim();
		if (!q) throw new SearchError('the query is empty');
		if (q.length > MAX_QUERY) throw new SearchError(`the query is longer than ${MAX_QUERY} characters`);
		const limit = opts.limit ?? DEFAULT_LIMIT;
		if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new SearchError(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
		const filter = opts.filter ?? parseKinds(undefined);
		const agent = opts.agent === undefined ? undefined : this.agentId(opts.agent);
		const indexes = await this.ensureIndexes();
		const warnings: string[] = [];
		// each list gives more than is asked, so fusion has candidates from all of them
		const depth = Math.max(limit * 2, 20);
		const kinds: Ranked[][][] = [];
		if (filter.kinds.has('memory')) {
			const memOpts = { agent, kinds: filter.memoryKinds ?? undefined, limit: depth };
			const lists: Ranked[][] = [];
			if (this.embed) {
				const vector = await this.embed(q);
				lists.push((await this.memories.nearest(vector, memOpts)).map((h) => memoryItem(h, 'meaning')));
			} else if (this.embedProblem) warnings.push(this.embedProblem);
			lists.push((await this.memories.searchText(q, memOpts)).map((h) => memoryItem(h, 'words')));
			kinds.push(lists);
		}
		for (const kind of ['conversation', 'call'] as const) {
			if (!filter.kinds.has(kind)) continue;
			kinds.push([await this.searchTexts(q, kind, agent, depth)]);
		}
		const results = fuse(kinds, limit, q);
		return { run: this.id, query: q, results, ms: round(performance.now() - t0), indexes, ...(warnings.length ? { warnings } : {}) };
	}

	/** Calls or lines of the lineage, best first by BM25 (each run's share: its own, an ancestor's before the fork). */
	private async searchTexts(query: string, kind: TextKind, agent: string | undefined, depth: number): Promise<Ranked[]> {
		const hits: (TextHit & { run: string })[] = [];
		for (const span of runLineage(this.id, { home: this.home })) {
			const index = await this.textIndex(span.run);
			const found = await index.search(query, { agent, kinds: [kind], before: span.run === this.id ? undefined : span.to, limit: depth });
			hits.push(...found.map((h) => ({ ...h, run: span.run })));
		}
		hits.sort((a, b) => b.score - a.score || a.step - b.step);
		return hits.slice(0, depth).map((h) => textItem(h));
	}

	private async textIndex(run: string): Promise<TextIndex> {
		let index = this.texts.get(run);
		if (!index) {
			index = await TextIndex.open(run === this.id ? this.reader.dir : openRun(run, this.home).dir);
			this.texts.set(run, index);
		}
		return index;
	}

	private agentNames: Map<string, string> | null = null;

	/** Agent ids and names, from the run's first snapshot. */
	names(): Map<string, string> {
		if (!this.agentNames) {
			const first = this.reader.snapshotSteps()[0];
			const agents = first === undefined ? [] : this.reader.snapshot(first).state.agents;
			this.agentNames = new Map(agents.map((a) => [a.id, a.name]));
		}
		return this.agentNames;
	}

	private agentId(agent: string): string {
		const wanted = agent.trim().toLowerCase();
		for (const [id, name] of this.names()) if (id === wanted || name.toLowerCase() === wanted) return id;
		throw new NotFoundError(`run ${this.id} has no agent "${agent.slice(0, 80)}" (agents: ${[...this.names().keys()].join(', ')})`);
	}

	close(): void {
		for (const t of this.texts.values()) t.close();
		this.texts.clear();
		this.memories.close();
	}
}

/** One search of a run, opened and closed (the command line). */
export async function searchRun(id: string, query: string, opts: SearchOptions & { embed?: Embed } = {}): Promise<SearchAnswer> {
	const searcher = await RunSearcher.open(id, { home: opts.home, embed: opts.embed });
	try {
		return await searcher.search(query, opts);
	} finally {
		searcher.close();
	}
}

// ---------------------------------------------------------------------------
// fusion

interface Ranked {
	key: string;
	result: Omit<SearchResult, 'score' | 'matched'>;
	how: 'meaning' | 'words';
}

function memoryItem(h: MemoryHit, how: 'meaning' | 'words'): Ranked {
	return {
		key: `memory:${h.id}`,
		how,
		result: { agent: h.agent, kind: 'memory', id: h.id, step: h.step, text: h.description, memoryKind: h.kind, importance: h.importance }
	};
}

function textItem(h: TextHit & { run: string }): Ranked {
	return {
		key: `${h.kind}:${h.run}:${h.id}`,
		how: 'words',
		result: {
			agent: h.agent,
			kind: h.kind,
			id: h.id,
			step: h.step,
			text: h.text,
			run: h.run,
			...(h.template ? { template: h.template } : {}),
			...(h.with ? { with: h.with } : {})
		}
	};
}

const KIND_ORDER: Record<SearchKind, number> = { memory: 0, conversation: 1, call: 2 };

/**
 * Reciprocal-rank fusion in two stages: within a kind, its lists (memories by meaning and by
 * words) fused into one ranking; then the kinds' rankings fused, so the best of each kind
 * leads the list whichever scale its lists scored on. The `limit` best, call texts cut to the
 * part around the query.
 */
export function fuse(kinds: readonly (readonly (readonly Ranked[])[])[], limit: number, query: string): SearchResult[] {
	type Entry = { r: Ranked; score: number; matched: Set<'meaning' | 'words'> };
	const all: Entry[] = [];
	for (const lists of kinds) {
		const byKey = new Map<string, Entry>();
		for (const list of lists) {
			list.forEach((item, rank) => {
				const e = byKey.get(item.key) ?? { r: item, score: 0, matched: new Set() };
				e.score += 1 / (RRF_K + rank + 1);
				e.matched.add(item.how);
				byKey.set(item.key, e);
			});
		}
		const ranked = [...byKey.values()].sort((a, b) => b.score - a.score || byPlace(a.r, b.r));
		ranked.forEach((e, rank) => all.push({ ...e, score: 1 / (RRF_K + rank + 1) }));
	}
	return all
		.sort((a, b) => b.score - a.score || byPlace(a.r, b.r))
		.slice(0, limit)
		.map(({ r, score, matched }) => ({
			...r.result,
			text: r.result.kind === 'call' ? snippet(r.result.text, query) : r.result.text,
			score: Number(score.toFixed(6)),
			matched: [...matched].sort()
		}));
}

function byPlace(a: Ranked, b: Ranked): number {
	const x = a.result;
	const y = b.result;
	return KIND_ORDER[x.kind] - KIND_ORDER[y.kind] || x.step - y.step || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
}

const STOP = new Set(['the', 'and', 'for', 'who', 'whom', 'what', 'with', 'from', 'about', 'that', 'this', 'was', 'were', 'are', 'has', 'have', 'had', 'did', 'does']);

/** About `width` characters of `text` around the first word of the query found in it, spaces folded. */
export function snippet(text: string, query: string, width = 240): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat.length <= width) return flat;
	let at = -1;
	for (const w of query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
		if (w.length < 3 || STOP.has(w)) continue;
		// a stem-like prefix: "parties" finds "party"
		const prefix = w.length > 5 ? w.slice(0, w.length - 2) : w.length > 4 ? w.slice(0, 4) : w;
		const m = new RegExp(`(?<![\\p{L}\\p{N}])${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'iu').exec(flat);
		if (m && (at < 0 || m.index < at)) at = m.index;
	}
	if (at < 0) return flat.slice(0, width - 1) + '…';
	const start = Math.max(0, Math.min(at - Math.floor(width / 3), flat.length - width));
	const end = Math.min(flat.length, start + width);
	return (start > 0 ? '…' : '') + flat.slice(start, end).trim() + (end < flat.length ? '…' : '');
}

function round(ms: number): number {
	return Math.round(ms * 10) / 10;
}
