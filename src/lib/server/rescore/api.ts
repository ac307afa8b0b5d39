// The re-scoring API: `GET /api/runs/<id>/rescore` with the grid in the query string, either
// as weightings (`weights=R,I,V`, repeated; `run` for the run's own) or as values per component
// (`recency=0,1,2&importance=1&relevance=0,1,3`, every combination), and decays
// (`decay=0.99`, repeated or comma-separated; `run` for the run's own). Optional `agent`,
// `purpose`, `from`, `to` (steps) and `top` (memories listed per cell).

import { checkSize, parseDecay, parseGrid, parseValues, weightProduct, type Grid } from './grid';
import { rescoreRun } from './run';
import type { RescoreReport } from '../../api/rescore';

const AGENT = /^[\p{L}\p{N} _.'-]{1,100}$/u;

function wholeNumber(params: URLSearchParams, name: string, max: number): number | undefined {
	const raw = params.get(name);
	if (raw === null || raw === '') return undefined;
	if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) throw new Error(`${name} must be a whole number from 0 to ${max}, not "${raw.slice(0, 40)}"`);
	return Number(raw);
}

/** The grid a query string asks for (see above). */
export function gridFromQuery(params: URLSearchParams): Grid {
	const decays = params.getAll('decay').flatMap((d) => d.split(',')).filter((d) => d.trim() !== '');
	const axes = ['recency', 'importance', 'relevance'] as const;
	const given = axes.filter((a) => params.has(a));
	if (given.length > 0) {
		if (params.has('weights')) throw new Error('give either weights=R,I,V or values per component (recency, importance, relevance), not both');
		if (given.length < 3) throw new Error(`values per component need all of recency, importance and relevance (missing: ${axes.filter((a) => !params.has(a)).join(', ')})`);
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

export async function rescoreFromQuery(id: string, params: URLSearchParams, home: string): Promise<RescoreReport> {
	const grid = gridFromQuery(params);
	const agent = params.get('agent') || undefined;
	if (agent !== undefined && !AGENT.test(agent)) throw new Error(`"${agent.slice(0, 60)}" is not an agent name`);
	const purpose = params.get('purpose') || undefined;
	if (purpose !== undefined && purpose.length > 100) throw new Error('purpose is longer than 100 characters');
	const from = wholeNumber(params, 'from', 1e9);
	const to = wholeNumber(params, 'to', 1e9);
	const top = wholeNumber(params, 'top', 100);
	return rescoreRun(id, { grid, home, agent, purpose, from, to, top });
}
