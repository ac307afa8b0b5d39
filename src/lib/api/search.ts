// Shapes of a run's search (GET /api/runs/:id/search, `simulacra search`), shared by server and browser.

import type { MemoryKind } from '../engine/memory';
import { AGENT_NAME, openFields, optional, queryWholeNumber, text, v } from './schema';

/** What a result is: a memory, a model call, or a line of a conversation. */
export type SearchKind = 'memory' | 'call' | 'conversation';

/**
 * One result. `step` is the step that made it (a memory's, a call's, or the step its
 * conversation was committed at): the state after `step + 1` steps holds it.
 */
export interface SearchResult {
	/** the agent it belongs to: a memory's, the caller, the speaker ('' for none) */
	agent: string;
	kind: SearchKind;
	/** a memory id, a call key (`step/agent/n`), or `<conversation id>#<line>` */
	id: string;
	step: number;
	/** the memory, the line, or the part of the call's prompt and answer around the query */
	text: string;
	/** reciprocal-rank fusion of the lists that found it (higher first) */
	score: number;
	/** found by meaning (vector search), by words (full text), or both */
	matched: ('meaning' | 'words')[];
	memoryKind?: MemoryKind;
	importance?: number;
	/** a call's template */
	template?: string;
	/** a line's listener */
	with?: string;
	/** the run of the lineage whose journal holds a call or line (a fork's ancestor for earlier steps) */
	run?: string;
}

/** GET /api/runs/:id/search?q=&agent=&kind=&limit= -> SearchAnswer */
export interface SearchAnswer {
	run: string;
	query: string;
	results: SearchResult[];
	/** wall time of the search, indexes brought up to date included */
	ms: number;
	/** the indexes searched: made or extended by this search when `created` / `added` */
	indexes: {
		memories: { created: boolean; ms: number; bytes: number; indexedRows: number; unindexedRows: number };
		texts: { run: string; added: number; ms: number; rows: number; bytes: number }[];
	};
	/** e.g. memories searched by words only when the run's embedder cannot be made */
	warnings?: string[];
}

/** The most results a search answers, and the longest query. */
export const MAX_SEARCH_LIMIT = 200;
export const MAX_SEARCH_QUERY = 500;

/**
 * GET /api/runs/:id/search query: ?q=TEXT&agent=ID|NAME&kind=memory,call,conversation|MEMORY_KIND&limit=N.
 * `kind` is read by the searcher (`parseKinds`, which names the kinds); other parameters are left alone.
 */
export const SearchQuerySchema = openFields(
	{
		q: text({ max: MAX_SEARCH_QUERY }),
		agent: optional(text({ max: 100, pattern: AGENT_NAME, what: 'an agent id or name' })),
		kind: optional(text({ max: 500 })),
		limit: optional(queryWholeNumber({ min: 1, max: MAX_SEARCH_LIMIT }))
	},
	'query ?q=TEXT&agent=&kind=&limit='
);
export type SearchQuery = v.InferOutput<typeof SearchQuerySchema>;
