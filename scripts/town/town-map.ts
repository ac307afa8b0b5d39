// An in-memory town map: tile layers, a collision grid and the zone tree (sectors, arenas,
// game objects, spawns), plus the builders used by the layouts (buildings, furniture) and the
// TMX writer. Everything is deterministic: the same layout gives the same bytes.

import { layoutSheet, TILE, TILESET_NAME, type SheetLayout } from './make-tileset';

/** [x, y, w, h] in tiles */
export type Rect = readonly [number, number, number, number];

export const TILE_LAYERS = ['ground', 'floor', 'walls', 'furniture', 'decor'] as const;
export type TileLayerName = (typeof TILE_LAYERS)[number];

export interface SectorZone {
	name: string;
	kind: string;
	rects: Rect[];
}
export interface ArenaZone {
	sector: string;
	name: string;
	rects: Rect[];
}
export interface ObjectZone {
	sector: string;
	arena: string;
	name: string;
	rects: Rect[];
	state?: string;
}
export interface SpawnPoint {
	name: string;
	x: number;
	y: number;
	/** `Sector:Arena` the spawn must lie in */
	home: string;
}

/** A game object or a purely visual item placed in a room (coordinates relative to the room). */
export interface Item {
	name: string;
	sprite: string;
	rects: Rect[];
	state?: string;
	/** override the sprite's own blocking flag */
	blocks?: boolean;
	/**
	 * the object's zone when it differs from the drawn tiles: one rectangle over a group
	 * (desks with their chairs), because same-name rectangles must touch to be one object
	 */
	zone?: Rect[];
}

export interface RoomSpec {
	name: string;
	/** floor rectangle relative to the building's top-left corner */
	at: Rect;
	floor: string;
	/** wall face sprite seen above this room (default `wall face`) */
	wall?: string;
	/** false for hallways and lobbies: walkable floor that is not an arena */
	arena?: boolean;
	objects?: Item[];
	/** visual-only items (chairs, plants, lamps) */
	decor?: Item[];
}

export type Exterior = 'brick' | 'siding' | 'blue siding' | 'stone';

export interface BuildingSpec {
	sector: string;
	kind: string;
	size: readonly [number, number];
	exterior: Exterior;
	rooms: RoomSpec[];
	/** door tiles on walls, relative to the building (outer or inner walls) */
	doors: readonly (readonly [number, number])[];
}

const EXTERIOR_FACE: Record<Exterior, [string, string]> = {
	brick: ['brick wall', 'brick wall window'],
	siding: ['siding wall', 'siding wall window'],
	'blue siding': ['blue siding wall', 'blue siding wall window'],
	stone: ['stone wall', 'stone wall window']
};

/** Shorthand for an item: `item('bed', 'bed', 0, 0)` or with several rectangles. */
export function item(
	name: string,
	sprite: string,
	x: number,
	y: number,
	w?: number,
	h?: number,
	extra: { state?: string; blocks?: boolean; more?: Rect[]; zone?: Rect } = {}
): Item {
	const size = spriteSize(sprite);
	const first: Rect = [x, y, w ?? size[0], h ?? size[1]];
	const it: Item = { name, sprite, rects: [first, ...(extra.more ?? [])] };
	if (extra.state !== undefined) it.state = extra.state;
	if (extra.blocks !== undefined) it.blocks = extra.blocks;
	if (extra.zone) it.zone = [extra.zone];
	return it;
}

let sheet: SheetLayout | null = null;
function getSheet(): SheetLayout {
	sheet ??= layoutSheet();
	return sheet;
}

export function spriteSize(sprite: string): [number, number] {
	const s = getSheet().sprites.get(sprite);
	if (!s) throw new Error(`unknown sprite "${sprite}"`);
	return [s.sprite.w, s.sprite.h];
}

function inside(r: Rect, x: number, y: number): boolean {
	return x >= r[0] && y >= r[1] && x < r[0] + r[2] && y < r[1] + r[3];
}

function contains(outer: Rect, inner: Rect): boolean {
	return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[0] + inner[2] <= outer[0] + outer[2] && inner[1] + inner[3] <= outer[1] + outer[3];
}

function overlaps(a: Rect, b: Rect): boolean {
	return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/** Rectangles that overlap or share part of an edge. */
function touches(a: Rect, b: Rect): boolean {
	const ox = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
	const oy = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
	return (ox > 0 && oy >= 0) || (ox >= 0 && oy > 0);
}

/** Whether a zone's rectangles form one connected area (otherwise they are separate zones). */
function connected(rects: Rect[]): boolean {
	const reached = new Set([0]);
	const queue = [0];
	while (queue.length) {
		const a = queue.pop()!;
		rects.forEach((r, b) => {
			if (!reached.has(b) && touches(rects[a], r)) {
				reached.add(b);
				queue.push(b);
			}
		});
	}
	return reached.size === rects.length;
}

/** Integer hash of a tile position, for deterministic variation. */
export function tileHash(x: number, y: number, salt = 0): number {
	let h = Math.imul(x + 0x9e37, 0x85ebca6b) ^ Math.imul(y + 0x7f4a, 0xc2b2ae35) ^ Math.imul(salt + 1, 0x27d4eb2f);
	h ^= h >>> 15;
	h = Math.imul(h, 0x2c1b3c6d);
	h ^= h >>> 12;
	return (h >>> 0) / 4294967296;
}

/** What the ground at a tile is, so paths and trees know where they may go. */
export type Terrain = 'grass' | 'road' | 'sidewalk' | 'path' | 'building' | 'water' | 'shore' | 'border';

export class TownMap {
	readonly layers: Record<TileLayerName, Int32Array>;
	readonly collision: Uint8Array;
	readonly terrain: Terrain[];
	readonly sectors: SectorZone[] = [];
	readonly arenas: ArenaZone[] = [];
	readonly objects: ObjectZone[] = [];
	readonly spawns: SpawnPoint[] = [];
	/** tiles that must stay clear of decoration (doorsteps, path ends) */
	readonly keepClear: Uint8Array;
	private readonly gids = new Map<string, number>();

	constructor(
		readonly name: string,
		readonly width: number,
		readonly height: number
	) {
		const n = width * height;
		this.layers = {
			ground: new Int32Array(n),
			floor: new Int32Array(n),
			walls: new Int32Array(n),
			furniture: new Int32Array(n),
			decor: new Int32Array(n)
		};
		this.collision = new Uint8Array(n);
		this.keepClear = new Uint8Array(n);
		this.terrain = new Array<Terrain>(n).fill('grass');
		for (const t of getSheet().tiles) this.gids.set(t.name, t.id + 1);
	}

	idx(x: number, y: number): number {
		return y * this.width + x;
	}

	inMap(x: number, y: number): boolean {
		return x >= 0 && y >= 0 && x < this.width && y < this.height;
	}

	gid(tileName: string): number {
		const g = this.gids.get(tileName);
		if (g === undefined) throw new Error(`${this.name}: unknown tile "${tileName}"`);
		return g;
	}

	/** Paint one tile (a single-tile sprite, or one named part of a larger sprite). */
	set(layer: TileLayerName, x: number, y: number, tileName: string, blocks?: boolean): void {
		if (!this.inMap(x, y)) throw new Error(`${this.name}: tile (${x}, ${y}) outside the map`);
		this.layers[layer][this.idx(x, y)] = this.gid(tileName);
		if (blocks) this.collision[this.idx(x, y)] = 1;
	}

	setTerrain(x: number, y: number, t: Terrain): void {
		this.terrain[this.idx(x, y)] = t;
	}

	getTerrain(x: number, y: number): Terrain {
		return this.inMap(x, y) ? this.terrain[this.idx(x, y)] : 'border';
	}

	/**
	 * Draw a sprite over a rectangle: a multi-tile sprite is placed whole (the rectangle must be
	 * a multiple of its size); a single tile is repeated.
	 */
	drawSprite(layer: TileLayerName, sprite: string, r: Rect, blocks?: boolean): void {
		const s = getSheet().sprites.get(sprite);
		if (!s) throw new Error(`${this.name}: unknown sprite "${sprite}"`);
		const { w, h } = s.sprite;
		if (r[2] % w !== 0 || r[3] % h !== 0) {
			throw new Error(`${this.name}: sprite "${sprite}" is ${w}x${h}, rectangle ${JSON.stringify(r)} is not a multiple`);
		}
		const block = blocks ?? s.sprite.blocks;
		for (let y = 0; y < r[3]; y++) {
			for (let x = 0; x < r[2]; x++) {
				const id = s.ids[(y % h) * w + (x % w)];
				const tx = r[0] + x;
				const ty = r[1] + y;
				if (!this.inMap(tx, ty)) throw new Error(`${this.name}: sprite "${sprite}" at (${tx}, ${ty}) outside the map`);
				this.layers[layer][this.idx(tx, ty)] = id + 1;
				if (block) this.collision[this.idx(tx, ty)] = 1;
			}
		}
	}

	fillGround(r: Rect, tileName: string | ((x: number, y: number) => string), terrain: Terrain): void {
		for (let y = r[1]; y < r[1] + r[3]; y++) {
			for (let x = r[0]; x < r[0] + r[2]; x++) {
				this.set('ground', x, y, typeof tileName === 'string' ? tileName : tileName(x, y));
				this.setTerrain(x, y, terrain);
			}
		}
	}

	addSector(name: string, kind: string, rects: Rect[]): void {
		if (this.sectors.some((s) => s.name === name)) throw new Error(`${this.name}: sector "${name}" defined twice`);
		this.sectors.push({ name, kind, rects });
	}

	addArena(sector: string, name: string, rects: Rect[]): void {
		if (this.arenas.some((a) => a.sector === sector && a.name === name)) {
			throw new Error(`${this.name}: arena "${sector}:${name}" defined twice`);
		}
		this.arenas.push({ sector, name, rects });
	}

	/** A game object without a sprite of its own (a lake, a sandbox drawn on the ground). */
	addObject(sector: string, arena: string, name: string, rects: Rect[], state?: string): void {
		if (this.objects.some((o) => o.sector === sector && o.arena === arena && o.name === name)) {
			throw new Error(`${this.name}: object "${sector}:${arena}:${name}" defined twice`);
		}
		this.objects.push({ sector, arena, name, rects, state });
	}

	/** Place items in an arena; `origin` is the arena's top-left tile. */
	placeItems(sector: string, arena: string | null, origin: readonly [number, number], items: Item[], layer: TileLayerName): void {
		const abs = (r: Rect): Rect => [origin[0] + r[0], origin[1] + r[1], r[2], r[3]];
		for (const it of items) {
			for (const r of it.rects) this.drawSprite(layer, it.sprite, abs(r), it.blocks);
			if (arena === null) continue;
			this.addObject(sector, arena, it.name, (it.zone ?? it.rects).map(abs), it.state);
		}
	}

	/** Place a building with its walls, floors, doors, arenas and furniture. */
	placeBuilding(spec: BuildingSpec, ox: number, oy: number): void {
		const [bw, bh] = spec.size;
		const where = `${this.name}: building "${spec.sector}"`;
		const outer: Rect = [ox, oy, bw, bh];
		if (!contains([0, 0, this.width, this.height], outer)) throw new Error(`${where} does not fit in the map`);
		const rooms = spec.rooms.map((r) => ({ ...r, abs: [ox + r.at[0], oy + r.at[1], r.at[2], r.at[3]] as Rect }));
		for (const r of rooms) {
			if (!contains([ox + 1, oy + 1, bw - 2, bh - 2], r.abs)) throw new Error(`${where}: room "${r.name}" crosses the outer wall`);
			for (const o of rooms) {
				if (o !== r && overlaps(o.abs, r.abs)) throw new Error(`${where}: rooms "${r.name}" and "${o.name}" overlap`);
			}
		}
		const doors = new Set(spec.doors.map(([x, y]) => this.idx(ox + x, oy + y)));
		const roomAt = (x: number, y: number) => rooms.find((r) => inside(r.abs, x, y));
		for (const [dx, dy] of spec.doors) {
			const x = ox + dx;
			const y = oy + dy;
			if (!inside(outer, x, y) || roomAt(x, y)) throw new Error(`${where}: door (${dx}, ${dy}) is not on a wall`);
		}
		const isWall = (x: number, y: number) => inside(outer, x, y) && !roomAt(x, y) && !doors.has(this.idx(x, y));
		const [face, faceWindow] = EXTERIOR_FACE[spec.exterior];

		for (let y = oy; y < oy + bh; y++) {
			for (let x = ox; x < ox + bw; x++) {
				this.setTerrain(x, y, 'building');
				this.set('ground', x, y, 'concrete floor');
				const room = roomAt(x, y);
				if (room) {
					this.set('floor', x, y, room.floor);
					continue;
				}
				if (doors.has(this.idx(x, y))) {
					// a doorway in a vertical wall (walls above and below) gets the sideways frame
					const vertical = isWall(x, y - 1) && isWall(x, y + 1);
					this.set('floor', x, y, vertical ? 'door side' : 'door');
					continue;
				}
				// a wall shows its face where the tile below is open, its top elsewhere
				let tile = 'wall top';
				if (!inside(outer, x, y + 1)) {
					const nearDoor = doors.has(this.idx(x - 1, y)) || doors.has(this.idx(x + 1, y));
					const window = (x - ox) % 3 === 1 && x > ox && x < ox + bw - 1 && !nearDoor;
					tile = window ? faceWindow : face;
				} else if (!isWall(x, y + 1)) {
					tile = roomAt(x, y + 1)?.wall ?? 'wall face';
				}
				this.set('walls', x, y, tile, true);
			}
		}

		this.addSector(spec.sector, spec.kind, [outer]);
		for (const r of rooms) {
			const origin: [number, number] = [r.abs[0], r.abs[1]];
			const isArena = r.arena !== false;
			if (isArena) this.addArena(spec.sector, r.name, [r.abs]);
			for (const it of r.objects ?? []) {
				for (const rr of [...it.rects, ...(it.zone ?? [])]) {
					if (!contains([0, 0, r.at[2], r.at[3]], rr)) {
						throw new Error(`${where}: object "${it.name}" ${JSON.stringify(rr)} is outside room "${r.name}"`);
					}
				}
			}
			this.placeItems(spec.sector, isArena ? r.name : null, origin, r.objects ?? [], 'furniture');
			this.placeItems(spec.sector, null, origin, r.decor ?? [], 'decor');
		}

		// exterior doors: a stone path out to the nearest street or path
		for (const [dx, dy] of spec.doors) {
			const x = ox + dx;
			const y = oy + dy;
			const dir: [number, number] | null =
				dy === 0 ? [0, -1] : dy === bh - 1 ? [0, 1] : dx === 0 ? [-1, 0] : dx === bw - 1 ? [1, 0] : null;
			if (dir) this.pathFrom(x + dir[0], y + dir[1], dir, `${where} door (${dx}, ${dy})`);
		}
	}

	/** Lay a stone path from (x, y) in a direction until it meets a street or another path. */
	pathFrom(x: number, y: number, dir: readonly [number, number], what: string): void {
		for (let steps = 0; steps < 30; steps++) {
			const t = this.getTerrain(x, y);
			if (t === 'road' || t === 'sidewalk' || t === 'path') return;
			if (t !== 'grass' && t !== 'shore') throw new Error(`${this.name}: path from ${what} runs into ${t} at (${x}, ${y})`);
			this.set('ground', x, y, 'stone path');
			this.setTerrain(x, y, 'path');
			this.keepClear[this.idx(x, y)] = 1;
			x += dir[0];
			y += dir[1];
		}
		throw new Error(`${this.name}: path from ${what} finds no street within 30 tiles`);
	}

	addSpawn(name: string, home: string, dx: number, dy: number): void {
		const [sector, arena] = home.split(':');
		const zone = this.arenas.find((a) => a.sector === sector && a.name === arena);
		if (!zone) throw new Error(`${this.name}: spawn "${name}": no arena "${home}"`);
		const r = zone.rects[0];
		this.spawns.push({ name, x: r[0] + dx, y: r[1] + dy, home });
	}

	// -------------------------------------------------------------------------------------------
	// Validation: every rule the loader enforces, and a few of our own (no unreachable pockets).

	validate(): void {
		const errors: string[] = [];
		const W = this.width;
		const walk = (i: number) => this.collision[i] === 0;
		const rectTiles = (r: Rect) => {
			const out: number[] = [];
			for (let y = r[1]; y < r[1] + r[3]; y++) for (let x = r[0]; x < r[0] + r[2]; x++) out.push(y * W + x);
			return out;
		};
		const names = (n: string) => n.includes(':') && errors.push(`name "${n}" contains ':'`);
		for (const s of this.sectors) names(s.name);
		for (const a of this.arenas) {
			names(a.name);
			const sec = this.sectors.find((s) => s.name === a.sector);
			if (!sec) errors.push(`arena "${a.sector}:${a.name}" has no sector`);
			for (const r of a.rects) {
				if (!sec?.rects.some((sr) => contains(sr, r))) errors.push(`arena "${a.sector}:${a.name}" is not inside its sector`);
				for (const o of this.arenas) {
					if (o !== a && o.rects.some((or) => overlaps(or, r))) errors.push(`arenas "${a.sector}:${a.name}" and "${o.sector}:${o.name}" overlap`);
				}
			}
			if (!a.rects.some((r) => rectTiles(r).some(walk))) errors.push(`arena "${a.sector}:${a.name}" has no walkable tile`);
			if (!connected(a.rects)) errors.push(`arena "${a.sector}:${a.name}" is made of rectangles that do not touch`);
		}
		const objectTiles = new Map<number, string>();
		for (const o of this.objects) {
			names(o.name);
			const address = `${o.sector}:${o.arena}:${o.name}`;
			const arena = this.arenas.find((a) => a.sector === o.sector && a.name === o.arena);
			if (!arena) {
				errors.push(`object "${address}" has no arena`);
				continue;
			}
			const inArena = (x: number, y: number) => arena.rects.some((r) => inside(r, x, y));
			let access = 0;
			for (const r of o.rects) {
				if (!arena.rects.some((ar) => contains(ar, r))) errors.push(`object "${address}" is not inside its arena`);
				for (const t of rectTiles(r)) {
					const other = objectTiles.get(t);
					if (other) errors.push(`objects "${address}" and "${other}" overlap`);
					objectTiles.set(t, address);
					const x = t % W;
					const y = Math.floor(t / W);
					for (const [nx, ny] of [[x, y], [x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
						if (this.inMap(nx, ny) && inArena(nx, ny) && walk(this.idx(nx, ny))) access++;
					}
				}
			}
			if (access === 0) errors.push(`object "${address}" has no access tile (inside walls)`);
			if (!connected(o.rects)) errors.push(`object "${address}" is made of rectangles that do not touch`);
		}

		// every walkable tile is reachable from every other (one connected town)
		const start = this.collision.findIndex((c) => c === 0);
		const seen = new Uint8Array(this.collision.length);
		const queue = [start];
		seen[start] = 1;
		while (queue.length) {
			const i = queue.pop()!;
			const x = i % W;
			const y = Math.floor(i / W);
			for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
				if (!this.inMap(nx, ny)) continue;
				const j = this.idx(nx, ny);
				if (!seen[j] && walk(j)) {
					seen[j] = 1;
					queue.push(j);
				}
			}
		}
		let pockets = 0;
		for (let i = 0; i < seen.length; i++) {
			if (walk(i) && !seen[i] && pockets++ < 10) errors.push(`walkable tile (${i % W}, ${Math.floor(i / W)}) cannot be reached`);
		}

		const spawnTiles = new Set<number>();
		for (const s of this.spawns) {
			const i = this.idx(s.x, s.y);
			const [sector, arena] = s.home.split(':');
			const zone = this.arenas.find((a) => a.sector === sector && a.name === arena);
			if (!zone?.rects.some((r) => inside(r, s.x, s.y))) errors.push(`spawn "${s.name}" is not in ${s.home}`);
			if (!walk(i)) errors.push(`spawn "${s.name}" at (${s.x}, ${s.y}) is on a blocked tile`);
			if (objectTiles.has(i)) errors.push(`spawn "${s.name}" at (${s.x}, ${s.y}) is on object ${objectTiles.get(i)}`);
			if (spawnTiles.has(i)) errors.push(`spawn "${s.name}" shares its tile with another spawn`);
			spawnTiles.add(i);
		}
		if (errors.length) throw new Error(`${this.name}: invalid map:\n  ${errors.join('\n  ')}`);
	}

	// -------------------------------------------------------------------------------------------
	// TMX output

	toTmx(): string {
		const W = this.width;
		const H = this.height;
		const out: string[] = [];
		let layerId = 0;
		let objectId = 0;
		const body: string[] = [];
		const csv = (data: Int32Array | Uint8Array) => {
			const rows: string[] = [];
			for (let y = 0; y < H; y++) rows.push(Array.from(data.subarray(y * W, (y + 1) * W)).join(','));
			return rows.join(',\n');
		};
		for (const name of TILE_LAYERS) {
			body.push(` <layer id="${++layerId}" name="${name}" width="${W}" height="${H}">`, '  <data encoding="csv">', csv(this.layers[name]), '</data>', ' </layer>');
		}
		const collisionGid = this.gid('collision');
		const collisionData = new Int32Array(W * H);
		for (let i = 0; i < collisionData.length; i++) collisionData[i] = this.collision[i] ? collisionGid : 0;
		body.push(
			` <layer id="${++layerId}" name="collisions" width="${W}" height="${H}" visible="0" opacity="0.5">`,
			'  <data encoding="csv">',
			csv(collisionData),
			'</data>',
			' </layer>'
		);
		const px = (n: number) => n * TILE;
		const props = (p: Record<string, string | undefined>) => {
			const entries = Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined);
			if (!entries.length) return [];
			return ['   <properties>', ...entries.map(([k, v]) => `    <property name="${k}" value="${xml(v)}"/>`), '   </properties>'];
		};
		const rectObject = (name: string, r: Rect, p: Record<string, string | undefined>) => {
			const head = `  <object id="${++objectId}" name="${xml(name)}" x="${px(r[0])}" y="${px(r[1])}" width="${px(r[2])}" height="${px(r[3])}"`;
			const inner = props(p);
			return inner.length ? [`${head}>`, ...inner, '  </object>'] : [`${head}/>`];
		};
		const group = (name: string, color: string, lines: string[]) => {
			body.push(` <objectgroup id="${++layerId}" name="${name}" color="${color}">`, ...lines, ' </objectgroup>');
		};
		group('sectors', '#f1c40f', this.sectors.flatMap((s) => s.rects.flatMap((r) => rectObject(s.name, r, { kind: s.kind }))));
		group('arenas', '#1abc9c', this.arenas.flatMap((a) => a.rects.flatMap((r) => rectObject(a.name, r, {}))));
		group('objects', '#be2edd', this.objects.flatMap((o) => o.rects.flatMap((r) => rectObject(o.name, r, { state: o.state }))));
		group(
			'spawns',
			'#2ecc71',
			this.spawns.flatMap((s) => [
				`  <object id="${++objectId}" name="${xml(s.name)}" x="${px(s.x) + TILE / 2}" y="${px(s.y) + TILE / 2}">`,
				'   <point/>',
				'  </object>'
			])
		);
		out.push(
			'<?xml version="1.0" encoding="UTF-8"?>',
			`<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="${W}" height="${H}" tilewidth="${TILE}" tileheight="${TILE}" infinite="0" nextlayerid="${layerId + 1}" nextobjectid="${objectId + 1}">`,
			` <tileset firstgid="1" source="tilesets/${TILESET_NAME}.tsx"/>`,
			...body,
			'</map>',
			''
		);
		return out.join('\n');
	}
}

export function xml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
