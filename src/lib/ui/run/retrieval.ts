// The retrieval score table as the inspector shows it: sorting, each term's weighted share of
// the score, and the comparison with a re-scoring under other weights.

import type { RetrievalWeights } from '$lib/api/types';
import type { RetrievalTable, TableRow } from '$lib/api/traces';

export type SortKey = 'rank' | 'description' | 'kind' | 'created' | 'lastAccess' | 'recency' | 'importance' | 'relevance' | 'score';

export interface SortOrder {
	key: SortKey;
	dir: 'asc' | 'desc';
}

/** Higher is better for scores; earlier is first for the rank (0 = not selected goes last). */
export const DEFAULT_SORT: SortOrder = { key: 'score', dir: 'desc' };

function value(row: TableRow, key: SortKey): number | string {
	switch (key) {
		case 'rank':
			return row.rank === 0 ? Number.POSITIVE_INFINITY : row.rank;
		case 'description':
			return row.description.toLowerCase();
		case 'kind':
			return row.kind;
		default:
			return row[key];
	}
}

export function sortRows(rows: readonly TableRow[], order: SortOrder): TableRow[] {
	const sign = order.dir === 'asc' ? 1 : -1;
	return [...rows].sort((a, b) => {
		const va = value(a, order.key);
		const vb = value(b, order.key);
		if (va < vb) return -sign;
		if (va > vb) return sign;
		// ties: the better score first, then the retrieval's own rank (so tied rows never read
		// rank 9 above rank 8), then the newer memory, so the order is stable
		const ra = a.rank > 0 ? a.rank : Infinity;
		const rb = b.rank > 0 ? b.rank : Infinity;
		return b.score - a.score || (ra === rb ? 0 : ra < rb ? -1 : 1) || b.created - a.created || (a.id < b.id ? -1 : 1);
	});
}

/** Clicking a header: a new column starts with its natural direction, the same one flips. */
export function nextSort(current: SortOrder, key: SortKey): SortOrder {
	if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
	const ascending: SortKey[] = ['rank', 'description', 'kind'];
	return { key, dir: ascending.includes(key) ? 'asc' : 'desc' };
}

export interface Shares {
	recency: number;
	importance: number;
	relevance: number;
}

/**
 * Each term's weighted contribution (weight x normalised value) as a fraction of the largest
 * possible score (the sum of the weights), so bars of different rows compare directly.
 */
export function shares(row: TableRow, w: RetrievalWeights): Shares {
	const total = w.recency + w.importance + w.relevance;
	if (total <= 0) return { recency: 0, importance: 0, relevance: 0 };
	return {
		recency: (w.recency * row.recencyNorm) / total,
		importance: (w.importance * row.importanceNorm) / total,
		relevance: (w.relevance * row.relevanceNorm) / total
	};
}

export interface Rescored {
	score: number;
	rank: number;
}

/** Rows of the re-scored table by memory id, and how the top-k changed. */
export function compareTables(
	base: RetrievalTable,
	other: RetrievalTable
): { byId: Map<string, Rescored>; entered: string[]; left: string[] } {
	const byId = new Map(other.candidates.map((r) => [r.id, { score: r.score, rank: r.rank }]));
	const before = new Set(base.selected);
	const after = new Set(other.selected);
	return {
		byId,
		entered: other.selected.filter((id) => !before.has(id)),
		left: base.selected.filter((id) => !after.has(id))
	};
}

export function sameWeights(a: RetrievalWeights, b: RetrievalWeights): boolean {
	return a.recency === b.recency && a.importance === b.importance && a.relevance === b.relevance;
}

/** The terms whose raw value is the same for every candidate (each then normalises to 0.5). */
export function flatTerms(rows: readonly TableRow[]): ('recency' | 'importance' | 'relevance')[] {
	if (rows.length < 2) return [];
	return (['recency', 'importance', 'relevance'] as const).filter((k) => rows.every((r) => r[k] === rows[0][k]));
}
