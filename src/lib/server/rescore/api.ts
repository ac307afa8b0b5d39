// The re-scoring API: `GET /api/runs/<id>/rescore` with the grid in the query string, either
// as weightings (`weights=R,I,V`, repeated; `run` for the run's own) or as values per component
// (`recency=0,1,2&importance=1&relevance=0,1,3`, every combination), and decays
// (`decay=0.99`, repeated or comma-separated; `run` for the run's own). Optional `agent`,
// `purpose`, `from`, `to` (steps) and `top` (memories listed per cell): RescoreQuerySchema.

import { checkSize, parseDecay, parseGrid, parseValues, weightProduct, type Grid } from './grid';
import { rescoreRun } from './run';
import { RescoreQuerySchema, type RescoreReport } from '../../api/rescore';
import { parseWith, queryOf } from '../validate';
import { InvalidError } from '../errors';

/** The grid a query string asks for (see above). */
export function gridFromQuery(params: URLSearchParams): Grid {
	const decays = params.getAll('decay').flatMap((d) => d.split(',')).filter((d) => d.trim() !== '');
	const axes = ['recency', 'importance', 'relevance'] as const;
	const given = axes.filter((a) => params.has(a));
	if (given.length > 0) {
		if (params.has('weights')) throw new InvalidError('give either weights=R,I,V or values per component (recency, importance, relevance), not both');
		if (given.length < 3) throw new InvalidError(`values per component need all of recency, importance and relevance (missing: ${axes.filter((a) => !params.has(a)).join(', ')})`);
		const [r, i, v] = axes.map((a) => parseValues(params.get(a) ?? '', a));
		const cells = r.length * i.length * v.length;
		const grid: Grid = {
			weights: cells <= 2000 ? weightProduct(r, i, v) : Array(cells),
			decays: decays.length ? decays.map((d, n) => parseDecay(d, `decay #${n + 1}`)) : [null]
		};
		checkSize(grid);
		return grid;
	}
	return parseGrid(params.getAll('weights'), decays);
}

/** The re-scoring a query string asks for (its schema: RescoreQuerySchema, $lib/api/rescore). */
export async function rescoreFromQuery(id: string, params: URLSearchParams, home: string): Promise<RescoreReport> {
	const { agent, purpose, from, to, top } = parseWith(RescoreQuerySchema, queryOf(params, ['weights', 'decay']), 'the query');
	const grid = gridFromQuery(params);
	return rescoreRun(id, { grid, home, agent, purpose, from, to, top });
}
