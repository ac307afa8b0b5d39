import { describe, expect, it } from 'vitest';
import type { RetrievalTable, TableRow } from '$lib/api/traces';
import { compareTables, flatTerms, nextSort, shares, sortRows } from './retrieval';

function row(id: string, score: number, rank: number, extra: Partial<TableRow> = {}): TableRow {
	return {
		id,
		kind: 'observation',
		description: id,
		created: 0,
		lastAccess: 0,
		recency: 0,
		importance: 0,
		relevance: 0,
		recencyNorm: 0,
		importanceNorm: 0,
		relevanceNorm: 0,
		score,
		rank,
		...extra
	};
}

describe('retrieval table view', () => {
	const rows = [row('a', 1.2, 2), row('b', 2.5, 1), row('c', 0.3, 0)];

	it('sorts by score, by rank with unselected last, and flips on a second click', () => {
		expect(sortRows(rows, { key: 'score', dir: 'desc' }).map((r) => r.id)).toEqual(['b', 'a', 'c']);
		expect(sortRows(rows, { key: 'rank', dir: 'asc' }).map((r) => r.id)).toEqual(['b', 'a', 'c']);
		expect(nextSort({ key: 'score', dir: 'desc' }, 'score')).toEqual({ key: 'score', dir: 'asc' });
		expect(nextSort({ key: 'score', dir: 'desc' }, 'rank')).toEqual({ key: 'rank', dir: 'asc' });
		expect(nextSort({ key: 'rank', dir: 'asc' }, 'relevance')).toEqual({ key: 'relevance', dir: 'desc' });
	});

	it('splits a score into weighted shares of the largest possible score', () => {
		const r = row('x', 0, 0, { recencyNorm: 1, importanceNorm: 0.5, relevanceNorm: 0 });
		const s = shares(r, { recency: 1, importance: 2, relevance: 1 });
		expect(s.recency).toBeCloseTo(0.25);
		expect(s.importance).toBeCloseTo(0.25);
		expect(s.relevance).toBe(0);
	});

	it('tells which memories enter and leave the top-k under new weights', () => {
		const base = { candidates: rows, selected: ['b', 'a'] } as unknown as RetrievalTable;
		const other = { candidates: [row('a', 0.1, 0), row('b', 3, 1), row('c', 2, 2)], selected: ['b', 'c'] } as unknown as RetrievalTable;
		const cmp = compareTables(base, other);
		expect(cmp.entered).toEqual(['c']);
		expect(cmp.left).toEqual(['a']);
		expect(cmp.byId.get('c')).toEqual({ score: 2, rank: 2 });
	});

	it('keeps tied scores in the order of their rank (rank 8 above rank 9), newer first among the rest', () => {
		const tied = [row('old8', 1, 8, { created: 1 }), row('new9', 1, 9, { created: 5 }), row('out', 1, 0, { created: 9 })];
		expect(sortRows(tied, { key: 'score', dir: 'desc' }).map((r) => r.id)).toEqual(['old8', 'new9', 'out']);
	});

	it('names the terms whose raw values are all equal', () => {
		const same = [row('a', 1, 1, { importance: 4, relevance: 0.2 }), row('b', 1, 2, { importance: 4, relevance: 0.5 })];
		expect(flatTerms(same)).toEqual(['recency', 'importance']);
		expect(flatTerms([row('a', 1, 1)])).toEqual([]);
	});
});
