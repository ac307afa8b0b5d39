// Shapes of the retrieval inspector's API (GET /api/runs/:id/retrievals[/:trace]): a recorded
// retrieval, and its score table rebuilt from the trace and the memory store
// (src/lib/server/run/traces.ts), shared by the server, the CLI and the browser.

import type { ScoreRow } from '../engine/memory';
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

export interface TableRow extends Omit<ScoreRow, 'index'> {
	kind: string;
	description: string;
	created: number;
	lastAccess: number;
	/** 1-based rank among the selected, 0 when not selected */
	rank: number;
}

export interface RetrievalTable extends Omit<TraceSummary, 'candidates'> {
	weights: RetrievalTrace['weights'];
	decay: number;
	k: number;
	candidates: TableRow[];
	/** the rebuilt top-k equals the selection the run recorded */
	matchesRecord: boolean;
}
