// Geometry of the evaluation report's SVG charts: linear scales, round tick values, game-time
// ticks, line paths, agents placed on a circle, and the rows of the TrueSkill error-bar chart.
// Pure; the chart components only draw what these return.

import { formatClock, formatDate } from '$lib/engine/clock';

export type Scale = (value: number) => number;

/**
 * Maps [d0, d1] linearly onto [r0, r1]. A domain of zero width maps everything to the middle
 * of the range (one sampled step, one rating).
 */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
	const [d0, d1] = domain;
	const [r0, r1] = range;
	if (!(d1 !== d0) || !Number.isFinite(d0) || !Number.isFinite(d1)) {
		const mid = (r0 + r1) / 2;
		return () => mid;
	}
	const k = (r1 - r0) / (d1 - d0);
	return (v) => r0 + (v - d0) * k;
}

/** The step between ticks: 1, 2 or 5 times a power of ten, giving about `count` ticks. */
export function tickStep(min: number, max: number, count: number): number {
	const span = Math.abs(max - min);
	if (!(span > 0) || !(count > 0)) return 0;
	const raw = span / count;
	const power = 10 ** Math.floor(Math.log10(raw));
	const f = raw / power;
	// the nearest of 1, 2, 5, 10 on a log scale
	return (f >= Math.sqrt(50) ? 10 : f >= Math.sqrt(10) ? 5 : f >= Math.SQRT2 ? 2 : 1) * power;
}

/** Round tick values inside [min, max] (about `count` of them), without float noise. */
export function niceTicks(min: number, max: number, count = 5): number[] {
	if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
	const lo = Math.min(min, max);
	const hi = Math.max(min, max);
	const step = tickStep(lo, hi, count);
	if (step === 0) return [lo];
	const digits = Math.max(0, -Math.floor(Math.log10(step)));
	const out: number[] = [];
	for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(Number((k * step).toFixed(digits)));
	return out;
}

/** [min, max] widened outwards to whole tick steps. */
export function niceDomain(min: number, max: number, count = 5): [number, number] {
	const step = tickStep(min, max, count);
	if (step === 0) return [min - 1, max + 1];
	return [Math.floor(min / step + 1e-9) * step, Math.ceil(max / step - 1e-9) * step];
}

/** A game time `YYYY-MM-DDTHH:MM:SS` (the game calendar, UTC) as game milliseconds; NaN if unreadable. */
export function gameMs(time: string): number {
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(time)) return NaN;
	return Date.parse(`${time}Z`);
}

const HOUR = 3_600_000;
const TIME_STEPS_HOURS = [1, 2, 3, 4, 6, 12, 24, 48, 168];

export interface TimeTick {
	ms: number;
	/** "08:00", or "Tue 00:00" at midnight and on the first tick (the day changes there) */
	label: string;
}

/** Ticks on whole game hours between two game times: about `count` of them, labelled by clock. */
export function timeTicks(startMs: number, endMs: number, count = 6): TimeTick[] {
	if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs) return [];
	const span = endMs - startMs;
	const hours = TIME_STEPS_HOURS.find((h) => span / (h * HOUR) <= count) ?? TIME_STEPS_HOURS[TIME_STEPS_HOURS.length - 1];
	const step = hours * HOUR;
	const out: TimeTick[] = [];
	let day = '';
	for (let ms = Math.ceil(startMs / step) * step; ms <= endMs; ms += step) {
		const d = formatDate(ms).slice(0, 3);
		const clock = formatClock(ms);
		out.push({ ms, label: d !== day ? `${d} ${clock}` : clock });
		day = d;
	}
	return out;
}

/** "Mon 08:00" for a game time string (the time as given when it cannot be read). */
export function shortGameTime(time: string): string {
	const ms = gameMs(time);
	return Number.isFinite(ms) ? `${formatDate(ms).slice(0, 3)} ${formatClock(ms)}` : time;
}

/** "Tue 17:00–19:00", or "Tue 22:00–Wed 02:00" across midnight. */
export function gameTimeRange(start: string, end: string): string {
	const a = shortGameTime(start);
	const b = shortGameTime(end);
	return start.slice(0, 10) === end.slice(0, 10) && b.length > 4 ? `${a}–${b.slice(4)}` : `${a}–${b}`;
}

export interface Point {
	x: number;
	y: number;
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** An SVG path through the points in order ("M x y L x y ..."); empty for no points. */
export function linePath(points: readonly Point[]): string {
	return points.map((p, k) => `${k === 0 ? 'M' : 'L'}${r2(p.x)} ${r2(p.y)}`).join(' ');
}

export interface Placed extends Point {
	id: string;
	/** radians, 0 at the top, growing clockwise */
	angle: number;
	/** where a label outside the circle goes, and which way its text runs from there */
	label: Point & { anchor: 'start' | 'middle' | 'end' };
}

/**
 * Agents on a circle, in the given order, the first at the top and the rest clockwise, with a
 * label point `labelGap` further out (text anchored away from the circle).
 */
export function circleLayout(ids: readonly string[], cx: number, cy: number, radius: number, labelGap = 10): Placed[] {
	const n = ids.length;
	return ids.map((id, k) => {
		const angle = n === 0 ? 0 : (2 * Math.PI * k) / n;
		const sin = Math.sin(angle);
		const cos = Math.cos(angle);
		const at = (r: number): Point => ({ x: r2(cx + r * sin), y: r2(cy - r * cos) });
		const anchor = Math.abs(sin) < 0.2 ? 'middle' : sin > 0 ? 'start' : 'end';
		const p = n === 1 ? { x: cx, y: cy } : at(radius);
		return { id, angle, ...p, label: { ...at(radius + labelGap), anchor } };
	});
}

export interface RatingRow {
	condition: string;
	mu: number;
	sigma: number;
	conservative: number;
}

export interface ErrorBar {
	condition: string;
	/** x of μ − σ, μ, μ + σ and μ − 3σ */
	low: number;
	mid: number;
	high: number;
	conservative: number;
	/** the row's centre line */
	y: number;
}

export interface ErrorBarLayout {
	domain: [number, number];
	ticks: number[];
	bars: ErrorBar[];
}

/**
 * The TrueSkill chart: one row per condition (best μ first), the x domain covering every
 * μ − 3σ and μ + σ on round ticks, mapped onto [x0, x1]; rows `rowHeight` apart from `top`.
 */
export function errorBarLayout(rows: readonly RatingRow[], x0: number, x1: number, top: number, rowHeight: number): ErrorBarLayout {
	const sorted = [...rows].sort((a, b) => b.mu - a.mu || (a.condition < b.condition ? -1 : 1));
	const values = sorted.flatMap((r) => [r.conservative, r.mu - r.sigma, r.mu + r.sigma, r.mu]).filter(Number.isFinite);
	const domain = values.length ? niceDomain(Math.min(...values), Math.max(...values)) : ([0, 1] as [number, number]);
	const x = linearScale(domain, [x0, x1]);
	return {
		domain,
		ticks: niceTicks(domain[0], domain[1]),
		bars: sorted.map((r, k) => ({
			condition: r.condition,
			low: r2(x(r.mu - r.sigma)),
			mid: r2(x(r.mu)),
			high: r2(x(r.mu + r.sigma)),
			conservative: r2(x(r.conservative)),
			y: r2(top + rowHeight * (k + 0.5))
		}))
	};
}

/** Series colours, told apart in light and dark themes alike. */
export const SERIES_COLOURS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];

export function seriesColour(k: number): string {
	return SERIES_COLOURS[((k % SERIES_COLOURS.length) + SERIES_COLOURS.length) % SERIES_COLOURS.length];
}
