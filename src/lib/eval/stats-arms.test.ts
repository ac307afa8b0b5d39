// Comparing two arms of an experiment: Mann-Whitney, the permutation test, the bootstrap interval
// and the per-metric comparison, against values computed independently (each test names how).

import { describe, expect, it } from 'vitest';
import { bootstrapMeanDiff, compareArms, mannWhitney, normalPpf, permutationTest, quantileSorted } from './stats';

describe('mannWhitney', () => {
	// scipy.stats.mannwhitneyu documentation example (diagnosis ages, from Conover's textbook):
	// U1 = 17, exact two-sided p = 0.1111111111111111
	const males = [19, 22, 16, 29, 24];
	const females = [20, 11, 17, 12];

	it('matches scipy exact', () => {
		const r = mannWhitney(males, females);
		expect(r.method).toBe('exact');
		expect(r.U).toBe(17);
		expect(r.p).toBeCloseTo(0.1111111111111111, 12);
		// the statistic of the other sample is n·m − U, with the same p
		const other = mannWhitney(females, males);
		expect(other.U).toBe(3);
		expect(other.p).toBeCloseTo(r.p, 12);
	});

	it('matches the normal approximation with continuity correction', () => {
		// z = (|17 − 10| − 0.5) / sqrt(5·4·10/12) = 1.5922; p = erfc(z/√2) = 0.11134688653314041
		const r = mannWhitney(males, females, 'asymptotic');
		expect(r.p).toBeCloseTo(0.11134688653314041, 10);
	});

	it('uses the tie-corrected variance when values tie', () => {
		// x = [1,2,2,3], y = [2,3,4,5]: ranks 1, 3, 3, 5.5 | 3, 5.5, 7, 8; R1 = 12.5, U = 2.5
		// tie groups of 3 and 2: Σ(t³ − t) = 24 + 6 = 30; var = 16/12 · (9 − 30/56) = 11.2857
		// mean 8: z = (5.5 − 0.5) / 3.35942 = 1.48835; p = 2(1 − Φ(1.48835)) = 0.136658 (R: wilcox.test, exact = FALSE)
		const r = mannWhitney([1, 2, 2, 3], [2, 3, 4, 5]);
		expect(r.method).toBe('asymptotic');
		expect(r.U).toBe(2.5);
		expect(r.p).toBeCloseTo(0.136658, 5);
	});

	it('answers p = 1 when every value ties', () => {
		expect(mannWhitney([3, 3, 3], [3, 3, 3]).p).toBe(1);
	});

	it('refuses an empty sample', () => {
		expect(() => mannWhitney([], [1])).toThrow(/both samples/);
	});
});

describe('permutationTest', () => {
	it('enumerates every relabelling of small samples', () => {
		// [1,2,3] vs [4,5,6]: of the C(6,3) = 20 splits only this one and its mirror reach |diff| = 3
		const r = permutationTest([1, 2, 3], [4, 5, 6]);
		expect(r.exact).toBe(true);
		expect(r.diff).toBe(3);
		expect(r.p).toBeCloseTo(0.1, 12);
	});

	it('samples relabellings of large samples and agrees with the exact answer', () => {
		const x = [5, 7, 8, 9, 10, 12, 13, 14];
		const y = [9, 11, 12, 14, 15, 16, 18, 19];
		const exact = permutationTest(x, y);
		const sampled = permutationTest(x, y, { exactLimit: 10, samples: 20000, seed: 3 });
		expect(sampled.exact).toBe(false);
		expect(Math.abs(sampled.p - exact.p)).toBeLessThan(0.01);
	});
});

describe('bootstrapMeanDiff', () => {
	it('is reproducible and brackets the difference', () => {
		const x = [1, 3, 2, 5, 4, 3, 2, 4];
		const y = [6, 5, 7, 8, 6, 7, 5, 9];
		const a = bootstrapMeanDiff(x, y, { seed: 7 });
		expect(a).toEqual(bootstrapMeanDiff(x, y, { seed: 7 }));
		expect(a.diff).toBeCloseTo(3.625, 12);
		expect(a.ci[0]).toBeLessThan(a.diff);
		expect(a.ci[1]).toBeGreaterThan(a.diff);
		expect(a.ci[0]).toBeGreaterThan(0);
	});

	it('approaches the normal-theory interval for large samples', () => {
		// deterministic samples with known spread: the 95% interval of the difference of two means of
		// 400 values each is about diff ± 1.96·sqrt(s²x/n + s²y/n) (with the n, not n − 1, variance)
		const x = Array.from({ length: 400 }, (_, i) => Math.sin(i * 1.7) * 3);
		const y = Array.from({ length: 400 }, (_, i) => 1 + Math.cos(i * 2.3) * 2);
		const v = (xs: number[]) => {
			const m = xs.reduce((s, t) => s + t, 0) / xs.length;
			return xs.reduce((s, t) => s + (t - m) ** 2, 0) / xs.length;
		};
		const se = Math.sqrt(v(x) / 400 + v(y) / 400);
		const { diff, ci } = bootstrapMeanDiff(x, y, { resamples: 8000, seed: 11 });
		const z = normalPpf(0.975);
		expect(Math.abs(ci[0] - (diff - z * se))).toBeLessThan(0.05 * z * se + 0.01);
		expect(Math.abs(ci[1] - (diff + z * se))).toBeLessThan(0.05 * z * se + 0.01);
	});

	it('gives a zero-width interval for identical constant arms', () => {
		expect(bootstrapMeanDiff([2, 2, 2], [2, 2, 2]).ci).toEqual([0, 0]);
	});

	it('interpolates quantiles like numpy', () => {
		// numpy.quantile([1, 2, 3, 4], 0.25) = 1.75
		expect(quantileSorted([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12);
	});
});

describe('compareArms', () => {
	it('finds nothing between identical arms and Holm-adjusts across metrics', () => {
		const values = { talk: [1, 2, 3, 4, 5, 6, 7, 8], places: [3, 3, 4, 4, 5, 5, 6, 6] };
		const rows = compareArms({ name: 'A', values }, { name: 'B', values }, ['talk', 'places']);
		expect(rows).toHaveLength(2);
		for (const r of rows) {
			expect(r.effect).toBe(0);
			expect(r.p).toBe(1);
			expect(r.pAdjusted).toBe(1);
			expect(r.delta).toBe(0);
			expect(r.ci[0]).toBeLessThanOrEqual(0);
			expect(r.ci[1]).toBeGreaterThanOrEqual(0);
		}
	});

	it('reports a clear difference with its interval and a Holm-adjusted p', () => {
		const a = { name: 'A', values: { m: [1, 2, 3, 4, 5, 6, 7, 8], n: [1, 2, 3, 4, 5, 6, 7, 8] } };
		const b = { name: 'B', values: { m: [11, 12, 13, 14, 15, 16, 17, 18], n: [1, 2, 3, 4, 5, 6, 7, 9] } };
		const [m, n] = compareArms(a, b, ['m', 'n']);
		expect(m.effect).toBe(10);
		expect(m.ci[0]).toBeGreaterThan(5);
		expect(m.delta).toBe(1);
		// exact: 2 / C(16, 8) = 2 / 12870
		expect(m.p).toBeCloseTo(2 / 12870, 12);
		expect(m.pAdjusted).toBeCloseTo((2 * 2) / 12870, 12);
		expect(n.pAdjusted).toBeGreaterThan(0.5);
	});

	it('leaves a metric constant in both arms out of the Holm family', () => {
		const a = { name: 'A', values: { m: [1, 2, 3, 4, 5, 6, 7, 8], flat: [0, 0, 0, 0] } };
		const b = { name: 'B', values: { m: [11, 12, 13, 14, 15, 16, 17, 18], flat: [0, 0, 0, 0] } };
		const [m, flat] = compareArms(a, b, ['m', 'flat']);
		expect(m.pAdjusted).toBeCloseTo(2 / 12870, 12);
		expect(flat.p).toBe(1);
		expect(flat.pAdjusted).toBe(1);
	});
});
