// Shapes of re-scoring a run's retrievals under a grid of weightings and decays
// (GET /api/runs/:id/rescore; src/lib/server/rescore/), shared by the server, the CLI and the
// re-scoring page.

import type { RetrievalWeights } from '../engine/types';

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
