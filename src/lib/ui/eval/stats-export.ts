// The statistics of imported believability rankings as files to download, made in the browser:
// the whole analysis as JSON, and its three tables (TrueSkill ratings, the Kruskal-Wallis test,
// Dunn's pairs) as CSV, written as every CSV export is ($lib/shared/csv).

import type { EvaluationStats } from '$lib/eval/stats';
import { toCsv } from '$lib/shared/csv';

export type StatsTable = 'trueskill' | 'kruskal' | 'dunn';
export const STATS_TABLES: readonly StatsTable[] = ['trueskill', 'kruskal', 'dunn'];

/** The conditions by TrueSkill μ, best first (ties by name). */
export function conditionsByMu(stats: Pick<EvaluationStats, 'conditions' | 'trueskill'>): string[] {
	return [...stats.conditions].sort((a, b) => stats.trueskill[b].mu - stats.trueskill[a].mu || (a < b ? -1 : a > b ? 1 : 0));
}

export function statsCsv(stats: EvaluationStats, table: StatsTable): string {
	switch (table) {
		case 'trueskill':
			return toCsv(
				['condition', 'mu', 'sigma', 'conservative', 'games', 'rankings', 'mean_position'],
				conditionsByMu(stats).map((c) => {
					const r = stats.trueskill[c];
					const p = stats.positions[c];
					return [c, r.mu, r.sigma, r.conservative, r.games, p?.n, p?.mean];
				})
			);
		case 'kruskal':
			return toCsv(['H', 'df', 'p', 'rankings', 'conditions', 'draw_probability'], [
				[stats.kruskal.H, stats.kruskal.df, stats.kruskal.p, stats.rankings, stats.conditions.length, stats.drawProbability]
			]);
		case 'dunn':
			return toCsv(
				['a', 'b', 'z', 'p', 'p_adjusted'],
				stats.dunn.map((d) => [d.a, d.b, d.z, d.p, d.pAdjusted])
			);
	}
}

/** The analysis as a JSON document: where the rankings came from, then the statistics (NaN written as null). */
export function statsJson(stats: EvaluationStats, source: string): string {
	return JSON.stringify({ source, ...stats }, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), '\t') + '\n';
}

/** A p-value for reading: "n/a", "0", "3.2e-5" below 0.001, four decimals below 0.01, else three. */
export function formatP(p: number): string {
	if (Number.isNaN(p)) return 'n/a';
	if (p === 0) return '0';
	return p < 0.001 ? p.toExponential(1) : p.toFixed(p < 0.01 ? 4 : 3);
}

/** A number with fixed decimals; "n/a" when not a number. */
export function fixed(x: number, digits = 2): string {
	return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}
