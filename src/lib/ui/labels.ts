// Placing labels on the town map so that none covers another: each label tries a few spots
// around its anchor in turn (below, then stacked further down, then beside, then above) and
// takes the first one that is free and inside the view. A label that finds no free spot is not
// drawn; the nearest drawn label of the same place counts it in a badge ("+2"). Pure geometry, in
// any unit (the map passes screen pixels).

export interface Box {
	x: number;
	y: number;
	w: number;
	h: number;
}

export interface LabelRequest {
	id: string;
	/** the point the label belongs to (an agent's marker centre) */
	ax: number;
	ay: number;
	/** the marker's radius: labels keep clear of it */
	r: number;
	w: number;
	h: number;
	/** placed first (the selected agent) */
	priority?: boolean;
}

export interface PlacedLabel {
	id: string;
	box: Box;
	/** how many labels nearby were left out in its favour */
	hidden: number;
	/** ids of the labels it stands for */
	hiddenIds: string[];
}

export function intersects(a: Box, b: Box, gap = 0): boolean {
	return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

export function inside(a: Box, view: Box): boolean {
	return a.x >= view.x && a.y >= view.y && a.x + a.w <= view.x + view.w && a.y + a.h <= view.y + view.h;
}

/** The spots a label tries, best first. */
function candidates(l: LabelRequest, gap: number): Box[] {
	const { ax, ay, r, w, h } = l;
	const below = ay + r * 1.4;
	const out: Box[] = [{ x: ax - w / 2, y: below, w, h }];
	out.push({ x: ax + r + gap, y: ay - h / 2, w, h });
	out.push({ x: ax - r - gap - w, y: ay - h / 2, w, h });
	for (let k = 1; k <= 3; k++) out.push({ x: ax - w / 2, y: below + k * (h + gap), w, h });
	out.push({ x: ax + r + gap, y: below, w, h });
	out.push({ x: ax - r - gap - w, y: below, w, h });
	out.push({ x: ax - w / 2, y: ay - r * 2.6 - h, w, h });
	return out;
}

/**
 * Places labels without overlaps (boxes at least `gap` apart) and inside `view` when one is
 * given (a label whose anchor is outside the view is left out). `obstacles` are boxes no label
 * may cover (other labels already drawn).
 */
export function placeLabels(
	labels: readonly LabelRequest[],
	opts: { gap?: number; view?: Box; obstacles?: readonly Box[] } = {}
): PlacedLabel[] {
	const gap = opts.gap ?? 1;
	const view = opts.view;
	const order = [...labels].sort((a, b) => Number(Boolean(b.priority)) - Number(Boolean(a.priority)));
	const placed: PlacedLabel[] = [];
	const taken: Box[] = [...(opts.obstacles ?? [])];
	const left: LabelRequest[] = [];
	for (const l of order) {
		if (view && !inside({ x: l.ax, y: l.ay, w: 0, h: 0 }, view)) continue;
		let spot: Box | null = null;
		for (const c of candidates(l, gap)) {
			if (view && !inside(c, view)) continue;
			if (taken.some((t) => intersects(c, t, gap))) continue;
			spot = c;
			break;
		}
		if (!spot) {
			left.push(l);
			continue;
		}
		taken.push(spot);
		placed.push({ id: l.id, box: spot, hidden: 0, hiddenIds: [] });
	}
	// Every label left out is counted by the nearest drawn one.
	const anchor = new Map(labels.map((l) => [l.id, l]));
	for (const l of left) {
		let best: PlacedLabel | null = null;
		let bestDist = Infinity;
		for (const p of placed) {
			const a = anchor.get(p.id)!;
			const d = Math.hypot(a.ax - l.ax, a.ay - l.ay);
			if (d < bestDist) {
				bestDist = d;
				best = p;
			}
		}
		if (best) {
			best.hidden++;
			best.hiddenIds.push(l.id);
		}
	}
	return placed;
}

/**
 * Where a box of `w` x `h` goes inside `view`, starting from (x, y) and moved the least distance
 * needed (a box larger than the view keeps its top-left corner in view).
 */
export function clampBox(x: number, y: number, w: number, h: number, view: Box): Box {
	const cx = Math.max(view.x, Math.min(x, view.x + view.w - w));
	const cy = Math.max(view.y, Math.min(y, view.y + view.h - h));
	return { x: cx, y: cy, w, h };
}
