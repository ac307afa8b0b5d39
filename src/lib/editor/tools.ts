// The map editor's tool geometry, pure and in tiles: the cells a brush drag covers between two
// pointer samples, rectangles, flood fill, what lies under the pointer (eyedropper, zone and
// spawn picking), and moving or resizing a zone rectangle with its handles.

import { COLLISION_LAYER, ZONE_LAYER, shapeOf, type DocObjectLayer, type DocTileLayer, type MapDoc, type ZoneKind } from '../world/doc';
import type { ZoneRect, ZoneView } from '../world/types';

export interface Tile {
	x: number;
	y: number;
}

/** The tiles of a straight line from a to b, both ends included, with no diagonal gaps skipped (Bresenham). */
export function lineTiles(a: Tile, b: Tile): Tile[] {
	const out: Tile[] = [];
	let { x, y } = a;
	const dx = Math.abs(b.x - x);
	const dy = -Math.abs(b.y - y);
	const sx = x < b.x ? 1 : -1;
	const sy = y < b.y ? 1 : -1;
	let err = dx + dy;
	for (;;) {
		out.push({ x, y });
		if (x === b.x && y === b.y) return out;
		const e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y += sy;
		}
	}
}

/** Cell indices of tiles inside a `width` x `height` map (tiles outside are dropped). */
export function cellsOf(tiles: Iterable<Tile>, width: number, height: number): number[] {
	const out: number[] = [];
	for (const t of tiles) if (t.x >= 0 && t.y >= 0 && t.x < width && t.y < height) out.push(t.y * width + t.x);
	return out;
}

/** The rectangle spanned by two corner tiles (both included), in any order. */
export function rectBetween(a: Tile, b: Tile): ZoneRect {
	const x = Math.min(a.x, b.x);
	const y = Math.min(a.y, b.y);
	return { x, y, w: Math.abs(a.x - b.x) + 1, h: Math.abs(a.y - b.y) + 1 };
}

/** `rect` cut to the map; null when nothing of it is on the map. */
export function clipRect(rect: ZoneRect, width: number, height: number): ZoneRect | null {
	const x0 = Math.max(0, rect.x);
	const y0 = Math.max(0, rect.y);
	const x1 = Math.min(width, rect.x + rect.w);
	const y1 = Math.min(height, rect.y + rect.h);
	if (x1 <= x0 || y1 <= y0) return null;
	return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Cell indices of the part of `rect` on the map, row by row. */
export function rectCells(rect: ZoneRect, width: number, height: number): number[] {
	const r = clipRect(rect, width, height);
	if (!r) return [];
	const out: number[] = [];
	for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) out.push(y * width + x);
	return out;
}

/**
 * The cells connected to `start` (4-neighbours) holding the same raw gid (flip flags included),
 * in the order they were reached. Empty when `start` is off the map or already holds `gid`.
 */
export function floodFill(data: ArrayLike<number>, width: number, height: number, start: Tile, gid: number): number[] {
	if (start.x < 0 || start.y < 0 || start.x >= width || start.y >= height) return [];
	const first = start.y * width + start.x;
	const target = data[first];
	if (target === gid) return [];
	const seen = new Uint8Array(width * height);
	const out: number[] = [];
	const stack = [first];
	seen[first] = 1;
	while (stack.length) {
		const i = stack.pop()!;
		out.push(i);
		const x = i % width;
		const push = (j: number) => {
			if (!seen[j] && data[j] === target) {
				seen[j] = 1;
				stack.push(j);
			}
		};
		if (x > 0) push(i - 1);
		if (x < width - 1) push(i + 1);
		if (i >= width) push(i - width);
		if (i + width < width * height) push(i + width);
	}
	return out;
}

/**
 * The eyedropper's pick at a tile: the topmost visible, non-empty tile of the drawn layers
 * (the collisions layer is not drawn as tiles, so it is never picked), or null.
 */
export function pickTile(doc: MapDoc, t: Tile): { gid: number; layerId: number; layerName: string } | null {
	if (t.x < 0 || t.y < 0 || t.x >= doc.width || t.y >= doc.height) return null;
	const i = t.y * doc.width + t.x;
	for (let k = doc.layers.length - 1; k >= 0; k--) {
		const l = doc.layers[k];
		if (l.kind !== 'tile' || !l.visible || l.name === COLLISION_LAYER) continue;
		if (l.data[i]) return { gid: l.data[i], layerId: l.id, layerName: l.name };
	}
	return null;
}

function inRect(r: ZoneRect, t: Tile): boolean {
	return t.x >= r.x && t.y >= r.y && t.x < r.x + r.w && t.y < r.y + r.h;
}

const DEPTH: Record<ZoneKind, number> = { sector: 0, arena: 1, object: 2 };

/** The innermost zone with a rectangle under tile `t`: objects before arenas before sectors, then the smallest rectangle. */
export function zoneAt(zones: readonly ZoneView[], t: Tile): { zone: ZoneView; rect: number } | null {
	let best: { zone: ZoneView; rect: number } | null = null;
	let bestDepth = -1;
	let bestArea = Infinity;
	for (const zone of zones) {
		const depth = DEPTH[zone.kind];
		for (let k = 0; k < zone.rects.length; k++) {
			const r = zone.rects[k];
			if (!inRect(r, t)) continue;
			const area = r.w * r.h;
			if (depth > bestDepth || (depth === bestDepth && area < bestArea)) {
				best = { zone, rect: k };
				bestDepth = depth;
				bestArea = area;
			}
		}
	}
	return best;
}

/** One rectangle drawn on a zone layer, with the zone it makes (none when the analysis rejects it). */
export interface ZonePiece {
	/** map object id */
	id: number;
	kind: ZoneKind;
	name: string;
	/** tiles (fractional when the rectangle is off the grid) */
	rect: ZoneRect;
	zone: ZoneView | null;
	/** index of the rectangle in `zone.rects` */
	index: number;
}

/**
 * Every rectangle on the sectors, arenas and objects layers, including those the analysis
 * rejects (an arena outside any sector), so the editor can show and move them.
 */
export function zonePieces(doc: MapDoc, zones: readonly ZoneView[]): ZonePiece[] {
	const owner = new Map<number, { zone: ZoneView; index: number }>();
	for (const z of zones) z.ids.forEach((id, index) => id >= 0 && owner.set(id, { zone: z, index }));
	const out: ZonePiece[] = [];
	for (const kind of Object.keys(ZONE_LAYER) as ZoneKind[]) {
		const layer = doc.layers.find((l): l is DocObjectLayer => l.kind === 'object' && l.name === ZONE_LAYER[kind]);
		for (const o of layer?.objects ?? []) {
			if (shapeOf(o) !== 'rect' || !(o.width > 0 && o.height > 0)) continue;
			const rect = { x: o.x / doc.tileWidth, y: o.y / doc.tileHeight, w: o.width / doc.tileWidth, h: o.height / doc.tileHeight };
			const own = owner.get(o.id);
			out.push({ id: o.id, kind, name: o.name, rect, zone: own?.zone ?? null, index: own?.index ?? -1 });
		}
	}
	return out;
}

/** The innermost piece under tile `t`: objects before arenas before sectors, then the smallest. */
export function pieceAt(pieces: readonly ZonePiece[], t: Tile): ZonePiece | null {
	let best: ZonePiece | null = null;
	for (const p of pieces) {
		if (!inRect(p.rect, { x: t.x + 0.5, y: t.y + 0.5 })) continue;
		if (!best || DEPTH[p.kind] > DEPTH[best.kind] || (DEPTH[p.kind] === DEPTH[best.kind] && p.rect.w * p.rect.h < best.rect.w * best.rect.h))
			best = p;
	}
	return best;
}

export function spawnAt<S extends Tile>(spawns: readonly S[], t: Tile): S | null {
	return spawns.find((s) => s.x === t.x && s.y === t.y) ?? null;
}

// ---- moving and resizing a rectangle ----------------------------------------------------------

export type Handle = 'nw' | 'ne' | 'sw' | 'se';

/**
 * The resize handle of `rect` under a point given in fractional tiles, `reach` tiles around
 * each corner; null when none.
 */
export function handleAt(rect: ZoneRect, px: number, py: number, reach: number): Handle | null {
	const corners: [Handle, number, number][] = [
		['nw', rect.x, rect.y],
		['ne', rect.x + rect.w, rect.y],
		['sw', rect.x, rect.y + rect.h],
		['se', rect.x + rect.w, rect.y + rect.h]
	];
	let best: Handle | null = null;
	let bestD = reach;
	for (const [h, cx, cy] of corners) {
		const d = Math.max(Math.abs(px - cx), Math.abs(py - cy));
		if (d <= bestD) {
			best = h;
			bestD = d;
		}
	}
	return best;
}

/** `rect` shifted by (dx, dy) tiles, kept inside the map. */
export function moveRect(rect: ZoneRect, dx: number, dy: number, width: number, height: number): ZoneRect {
	const x = Math.max(0, Math.min(width - rect.w, rect.x + dx));
	const y = Math.max(0, Math.min(height - rect.h, rect.y + dy));
	return { ...rect, x, y };
}

/**
 * `rect` with the corner `handle` dragged to the grid point nearest (px, py) (fractional
 * tiles); the opposite corner stays, the rectangle keeps at least one tile and stays on the map.
 */
export function resizeRect(rect: ZoneRect, handle: Handle, px: number, py: number, width: number, height: number): ZoneRect {
	const gx = Math.max(0, Math.min(width, Math.round(px)));
	const gy = Math.max(0, Math.min(height, Math.round(py)));
	let x0 = rect.x;
	let y0 = rect.y;
	let x1 = rect.x + rect.w;
	let y1 = rect.y + rect.h;
	if (handle === 'nw' || handle === 'sw') x0 = Math.min(gx, x1 - 1);
	else x1 = Math.max(gx, x0 + 1);
	if (handle === 'nw' || handle === 'ne') y0 = Math.min(gy, y1 - 1);
	else y1 = Math.max(gy, y0 + 1);
	return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

export function sameRect(a: ZoneRect, b: ZoneRect): boolean {
	return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

function containsRect(outer: ZoneRect, inner: ZoneRect): boolean {
	return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

/**
 * The object ids and rectangles that move with one rectangle of `zone`: the rectangle itself and
 * every rectangle of the zone's descendants (by address) lying inside it, so moving a sector's
 * room moves its arenas and objects along.
 */
export function carriedRects(zones: readonly ZoneView[], zone: ZoneView, rectIndex: number): { id: number; rect: ZoneRect }[] {
	const own = zone.rects[rectIndex];
	const out = [{ id: zone.ids[rectIndex], rect: own }];
	for (const z of zones) {
		if (!z.address.startsWith(zone.address + ':')) continue;
		z.rects.forEach((r, k) => {
			if (z.ids[k] >= 0 && containsRect(own, r)) out.push({ id: z.ids[k], rect: r });
		});
	}
	return out.filter((o) => o.id >= 0);
}

/** The layer a tile tool paints on, or why it cannot. */
export function paintTarget(doc: MapDoc, activeLayerId: number | null): DocTileLayer | string {
	const l = doc.layers.find((x) => x.id === activeLayerId);
	if (!l) return 'choose a layer to paint on';
	if (l.kind !== 'tile') return `"${l.name}" is not a tile layer: choose a tile layer to paint on`;
	return l;
}
