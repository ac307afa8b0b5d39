import { describe, expect, it } from 'vitest';
import type { ZoneView } from '../world/types';
import { EditorState } from './editor.svelte';
import { rectObject, testDoc } from './testing';
import type { DocObjectLayer } from '../world/doc';
import {
	carriedRects,
	cellsOf,
	clipRect,
	floodFill,
	handleAt,
	lineTiles,
	moveRect,
	paintTarget,
	pickTile,
	pieceAt,
	zonePieces,
	rectBetween,
	rectCells,
	resizeRect,
	zoneAt
} from './tools';

/** every consecutive pair of tiles touches (8-neighbour), so a drag leaves no gap */
function connected(tiles: { x: number; y: number }[]): boolean {
	return tiles.every((t, i) => i === 0 || Math.max(Math.abs(t.x - tiles[i - 1].x), Math.abs(t.y - tiles[i - 1].y)) === 1);
}

describe('lineTiles', () => {
	it('is a single tile when both ends are the same', () => {
		expect(lineTiles({ x: 3, y: 4 }, { x: 3, y: 4 })).toEqual([{ x: 3, y: 4 }]);
	});

	it('covers a horizontal, vertical and diagonal line end to end', () => {
		expect(lineTiles({ x: 0, y: 0 }, { x: 3, y: 0 })).toEqual([0, 1, 2, 3].map((x) => ({ x, y: 0 })));
		expect(lineTiles({ x: 2, y: 5 }, { x: 2, y: 2 })).toEqual([5, 4, 3, 2].map((y) => ({ x: 2, y })));
		expect(lineTiles({ x: 0, y: 0 }, { x: 3, y: 3 })).toEqual([0, 1, 2, 3].map((k) => ({ x: k, y: k })));
	});

	it('leaves no gap on a fast, steep drag in any direction', () => {
		for (const [a, b] of [
			[{ x: 0, y: 0 }, { x: 7, y: 30 }],
			[{ x: 40, y: 3 }, { x: -5, y: 11 }],
			[{ x: 9, y: 9 }, { x: 0, y: -20 }]
		]) {
			const line = lineTiles(a, b);
			expect(line[0]).toEqual(a);
			expect(line.at(-1)).toEqual(b);
			expect(connected(line)).toBe(true);
			// one tile per step along the longer axis: no tile twice, none skipped
			expect(line.length).toBe(Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)) + 1);
		}
	});
});

describe('rectangles', () => {
	it('spans two corners given in any order', () => {
		expect(rectBetween({ x: 5, y: 1 }, { x: 2, y: 4 })).toEqual({ x: 2, y: 1, w: 4, h: 4 });
		expect(rectBetween({ x: 2, y: 2 }, { x: 2, y: 2 })).toEqual({ x: 2, y: 2, w: 1, h: 1 });
	});

	it('clips to the map and lists cells row by row', () => {
		expect(clipRect({ x: -2, y: 6, w: 4, h: 5 }, 10, 8)).toEqual({ x: 0, y: 6, w: 2, h: 2 });
		expect(clipRect({ x: 10, y: 0, w: 3, h: 3 }, 10, 8)).toBeNull();
		expect(rectCells({ x: 8, y: 6, w: 5, h: 5 }, 10, 8)).toEqual([68, 69, 78, 79]);
		expect(rectCells({ x: -5, y: -5, w: 2, h: 2 }, 10, 8)).toEqual([]);
	});

	it('drops tiles off the map when turning tiles into cells', () => {
		expect(cellsOf([{ x: -1, y: 0 }, { x: 0, y: 0 }, { x: 9, y: 7 }, { x: 10, y: 7 }, { x: 3, y: 8 }], 10, 8)).toEqual([0, 79]);
	});
});

describe('floodFill', () => {
	// 5 x 4, a wall of 2s splitting the 0s into a left and a right part
	const W = 5;
	const H = 4;
	const data = [
		0, 0, 2, 0, 0,
		0, 0, 2, 0, 0,
		0, 0, 2, 2, 2,
		0, 0, 2, 0, 0
	];

	it('fills the 4-connected region of the same gid only', () => {
		const cells = floodFill(data, W, H, { x: 0, y: 0 }, 7);
		expect(cells.sort((a, b) => a - b)).toEqual([0, 1, 5, 6, 10, 11, 15, 16]);
	});

	it('does not leak through a diagonal gap', () => {
		// right part: (3,0),(4,0),(3,1),(4,1); the (3,3),(4,3) pair touches it only through the wall
		const cells = floodFill(data, W, H, { x: 4, y: 0 }, 7);
		expect(cells.sort((a, b) => a - b)).toEqual([3, 4, 8, 9]);
	});

	it('does nothing when the start already holds the gid, or is off the map', () => {
		expect(floodFill(data, W, H, { x: 2, y: 1 }, 2)).toEqual([]);
		expect(floodFill(data, W, H, { x: 5, y: 0 }, 7)).toEqual([]);
		expect(floodFill(data, W, H, { x: 0, y: -1 }, 7)).toEqual([]);
	});

	it('treats flipped tiles as different gids', () => {
		const flipped = [1, 1, 0x80000001, 1];
		expect(floodFill(flipped, 4, 1, { x: 0, y: 0 }, 3).sort()).toEqual([0, 1]);
	});

	it('fills a whole 140 x 100 map without recursion limits', () => {
		const big = new Array(140 * 100).fill(1);
		expect(floodFill(big, 140, 100, { x: 70, y: 50 }, 2)).toHaveLength(14000);
	});
});

describe('pickTile (eyedropper)', () => {
	it('takes the topmost visible non-empty tile, skipping hidden layers and collisions', () => {
		const doc = testDoc({ width: 4, height: 4, extraTileLayers: 2, ground: 5 });
		const [ground, d1, d2, coll] = doc.layers.filter((l) => l.kind === 'tile');
		d1.data[5] = 9;
		d2.data[5] = 12;
		coll.data[5] = 1;
		coll.visible = true;
		expect(pickTile(doc, { x: 1, y: 1 })).toEqual({ gid: 12, layerId: d2.id, layerName: 'detail 2' });
		d2.visible = false;
		expect(pickTile(doc, { x: 1, y: 1 })?.gid).toBe(9);
		expect(pickTile(doc, { x: 0, y: 0 })).toEqual({ gid: 5, layerId: ground.id, layerName: 'ground' });
		expect(pickTile(doc, { x: 4, y: 0 })).toBeNull();
	});
});

const zones: ZoneView[] = [
	{ kind: 'sector', name: 'House', address: 'House', rects: [{ x: 0, y: 0, w: 8, h: 6 }, { x: 8, y: 0, w: 2, h: 2 }], ids: [1, 2] },
	{ kind: 'arena', name: 'kitchen', address: 'House:kitchen', rects: [{ x: 1, y: 1, w: 3, h: 3 }], ids: [3] },
	{ kind: 'object', name: 'stove', address: 'House:kitchen:stove', rects: [{ x: 1, y: 1, w: 1, h: 1 }], ids: [4] },
	{ kind: 'arena', name: 'hall', address: 'House:hall', rects: [{ x: 5, y: 0, w: 5, h: 2 }], ids: [5] },
	{ kind: 'sector', name: 'Park', address: 'Park', rects: [{ x: 0, y: 6, w: 4, h: 2 }], ids: [6] }
];

describe('zoneAt', () => {
	it('picks the innermost zone under a tile', () => {
		expect(zoneAt(zones, { x: 1, y: 1 })?.zone.address).toBe('House:kitchen:stove');
		expect(zoneAt(zones, { x: 2, y: 2 })?.zone.address).toBe('House:kitchen');
		expect(zoneAt(zones, { x: 6, y: 4 })?.zone.address).toBe('House');
		expect(zoneAt(zones, { x: 9, y: 5 })).toBeNull();
	});

	it('tells which rectangle of the zone was hit', () => {
		expect(zoneAt([zones[0]], { x: 9, y: 1 })).toEqual({ zone: zones[0], rect: 1 });
	});
});

describe('moving and resizing', () => {
	const r = { x: 2, y: 2, w: 3, h: 2 };

	it('finds the corner handle near a point', () => {
		expect(handleAt(r, 2.1, 2.1, 0.4)).toBe('nw');
		expect(handleAt(r, 5, 4.2, 0.4)).toBe('se');
		expect(handleAt(r, 3.5, 3, 0.4)).toBeNull();
	});

	it('keeps a moved rectangle on the map', () => {
		expect(moveRect(r, 3, 1, 10, 8)).toEqual({ x: 5, y: 3, w: 3, h: 2 });
		expect(moveRect(r, 20, -9, 10, 8)).toEqual({ x: 7, y: 0, w: 3, h: 2 });
	});

	it('resizes from a corner, never below one tile, never off the map', () => {
		expect(resizeRect(r, 'se', 7.2, 6.6, 10, 8)).toEqual({ x: 2, y: 2, w: 5, h: 5 });
		expect(resizeRect(r, 'nw', 0.4, 1, 10, 8)).toEqual({ x: 0, y: 1, w: 5, h: 3 });
		expect(resizeRect(r, 'ne', 0, 9, 10, 8)).toEqual({ x: 2, y: 3, w: 1, h: 1 });
		expect(resizeRect(r, 'sw', -3, 30, 10, 8)).toEqual({ x: 0, y: 2, w: 5, h: 6 });
	});

	it('carries the zones inside a moved rectangle along', () => {
		const moved = carriedRects(zones, zones[0], 0).map((c) => c.id).sort();
		// the kitchen and stove lie inside the first rectangle; the hall sticks out of it
		expect(moved).toEqual([1, 3, 4]);
		expect(carriedRects(zones, zones[0], 1).map((c) => c.id)).toEqual([2]);
		expect(carriedRects(zones, zones[2], 0).map((c) => c.id)).toEqual([4]);
	});
});

describe('paintTarget', () => {
	it('accepts a tile layer and explains anything else', () => {
		const doc = testDoc();
		expect(paintTarget(doc, 1)).toMatchObject({ name: 'ground' });
		const sectors = doc.layers.find((l) => l.name === 'sectors')!;
		expect(paintTarget(doc, sectors.id)).toBe('"sectors" is not a tile layer: choose a tile layer to paint on');
		expect(paintTarget(doc, null)).toBe('choose a layer to paint on');
	});
});

describe('zonePieces', () => {
	it('lists every zone rectangle, with its zone, including ones the analysis rejects', () => {
		const ed = new EditorState(testDoc({ width: 12, height: 10 }));
		ed.addZone('sector', 'House', { x: 0, y: 0, w: 6, h: 6 });
		ed.addZone('arena', 'kitchen', { x: 1, y: 1, w: 2, h: 2 });
		// an arena outside every sector: not part of the tree
		ed.addZone('arena', 'shed', { x: 8, y: 8, w: 2, h: 2 });
		const pieces = zonePieces(ed.doc, ed.analysis.zones);
		expect(pieces.map((p) => [p.kind, p.name, p.zone?.address ?? null])).toEqual([
			['sector', 'House', 'House'],
			['arena', 'kitchen', 'House:kitchen'],
			['arena', 'shed', null]
		]);
		expect(pieceAt(pieces, { x: 1, y: 2 })?.name).toBe('kitchen');
		expect(pieceAt(pieces, { x: 4, y: 4 })?.name).toBe('House');
		expect(pieceAt(pieces, { x: 9, y: 9 })?.name).toBe('shed');
		expect(pieceAt(pieces, { x: 7, y: 0 })).toBeNull();
	});

	it('skips points and shapes that are not rectangles', () => {
		const doc = testDoc();
		const sectors = doc.layers.find((l) => l.name === 'sectors') as DocObjectLayer;
		sectors.objects.push(rectObject(1, 'A', 0, 0, 2, 2));
		sectors.objects.push({ ...rectObject(2, 'B', 3, 3, 0, 0), shape: [{ name: 'point', attrs: {}, children: [], text: '', line: 0 }] });
		sectors.objects.push({ ...rectObject(3, 'C', 3, 3, 2, 2), shape: [{ name: 'ellipse', attrs: {}, children: [], text: '', line: 0 }] });
		expect(zonePieces(doc, []).map((p) => p.name)).toEqual(['A']);
	});
});
