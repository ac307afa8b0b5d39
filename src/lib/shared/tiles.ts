// Tiled's global tile ids (gids): which tileset a gid belongs to, where its pixels are in the
// tileset image, and the flip flags Tiled packs into the top bits.

import type { TilesetView } from '$lib/world/types';

const FLIP_H = 0x80000000;
const FLIP_V = 0x40000000;
const FLIP_D = 0x20000000;
/** Hexagonal 120-degree rotation flag; meaningless on orthogonal maps but must be masked. */
const ROTATE_HEX = 0x10000000;
const FLAGS = FLIP_H | FLIP_V | FLIP_D | ROTATE_HEX;

export interface DecodedGid {
	gid: number;
	flipH: boolean;
	flipV: boolean;
	flipD: boolean;
}

/** Splits a raw Tiled gid into the tile id and its flip flags. */
export function decodeGid(raw: number): DecodedGid {
	// `>>> 0` keeps the value unsigned: bit 31 set arrives as a negative number from some parsers.
	const value = raw >>> 0;
	return {
		gid: (value & ~FLAGS) >>> 0,
		flipH: (value & FLIP_H) !== 0,
		flipV: (value & FLIP_V) !== 0,
		flipD: (value & FLIP_D) !== 0
	};
}

/** The tileset holding `gid`: the one with the largest firstGid not above it. */
export function tilesetFor(tilesets: readonly TilesetView[], gid: number): TilesetView | undefined {
	let found: TilesetView | undefined;
	for (const ts of tilesets) {
		if (ts.firstGid <= gid && (!found || ts.firstGid > found.firstGid)) found = ts;
	}
	if (!found || gid - found.firstGid >= found.tileCount) return undefined;
	return found;
}

export interface TileSource {
	sx: number;
	sy: number;
	w: number;
	h: number;
}

/** Source rectangle of `gid` in its tileset image, honouring the image's margin and spacing. */
export function tileSource(ts: TilesetView, gid: number): TileSource {
	const local = gid - ts.firstGid;
	const columns = Math.max(1, ts.columns);
	const margin = ts.margin ?? 0;
	const spacing = ts.spacing ?? 0;
	return {
		sx: margin + (local % columns) * (ts.tileWidth + spacing),
		sy: margin + Math.floor(local / columns) * (ts.tileHeight + spacing),
		w: ts.tileWidth,
		h: ts.tileHeight
	};
}

/** Flip bits of the map view's `flips` array: 1 horizontal, 2 vertical, 4 diagonal. */
export function decodeFlips(bits: number): { flipH: boolean; flipV: boolean; flipD: boolean } {
	return { flipH: (bits & 1) !== 0, flipV: (bits & 2) !== 0, flipD: (bits & 4) !== 0 };
}

/** URL of a file inside a world folder, each path segment encoded on its own. */
export function assetUrl(worldId: string, relPath: string): string {
	const parts = relPath.split('/').map(encodeURIComponent).join('/');
	return `/api/worlds/${encodeURIComponent(worldId)}/asset/${parts}`;
}
