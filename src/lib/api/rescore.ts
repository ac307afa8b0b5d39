// Shapes of re-scoring a run's retrievals under a grid of weightings and decays
// (GET /api/runs/:id/rescore; src/lib/server/rescore/), shared by the server, the CLI and the
// re-scoring page.

import type { RetrievalWeights } from '../engine/types';
import { AGENT_NAME, openFields, optional, queryWholeNumber, text, v } from './schema';

/** A weighting of the grid; null stands for each retrieval's own recorded weights. */
export type GridWeights = RetrievalWeights | null;
/** A decay of the grid; null stands for each retrieval's own recorded decay. */
export type GridDecay = number | null;

export interface Tally {
	retrievals: number;
	changed: number;
}

export interface MemoryMove {
	id: string;
	agent: string;
	description: string;
	/** retrievals it entered (or left) the top k of */
	count: number;
}

export interface RescoreCell {
	/** null: each retrieval's own recorded weights */
	weights: GridWeights;
	/** null: each retrieval's own recorded decay */
	decay: GridDecay;
	retrievals: number;
	/** retrievals whose top k (as a set) differs from the recorded selection */
	changed: number;
	/** retrievals with the same memories in another order */
	reordered: number;
	byAgent: Record<string, Tally>;
	byPurpose: Record<string, Tally>;
	/** memories that entered top ks the most, most first */
	entered: MemoryMove[];
	/** memories that left top ks the most, most first */
	left: MemoryMove[];
}

export interface RescoreReport {
	run: string;
	/** retrievals re-scored in each cell */
	retrievals: number;
	skipped: number;
	mismatched: number;
	agents: string[];
	purposes: string[];
	cells: RescoreCell[];
	/** wall time: reading traces and memories, embedding the queries, scoring */
	ms: { load: number; embed: number; score: number };
}

/**
 * GET /api/runs/:id/rescore query: the grid, as weightings (`weights=R,I,V`, repeated; `run`
 * for the run's own) or values per component (`recency=0,1,2&importance=1&relevance=0,1,3`,
 * every combination), decays (`decay=0.99`, repeated or comma-separated; `run`), and `agent`,
 * `purpose`, `from`, `to` (steps) and `top` (memories listed per cell). The grid's values are
 * read by the grid's parser (server/rescore/grid.ts), which names each one it refuses.
 */
export const RescoreQuerySchema = openFields(
	{
		weights: optional(v.array(text({ max: 200 }))),
		decay: optional(v.array(text({ max: 200 }))),
		recency: optional(text({ max: 500 })),
		importance: optional(text({ max: 500 })),
		relevance: optional(text({ max: 500 })),
		agent: optional(text({ max: 100, pattern: AGENT_NAME, what: 'an agent id or name' })),
		purpose: optional(text({ max: 100 })),
		from: optional(queryWholeNumber({ max: 1e9 })),
		to: optional(queryWholeNumber({ max: 1e9 })),
		top: optional(queryWholeNumber({ max: 100 }))
	},
	'query'
);
export type RescoreQuery = v.InferOutput<typeof RescoreQuerySchema>;
