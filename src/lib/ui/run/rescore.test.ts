import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM, heat, heatMaps, ranked, rescoreQuery, share, type RescoreCell } from './rescore';

function cell(recency: number, importance: number, relevance: number, decay: number | null, changed: number): RescoreCell {
	return { weights: { recency, importance, relevance }, decay, retrievals: 10, changed, reordered: 0, byAgent: {}, byPurpose: {}, entered: [], left: [] };
}

describe('re-scoring page helpers', () => {
	it('builds the query string of a grid', () => {
		const q = new URLSearchParams(rescoreQuery({ ...DEFAULT_FORM, recency: '0, 1,1', decay: '0.99,0.9', agent: 'Klaus Mueller' }));
		expect(q.get('recency')).toBe('0,1');
		expect(q.getAll('decay')).toEqual(['0.99', '0.9']);
		expect(q.get('agent')).toBe('Klaus Mueller');
		expect(q.has('purpose')).toBe(false);
	});

	it('lays cells out as one heat map per recency weight and decay, importance down and relevance across', () => {
		const cells = [cell(0, 0, 0, null, 1), cell(0, 0, 1, null, 2), cell(0, 1, 0, null, 3), cell(0, 1, 1, null, 4), cell(1, 0, 0, null, 5), cell(0, 0, 0, 0.9, 6)];
		const maps = heatMaps({ cells: [{ ...cells[0], weights: null }, ...cells] });
		expect(maps.map((m) => [m.recency, m.decay])).toEqual([[0, null], [1, null], [0, 0.9]]);
		expect(maps[0].importance).toEqual([0, 1]);
		expect(maps[0].relevance).toEqual([0, 1]);
		expect(maps[0].cells.map((row) => row.map((c) => c?.changed))).toEqual([[1, 2], [3, 4]]);
		expect(maps[1].cells).toEqual([[cells[4]]]);
		expect(share(cells[3])).toBe(0.4);
		expect(share({ changed: 0, retrievals: 0 })).toBe(0);
		expect(heat(0.4)).toContain('40%');
		expect(heat(7)).toContain('100%');
	});

	it('ranks tallies by changed retrievals', () => {
		expect(ranked({ b: { retrievals: 3, changed: 1 }, a: { retrievals: 5, changed: 1 }, c: { retrievals: 2, changed: 2 } }).map((t) => t.key)).toEqual(['c', 'a', 'b']);
	});
});
