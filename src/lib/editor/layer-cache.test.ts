import { describe, expect, it } from 'vitest';
import type { DocTileLayer, MapDoc } from '../world/doc';
import { EditorState } from './editor.svelte';
import * as E from './edits';
import { LayerCache, visibleBox, type ViewTransform } from './layer-cache';
import { testDoc } from './testing';

/** A stand-in for a 2D canvas context that records what is drawn. */
class FakeContext {
	ops: string[] = [];
	draws: { src: unknown; args: number[] }[] = [];
	fillStyle = '';
	globalAlpha = 1;
	imageSmoothingEnabled = true;
	constructor(readonly canvas: FakeCanvas) {}
	clearRect(...a: number[]) {
		this.ops.push(`clear ${a.join(',')}`);
	}
	fillRect(...a: number[]) {
		this.ops.push(`fill ${a.join(',')}`);
	}
	drawImage(src: unknown, ...args: number[]) {
		this.draws.push({ src, args });
		this.ops.push(`draw@${this.globalAlpha}`);
	}
	setTransform() {}
	save() {}
	restore() {}
	translate() {}
	scale() {}
	transform() {}
	beginPath() {}
	rect() {}
	clip() {}
}

class FakeCanvas {
	ctx: FakeContext;
	constructor(
		public width: number,
		public height: number
	) {
		this.ctx = new FakeContext(this);
	}
	getContext() {
		return this.ctx;
	}
}

const made: FakeCanvas[] = [];
const make = (w: number, h: number) => {
	const c = new FakeCanvas(w, h);
	made.push(c);
	return c as unknown as HTMLCanvasElement;
};
const image = { name: 'town image' } as unknown as CanvasImageSource;

function cacheOf(doc: MapDoc, chunk = 4) {
	const cache = new LayerCache(doc, make, chunk);
	cache.setImages(new Map([['town', image]]));
	return cache;
}

const view = (over: Partial<ViewTransform> = {}): ViewTransform => ({ scale: 1, offsetX: 0, offsetY: 0, width: 1000, height: 1000, ratio: 1, ...over });

describe('LayerCache', () => {
	it('paints each tile once and allocates chunks only where a layer has tiles', () => {
		const doc = testDoc({ width: 10, height: 6, extraTileLayers: 1 });
		const detail = doc.layers[1] as DocTileLayer;
		detail.data[0] = 3;
		const cache = cacheOf(doc);
		// ground: 60 tiles in 3 x 2 chunks of 4 x 4; the detail layer only needs its first chunk
		expect(cache.tileDraws).toBe(61);
		expect(cache.chunkCount(1)).toBe(6);
		expect(cache.chunkCount(detail.id)).toBe(1);
	});

	it('waits for the tileset images before drawing anything', () => {
		const cache = new LayerCache(testDoc(), make, 4);
		expect(cache.tileDraws).toBe(0);
		expect(cache.chunkCount(1)).toBe(0);
	});

	it('redraws only the painted cells and reports the box to composite', () => {
		const ed = new EditorState(testDoc({ width: 10, height: 6 }));
		const cache = cacheOf(ed.doc);
		const before = cache.tileDraws;
		let box = null;
		ed.onTiles((layer, cells) => (box = cache.cellsChanged(layer, cells)));
		ed.beginStroke(1);
		ed.paint([12, 13, 25], 7);
		expect(cache.tileDraws - before).toBe(3);
		expect(box).toEqual({ x0: 2, y0: 1, x1: 6, y1: 3 });
		ed.paint([13], 0);
		// erased: cleared, nothing drawn
		expect(cache.tileDraws - before).toBe(3);
		ed.endStroke();
	});

	it('paints a mostly changed chunk whole', () => {
		const ed = new EditorState(testDoc({ width: 8, height: 8 }));
		const cache = cacheOf(ed.doc);
		const before = cache.tileDraws;
		// the whole first 4 x 4 chunk
		const cells = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
		ed.onTiles((layer, c) => cache.cellsChanged(layer, c));
		ed.paintAll(1, cells, 9, 'Fill');
		expect(cache.tileDraws - before).toBe(16);
	});

	it('keeps layer canvases through structural edits that do not touch tiles', () => {
		const ed = new EditorState(testDoc({ width: 8, height: 8, extraTileLayers: 1 }));
		const cache = cacheOf(ed.doc);
		const before = cache.tileDraws;
		ed.edit('Hide', (s) => E.setLayerVisible(s, 1, false));
		ed.edit('Rename', (s) => E.renameLayer(s, 1, 'grass'));
		ed.edit('Move', (s) => E.moveLayer(s, 1, 1));
		expect(cache.sync(ed.doc)).toBe(true);
		expect(cache.tileDraws).toBe(before);
		expect(cache.sync(ed.doc)).toBe(false);
		// a new empty layer costs nothing; deleting and restoring a layer paints it again
		ed.edit('Add', (s) => E.addLayer(s, ed.doc, 'tile', 'new', 1).shape);
		cache.sync(ed.doc);
		expect(cache.tileDraws).toBe(before);
		ed.edit('Delete', (s) => E.deleteLayer(s, 1));
		cache.sync(ed.doc);
		expect(cache.chunkCount(1)).toBe(0);
		ed.undo();
		cache.sync(ed.doc);
		expect(cache.tileDraws).toBe(before + 64);
	});

	it('flattens the visible layers in order with their opacity, skipping hidden ones', () => {
		const doc = testDoc({ width: 4, height: 4, extraTileLayers: 2 });
		(doc.layers[1] as DocTileLayer).data.fill(2);
		(doc.layers[2] as DocTileLayer).data.fill(3);
		doc.layers[1].opacity = 0.5;
		doc.layers[2].visible = false;
		const cache = cacheOf(doc);
		const screen = new FakeCanvas(100, 100);
		made.length = 0;
		cache.composite(screen.ctx as unknown as CanvasRenderingContext2D, view(), false);
		// one copy to the screen, from the one flattened chunk: ground, then the faded layer
		expect(screen.ctx.ops).toEqual(['clear 0,0,1000,1000', 'draw@1']);
		expect(made).toHaveLength(1);
		expect(made[0].ctx.ops).toEqual(['clear 0,0,128,128', 'draw@1', 'draw@0.5']);
		expect(cache.flatCount()).toBe(1);
	});

	it('re-flattens only the painted cells, and everything once the stack changes', () => {
		const ed = new EditorState(testDoc({ width: 8, height: 8, extraTileLayers: 1 }));
		const cache = cacheOf(ed.doc);
		ed.onTiles((layer, c) => cache.cellsChanged(layer, c));
		const screen = new FakeCanvas(100, 100);
		const ctx = screen.ctx as unknown as CanvasRenderingContext2D;
		made.length = 0;
		cache.composite(ctx, view(), false);
		const flat = made[0];
		expect(made).toHaveLength(4);
		flat.ctx.ops = [];
		ed.paintAll(2, [9], 5, 'Paint');
		// cell (1, 1) of the first chunk: cleared and redrawn from both layers
		expect(flat.ctx.ops).toEqual(['clear 32,32,32,32', 'draw@1', 'draw@1']);
		flat.ctx.ops = [];
		ed.edit('Hide', (s) => E.setLayerVisible(s, 1, false));
		cache.sync(ed.doc);
		expect(flat.ctx.ops).toEqual([]);
		cache.composite(ctx, view(), false);
		expect(flat.ctx.ops).toEqual(['clear 0,0,128,128', 'draw@1']);
	});

	it('draws the collision overlay one pixel per tile, scaled, only when asked', () => {
		const ed = new EditorState(testDoc({ width: 4, height: 4 }));
		const cache = cacheOf(ed.doc);
		ed.onTiles((layer, c) => cache.cellsChanged(layer, c));
		const coll = ed.collisionLayerId();
		ed.paintAll(coll, [5], 1, 'Paint collisions');
		const overlay = made.find((c) => c.width === 4 && c.height === 4 && c.ctx.ops.includes('fill 1,1,1,1'));
		expect(overlay).toBeDefined();
		const screen = new FakeCanvas(100, 100);
		const ctx = screen.ctx as unknown as CanvasRenderingContext2D;
		cache.composite(ctx, view({ scale: 0.5 }), false);
		expect(screen.ctx.draws.some((d) => d.src === overlay)).toBe(false);
		cache.composite(ctx, view({ scale: 0.5 }), true);
		const last = screen.ctx.draws.at(-1)!;
		expect(last.src).toBe(overlay);
		// the 4 x 4 pixels stretched over 4 tiles of 32 px at half size
		expect(last.args).toEqual([0, 0, 4, 4, 0, 0, 64, 64]);
	});

	it('composites only the dirty tiles, on device pixels', () => {
		const doc = testDoc({ width: 8, height: 8 });
		const cache = cacheOf(doc);
		const screen = new FakeCanvas(100, 100);
		cache.composite(screen.ctx as unknown as CanvasRenderingContext2D, view({ scale: 0.5, offsetX: 10.3, ratio: 2 }), false, {
			x0: 3,
			y0: 5,
			x1: 5,
			y1: 6
		});
		// tiles 3..4 span two chunks: one copy from each, cut to the dirty tiles
		expect(screen.ctx.ops[0]).toBe('clear 117,160,64,32');
		expect(screen.ctx.draws.map((d) => d.args)).toEqual([
			[96, 32, 32, 32, 117, 160, 32, 32],
			[0, 32, 32, 32, 149, 160, 32, 32]
		]);
	});

	it('redraws the cells an oversized tile reaches into, clipped to each cell', () => {
		const doc = testDoc({ width: 6, height: 6, extraTileLayers: 1 });
		// a second tileset of 32 x 64 px trees: a tree reaches one cell above its own
		doc.tilesets.push({
			firstGid: 200,
			view: { ...doc.tilesets[0].view, name: 'trees', firstGid: 200, tileHeight: 64, tileCount: 4, imageHeight: 64, columns: 4, imageWidth: 128 }
		});
		const ed = new EditorState(doc);
		const cache = new LayerCache(ed.doc, make, 4);
		cache.setImages(
			new Map([
				['town', image],
				['trees', image]
			])
		);
		const before = cache.tileDraws;
		let box = null;
		ed.onTiles((layer, c) => (box = cache.cellsChanged(layer, c)));
		// a tree on (2, 3): its own cell and the one above are repainted, one draw each
		ed.paintAll(2, [3 * 6 + 2], 200, 'Paint');
		expect(box).toEqual({ x0: 2, y0: 2, x1: 3, y1: 4 });
		expect(cache.tileDraws - before).toBe(2);
	});

	it('knows which tiles are in view', () => {
		expect(visibleBox(view({ width: 100, height: 50, offsetX: -40, offsetY: 10 }), 32, 32, 10, 8)).toEqual({ x0: 1, y0: 0, x1: 5, y1: 2 });
		expect(visibleBox(view({ width: 100, height: 50, offsetX: 2000 }), 32, 32, 10, 8)).toBeNull();
	});
});
