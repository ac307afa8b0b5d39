// Drawing the town: tile layers are painted once into an offscreen canvas (the "base"), so
// panning and zooming only copy that canvas and draw the few agents on top.

import type { MapLayerView, MapView, TilesetView } from '$lib/world/types';
import { assetUrl, decodeFlips, decodeGid, tileSource, tilesetFor } from '$lib/shared/tiles';
import type { MapAgent, ObjectBadge } from './map-host';
import { clampBox, intersects, placeLabels, type Box, type PlacedLabel } from './labels';

export const COLLISION_LAYER = 'collisions';

export interface TilesetImages {
	images: Map<string, HTMLImageElement>;
	/** tileset images that could not be loaded, as readable messages */
	failed: string[];
}

function loadImage(src: string): Promise<HTMLImageElement> {
	return new Promise((resolve, reject) => {
		const img = new Image();
		img.decoding = 'async';
		img.onload = () => resolve(img);
		img.onerror = () => reject(new Error(`could not load ${src}`));
		img.src = src;
	});
}

export async function loadTilesetImages(worldId: string, tilesets: readonly TilesetView[]): Promise<TilesetImages> {
	const images = new Map<string, HTMLImageElement>();
	const failed: string[] = [];
	await Promise.all(
		tilesets.map(async (ts) => {
			try {
				images.set(ts.name, await loadImage(assetUrl(worldId, ts.image)));
			} catch {
				failed.push(`Tileset "${ts.name}": image ${ts.image} could not be loaded`);
			}
		})
	);
	return { images, failed };
}

/** Largest side of the offscreen canvas; bigger maps are painted at a reduced resolution. */
const MAX_BASE_SIDE = 8192;

export interface BaseLayer {
	canvas: HTMLCanvasElement;
	/** offscreen pixels per map pixel (1 unless the map is very large) */
	resolution: number;
}

function newCanvas(map: MapView): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; resolution: number } {
	const w = map.width * map.tileWidth;
	const h = map.height * map.tileHeight;
	const resolution = Math.min(1, MAX_BASE_SIDE / Math.max(w, h));
	const canvas = document.createElement('canvas');
	canvas.width = Math.max(1, Math.ceil(w * resolution));
	canvas.height = Math.max(1, Math.ceil(h * resolution));
	const ctx = canvas.getContext('2d');
	if (!ctx) throw new Error('This browser cannot draw on a canvas');
	ctx.imageSmoothingEnabled = false;
	ctx.scale(resolution, resolution);
	return { canvas, ctx, resolution };
}

function drawLayer(
	ctx: CanvasRenderingContext2D,
	map: MapView,
	layer: MapLayerView,
	images: Map<string, HTMLImageElement>
): void {
	ctx.globalAlpha = layer.opacity;
	for (let i = 0; i < layer.data.length; i++) {
		const raw = layer.data[i];
		if (!raw) continue;
		// The loader strips flip flags into `flips`; raw Tiled gids carry them in the top bits.
		const decoded = decodeGid(raw);
		const gid = decoded.gid;
		const extra = layer.flips ? decodeFlips(layer.flips[i] ?? 0) : null;
		const flipH = decoded.flipH || (extra?.flipH ?? false);
		const flipV = decoded.flipV || (extra?.flipV ?? false);
		const flipD = decoded.flipD || (extra?.flipD ?? false);
		const ts = tilesetFor(map.tilesets, gid);
		const img = ts && images.get(ts.name);
		if (!ts || !img) continue;
		const src = tileSource(ts, gid);
		const col = i % map.width;
		const row = Math.floor(i / map.width);
		// Tiled anchors tiles at the bottom-left of their cell (matters for oversized tiles).
		const dx = col * map.tileWidth;
		const dy = (row + 1) * map.tileHeight - src.h;
		if (!flipH && !flipV && !flipD) {
			ctx.drawImage(img, src.sx, src.sy, src.w, src.h, dx, dy, src.w, src.h);
			continue;
		}
		ctx.save();
		ctx.translate(dx + src.w / 2, dy + src.h / 2);
		// Tiled applies the diagonal flip first, then horizontal and vertical; canvas transforms
		// apply in reverse call order.
		ctx.scale(flipH ? -1 : 1, flipV ? -1 : 1);
		if (flipD) ctx.transform(0, 1, 1, 0, 0, 0);
		ctx.drawImage(img, src.sx, src.sy, src.w, src.h, -src.w / 2, -src.h / 2, src.w, src.h);
		ctx.restore();
	}
	ctx.globalAlpha = 1;
}

/** Paints the visible tile layers, in order, except the collision layer. */
export function renderBase(map: MapView, images: Map<string, HTMLImageElement>): BaseLayer {
	const { canvas, ctx, resolution } = newCanvas(map);
	for (const layer of map.layers) {
		if (!layer.visible || layer.name === COLLISION_LAYER) continue;
		drawLayer(ctx, map, layer, images);
	}
	return { canvas, resolution };
}

/** Blocked tiles as a translucent red overlay, or null when the map has no collision layer. */
export function renderCollisions(map: MapView): BaseLayer | null {
	const layer = map.layers.find((l) => l.name === COLLISION_LAYER);
	if (!layer) return null;
	const { canvas, ctx, resolution } = newCanvas(map);
	ctx.fillStyle = 'rgba(220, 38, 38, 0.45)';
	for (let i = 0; i < layer.data.length; i++) {
		if (!layer.data[i]) continue;
		ctx.fillRect((i % map.width) * map.tileWidth, Math.floor(i / map.width) * map.tileHeight, map.tileWidth, map.tileHeight);
	}
	return { canvas, resolution };
}

/** A stable colour per agent, so a person keeps their colour between sessions. */
export function agentColor(id: string): string {
	let h = 0;
	for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
	return `hsl(${h % 360} 70% 45%)`;
}

export interface AgentDrawOptions {
	scale: number;
	tileWidth: number;
	tileHeight: number;
	selected: string | null;
	/** the part of the map on screen (world pixels): labels and bubbles stay inside it */
	view?: Box;
}

/** Marker radius in world pixels: readable at any zoom, never larger than about a tile. */
export function markerRadius(scale: number, tileWidth: number): number {
	return Math.max(5, Math.min(tileWidth * scale * 0.45, 16)) / scale;
}

/**
 * Where each agent's marker goes (world pixels): the centre of its tile, with agents that share
 * a tile spread side by side so none hides another.
 */
export function agentCenters(
	agents: readonly MapAgent[],
	tileWidth: number,
	tileHeight: number,
	radius: number
): Map<string, { cx: number; cy: number }> {
	const byTile = new Map<string, MapAgent[]>();
	for (const a of agents) {
		const key = `${a.x},${a.y}`;
		const list = byTile.get(key);
		if (list) list.push(a);
		else byTile.set(key, [a]);
	}
	const out = new Map<string, { cx: number; cy: number }>();
	for (const list of byTile.values()) {
		list.forEach((a, i) => {
			const shift = (i - (list.length - 1) / 2) * radius * 2.1;
			out.set(a.id, { cx: (a.x + 0.5) * tileWidth + shift, cy: (a.y + 0.5) * tileHeight });
		});
	}
	return out;
}

/** Draws agents in world coordinates (the context is already transformed). */
export function drawAgents(ctx: CanvasRenderingContext2D, agents: readonly MapAgent[], opts: AgentDrawOptions): DrawnLabels {
	const { scale, tileWidth, tileHeight, selected, view } = opts;
	// Keep markers and labels readable at any zoom: sizes are in screen pixels.
	const radius = markerRadius(scale, tileWidth);
	const font = 12 / scale;
	const pad = 3 / scale;
	ctx.textAlign = 'center';
	ctx.textBaseline = 'top';
	const ordered = [...agents].sort((a, b) => Number(a.id === selected) - Number(b.id === selected));
	const centers = agentCenters(agents, tileWidth, tileHeight, radius);
	ctx.font = `600 ${font}px system-ui, sans-serif`;
	const labelOf = (a: MapAgent) => (a.id === selected ? a.name : a.firstName);
	// Names are placed so that none covers another (agents sharing a home stack or are counted).
	const placed = placeLabels(
		agents.map((a) => {
			const { cx, cy } = centers.get(a.id)!;
			return {
				id: a.id,
				ax: cx,
				ay: cy,
				r: a.id === selected ? radius * 1.3 : radius,
				w: ctx.measureText(labelOf(a)).width + 2 * pad,
				h: font + 3 / scale,
				priority: a.id === selected
			};
		}),
		{ gap: 1 / scale, view }
	);
	const placedById = new Map(placed.map((p) => [p.id, p]));
	const emoji: (Box & { id: string })[] = [];
	for (const agent of ordered) {
		const { cx, cy } = centers.get(agent.id)!;
		const isSelected = agent.id === selected;
		const r = isSelected ? radius * 1.3 : radius;
		ctx.beginPath();
		ctx.arc(cx, cy, r, 0, Math.PI * 2);
		ctx.fillStyle = agentColor(agent.id);
		ctx.fill();
		ctx.lineWidth = (isSelected ? 3 : 1.5) / scale;
		ctx.strokeStyle = isSelected ? '#facc15' : '#ffffff';
		ctx.stroke();

		if (agent.emoji) {
			const size = 15 / scale;
			ctx.font = `${size}px ${EMOJI_FONTS}`;
			ctx.textAlign = 'center';
			ctx.textBaseline = 'bottom';
			const bottom = cy - r - 1 / scale;
			ctx.fillText(agent.emoji, cx, bottom);
			const w = Math.max(ctx.measureText(agent.emoji).width, size);
			emoji.push({ id: agent.id, x: cx - w / 2, y: bottom - size * 1.2, w, h: size * 1.2 });
		}
	}
	for (const agent of ordered) {
		const spot = placedById.get(agent.id);
		if (!spot) continue;
		const { box } = spot;
		ctx.font = `600 ${font}px system-ui, sans-serif`;
		ctx.textAlign = 'center';
		ctx.textBaseline = 'top';
		ctx.fillStyle = 'rgba(15, 23, 42, 0.75)';
		ctx.fillRect(box.x, box.y, box.w, box.h);
		ctx.fillStyle = '#ffffff';
		ctx.fillText(labelOf(agent), box.x + box.w / 2, box.y + 1 / scale);
		if (spot.hidden > 0) {
			// A count badge on the marker: this many more names here (the agents list has them).
			const { cx, cy } = centers.get(agent.id)!;
			const text = `+${spot.hidden}`;
			ctx.font = `700 ${10 / scale}px system-ui, sans-serif`;
			const bw = ctx.measureText(text).width + 6 / scale;
			const bh = 12 / scale;
			const bx = cx + radius * 0.4;
			const by = cy - radius - bh * 0.6;
			ctx.beginPath();
			ctx.roundRect(bx, by, bw, bh, bh / 2);
			ctx.fillStyle = '#facc15';
			ctx.fill();
			ctx.fillStyle = '#0f172a';
			ctx.textBaseline = 'middle';
			ctx.fillText(text, bx + bw / 2, by + bh / 2);
		}
	}
	// Bubbles last, so no marker covers what someone says; none covers another, all inside the view.
	const speakers = ordered.filter((a) => a.speech);
	const sides = bubbleSides(speakers, centers, 4 * tileWidth);
	const bubbles: Box[] = [];
	for (const agent of speakers) {
		const { cx, cy } = centers.get(agent.id)!;
		bubbles.push(drawSpeech(ctx, cx, cy, agent.speech!, { scale, reach: radius * 1.3, side: sides.get(agent.id) ?? 'above', view, avoid: bubbles }));
	}
	return { labels: placed, bubbles, emoji };
}

/** What `drawAgents` drew where (world pixels): name labels, speech bubbles and emoji. */
export interface DrawnLabels {
	labels: PlacedLabel[];
	bubbles: Box[];
	/** the box of each agent's emoji over its head */
	emoji: (Box & { id: string })[];
}

/**
 * Emoji over the agents: the system's colour emoji font when it has one, then the Twemoji font
 * shipped with the app (`Studio Emoji`, declared in app.css), as in the page's text.
 */
export const EMOJI_FONTS = '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Studio Emoji", sans-serif';

export type BubbleSide = 'above' | 'left' | 'right';

/**
 * Where each speaker's bubble goes: above a lone speaker; beside speakers that stand close to
 * another one (the left one's to the left), so one bubble never hides the other person.
 */
export function bubbleSides(
	speakers: readonly MapAgent[],
	centers: Map<string, { cx: number; cy: number }>,
	near: number
): Map<string, BubbleSide> {
	const out = new Map<string, BubbleSide>();
	for (const a of speakers) {
		const pa = centers.get(a.id);
		if (!pa) continue;
		let other: MapAgent | null = null;
		let best = near;
		for (const b of speakers) {
			const pb = centers.get(b.id);
			if (b === a || !pb) continue;
			const d = Math.hypot(pa.cx - pb.cx, pa.cy - pb.cy);
			if (d <= best) {
				best = d;
				other = b;
			}
		}
		if (!other) {
			out.set(a.id, 'above');
			continue;
		}
		const pb = centers.get(other.id)!;
		const leftOfOther = pa.cx < pb.cx || (pa.cx === pb.cx && a.id < other.id);
		out.set(a.id, leftOfOther ? 'left' : 'right');
	}
	return out;
}

/** Splits text into lines of at most `max` pixels wide (by the context's font), at most `lines` lines. */
export function wrapText(measure: (text: string) => number, text: string, max: number, lines = 3): string[] {
	const words = text.split(/\s+/).filter(Boolean);
	const out: string[] = [];
	let line = '';
	for (const word of words) {
		const next = line ? `${line} ${word}` : word;
		if (measure(next) <= max || !line) {
			line = next;
			continue;
		}
		out.push(line);
		line = word;
		if (out.length === lines) break;
	}
	if (out.length < lines && line) out.push(line);
	else if (line && out.length === lines) out[lines - 1] = `${out[lines - 1].replace(/[.,;:!?]?$/, '')}…`;
	return out;
}

function drawSpeech(
	ctx: CanvasRenderingContext2D,
	cx: number,
	cy: number,
	text: string,
	opts: { scale: number; reach: number; side: BubbleSide; view?: Box; avoid?: readonly Box[] }
): Box {
	const { scale, reach, view, avoid = [] } = opts;
	const font = 12 / scale;
	const pad = 5 / scale;
	ctx.font = `${font}px system-ui, sans-serif`;
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	const lines = wrapText((t) => ctx.measureText(t).width, text, 200 / scale);
	const width = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 2 * pad;
	const lineHeight = font * 1.25;
	const height = lines.length * lineHeight + 2 * pad;
	const radius = 5 / scale;
	/** box of a bubble on `side`: above a lone speaker (clear of the emoji over the head), beside a pair */
	const boxOn = (side: BubbleSide | 'below'): Box => {
		if (side === 'above') return { x: cx - width / 2, y: cy - reach - 24 / scale - height, w: width, h: height };
		if (side === 'below') return { x: cx - width / 2, y: cy + reach + 22 / scale, w: width, h: height };
		const dir = side === 'left' ? -1 : 1;
		const edge = cx + dir * (reach + 8 / scale);
		// The box ends level with the marker, clear of the name label below it.
		return { x: dir < 0 ? edge - width : edge, y: cy + 2 / scale - height, w: width, h: height };
	};
	const order: (BubbleSide | 'below')[] = [opts.side, ...(['above', 'left', 'right', 'below'] as const).filter((s) => s !== opts.side)];
	let box = boxOn(opts.side);
	for (const side of order) {
		let b = boxOn(side);
		if (view) b = clampBox(b.x, b.y, b.w, b.h, view);
		if (!avoid.some((o) => intersects(b, o, 2 / scale))) {
			box = b;
			break;
		}
		if (side === order[0]) box = b;
	}
	const { x: left, y: top } = box;
	// The tip points from the box's nearest edge to the speaker.
	const tipBase = Math.max(left + radius + 3 / scale, Math.min(cx, left + width - radius - 3 / scale));
	const tipSideY = Math.max(top + radius + 3 / scale, Math.min(cy - 7 / scale, top + height - radius - 3 / scale));
	let tip: [number, number][];
	if (top + height <= cy - reach) {
		tip = [
			[tipBase - 5 / scale, top + height],
			[cx, cy - reach - 1 / scale],
			[tipBase + 5 / scale, top + height]
		];
	} else if (top >= cy + reach) {
		tip = [
			[tipBase - 5 / scale, top],
			[cx, cy + reach + 1 / scale],
			[tipBase + 5 / scale, top]
		];
	} else {
		const edge = left + width <= cx ? left + width : left >= cx ? left : null;
		tip = edge === null ? [] : [
			[edge, tipSideY - 4 / scale],
			[cx + (edge < cx ? -reach : reach), cy],
			[edge, tipSideY + 3 / scale]
		];
	}
	ctx.beginPath();
	ctx.roundRect(left, top, width, height, radius);
	if (tip.length) {
		ctx.moveTo(...tip[0]);
		ctx.lineTo(...tip[1]);
		ctx.lineTo(...tip[2]);
	}
	ctx.fillStyle = 'rgba(255, 255, 255, 0.96)';
	ctx.fill();
	ctx.lineWidth = 1 / scale;
	ctx.strokeStyle = 'rgba(15, 23, 42, 0.55)';
	ctx.stroke();
	ctx.fillStyle = '#0f172a';
	lines.forEach((l, i) => ctx.fillText(l, left + pad, top + pad + i * lineHeight));
	ctx.textAlign = 'center';
	return box;
}

/** The selected agent's remaining walk: a dashed line from it to the destination. */
export function drawPath(
	ctx: CanvasRenderingContext2D,
	agent: MapAgent,
	opts: { scale: number; tileWidth: number; tileHeight: number }
): void {
	const path = agent.path ?? [];
	if (path.length === 0) return;
	const { scale, tileWidth, tileHeight } = opts;
	const at = (x: number, y: number) => [(x + 0.5) * tileWidth, (y + 0.5) * tileHeight] as const;
	ctx.save();
	ctx.beginPath();
	ctx.moveTo(...at(agent.x, agent.y));
	for (const [x, y] of path) ctx.lineTo(...at(x, y));
	ctx.lineWidth = 3 / scale;
	ctx.lineJoin = 'round';
	ctx.setLineDash([6 / scale, 4 / scale]);
	ctx.strokeStyle = agentColor(agent.id);
	ctx.stroke();
	ctx.setLineDash([]);
	const [ex, ey] = path[path.length - 1];
	const [dx, dy] = at(ex, ey);
	const s = Math.max(4 / scale, tileWidth * 0.3);
	ctx.strokeStyle = '#facc15';
	ctx.lineWidth = 2.5 / scale;
	ctx.strokeRect(dx - s, dy - s, 2 * s, 2 * s);
	ctx.restore();
}

export interface ZoneDrawOptions {
	scale: number;
	tileWidth: number;
	tileHeight: number;
	selected: string | null;
	showAll: boolean;
	/** the part of the map on screen (world pixels): names stay inside it */
	view?: Box;
}

/** Outlines zones: all sectors when `showAll`, and the selected zone always. */
export function drawZones(ctx: CanvasRenderingContext2D, zones: MapView['zones'], opts: ZoneDrawOptions): Box[] {
	const { scale, selected, showAll, tileWidth: tw0, tileHeight: th0, view } = opts;
	const shown = zones.filter((zone) => zone.address === selected || (showAll && zone.kind === 'sector'));
	for (const zone of shown) {
		const isSelected = zone.address === selected;
		ctx.lineWidth = (isSelected ? 3 : 1.5) / scale;
		ctx.strokeStyle = isSelected ? '#facc15' : 'rgba(37, 99, 235, 0.9)';
		ctx.fillStyle = isSelected ? 'rgba(250, 204, 21, 0.18)' : 'rgba(37, 99, 235, 0.08)';
		// Zone rectangles are in tiles.
		for (const r of zone.rects) {
			ctx.fillRect(r.x * tw0, r.y * th0, r.w * tw0, r.h * th0);
			ctx.strokeRect(r.x * tw0, r.y * th0, r.w * tw0, r.h * th0);
		}
	}
	// Names after every outline, whole (moved into the view) and never over another name.
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	ctx.font = `600 ${12 / scale}px system-ui, sans-serif`;
	const pad = 3 / scale;
	const boxes: Box[] = [];
	const ordered = [...shown].sort((a, b) => Number(b.address === selected) - Number(a.address === selected));
	for (const zone of ordered) {
		const first = zone.rects[0];
		if (!first) continue;
		const label = zone.name;
		const w = ctx.measureText(label).width + 2 * pad;
		const h = 12 / scale + 2 * pad;
		let spot: Box | null = null;
		for (let k = 0; k < 4 && !spot; k++) {
			let b: Box = { x: first.x * tw0 + pad, y: first.y * th0 + pad + k * (h + pad), w, h };
			if (view) b = clampBox(b.x, b.y, w, h, view);
			if (!boxes.some((o) => intersects(b, o, pad / 2))) spot = b;
		}
		if (!spot) continue;
		boxes.push(spot);
		ctx.fillStyle = 'rgba(15, 23, 42, 0.75)';
		ctx.fillRect(spot.x, spot.y, spot.w, spot.h);
		ctx.fillStyle = '#ffffff';
		ctx.fillText(label, spot.x + pad, spot.y + pad);
	}
	return boxes;
}

/** Painted layers per map object: two maps of the same town (the compare view) paint it once. */
const painted = new WeakMap<MapView, Promise<{ base: BaseLayer; collisions: BaseLayer | null; failed: string[] }>>();

/** Loads the tileset images and paints the base and collision layers of `map`, once per map object. */
export function paintMap(worldId: string, map: MapView): Promise<{ base: BaseLayer; collisions: BaseLayer | null; failed: string[] }> {
	let job = painted.get(map);
	if (!job) {
		job = loadTilesetImages(worldId, map.tilesets).then(({ images, failed }) => ({
			base: renderBase(map, images),
			collisions: renderCollisions(map),
			failed
		}));
		painted.set(map, job);
	}
	return job;
}

/**
 * Writes objects' states beside them (world coordinates; the context is transformed): a box
 * under each object's zone, in screen-sized text, kept in the view and off the boxes in `avoid`.
 * Answers the box of each, by object address.
 */
export function drawObjectBadges(
	ctx: CanvasRenderingContext2D,
	zones: MapView['zones'],
	badges: readonly ObjectBadge[],
	opts: { scale: number; tileWidth: number; tileHeight: number; view?: Box; avoid?: readonly Box[] }
): (Box & { address: string; text: string })[] {
	const { scale, tileWidth, tileHeight, view } = opts;
	const out: (Box & { address: string; text: string })[] = [];
	const pad = 3 / scale;
	const h = 12 / scale + 2 * pad;
	ctx.font = `600 ${12 / scale}px system-ui, sans-serif`;
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	for (const badge of badges) {
		const r = zones.find((z) => z.address === badge.address)?.rects[0];
		if (!r) continue;
		const w = ctx.measureText(badge.text).width + 2 * pad;
		const cx = (r.x + r.w / 2) * tileWidth;
		let b: Box = { x: cx - w / 2, y: (r.y + r.h) * tileHeight + pad, w, h };
		for (let k = 0; k < 4 && [...out, ...(opts.avoid ?? [])].some((o) => intersects(b, o, pad / 2)); k++) b = { ...b, y: b.y + h + pad };
		if (view) b = clampBox(b.x, b.y, w, h, view);
		ctx.fillStyle = badge.user ? 'rgba(194, 65, 12, 0.92)' : 'rgba(15, 23, 42, 0.8)';
		ctx.fillRect(b.x, b.y, b.w, b.h);
		ctx.fillStyle = '#ffffff';
		ctx.fillText(badge.text, b.x + pad, b.y + pad);
		out.push({ ...b, address: badge.address, text: badge.text });
	}
	return out;
}
