// Shapes of the retrieval inspector's API (GET /api/runs/:id/retrievals[/:trace]): a recorded
// retrieval, and its score table rebuilt from the trace and the memory store
// (src/lib/server/run/traces.ts), shared by the server, the CLI and the browser.

import type { RetrievalTrace } from '../engine/state';

export interface TraceSummary {
	id: string;
	run: string;
	agent: string;
	step: number;
	time: number;
	purpose: string;
	query: string;
	candidates: number;
	selected: string[];
}

export interface TableRow {
	id: string;
	kind: string;
	description: string;
	created: number;
	lastAccess: number;
	recency: number;
	importance: number;
	relevance: number;
	recencyNorm: number;
	importanceNorm: number;
	relevanceNorm: number;
	score: number;
	/** 1-based rank among the selected, 0 when not selected */
	rank: number;
}

export interface RetrievalTable {
	id: string;
	run: string;
	agent: string;
	step: number;
	time: number;
	purpose: string;
	query: string;
	weights: RetrievalTrace['weights'];
	decay: number;
	k: number;
	candidates: TableRow[];
	selected: string[];
	/** the rebuilt top-k equals the selection the run recorded */
	matchesRecord: boolean;
}
