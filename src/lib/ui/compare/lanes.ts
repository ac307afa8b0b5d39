// Layout of the per-agent lanes of the compare view: a lane is one run's segments (frames with
// the same activity, emoji and address) laid along the compared frames, coloured by address.
// Pure arithmetic, so a lane of hundreds of segments is drawn as a few canvas rectangles.

import type { AgentDiff, AgentTimeline, Segment } from '$lib/api/diff';

export interface LaneRect {
	/** left edge and width in pixels */
	x: number;
	w: number;
	color: string;
	/** the first segment drawn in this rectangle (narrow neighbours are folded into it) */
	segment: Segment;
}

/** The left pixel of `frame` on a lane of `width` pixels showing frames from..to (each frame one slot). */
export function xOfFrame(frame: number, from: number, to: number, width: number): number {
	const slots = Math.max(1, to - from + 1);
	return ((frame - from) / slots) * width;
}

/** The frame under pixel `x` of a lane of `width` pixels showing frames from..to. */
export function frameAtX(x: number, from: number, to: number, width: number): number {
	const slots = Math.max(1, to - from + 1);
	if (width <= 0) return from;
	const f = from + Math.floor((x / width) * slots);
	return Math.max(from, Math.min(to, f));
}

function hash(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 16777619) >>> 0;
	}
	return h >>> 0;
}

const NOWHERE = 'hsl(215 16% 62%)';

/** The hue of a sector's places: reds (hues 335..25) are left out, red marks where the runs differ. */
function sectorHue(sector: string): number {
	return 25 + (hash(sector) % 310);
}

/**
 * A stable colour per address: the sector gives the hue (never red), so places of one sector
 * look alike, and the rest of the address shifts lightness and saturation. No address: grey.
 */
export function addressColor(address: string): string {
	if (!address) return NOWHERE;
	const [sector, ...rest] = address.split(':');
	const hue = sectorHue(sector);
	const sub = rest.length ? hash(rest.join(':')) : 0;
	const light = 38 + (sub % 5) * 6;
	const sat = 55 + ((sub >>> 3) % 3) * 12;
	return `hsl(${hue} ${sat}% ${light}%)`;
}

/**
 * The legend of the lanes' colours: each sector the lanes show, with the colour of its places
 * (a sector's places vary in shade around it), most frames first; "no place" last when shown.
 */
export function placeLegend(timelines: readonly Pick<AgentTimeline, 'a' | 'b'>[]): { sector: string; color: string }[] {
	const frames = new Map<string, number>();
	for (const t of timelines) {
		for (const seg of [...t.a, ...(t.b ?? [])]) {
			const sector = seg.address.split(':')[0];
			frames.set(sector, (frames.get(sector) ?? 0) + seg.to - seg.from + 1);
		}
	}
	return [...frames]
		.sort(([p, m], [q, n]) => (p === '') !== (q === '') ? (p === '' ? 1 : -1) : n - m || (p < q ? -1 : 1))
		.map(([sector]) => ({ sector: sector || 'no place', color: sector ? `hsl(${sectorHue(sector)} 67% 50%)` : NOWHERE }));
}

/**
 * The rectangles that draw `segments` on a lane of `width` pixels showing frames from..to.
 * Edges are snapped to whole pixels; a segment that would start inside the previous rectangle
 * is folded into it, so a lane never has more rectangles than pixels.
 */
export function laneRects(segments: readonly Segment[], from: number, to: number, width: number): LaneRect[] {
	const out: LaneRect[] = [];
	if (width <= 0 || to < from) return out;
	let end = 0;
	for (const seg of segments) {
		if (seg.to < from || seg.from > to) continue;
		const left = Math.round(xOfFrame(Math.max(seg.from, from), from, to, width));
		const right = Math.round(xOfFrame(Math.min(seg.to, to) + 1, from, to, width));
		if (right <= end) continue;
		const x = Math.max(left, end);
		out.push({ x, w: right - x, color: addressColor(seg.address), segment: seg });
		end = right;
	}
	return out;
}

/** The segment holding `frame` (segments sorted by frame), or null. */
export function segmentAt(segments: readonly Segment[], frame: number): Segment | null {
	let lo = 0;
	let hi = segments.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const s = segments[mid];
		if (frame < s.from) hi = mid - 1;
		else if (frame > s.to) lo = mid + 1;
		else return s;
	}
	return null;
}

/** Pixel spans [x, w] of the differing frame ranges, at least one pixel wide so none is lost. */
export function rangeRects(ranges: readonly (readonly [number, number])[], from: number, to: number, width: number): [number, number][] {
	const out: [number, number][] = [];
	for (const [a, b] of ranges) {
		if (b < from || a > to) continue;
		// (a hair of slack keeps float noise such as 55.000000001 from widening a span)
		const left = Math.floor(xOfFrame(Math.max(a, from), from, to, width) + 1e-9);
		const right = Math.max(left + 1, Math.ceil(xOfFrame(Math.min(b, to) + 1, from, to, width) - 1e-9));
		const last = out[out.length - 1];
		if (last && left <= last[0] + last[1]) last[1] = Math.max(last[1], right - last[0]);
		else out.push([left, right - left]);
	}
	return out;
}

/**
 * Agents with the most differing frames first; then those that differ otherwise (in
 * conversations, memories, reflections, calls), by their first difference; then by name.
 */
export function sortAgents<T extends Pick<AgentDiff, 'differingSteps' | 'firstDifferentStep' | 'name'> & { differences?: AgentDiff['differences'] }>(
	agents: readonly T[]
): T[] {
	const firstOther = (a: T) => Math.min(Infinity, ...(a.differences ?? []).map((d) => d.first));
	return [...agents].sort(
		(x, y) =>
			y.differingSteps - x.differingSteps ||
			(x.firstDifferentStep ?? Infinity) - (y.firstDifferentStep ?? Infinity) ||
			Number((y.differences?.length ?? 0) > 0) - Number((x.differences?.length ?? 0) > 0) ||
			firstOther(x) - firstOther(y) ||
			x.name.localeCompare(y.name)
	);
}

/** "sleeping @ Lin family's house:bedroom" with the frames it spans. */
export function describeSegment(seg: Segment): string {
	const frames = seg.from === seg.to ? `frame ${seg.from}` : `frames ${seg.from}–${seg.to}`;
	const what = [seg.emoji, seg.activity || 'idle'].filter(Boolean).join(' ');
	return `${frames}: ${what}${seg.address ? ` @ ${seg.address}` : ''}`;
}
