// The re-scoring page's grid, browser-side: the query string for the API, and the report's
// cells laid out as heat maps (importance down, relevance across; one map per recency weight
// and decay).

import type { RescoreCell, RescoreReport } from '$lib/api/rescore';

export type { RescoreCell, RescoreReport };

export interface GridForm {
	recency: string;
	importance: string;
	relevance: string;
	/** comma-separated decays; empty or "run" for the run's own */
	decay: string;
	agent: string;
	purpose: string;
}

export const DEFAULT_FORM: GridForm = { recency: '0,0.5,1,2', importance: '0,0.5,1,2', relevance: '0,0.5,1,2,3', decay: 'run', agent: '', purpose: '' };

/** Distinct numbers of a comma-separated list, in the order given (bad entries are left to the server). */
export function values(text: string): string[] {
	return [...new Set(text.split(',').map((v) => v.trim()).filter((v) => v !== ''))];
}

export function rescoreQuery(form: GridForm): string {
	const q = new URLSearchParams();
	q.set('recency', values(form.recency).join(','));
	q.set('importance', values(form.importance).join(','));
	q.set('relevance', values(form.relevance).join(','));
	for (const d of values(form.decay)) q.append('decay', d);
	if (form.agent) q.set('agent', form.agent);
	if (form.purpose) q.set('purpose', form.purpose);
	return q.toString();
}

export interface HeatMap {
	recency: number;
	decay: number | null;
	importance: number[];
	relevance: number[];
	/** rows by importance, columns by relevance */
	cells: (RescoreCell | null)[][];
}

/** The report's cells as heat maps, one per (decay, recency weight), in the report's order. */
export function heatMaps(report: Pick<RescoreReport, 'cells'>): HeatMap[] {
	const maps = new Map<string, HeatMap>();
	for (const cell of report.cells) {
		if (!cell.weights) continue;
		const key = `${cell.decay}|${cell.weights.recency}`;
		let map = maps.get(key);
		if (!map) maps.set(key, (map = { recency: cell.weights.recency, decay: cell.decay, importance: [], relevance: [], cells: [] }));
		if (!map.importance.includes(cell.weights.importance)) map.importance.push(cell.weights.importance);
		if (!map.relevance.includes(cell.weights.relevance)) map.relevance.push(cell.weights.relevance);
	}
	for (const map of maps.values()) {
		map.cells = map.importance.map(() => map.relevance.map(() => null));
	}
	for (const cell of report.cells) {
		if (!cell.weights) continue;
		const map = maps.get(`${cell.decay}|${cell.weights.recency}`) as HeatMap;
		map.cells[map.importance.indexOf(cell.weights.importance)][map.relevance.indexOf(cell.weights.relevance)] = cell;
	}
	return [...maps.values()];
}

/** Share of retrievals whose top k changed (0 when there were none). */
export function share(cell: Pick<RescoreCell, 'changed' | 'retrievals'>): number {
	return cell.retrievals > 0 ? cell.changed / cell.retrievals : 0;
}

/** A cell's colour: from the page background (nothing changes) to a strong red (everything does). */
export function heat(fraction: number): string {
	const f = Math.min(1, Math.max(0, fraction));
	return `color-mix(in srgb, #d64545 ${Math.round(f * 100)}%, transparent)`;
}

/** Tallies (per agent or purpose), most changed first. */
export function ranked(tallies: Record<string, { retrievals: number; changed: number }>): { key: string; retrievals: number; changed: number }[] {
	return Object.entries(tallies)
		.map(([key, t]) => ({ key, ...t }))
		.sort((a, b) => b.changed - a.changed || b.retrievals - a.retrievals || (a.key < b.key ? -1 : 1));
}
