import { describe, expect, it } from 'vitest';
import type { TilesetView } from '$lib/world/types';
import { assetUrl, decodeFlips, decodeGid, tileSource, tilesetFor } from './tiles';

function tileset(over: Partial<TilesetView>): TilesetView {
	return {
		name: 'ts',
		firstGid: 1,
		image: 'tilesets/ts.png',
		imageWidth: 128,
		imageHeight: 64,
		tileWidth: 32,
		tileHeight: 32,
		columns: 4,
		tileCount: 8,
		margin: 0,
		spacing: 0,
		...over
	};
}

describe('decodeGid', () => {
	it('separates the flip flags from the tile id', () => {
		expect(decodeGid(5)).toEqual({ gid: 5, flipH: false, flipV: false, flipD: false });
		expect(decodeGid(0x80000000 + 7)).toEqual({ gid: 7, flipH: true, flipV: false, flipD: false });
		expect(decodeGid(0x40000000 | 0x20000000 | 3)).toEqual({ gid: 3, flipH: false, flipV: true, flipD: true });
	});

	it('accepts a gid with bit 31 set delivered as a negative number', () => {
		expect(decodeGid((0x80000000 | 9) | 0)).toEqual({ gid: 9, flipH: true, flipV: false, flipD: false });
	});

	it('reads the flips array bits', () => {
		expect(decodeFlips(5)).toEqual({ flipH: true, flipV: false, flipD: true });
	});
});

describe('tilesetFor', () => {
	const a = tileset({ name: 'a', firstGid: 1, tileCount: 8 });
	const b = tileset({ name: 'b', firstGid: 9, tileCount: 4 });

	it('picks the tileset with the largest firstGid not above the gid', () => {
		expect(tilesetFor([b, a], 1)?.name).toBe('a');
		expect(tilesetFor([a, b], 8)?.name).toBe('a');
		expect(tilesetFor([a, b], 9)?.name).toBe('b');
	});

	it('returns nothing for gids outside every tileset', () => {
		expect(tilesetFor([a, b], 13)).toBeUndefined();
		expect(tilesetFor([b], 3)).toBeUndefined();
	});
});

describe('tileSource', () => {
	it('finds the tile by row and column', () => {
		expect(tileSource(tileset({}), 6)).toEqual({ sx: 32, sy: 32, w: 32, h: 32 });
	});

	it('honours margin and spacing', () => {
		expect(tileSource(tileset({ firstGid: 10, margin: 1, spacing: 2 }), 15)).toEqual({ sx: 35, sy: 35, w: 32, h: 32 });
	});
});

describe('assetUrl', () => {
	it('encodes each segment but keeps the separators', () => {
		expect(assetUrl('small ville', 'tilesets/room #1.png')).toBe('/api/worlds/small%20ville/asset/tilesets/room%20%231.png');
	});
});
