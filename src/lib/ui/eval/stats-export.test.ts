import { describe, expect, it } from 'vitest';
import paper from '$lib/eval/fixtures/paper-rankings.json';
import { parseRankings } from '$lib/eval/rankings';
import { analyseRankings } from '$lib/eval/stats';
import { conditionsByMu, formatP, statsCsv, statsJson } from './stats-export';

const stats = analyseRankings(parseRankings(JSON.stringify(paper), { file: 'paper-rankings.json' }).rankings);

/** CSV text without quoted fields -> rows of cells. */
const rows = (csv: string) =>
	csv
		.split('\r\n')
		.filter(Boolean)
		.map((l) => l.split(','));

describe('statistics as CSV', () => {
	it('writes the TrueSkill ratings best first, with every digit', () => {
		const [header, ...body] = rows(statsCsv(stats, 'trueskill'));
		expect(header).toEqual(['condition', 'mu', 'sigma', 'conservative', 'games', 'rankings', 'mean_position']);
		expect(body.map((r) => r[0])).toEqual(conditionsByMu(stats));
		expect(body[0][0]).toBe('full');
		for (const r of body) {
			const t = stats.trueskill[r[0]];
			expect(Number(r[1])).toBe(t.mu);
			expect(Number(r[2])).toBe(t.sigma);
			expect(Number(r[3])).toBe(t.mu - 3 * t.sigma);
			expect(Number(r[4])).toBe(100);
		}
	});

	it('writes the Kruskal-Wallis test and every Dunn pair', () => {
		const [kh, kw] = rows(statsCsv(stats, 'kruskal'));
		expect(kh).toEqual(['H', 'df', 'p', 'rankings', 'conditions', 'draw_probability']);
		expect(Number(kw[0])).toBe(stats.kruskal.H);
		expect(kw.slice(1)).toEqual(['4', String(stats.kruskal.p), '100', '5', '0']);
		const [dh, ...pairs] = rows(statsCsv(stats, 'dunn'));
		expect(dh).toEqual(['a', 'b', 'z', 'p', 'p_adjusted']);
		expect(pairs).toHaveLength(10);
		expect(pairs.map((p) => Number(p[4]))).toEqual(stats.dunn.map((d) => d.pAdjusted));
	});
});

describe('statistics as JSON', () => {
	it('names the source and writes NaN as null', () => {
		const doc = JSON.parse(statsJson({ ...stats, kruskal: { H: NaN, df: 4, p: NaN } }, 'paste'));
		expect(doc.source).toBe('paste');
		expect(doc.kruskal).toEqual({ H: null, df: 4, p: null });
		expect(doc.trueskill.full.mu).toBe(stats.trueskill.full.mu);
		expect(doc.dunn).toHaveLength(10);
	});

	it('formats p-values for reading', () => {
		expect(formatP(NaN)).toBe('n/a');
		expect(formatP(0)).toBe('0');
		expect(formatP(0.00003213)).toBe('3.2e-5');
		expect(formatP(0.00456)).toBe('0.0046');
		expect(formatP(0.2346)).toBe('0.235');
	});
});
