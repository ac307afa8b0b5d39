// Layout of the per-metric strip plots: every run's value as a dot in its arm's column, with the
// arm's box (quartiles, median) and whiskers (min to max). Pure, for the SVG component and tests.

import { linearScale, niceDomain, niceTicks } from '../eval/chart';

export interface StripDot {
	x: number;
	y: number;
	value: number;
	run: string;
	replicate: number;
}

export interface StripArm {
	name: string;
	centre: number;
	dots: StripDot[];
	/** null without values */
	box: { q1: number; median: number; q3: number; min: number; max: number } | null;
}

export interface StripLayout {
	width: number;
	height: number;
	ticks: { y: number; value: number }[];
	arms: StripArm[];
}

function quantile(sorted: number[], q: number): number {
	const h = (sorted.length - 1) * q;
	const lo = Math.floor(h);
	const hi = Math.min(sorted.length - 1, lo + 1);
	return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export const STRIP = { width: 300, height: 180, left: 44, right: 10, top: 10, bottom: 26, jitter: 14 };

/**
 * Dots of equal value in one arm are spread sideways (deterministically, by replicate order) so
 * every run stays visible.
 */
export function stripLayout(arms: readonly { name: string; runs: readonly { run: string; replicate: number; value: number }[] }[]): StripLayout {
	const { width, height, left, right, top, bottom, jitter } = STRIP;
	const all = arms.flatMap((a) => a.runs.map((r) => r.value)).filter(Number.isFinite);
	let lo = all.length ? Math.min(...all) : 0;
	let hi = all.length ? Math.max(...all) : 1;
	if (lo === hi) {
		const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
		lo -= pad;
		hi += pad;
	}
	const domain = niceDomain(lo, hi, 4);
	const y = linearScale(domain, [height - bottom, top]);
	const band = (width - left - right) / Math.max(1, arms.length);
	return {
		width,
		height,
		ticks: niceTicks(domain[0], domain[1], 4).map((value) => ({ y: y(value), value })),
		arms: arms.map((a, k) => {
			const centre = left + band * (k + 0.5);
			const seen = new Map<number, number>();
			const dots = a.runs
				.filter((r) => Number.isFinite(r.value))
				.map((r) => {
					const n = seen.get(r.value) ?? 0;
					seen.set(r.value, n + 1);
					// 0, +1, −1, +2, −2 ... steps of 4 px, folded into the jitter width
					const side = n === 0 ? 0 : (n % 2 ? 1 : -1) * Math.ceil(n / 2) * 4;
					const x = centre + (((side + jitter) % (2 * jitter)) + 2 * jitter) % (2 * jitter) - jitter;
					return { x, y: y(r.value), value: r.value, run: r.run, replicate: r.replicate };
				});
			const sorted = dots.map((d) => d.value).sort((p, q) => p - q);
			const box = sorted.length
				? { q1: y(quantile(sorted, 0.25)), median: y(quantile(sorted, 0.5)), q3: y(quantile(sorted, 0.75)), min: y(sorted[0]), max: y(sorted[sorted.length - 1]) }
				: null;
			return { name: a.name, centre, dots, box };
		})
	};
}

/** A number for a table cell: 3 significant decimals, exponent when tiny or huge. */
export function fmtNumber(x: number): string {
	if (!Number.isFinite(x)) return String(x);
	const a = Math.abs(x);
	if (a !== 0 && (a < 0.001 || a >= 1e6)) return x.toExponential(2);
	return String(Math.round(x * 1000) / 1000);
}

export function fmtP(p: number): string {
	return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}
