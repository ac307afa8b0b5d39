// The reference town's mazes as the layers of a world map (docs/world-format.md): a `collisions`
// tile layer from the collision maze, and `sectors`, `arenas`, `objects` and `spawns` object
// layers whose rectangles cover exactly the tiles the sector, arena and game-object mazes give
// each zone (a zone of any shape becomes a few rectangles with its name). As in the reference, a
// tile's arena belongs to the tile's own sector and its game object to the tile's arena.

import type { DocLayer, DocObject, DocTileLayer, MapDoc } from '../../../world/doc';
import { COLLISION_LAYER, SPAWN_LAYER, ZONE_LAYER, tilesetOf } from '../../../world/doc';
import type { XmlElement } from '../../../world/xml';
import type { RefMaze } from './maze';

export interface Rect {
	x: number;
	y: number;
	w: number;
	h: number;
}

export interface TownZones {
	sectors: { name: string; rects: Rect[] }[];
	arenas: { sector: string; name: string; rects: Rect[] }[];
	objects: { sector: string; arena: string; name: string; rects: Rect[] }[];
	/** the reference's spawning locations, named `Sector:Arena:sp-A` */
	spawns: { name: string; x: number; y: number }[];
	warnings: string[];
}

/**
 * Rectangles covering exactly the tiles where `inside` holds: each starts at the first uncovered
 * tile in reading order, as wide as the run of tiles there and as tall as whole rows allow.
 */
export function rectangles(width: number, height: number, tiles: Iterable<number>): Rect[] {
	const inSet = new Uint8Array(width * height);
	for (const t of tiles) inSet[t] = 1;
	const done = new Uint8Array(width * height);
	const out: Rect[] = [];
	for (let y = 0; y < height; y++)
		for (let x = 0; x < width; x++) {
			const t = y * width + x;
			if (!inSet[t] || done[t]) continue;
			let w = 1;
			while (x + w < width && inSet[t + w] && !done[t + w]) w++;
			let h = 1;
			grow: while (y + h < height) {
				const row = (y + h) * width + x;
				for (let k = 0; k < w; k++) if (!inSet[row + k] || done[row + k]) break grow;
				h++;
			}
			for (let r = 0; r < h; r++) done.fill(1, (y + r) * width + x, (y + r) * width + x + w);
			out.push({ x, y, w, h });
		}
	return out;
}

/** A zone name as the world format allows it: no ":" (it separates an address's parts). */
function zoneName(name: string, warnings: string[]): string {
	if (!name.includes(':')) return name;
	const fixed = name.replace(/:/g, ' -');
	warnings.push(`the name "${name}" contains ":", which separates the parts of an address; it is imported as "${fixed}"`);
	return fixed;
}

/** The zones of the town: every sector, arena and game object the mazes use. */
export function townZones(maze: RefMaze): TownZones {
	const { width: W, height: H } = maze;
	const N = W * H;
	const warnings: string[] = [];
	const sectorTiles = new Map<number, number[]>();
	const arenaTiles = new Map<string, number[]>();
	const objectTiles = new Map<string, number[]>();
	let arenaAlone = 0;
	let objectAlone = 0;
	const push = <K>(m: Map<K, number[]>, k: K, t: number) => {
		const l = m.get(k);
		if (l) l.push(t);
		else m.set(k, [t]);
	};
	for (let t = 0; t < N; t++) {
		const s = maze.sector[t];
		const a = maze.arena[t];
		const o = maze.object[t];
		if (s >= 0) push(sectorTiles, s, t);
		if (a >= 0) {
			if (s < 0) arenaAlone++;
			else push(arenaTiles, `${s}\u0000${a}`, t);
		}
		if (o >= 0) {
			if (s < 0 || a < 0) objectAlone++;
			else push(objectTiles, `${s}\u0000${a}\u0000${o}`, t);
		}
	}
	if (arenaAlone) warnings.push(`${arenaAlone} tile(s) of the arena maze lie in no sector; the reference gives them no address, and they are left out`);
	if (objectAlone) warnings.push(`${objectAlone} tile(s) of the game-object maze lie in no arena; they are left out`);
	const sName = (s: number) => zoneName(maze.sectors[s], warnings);
	const aName = (a: number) => zoneName(maze.arenas[a], warnings);
	const oName = (o: number) => zoneName(maze.objects[o], warnings);
	const sectors = [...sectorTiles].map(([s, tiles]) => ({ name: sName(s), rects: rectangles(W, H, tiles) }));
	const arenas = [...arenaTiles].map(([key, tiles]) => {
		const [s, a] = key.split('\u0000').map(Number);
		return { sector: sName(s), name: aName(a), rects: rectangles(W, H, tiles) };
	});
	const objects = [...objectTiles].map(([key, tiles]) => {
		const [s, a, o] = key.split('\u0000').map(Number);
		return { sector: sName(s), arena: aName(a), name: oName(o), rects: rectangles(W, H, tiles) };
	});
	const spawns: TownZones['spawns'] = [];
	const seen = new Map<string, number>();
	for (let t = 0; t < N; t++) {
		const k = maze.spawn[t];
		if (k < 0) continue;
		const sp = maze.spawns[k];
		const base = `${sp.sector}:${sp.arena}:${sp.name}`;
		const n = (seen.get(base) ?? 0) + 1;
		seen.set(base, n);
		const x = t % W;
		const y = Math.floor(t / W);
		if (maze.collision[t]) {
			warnings.push(`spawning location "${base}" at tile (${x}, ${y}) is on a blocked tile; it is left out`);
			continue;
		}
		spawns.push({ name: n === 1 ? base : `${base} (${n})`, x, y });
	}
	return { sectors, arenas, objects, spawns, warnings };
}

/**
 * Blocks the walkable areas outside the town: 4-connected walkable areas that touch the map's
 * edge and hold none of `starts` (the personas' tiles), so no one can walk there anyway. In the
 * reference the land beyond the town's walls is walkable in the collision maze; left so, the
 * world's checks would take it for the main walkable area and the town for cut off. Changes
 * `maze.collision` in place; returns the number of tiles blocked.
 */
export function blockOutside(maze: RefMaze, starts: number[]): number {
	const { width: W, height: H, collision } = maze;
	const N = W * H;
	const counts = new Map<number, number>();
	for (const id of collision) if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
	const wall = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
	if (wall === undefined) return 0;
	const area = new Int32Array(N).fill(-1);
	const queue = new Int32Array(N);
	const start = new Set(starts);
	let blocked = 0;
	let id = 0;
	for (let s = 0; s < N; s++) {
		if (collision[s] || area[s] >= 0) continue;
		let head = 0;
		let tail = 0;
		queue[tail++] = s;
		area[s] = id;
		let edge = false;
		let held = false;
		while (head < tail) {
			const t = queue[head++];
			const x = t % W;
			const y = (t - x) / W;
			if (x === 0 || y === 0 || x === W - 1 || y === H - 1) edge = true;
			if (start.has(t)) held = true;
			for (const c of [x > 0 ? t - 1 : -1, x < W - 1 ? t + 1 : -1, t - W, t + W])
				if (c >= 0 && c < N && !collision[c] && area[c] < 0) {
					area[c] = id;
					queue[tail++] = c;
				}
		}
		if (edge && !held) {
			for (let k = 0; k < tail; k++) collision[queue[k]] = wall;
			blocked += tail;
		}
		id++;
	}
	return blocked;
}

const el = (name: string, attrs: Record<string, string> = {}): XmlElement => ({ name, attrs, children: [], text: '', line: 0 });

/** Tile layers the reference uses for its blocks (not drawn by its front end). */
export const BLOCK_LAYER = /\b(blocks?|collisions?|registry)\b/i;

/**
 * Adds the town's layers to a map read from the reference's Tiled map: its block layers are
 * hidden (and "Collisions" renamed, the name being the world's), then `collisions` (from the
 * collision maze) and the zone and spawn object layers are added on top. `personaSpawns` are
 * points named by persona id. Returns the names of the layers hidden.
 */
export function addTownLayers(doc: MapDoc, maze: RefMaze, zones: TownZones, personaSpawns: { name: string; x: number; y: number }[]): string[] {
	const hidden: string[] = [];
	const roles = new Set([COLLISION_LAYER, ...Object.values(ZONE_LAYER), SPAWN_LAYER]);
	for (const l of doc.layers) {
		if (l.kind === 'tile' && BLOCK_LAYER.test(l.name)) {
			if (l.visible) hidden.push(l.name);
			l.visible = false;
		}
		if (roles.has(l.name.trim().toLowerCase())) l.name = `${l.name} (reference)`;
	}
	// the collision maze's id where the map has a tile for it, else the map's first tile
	const fallback = doc.tilesets.length ? Math.min(...doc.tilesets.map((t) => t.firstGid)) : 1;
	const gidOf = new Map<number, number>();
	const data = Array.from(maze.collision, (id) => {
		if (id === 0) return 0;
		let g = gidOf.get(id);
		if (g === undefined) {
			g = tilesetOf(doc, id) ? id : fallback;
			gidOf.set(id, g);
		}
		return g;
	});
	let nextLayer = Math.max(doc.nextLayerId, ...doc.layers.map((l) => l.id + 1));
	let nextObject = doc.nextObjectId;
	const collisions: DocTileLayer = {
		kind: 'tile',
		id: nextLayer++,
		name: COLLISION_LAYER,
		visible: false,
		opacity: 0.5,
		attrs: {},
		properties: [],
		encoding: 'csv',
		data
	};
	const rect = (name: string, r: Rect): DocObject => ({
		id: nextObject++,
		name,
		x: r.x * doc.tileWidth,
		y: r.y * doc.tileHeight,
		width: r.w * doc.tileWidth,
		height: r.h * doc.tileHeight,
		attrs: {},
		properties: [],
		shape: []
	});
	const point = (name: string, x: number, y: number): DocObject => ({
		id: nextObject++,
		name,
		x: (x + 0.5) * doc.tileWidth,
		y: (y + 0.5) * doc.tileHeight,
		width: 0,
		height: 0,
		attrs: {},
		properties: [],
		shape: [el('point')]
	});
	const layer = (name: string, color: string, objects: DocObject[]): DocLayer => ({
		kind: 'object',
		id: nextLayer++,
		name,
		visible: true,
		opacity: 1,
		attrs: { color },
		properties: [],
		objects
	});
	doc.layers.push(
		collisions,
		layer(ZONE_LAYER.sector, '#f1c40f', zones.sectors.flatMap((z) => z.rects.map((r) => rect(z.name, r)))),
		layer(ZONE_LAYER.arena, '#1abc9c', zones.arenas.flatMap((z) => z.rects.map((r) => rect(z.name, r)))),
		layer(ZONE_LAYER.object, '#be2edd', zones.objects.flatMap((z) => z.rects.map((r) => rect(z.name, r)))),
		layer(SPAWN_LAYER, '#2ecc71', [...personaSpawns, ...zones.spawns].map((s) => point(s.name, s.x, s.y)))
	);
	doc.nextLayerId = nextLayer;
	doc.nextObjectId = nextObject;
	return hidden;
}
