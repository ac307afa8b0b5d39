// The evaluation statistics against published reference values (each test names its source),
// and the paper-like fixture the report uses.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_CONDITIONS, paperRankings, paperRankingsCsv, paperRankingsJson } from './fixtures/paper-rankings';
import { parseRankings, type Ranking } from './rankings';
import {
	analyseRankings,
	averageRanks,
	chiSquareSf,
	drawMargin,
	dunn,
	erfc,
	formatEvaluationStats,
	gammaP,
	gammaQ,
	holm,
	kruskalWallis,
	lnGamma,
	normalCdf,
	normalPdf,
	normalPpf,
	rankPositions,
	rateGame,
	TRUESKILL_DEFAULTS,
	trueSkill
} from './stats';

const close = (actual: number, expected: number, relative = 1e-12) =>
	expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(relative * Math.abs(expected));

const ranking = (order: string, rater = 'r', question = 'q'): Ranking => ({
	rater,
	question,
	order: order.split('>').map((t) => t.split('='))
});

describe('special functions', () => {
	it('erfc matches tabulated values, keeping its relative accuracy far into the tail', () => {
		// values: Abramowitz & Stegun table 7.1 (erf) and scipy.special.erfc
		close(erfc(0), 1);
		close(erfc(0.5), 0.4795001221869535);
		close(erfc(1), 0.15729920705028513);
		close(erfc(2), 0.004677734981047266);
		close(erfc(3), 2.209049699858544e-5);
		close(erfc(5), 1.5374597944280349e-12);
		close(erfc(10), 2.088487583762545e-45, 1e-11);
		close(erfc(-1), 1.8427007929497148);
		close(normalCdf(1.959963984540054), 0.975);
		close(normalPdf(0), 1 / Math.sqrt(2 * Math.PI));
	});

	it('ln Γ and the regularized incomplete gamma functions match known values', () => {
		close(lnGamma(0.5), Math.log(Math.sqrt(Math.PI)));
		close(lnGamma(10), Math.log(362880));
		close(lnGamma(2.5), Math.log(1.329340388179137));
		// Q(1, x) = e^-x and Q(2, x) = (1 + x) e^-x exactly
		close(gammaQ(1, 3), Math.exp(-3));
		close(gammaQ(2, 3), 4 * Math.exp(-3));
		close(gammaQ(2, 0.5), 1.5 * Math.exp(-0.5));
		close(gammaQ(10, 5) + gammaP(10, 5), 1);
		expect(gammaQ(3, 0)).toBe(1);
	});

	it('the chi-square survival function gives the table critical values', () => {
		// chi-square table: the 0.05 points for 1 and 4 degrees of freedom, the 0.01 point for 4
		close(chiSquareSf(3.841458820694124, 1), 0.05, 1e-12);
		close(chiSquareSf(9.487729036781154, 4), 0.05, 1e-12);
		close(chiSquareSf(13.276704135987622, 4), 0.01, 1e-12);
		// df = 2 is exactly e^(-x/2)
		close(chiSquareSf(7, 2), Math.exp(-3.5));
		expect(chiSquareSf(0, 3)).toBe(1);
	});

	it('Φ⁻¹ inverts Φ', () => {
		close(normalPpf(0.975), 1.959963984540054, 1e-14);
		close(normalPpf(0.55), 0.12566134685507416, 1e-12);
		close(normalPpf(0.5) + 1, 1);
		close(normalPpf(1e-10), -6.361340902404056, 1e-12);
	});
});

describe('TrueSkill', () => {
	const d = { mu: 25, sigma: 25 / 3 };
	const tenPercent = { drawProbability: 0.1 };
	/** the `trueskill` package's own check: equal at 3 decimals, or off by one in the last */
	const almost = (rated: { mu: number; sigma: number }[], expected: [number, number][]) => {
		expect(rated).toHaveLength(expected.length);
		rated.forEach((r, k) => {
			expect(Math.abs(r.mu - expected[k][0]), `mu ${k}: ${r.mu}`).toBeLessThanOrEqual(0.0015);
			expect(Math.abs(r.sigma - expected[k][1]), `sigma ${k}: ${r.sigma}`).toBeLessThanOrEqual(0.0015);
		});
	};

	// Reference values: the `trueskill` package (Heungsub Lee), trueskilltests.py, tests n_vs_n,
	// individual, unsorted_groups, custom_environment and upset. They use the package's default
	// environment, whose draw probability is 0.10 (0.50 in custom_environment).
	it('rates 1 vs 1 from the defaults as the trueskill package does (draw probability 0.10)', () => {
		almost(rateGame([d, d], [0, 1], tenPercent), [
			[29.396, 7.171],
			[20.604, 7.171]
		]);
		almost(rateGame([d, d], [0, 0], tenPercent), [
			[25.0, 6.458],
			[25.0, 6.458]
		]);
		almost(rateGame([d, d], [0, 1], { drawProbability: 0.5 }), [
			[30.267, 7.077],
			[19.733, 7.077]
		]);
	});

	it('rates free-for-alls of 3, 4, 5 and 16 players, draws, and unsorted ranks as the package does', () => {
		almost(rateGame([d, d, d], [0, 1, 2], tenPercent), [
			[31.675, 6.656],
			[25.0, 6.208],
			[18.325, 6.656]
		]);
		almost(rateGame([d, d, d], [2, 1, 0], tenPercent), [
			[18.325, 6.656],
			[25.0, 6.208],
			[31.675, 6.656]
		]);
		almost(rateGame([d, d, d], [0, 0, 0], tenPercent), [
			[25.0, 5.698],
			[25.0, 5.695],
			[25.0, 5.698]
		]);
		almost(rateGame([d, d, d, d], [0, 1, 2, 3], tenPercent), [
			[33.207, 6.348],
			[27.401, 5.787],
			[22.599, 5.787],
			[16.793, 6.348]
		]);
		almost(rateGame([d, d, d, d, d], [0, 1, 2, 3, 4], tenPercent), [
			[34.363, 6.136],
			[29.058, 5.536],
			[25.0, 5.42],
			[20.942, 5.536],
			[15.637, 6.136]
		]);
		almost(rateGame(Array(8).fill(d), Array(8).fill(0), tenPercent), [
			[25.0, 4.592],
			[25.0, 4.583],
			[25.0, 4.576],
			[25.0, 4.573],
			[25.0, 4.573],
			[25.0, 4.576],
			[25.0, 4.583],
			[25.0, 4.592]
		]);
		almost(
			rateGame(Array(16).fill(d), [...Array(16).keys()], tenPercent),
			[
				[40.539, 5.276],
				[36.81, 4.711],
				[34.347, 4.524],
				[32.336, 4.433],
				[30.55, 4.38],
				[28.893, 4.349],
				[27.31, 4.33],
				[25.766, 4.322],
				[24.234, 4.322],
				[22.69, 4.33],
				[21.107, 4.349],
				[19.45, 4.38],
				[17.664, 4.433],
				[15.653, 4.524],
				[13.19, 4.711],
				[9.461, 5.276]
			]
		);
	});

	it('rates upsets from uneven priors as the package does', () => {
		almost(rateGame([d, { mu: 50, sigma: 12.5 }], [0, 0], tenPercent), [
			[31.662, 7.137],
			[35.01, 7.91]
		]);
		const players = [10, 15, 20, 25, 30, 35, 40, 45].map((mu, k) => ({ mu, sigma: 8 - k }));
		almost(rateGame(players, [...Array(8).keys()], tenPercent), [
			[35.135, 4.506],
			[32.585, 4.037],
			[31.329, 3.756],
			[30.984, 3.453],
			[31.751, 3.064],
			[34.051, 2.541],
			[38.263, 1.849],
			[44.118, 0.983]
		]);
	});

	it('with draw probability 0 (no ties) gives the exact two-player update of Herbrich et al. (2006)', () => {
		// the 1 vs 1 update in closed form: c² = 2β² + 2(σ² + τ²), v = φ(0)/Φ(0), w = v²
		const { beta, tau, sigma, mu } = TRUESKILL_DEFAULTS;
		const s2 = sigma ** 2 + tau ** 2;
		const c = Math.sqrt(2 * beta ** 2 + 2 * s2);
		const v = normalPdf(0) / 0.5;
		const muWin = mu + (s2 / c) * v;
		const sigmaNew = Math.sqrt(s2 * (1 - (s2 / c ** 2) * v * v));
		const [w, l] = rateGame([d, d], [0, 1]);
		close(w.mu, muWin, 1e-12);
		close(l.mu, 2 * mu - muWin, 1e-12);
		close(w.sigma, sigmaNew, 1e-12);
		close(l.sigma, sigmaNew, 1e-12);
		expect(w.mu).toBeCloseTo(29.205, 3);
		expect(w.sigma).toBeCloseTo(7.195, 3);
		expect(drawMargin(0, beta)).toBe(0);
		// ε = Φ⁻¹((0.10 + 1) / 2) · √2 · β, with Φ⁻¹(0.55) from scipy.stats.norm.ppf
		close(drawMargin(0.1, beta), 0.12566134685507416 * Math.SQRT2 * beta, 1e-12);
	});

	it('refuses a draw without a draw margin, and a game of one', () => {
		expect(() => rateGame([d, d], [0, 0])).toThrow(/draw probability above 0/);
		expect(() => rateGame([d], [0])).toThrow(/at least two players/);
		expect(() => rateGame([d, d], [0])).toThrow(/needs 2 ranks/);
	});

	it('rates conditions from rankings in input order, counting games; draws only when rankings tie', () => {
		const rankings = [ranking('full>no-reflection'), ranking('full>no-reflection>crowdworker')];
		const rated = trueSkill(rankings);
		const first = rateGame([d, d], [0, 1]);
		const second = rateGame([first[0], first[1], d], [0, 1, 2]);
		expect(rated.full).toEqual({ ...second[0], conservative: second[0].mu - 3 * second[0].sigma, games: 2 });
		expect(rated['no-reflection'].mu).toBe(second[1].mu);
		expect(rated.crowdworker).toMatchObject({ mu: second[2].mu, games: 1 });
		expect(Object.keys(rated)).toEqual(['full', 'no-reflection', 'crowdworker']);
		// order matters: the same games the other way round end elsewhere
		expect(trueSkill([...rankings].reverse()).full.mu).not.toBe(rated.full.mu);

		// a tie anywhere switches the whole set to the 0.10 draw probability
		const tied = trueSkill([ranking('a=b>c'), ranking('a>b')]);
		const g1 = rateGame([d, d, d], [0, 0, 1], { drawProbability: 0.1 });
		const g2 = rateGame([g1[0], g1[1]], [0, 1], { drawProbability: 0.1 });
		expect(tied.a.mu).toBe(g2[0].mu);
		expect(tied.c.mu).toBe(g1[2].mu);
	});
});

describe('Kruskal-Wallis', () => {
	it('matches the scipy.stats.kruskal documentation examples', () => {
		// scipy.stats.kruskal docstring, Examples
		const a = kruskalWallis([
			[1, 3, 5, 7, 9],
			[2, 4, 6, 8, 10]
		]);
		close(a.H, 0.2727272727272734, 1e-12);
		close(a.p, 0.6015081344405895, 1e-12);
		expect(a.df).toBe(1);
		const b = kruskalWallis([
			[1, 1, 1],
			[2, 2, 2],
			[2, 2]
		]);
		close(b.H, 7.0, 1e-12);
		close(b.p, 0.0301973834223185, 1e-12);
		expect(b.df).toBe(2);
	});

	it('corrects for ties as in the scipy.stats.mstats.kruskal battery example', () => {
		// scipy.stats.mstats.kruskal docs: battery lifetimes of three brands (6.9 and 6.1 tied)
		const r = kruskalWallis([
			[6.3, 5.4, 5.7, 5.2, 5.0],
			[6.9, 7.0, 6.1, 7.9],
			[7.2, 6.9, 6.1, 6.5]
		]);
		close(r.H, 7.113812154696133, 1e-12);
		close(r.p, 0.028526948491942164, 1e-12);
		expect(r.meanRanks).toEqual([3.4, 9.75, 8.75]);
	});

	it('gives average ranks to ties and reports when everything is tied', () => {
		expect(averageRanks([3, 1, 3, 2])).toEqual({ ranks: [3.5, 1, 3.5, 2], tieSum: 6 });
		const all = kruskalWallis([
			[1, 1],
			[1, 1]
		]);
		expect(all.H).toBeNaN();
		expect(all.p).toBeNaN();
		expect(() => kruskalWallis([[1, 2], []])).toThrow(/at least two groups/);
	});
});

// The seaborn "exercise" data set (pulse by kind of exercise, 30 each), as used by the
// scikit-posthocs test suite (tests/test_posthocs.py, test_posthoc_dunn) whose reference values
// come from R (PMCMR) with Holm adjustment.
const rest = [85, 85, 88, 90, 92, 93, 97, 97, 94, 80, 82, 83, 91, 92, 91, 83, 83, 84, 87, 88, 90, 92, 94, 95, 97, 99, 96, 100, 97, 100];
const walking = [86, 86, 84, 93, 103, 104, 90, 92, 93, 95, 96, 100, 89, 96, 95, 84, 86, 89, 103, 109, 90, 92, 96, 101, 97, 98, 100, 102, 104, 103];
const running = [93, 98, 110, 98, 104, 112, 98, 105, 99, 87, 132, 120, 94, 110, 116, 95, 126, 143, 100, 126, 140, 103, 124, 140, 94, 135, 130, 99, 111, 150];

describe("Dunn's test", () => {
	it('matches the Holm-adjusted p-values of scikit-posthocs / R PMCMR on the exercise data', () => {
		const pairs = dunn([rest, running, walking], ['rest', 'running', 'walking']);
		expect(pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['rest-running', 'rest-walking', 'running-walking']);
		close(pairs[0].pAdjusted, 9.570998e-9, 1e-6);
		close(pairs[1].pAdjusted, 4.390066e-2, 1e-6);
		close(pairs[2].pAdjusted, 1.873208e-4, 1e-6);
		// the sign follows a − b: resting pulses rank lower than running ones
		expect(pairs[0].z).toBeLessThan(0);
		for (const p of pairs) close(p.p, erfc(Math.abs(p.z) / Math.SQRT2));
		// and Kruskal-Wallis on the same data, as scipy.stats.kruskal computes it
		close(kruskalWallis([rest, running, walking]).H, 36.25655597407559, 1e-12);
	});

	it('z is the mean-rank difference over its tie-corrected standard error', () => {
		// pooled ranks: a = 1, 2.5 (tie with b's 2), b = 2.5, 4; N = 4, one tie of 2
		const [pair] = dunn(
			[
				[1, 2],
				[2, 3]
			],
			['a', 'b']
		);
		const se = Math.sqrt((20 / 12 - 6 / 36) * (1 / 2 + 1 / 2));
		close(pair.z, (1.75 - 3.25) / se);
	});
});

describe('Holm-Bonferroni', () => {
	it('steps down through the sorted p-values, keeps them monotone and caps them at 1', () => {
		// sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06
		const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
		[0.03, 0.06, 0.06, 0.02].forEach((x, k) => close(adjusted[k], x));
		expect(holm([0.5, 0.4, 0.9])).toEqual([1, 1, 1]);
		expect(holm([])).toEqual([]);
	});
});

describe('analyseRankings', () => {
	it('turns rankings into positions (ties share the average) and runs every test on them', () => {
		expect([...rankPositions(ranking('a>b=c>d'))]).toEqual([
			['a', 1],
			['b', 2.5],
			['c', 2.5],
			['d', 4]
		]);
		const rankings = [ranking('a>b>c'), ranking('a>c>b'), ranking('b>a'), ranking('a=c>b')];
		const stats = analyseRankings(rankings);
		expect(stats.conditions).toEqual(['a', 'b', 'c']);
		expect(stats.drawProbability).toBe(0.1);
		expect(stats.positions).toEqual({ a: { n: 4, mean: 1.375 }, b: { n: 4, mean: 2.25 }, c: { n: 3, mean: 6.5 / 3 } });
		const groups = [
			[1, 1, 2, 1.5],
			[2, 3, 1, 3],
			[3, 2, 1.5]
		];
		const kw = kruskalWallis(groups);
		expect(stats.kruskal).toEqual({ H: kw.H, df: 2, p: kw.p });
		expect(stats.dunn).toEqual(dunn(groups, ['a', 'b', 'c']));
		expect(stats.trueskill).toEqual(trueSkill(rankings));
		expect(stats.rankings).toBe(4);
	});

	it('refuses nothing to analyse', () => {
		expect(() => analyseRankings([])).toThrow(/no rankings/);
	});
});

describe('the paper-like fixture', () => {
	const dir = path.join(__dirname, 'fixtures');
	if (process.env.UPDATE_FIXTURES) {
		writeFileSync(path.join(dir, 'paper-rankings.json'), paperRankingsJson());
		writeFileSync(path.join(dir, 'paper-rankings.csv'), paperRankingsCsv());
	}

	it('is the seeded generator output, in both formats', () => {
		const json = readFileSync(path.join(dir, 'paper-rankings.json'), 'utf8');
		const csv = readFileSync(path.join(dir, 'paper-rankings.csv'), 'utf8');
		expect(json).toBe(paperRankingsJson());
		expect(csv).toBe(paperRankingsCsv());
		const rankings = paperRankings();
		expect(rankings).toHaveLength(100);
		expect(parseRankings(json, { file: 'paper-rankings.json' }).rankings).toEqual(rankings);
		expect(parseRankings(csv, { file: 'paper-rankings.csv' }).rankings).toEqual(rankings);
	});

	it("orders the conditions' TrueSkill means as the paper does, with Kruskal-Wallis p < 0.001", () => {
		const stats = analyseRankings(paperRankings());
		const byMu = [...stats.conditions].sort((a, b) => stats.trueskill[b].mu - stats.trueskill[a].mu);
		expect(byMu).toEqual(PAPER_CONDITIONS.map((c) => c.condition));
		expect(stats.drawProbability).toBe(0);
		expect(stats.kruskal.df).toBe(4);
		expect(stats.kruskal.p).toBeLessThan(0.001);
		for (const c of stats.conditions) {
			expect(stats.trueskill[c].games).toBe(100);
			expect(stats.positions[c].n).toBe(100);
		}
		expect(stats.dunn).toHaveLength(10);
		// as in the paper, the human crowdworker and the fully ablated condition are hard to tell apart
		const pair = stats.dunn.find((p) => [p.a, p.b].sort().join() === 'human,no-observation-reflection-planning')!;
		expect(pair.pAdjusted).toBeGreaterThan(0.05);
		expect(stats.dunn.find((p) => [p.a, p.b].sort().join() === 'full,no-observation-reflection-planning')!.pAdjusted).toBeLessThan(0.001);
	});
});

describe('formatEvaluationStats', () => {
	it('prints the ratings best first, the test and every pair with the better-rated condition first', () => {
		const text = formatEvaluationStats(analyseRankings(paperRankings()), 'paper.json');
		const lines = text.split('\n');
		expect(lines[0]).toBe('paper.json: 100 rankings of 5 conditions (no ties, draw probability 0)');
		const table = lines.slice(lines.indexOf('TrueSkill') + 2, lines.indexOf('TrueSkill') + 7).map((l) => l.trim().split(/\s+/)[0]);
		expect(table).toEqual(PAPER_CONDITIONS.map((c) => c.condition));
		expect(text).toMatch(/^Kruskal-Wallis H\(4\) = \d+\.\d\d, p = \d\.\de-\d+ \(p < 0\.001\)$/m);
		expect(text).toMatch(/^ {2}full vs no-observation-reflection-planning +z = +-\d+\.\d\d +p = /m);
		expect(text).toMatch(/^ {2}human vs no-observation-reflection-planning +z = +-\d\.\d\d +p = 0\.\d{3} +adjusted 0\.\d{3}$/m);
	});
});
