import { describe, expect, it } from 'vitest';
import { gridFromQuery, rescoreFromQuery } from './api';

const q = (text: string) => new URLSearchParams(text);

describe('re-scoring API query', () => {
	it('reads weightings, values per component (every combination) and decays', () => {
		expect(gridFromQuery(q('weights=1,1,1&weights=run&decay=0.9,run'))).toEqual({
			weights: [{ recency: 1, importance: 1, relevance: 1 }, null],
			decays: [0.9, null]
		});
		const grid = gridFromQuery(q('recency=0,1&importance=2&relevance=0,1,3'));
		expect(grid.weights).toHaveLength(6);
		expect(grid.weights[5]).toEqual({ recency: 1, importance: 2, relevance: 3 });
		expect(grid.decays).toEqual([null]);
		expect(gridFromQuery(q(''))).toEqual({ weights: [null], decays: [null] });
	});

	it('refuses bad grids and parameters with a message naming them', async () => {
		expect(() => gridFromQuery(q('recency=0,1&importance=1'))).toThrow(/missing: relevance/);
		expect(() => gridFromQuery(q('recency=1&importance=1&relevance=1&weights=1,1,1'))).toThrow(/not both/);
		expect(() => gridFromQuery(q('recency=a&importance=1&relevance=1'))).toThrow(/recency: "a" is not a list/);
		const many = Array.from({ length: 13 }, (_, i) => i).join(',');
		expect(() => gridFromQuery(q(`recency=${many}&importance=${many}&relevance=${many}`))).toThrow(/2197 cells is more than the 2000 allowed/);
		await expect(rescoreFromQuery('x', q('weights=1,1,1&agent=%3Cscript%3E'), '/nowhere')).rejects.toThrow(/^agent must be an agent id or name \(got "<script>"\)$/);
		await expect(rescoreFromQuery('x', q('weights=1,1,1&top=1000'), '/nowhere')).rejects.toThrow(/^top must be between 0 and 100, not 1000$/);
	});
});
