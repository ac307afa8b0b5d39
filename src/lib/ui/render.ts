// Drawing the town: tile layers are painted once into an offscreen canvas (the "base"), so
// panning and zooming only copy that canvas and draw the few agents on top.

import type { MapLayerView, MapView, TilesetView } from '$lib/server/world/types';
import { assetUrl, decodeFlips, decodeGid, tileSource, tilesetFor } from './tiles';
import type { AgentView } from './world-view';

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
}

/** Draws agents in world coordinates (the context is already transformed). */
export function drawAgents(ctx: CanvasRenderingContext2D, agents: readonly AgentView[], opts: AgentDrawOptions): void {
	const { scale, tileWidth, tileHeight, selected } = opts;
	// Keep markers and labels readable at any zoom: sizes are in screen pixels.
	const radius = Math.max(5, Math.min(tileWidth * scale * 0.45, 16)) / scale;
	const font = 12 / scale;
	ctx.textAlign = 'center';
	ctx.textBaseline = 'top';
	ctx.font = `600 ${font}px system-ui, sans-serif`;
	const ordered = [...agents].sort((a, b) => Number(a.id === selected) - Number(b.id === selected));
	for (const agent of ordered) {
		const cx = (agent.x + 0.5) * tileWidth;
		const cy = (agent.y + 0.5) * tileHeight;
		const isSelected = agent.id === selected;
		ctx.beginPath();
		ctx.arc(cx, cy, isSelected ? radius * 1.3 : radius, 0, Math.PI * 2);
		ctx.fillStyle = agentColor(agent.id);
		ctx.fill();
		ctx.lineWidth = (isSelected ? 3 : 1.5) / scale;
		ctx.strokeStyle = isSelected ? '#facc15' : '#ffffff';
		ctx.stroke();

		const label = isSelected ? agent.name : agent.firstName;
		const ty = cy + radius * 1.4;
		const tw = ctx.measureText(label).width;
		ctx.fillStyle = 'rgba(15, 23, 42, 0.75)';
		ctx.fillRect(cx - tw / 2 - 3 / scale, ty - 1 / scale, tw + 6 / scale, font + 3 / scale);
		ctx.fillStyle = '#ffffff';
		ctx.fillText(label, cx, ty);
	}
}

export interface ZoneDrawOptions {
	scale: number;
	tileWidth: number;
	tileHeight: number;
	selected: string | null;
	showAll: boolean;
}

/** Outlines zones: all sectors when `showAll`, and the selected zone always. */
export function drawZones(ctx: CanvasRenderingContext2D, zones: MapView['zones'], opts: ZoneDrawOptions): void {
	const { scale, selected, showAll, tileWidth: tw0, tileHeight: th0 } = opts;
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	ctx.font = `600 ${12 / scale}px system-ui, sans-serif`;
	for (const zone of zones) {
		const isSelected = zone.address === selected;
		if (!isSelected && !(showAll && zone.kind === 'sector')) continue;
		ctx.lineWidth = (isSelected ? 3 : 1.5) / scale;
		ctx.strokeStyle = isSelected ? '#facc15' : 'rgba(37, 99, 235, 0.9)';
		ctx.fillStyle = isSelected ? 'rgba(250, 204, 21, 0.18)' : 'rgba(37, 99, 235, 0.08)';
		// Zone rectangles are in tiles.
		for (const r of zone.rects) {
			ctx.fillRect(r.x * tw0, r.y * th0, r.w * tw0, r.h * th0);
			ctx.strokeRect(r.x * tw0, r.y * th0, r.w * tw0, r.h * th0);
		}
		const first = zone.rects[0];
		if (first) {
			const label = zone.name;
			const pad = 3 / scale;
			const x = first.x * tw0;
			const y = first.y * th0;
			const tw = ctx.measureText(label).width;
			ctx.fillStyle = 'rgba(15, 23, 42, 0.75)';
			ctx.fillRect(x + pad, y + pad, tw + 2 * pad, 12 / scale + 2 * pad);
			ctx.fillStyle = '#ffffff';
			ctx.fillText(label, x + 2 * pad, y + 2 * pad);
		}
	}
}
