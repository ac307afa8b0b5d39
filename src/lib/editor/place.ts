// Where a zone added without drawing (from the environment-tree graph) goes: a free spot inside
// its parent, so the new zone belongs where the author asked and can be moved or resized later.

import type { ZoneKind } from '../world/doc';
import type { ZoneRect, ZoneView } from '../world/types';

/** Default sizes in tiles. */
const SIZE: Record<ZoneKind, number> = { sector: 6, arena: 3, object: 1 };

interface Grid {
	width: number;
	height: number;
	/** 1 = blocked */
	collision: ArrayLike<number>;
}

const key = (x: number, y: number) => y * 100003 + x;

function tilesOf(rects: readonly ZoneRect[]): Set<number> {
	const out = new Set<number>();
	for (const r of rects) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) out.add(key(x, y));
	return out;
}

/**
 * A rectangle for a new zone of `kind` under `parent` (undefined for a sector): the first spot,
 * scanning rows, that lies inside the parent, overlaps no sibling of the same kind, and (for an
 * object) stands on a walkable tile. Smaller sizes are tried when the default does not fit.
 */
export function placeZone(kind: ZoneKind, parent: ZoneView | undefined, zones: readonly ZoneView[], grid: Grid): ZoneRect | undefined {
	const inside = parent ? tilesOf(parent.rects) : undefined;
	const depth = kind === 'sector' ? 0 : kind === 'arena' ? 1 : 2;
	const siblings = zones.filter((z) => z.kind === kind && z.address.split(':').length === depth + 1);
	const taken = tilesOf(siblings.flatMap((z) => z.rects));
	const bounds = parent
		? parent.rects.reduce(
				(b, r) => ({ x0: Math.min(b.x0, r.x), y0: Math.min(b.y0, r.y), x1: Math.max(b.x1, r.x + r.w), y1: Math.max(b.y1, r.y + r.h) }),
				{ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }
			)
		: { x0: 0, y0: 0, x1: grid.width, y1: grid.height };
	const fits = (x: number, y: number, s: number) => {
		for (let dy = 0; dy < s; dy++)
			for (let dx = 0; dx < s; dx++) {
				const tx = x + dx;
				const ty = y + dy;
				if (tx >= grid.width || ty >= grid.height) return false;
				if (inside && !inside.has(key(tx, ty))) return false;
				if (taken.has(key(tx, ty))) return false;
				if (kind === 'object' && grid.collision[ty * grid.width + tx]) return false;
			}
		return true;
	};
	for (let s = SIZE[kind]; s >= 1; s--)
		for (let y = bounds.y0; y < bounds.y1; y++)
			for (let x = bounds.x0; x < bounds.x1; x++) if (fits(x, y, s)) return { x, y, w: s, h: s };
	return undefined;
}
