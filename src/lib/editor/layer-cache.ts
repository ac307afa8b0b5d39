// The map editor's drawing cache: every tile layer is painted once into offscreen canvases cut
// into square chunks (allocated only where the layer has tiles), and a painted cell redraws just
// that cell. The visible layers are also kept flattened, chunk by chunk, so the screen needs one
// copy per chunk whatever the number of layers; a painted cell re-flattens just that cell, and
// hiding, reordering or fading a layer re-flattens chunks as they come into view. The collision
// layer is kept as one pixel per tile, drawn scaled as a translucent overlay. Compositing copies
// the flattened chunks onto the screen canvas: everything in view, or only the changed tiles.

import type { MapDoc } from '../world/doc';
import { COLLISION_LAYER, GID_MASK } from '../world/doc';
import type { TilesetView } from '../world/types';
import { decodeGid, tileSource, tilesetFor } from '../shared/tiles';

/** Tiles, half-open: x0 <= x < x1, y0 <= y < y1. */
export interface TileBox {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

/** Where the map is on the screen canvas: screen = map px * scale + offset (CSS px). */
export interface ViewTransform {
	scale: number;
	offsetX: number;
	offsetY: number;
	/** view size in CSS px */
	width: number;
	height: number;
	/** device px per CSS px */
	ratio: number;
}

type MakeCanvas = (width: number, height: number) => HTMLCanvasElement;

const defaultCanvas: MakeCanvas = (width, height) => {
	const c = document.createElement('canvas');
	c.width = width;
	c.height = height;
	return c;
};

const COLLISION_FILL = 'rgba(220, 38, 38, 0.45)';

interface Chunk {
	canvas: HTMLCanvasElement;
	ctx: CanvasRenderingContext2D;
	/** first tile */
	x0: number;
	y0: number;
}

interface LayerEntry {
	data: number[];
	chunks: (Chunk | null)[];
	/** tells entries apart in the flattened stack's key */
	serial: number;
}

interface CollisionEntry {
	data: number[];
	canvas: HTMLCanvasElement;
	ctx: CanvasRenderingContext2D;
}

export function unionBox(a: TileBox | null, b: TileBox | null): TileBox | null {
	if (!a) return b;
	if (!b) return a;
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function intersectBox(a: TileBox, b: TileBox): TileBox | null {
	const r = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
	return r.x1 > r.x0 && r.y1 > r.y0 ? r : null;
}

/** The tiles of a `width` x `height` map that are (at least partly) in view. */
export function visibleBox(t: ViewTransform, tileWidth: number, tileHeight: number, width: number, height: number): TileBox | null {
	const tw = tileWidth * t.scale;
	const th = tileHeight * t.scale;
	if (!(tw > 0 && th > 0)) return null;
	return intersectBox(
		{
			x0: Math.floor(-t.offsetX / tw),
			y0: Math.floor(-t.offsetY / th),
			x1: Math.ceil((t.width - t.offsetX) / tw),
			y1: Math.ceil((t.height - t.offsetY) / th)
		},
		{ x0: 0, y0: 0, x1: width, y1: height }
	);
}

export class LayerCache {
	doc: MapDoc;
	/** drawImage calls made to paint tiles into the cache (a measure of redraw work) */
	tileDraws = 0;
	private tilesets: TilesetView[] = [];
	private images = new Map<string, CanvasImageSource>();
	private readonly layers = new Map<number, LayerEntry>();
	private collision: CollisionEntry | null = null;
	private serial = 0;
	/** the visible layers flattened, per chunk; `fresh` marks chunks that match the stack */
	private flat: (Chunk | null)[] = [];
	private fresh = new Uint8Array(0);
	/** the visible layers (entry serials and opacities, bottom first) the flattened chunks show */
	private stackKey = '';
	/** how many cells an oversized tile reaches right of and above its own cell */
	private spillX = 0;
	private spillY = 0;

	constructor(
		doc: MapDoc,
		private readonly make: MakeCanvas = defaultCanvas,
		readonly chunkTiles = 16
	) {
		this.doc = doc;
		this.rebuild();
	}

	/** Tileset images by tileset name; everything is redrawn with them. */
	setImages(images: Map<string, CanvasImageSource>): void {
		this.images = images;
		this.rebuild();
	}

	private get cols(): number {
		return Math.ceil(this.doc.width / this.chunkTiles);
	}

	private get rows(): number {
		return Math.ceil(this.doc.height / this.chunkTiles);
	}

	private rebuild(): void {
		this.layers.clear();
		this.collision = null;
		this.flat = new Array(this.cols * this.rows).fill(null);
		this.fresh = new Uint8Array(this.cols * this.rows);
		this.stackKey = '';
		this.tilesets = this.doc.tilesets.map((t) => t.view);
		const { tileWidth, tileHeight } = this.doc;
		let maxW = tileWidth;
		let maxH = tileHeight;
		for (const ts of this.tilesets) {
			maxW = Math.max(maxW, ts.tileWidth);
			maxH = Math.max(maxH, ts.tileHeight);
		}
		this.spillX = Math.ceil(maxW / tileWidth) - 1;
		this.spillY = Math.ceil(maxH / tileHeight) - 1;
		this.adopt();
	}

	/**
	 * Takes a new version of the document after a structural change: layers whose tile data is
	 * the same array as before keep their canvases (hiding, reordering, renaming cost nothing),
	 * others are painted anew. Returns whether anything changed.
	 */
	sync(doc: MapDoc): boolean {
		if (doc === this.doc) return false;
		const prev = this.doc;
		this.doc = doc;
		if (
			doc.width !== prev.width ||
			doc.height !== prev.height ||
			doc.tileWidth !== prev.tileWidth ||
			doc.tileHeight !== prev.tileHeight ||
			doc.tilesets !== prev.tilesets
		)
			this.rebuild();
		else this.adopt();
		return true;
	}

	private adopt(): void {
		const seen = new Set<number>();
		let collision: CollisionEntry | null = null;
		for (const l of this.doc.layers) {
			if (l.kind !== 'tile') continue;
			if (l.name === COLLISION_LAYER && !collision) {
				collision = this.collision?.data === l.data ? this.collision : this.paintCollisions(l.data);
				continue;
			}
			seen.add(l.id);
			const had = this.layers.get(l.id);
			if (had?.data === l.data) continue;
			const entry: LayerEntry = { data: l.data, chunks: new Array(this.cols * this.rows).fill(null), serial: ++this.serial };
			this.layers.set(l.id, entry);
			for (let k = 0; k < entry.chunks.length; k++) this.paintChunk(entry, k);
		}
		this.collision = collision;
		for (const id of [...this.layers.keys()]) if (!seen.has(id)) this.layers.delete(id);
		const key = this.stack()
			.map((s) => `${s.entry.serial}@${s.opacity}`)
			.join(' ');
		if (key !== this.stackKey) {
			this.stackKey = key;
			this.fresh.fill(0);
		}
	}

	/** The drawn layers, bottom first: visible tile layers other than the collision layer. */
	private stack(): { entry: LayerEntry; opacity: number }[] {
		const out: { entry: LayerEntry; opacity: number }[] = [];
		for (const l of this.doc.layers) {
			if (l.kind !== 'tile' || !l.visible || l.name === COLLISION_LAYER) continue;
			const entry = this.layers.get(l.id);
			if (entry && entry.data === l.data) out.push({ entry, opacity: l.opacity });
		}
		return out;
	}

	/** Flattened chunks allocated so far. */
	flatCount(): number {
		return this.flat.filter(Boolean).length;
	}

	/** Chunks allocated so far for a layer (empty regions have none). */
	chunkCount(layerId: number): number {
		return this.layers.get(layerId)?.chunks.filter(Boolean).length ?? 0;
	}

	// ---- painting tiles into chunks ---------------------------------------------------------------

	private chunk(entry: { chunks: (Chunk | null)[] }, k: number): Chunk {
		const have = entry.chunks[k];
		if (have) return have;
		const C = this.chunkTiles;
		const x0 = (k % this.cols) * C;
		const y0 = Math.floor(k / this.cols) * C;
		const w = Math.min(C, this.doc.width - x0);
		const h = Math.min(C, this.doc.height - y0);
		const canvas = this.make(w * this.doc.tileWidth, h * this.doc.tileHeight);
		const ctx = canvas.getContext('2d');
		if (!ctx) throw new Error('This browser cannot draw on a canvas');
		ctx.imageSmoothingEnabled = false;
		const made = { canvas, ctx, x0, y0 };
		entry.chunks[k] = made;
		return made;
	}

	private drawable(raw: number): boolean {
		if (!raw) return false;
		const ts = tilesetFor(this.tilesets, (raw & GID_MASK) >>> 0);
		return !!ts && this.images.has(ts.name);
	}

	/** Draws the tile of cell (cx, cy) into a chunk, anchored at the bottom-left of its cell as Tiled does. */
	private drawTile(c: Chunk, raw: number, cx: number, cy: number): void {
		const d = decodeGid(raw);
		const ts = tilesetFor(this.tilesets, d.gid);
		const img = ts && this.images.get(ts.name);
		if (!ts || !img) return;
		const src = tileSource(ts, d.gid);
		const { tileWidth: tw, tileHeight: th } = this.doc;
		const dx = (cx - c.x0) * tw;
		const dy = (cy + 1 - c.y0) * th - src.h;
		this.tileDraws++;
		if (!d.flipH && !d.flipV && !d.flipD) {
			c.ctx.drawImage(img, src.sx, src.sy, src.w, src.h, dx, dy, src.w, src.h);
			return;
		}
		c.ctx.save();
		c.ctx.translate(dx + src.w / 2, dy + src.h / 2);
		// Tiled applies the diagonal flip first, then horizontal and vertical; canvas transforms
		// apply in reverse call order.
		c.ctx.scale(d.flipH ? -1 : 1, d.flipV ? -1 : 1);
		if (d.flipD) c.ctx.transform(0, 1, 1, 0, 0, 0);
		c.ctx.drawImage(img, src.sx, src.sy, src.w, src.h, -src.w / 2, -src.h / 2, src.w, src.h);
		c.ctx.restore();
	}

	/** The cells whose tiles may reach into cell (x, y), in drawing order. */
	private sourcesOf(x: number, y: number, out: number[]): void {
		const W = this.doc.width;
		const H = this.doc.height;
		out.length = 0;
		for (let sy = y; sy <= Math.min(H - 1, y + this.spillY); sy++)
			for (let sx = Math.max(0, x - this.spillX); sx <= x; sx++) out.push(sy * W + sx);
	}

	/** Paints one whole chunk from the layer data (allocating it only if it has a tile). */
	private paintChunk(entry: LayerEntry, k: number): void {
		const C = this.chunkTiles;
		const W = this.doc.width;
		const H = this.doc.height;
		const x0 = (k % this.cols) * C;
		const y0 = Math.floor(k / this.cols) * C;
		const x1 = Math.min(W, x0 + C);
		const y1 = Math.min(H, y0 + C);
		const have = entry.chunks[k];
		if (have) have.ctx.clearRect(0, 0, have.canvas.width, have.canvas.height);
		let c = have;
		// rows top to bottom, left to right (Tiled's right-down order); oversized tiles from the
		// cells below and to the left reach in, and the chunk's edges clip them
		for (let y = y0; y < Math.min(H, y1 + this.spillY); y++)
			for (let x = Math.max(0, x0 - this.spillX); x < x1; x++) {
				const raw = entry.data[y * W + x];
				if (!this.drawable(raw)) continue;
				c ??= this.chunk(entry, k);
				this.drawTile(c, raw, x, y);
			}
	}

	/** Repaints single cells of one chunk. */
	private paintCells(entry: LayerEntry, k: number, cells: number[]): void {
		const W = this.doc.width;
		const { tileWidth: tw, tileHeight: th } = this.doc;
		const plain = this.spillX === 0 && this.spillY === 0;
		const sources: number[] = [];
		for (const i of cells) {
			const x = i % W;
			const y = (i - x) / W;
			let c = entry.chunks[k];
			if (plain) {
				if (c) c.ctx.clearRect((x - c.x0) * tw, (y - c.y0) * th, tw, th);
				const raw = entry.data[i];
				if (!this.drawable(raw)) continue;
				c ??= this.chunk(entry, k);
				this.drawTile(c, raw, x, y);
				continue;
			}
			this.sourcesOf(x, y, sources);
			if (!c && !sources.some((s) => this.drawable(entry.data[s]))) continue;
			c ??= this.chunk(entry, k);
			const lx = (x - c.x0) * tw;
			const ly = (y - c.y0) * th;
			c.ctx.save();
			c.ctx.beginPath();
			c.ctx.rect(lx, ly, tw, th);
			c.ctx.clip();
			c.ctx.clearRect(lx, ly, tw, th);
			for (const s of sources) if (this.drawable(entry.data[s])) this.drawTile(c, entry.data[s], s % W, Math.floor(s / W));
			c.ctx.restore();
		}
	}

	private paintCollisions(data: number[]): CollisionEntry {
		const canvas = this.make(this.doc.width, this.doc.height);
		const ctx = canvas.getContext('2d');
		if (!ctx) throw new Error('This browser cannot draw on a canvas');
		ctx.fillStyle = COLLISION_FILL;
		const W = this.doc.width;
		for (let i = 0; i < data.length; i++) if (data[i]) ctx.fillRect(i % W, Math.floor(i / W), 1, 1);
		return { data, canvas, ctx };
	}

	/** Re-flattens tiles [x0, x1) x [y0, y1) of chunk k (the whole chunk when no region is given). */
	private flatten(k: number, region?: TileBox): void {
		const stack = this.stack().filter((s) => s.entry.chunks[k]);
		let c = this.flat[k];
		if (!region) this.fresh[k] = 1;
		if (!stack.length && !region) {
			this.flat[k] = null;
			return;
		}
		if (!stack.length && !c) return;
		const holder = { chunks: this.flat };
		c ??= this.chunk(holder, k);
		const { tileWidth: tw, tileHeight: th } = this.doc;
		const x = region ? (region.x0 - c.x0) * tw : 0;
		const y = region ? (region.y0 - c.y0) * th : 0;
		const w = region ? (region.x1 - region.x0) * tw : c.canvas.width;
		const h = region ? (region.y1 - region.y0) * th : c.canvas.height;
		c.ctx.clearRect(x, y, w, h);
		for (const s of stack) {
			c.ctx.globalAlpha = s.opacity;
			c.ctx.drawImage(s.entry.chunks[k]!.canvas, x, y, w, h, x, y, w, h);
		}
		c.ctx.globalAlpha = 1;
	}

	/**
	 * Redraws the cells of a layer that changed; returns the tiles that now look different
	 * (null when the layer is not drawn). Call `sync` first when the document may have changed.
	 */
	cellsChanged(layerId: number, cells: Iterable<number>): TileBox | null {
		const layer = this.doc.layers.find((l) => l.id === layerId);
		if (!layer || layer.kind !== 'tile') return null;
		const W = this.doc.width;
		const H = this.doc.height;
		let box: TileBox | null = null;
		const grow = (x: number, y: number) => {
			if (!box) box = { x0: x, y0: y, x1: x + 1, y1: y + 1 };
			else {
				if (x < box.x0) box.x0 = x;
				if (y < box.y0) box.y0 = y;
				if (x >= box.x1) box.x1 = x + 1;
				if (y >= box.y1) box.y1 = y + 1;
			}
		};
		const coll = this.collision;
		if (coll && coll.data === layer.data) {
			for (const i of cells) {
				if (i < 0 || i >= W * H) continue;
				const x = i % W;
				const y = (i - x) / W;
				coll.ctx.clearRect(x, y, 1, 1);
				if (coll.data[i]) coll.ctx.fillRect(x, y, 1, 1);
				grow(x, y);
			}
			return box;
		}
		const entry = this.layers.get(layerId);
		if (!entry || entry.data !== layer.data) return null;
		// the cells to repaint: each changed cell and, with oversized tiles, those its tile reaches
		const targets = new Set<number>();
		for (const i of cells) {
			if (i < 0 || i >= W * H) continue;
			const x = i % W;
			const y = (i - x) / W;
			for (let ty = Math.max(0, y - this.spillY); ty <= y; ty++)
				for (let tx = x; tx <= Math.min(W - 1, x + this.spillX); tx++) targets.add(ty * W + tx);
		}
		const C = this.chunkTiles;
		const byChunk = new Map<number, number[]>();
		for (const i of targets) {
			const x = i % W;
			const y = (i - x) / W;
			grow(x, y);
			const k = Math.floor(y / C) * this.cols + Math.floor(x / C);
			const list = byChunk.get(k);
			if (list) list.push(i);
			else byChunk.set(k, [i]);
		}
		// a chunk mostly changed (a large fill) is cheaper to paint whole
		const drawn = layer.visible && this.stack().some((s) => s.entry === entry);
		for (const [k, list] of byChunk) {
			if (list.length > (C * C) / 2) this.paintChunk(entry, k);
			else this.paintCells(entry, k, list);
			if (!drawn || !this.fresh[k]) continue;
			let r: TileBox | null = null;
			for (const i of list) r = unionBox(r, { x0: i % W, y0: Math.floor(i / W), x1: (i % W) + 1, y1: Math.floor(i / W) + 1 });
			// a chunk with no flattened canvas yet is flattened whole
			if (this.flat[k]) this.flatten(k, r!);
			else this.flatten(k);
		}
		return box;
	}

	// ---- compositing ---------------------------------------------------------------------------------

	/**
	 * Draws the visible layers (and the collision overlay) onto a screen canvas whose context has
	 * no transform: the whole view, or only `dirty` tiles. Tile edges are rounded to device
	 * pixels so chunks meet without seams at any zoom.
	 */
	composite(ctx: CanvasRenderingContext2D, t: ViewTransform, showCollisions: boolean, dirty: TileBox | null = null): void {
		const { width: W, height: H, tileWidth: tw, tileHeight: th } = this.doc;
		const sx = tw * t.scale * t.ratio;
		const sy = th * t.scale * t.ratio;
		const ox = t.offsetX * t.ratio;
		const oy = t.offsetY * t.ratio;
		const fx = (x: number) => Math.round(x * sx + ox);
		const fy = (y: number) => Math.round(y * sy + oy);
		ctx.setTransform(1, 0, 0, 1, 0, 0);
		ctx.imageSmoothingEnabled = false;
		const view = visibleBox(t, tw, th, W, H);
		let box = view;
		if (dirty) {
			box = view && intersectBox(view, dirty);
			if (!box) return;
			ctx.clearRect(fx(box.x0), fy(box.y0), fx(box.x1) - fx(box.x0), fy(box.y1) - fy(box.y0));
		} else ctx.clearRect(0, 0, Math.round(t.width * t.ratio), Math.round(t.height * t.ratio));
		if (!box) return;
		const C = this.chunkTiles;
		const cols = this.cols;
		for (let cy = Math.floor(box.y0 / C); cy <= Math.floor((box.y1 - 1) / C); cy++)
			for (let cx = Math.floor(box.x0 / C); cx <= Math.floor((box.x1 - 1) / C); cx++) {
				const k = cy * cols + cx;
				if (!this.fresh[k]) this.flatten(k);
				const c = this.flat[k];
				if (!c) continue;
				const x0 = Math.max(box.x0, c.x0);
				const y0 = Math.max(box.y0, c.y0);
				const x1 = Math.min(box.x1, c.x0 + C);
				const y1 = Math.min(box.y1, c.y0 + C);
				ctx.drawImage(
					c.canvas,
					(x0 - c.x0) * tw,
					(y0 - c.y0) * th,
					(x1 - x0) * tw,
					(y1 - y0) * th,
					fx(x0),
					fy(y0),
					fx(x1) - fx(x0),
					fy(y1) - fy(y0)
				);
			}
		if (showCollisions && this.collision) {
			const { x0, y0, x1, y1 } = box;
			ctx.drawImage(this.collision.canvas, x0, y0, x1 - x0, y1 - y0, fx(x0), fy(y0), fx(x1) - fx(x0), fy(y1) - fy(y0));
		}
	}
}
