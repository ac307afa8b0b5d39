// From map layers to the environment tree: sectors, arenas and game objects drawn as rectangles,
// the collision grid, spawn points, walkable and access tiles (docs/world-format.md).

import type { ArenaDef, ObjectDef, SectorDef, TilePoint } from '../engine/types';
import type { ProblemList, ProblemPlace } from './problems';
import type { MapObject, ParsedMap, ZoneRect, ZoneView } from './types';

export interface ZoneResult {
	/** 1 = blocked, row-major */
	collision: Uint8Array;
	sectors: SectorDef[];
	spawns: Record<string, TilePoint>;
	zones: ZoneView[];
	spawnViews: { name: string; x: number; y: number }[];
	/** number of walkable tiles on the map */
	walkable: number;
	/** every spawn name drawn on the map, including spawns rejected for their position */
	spawnNames: Set<string>;
}

/** One rectangle of a zone layer, checked and converted to tiles. */
interface Piece {
	name: string;
	obj: MapObject;
	rect: ZoneRect;
	where: string;
	/** the map object, for an editor to select */
	at: ProblemPlace | undefined;
}

const ZONE_LAYERS = ['sectors', 'arenas', 'objects'] as const;
type ZoneLayer = (typeof ZONE_LAYERS)[number];
const KNOWN_PROPS: Record<ZoneLayer | 'spawns', string[]> = {
	sectors: ['kind'],
	arenas: [],
	objects: ['state'],
	spawns: []
};

const idsOf = (pieces: Piece[]) => pieces.map((p) => p.obj.id ?? -1);

const objAt = (o: MapObject): ProblemPlace | undefined => (o.id === undefined ? undefined : { kind: 'object', id: o.id });
const zoneAt = (address: string): ProblemPlace => ({ kind: 'zone', address });

const objWhere = (layer: string, o: MapObject) =>
	`layer "${layer}", object ${o.id ?? '?'}${o.name ? ` "${o.name}"` : ''}${o.line ? `, line ${o.line}` : ''}`;

/** A layer's place: its line in the file, or its name when the map is not read from a file (line 0). */
const layerWhere = (name: string, line: number) => (line ? `line ${line}` : `layer "${name}"`);

export function analyseZones(map: ParsedMap, problems: ProblemList): ZoneResult {
	const { file, width: W, height: H, tileWidth: TW, tileHeight: TH } = map;
	const N = W * H;
	const err = (where: string | undefined, message: string, at?: ProblemPlace) => problems.error(file, where, message, at);
	const warn = (where: string | undefined, message: string, at?: ProblemPlace) => problems.warn(file, where, message, at);
	const tileName = (t: number) => `(${t % W}, ${Math.floor(t / W)})`;

	// ---- layers by role ----------------------------------------------------------------------
	const roles = ['collisions', ...ZONE_LAYERS, 'spawns'];
	const found = new Map<string, number>();
	const seeRole = (name: string, isTile: boolean, line: number, offset: boolean) => {
		const lower = name.trim().toLowerCase();
		if (!roles.includes(lower)) {
			if (offset && isTile) warn(layerWhere(name, line), `layer "${name}" has an offset, which is not drawn`);
			return;
		}
		if (offset)
			err(layerWhere(name, line), `layer "${name}" is shifted (offsetx/offsety); remove the offset so it lines up with the tiles`);
		if (name !== lower) {
			err(layerWhere(name, line), `layer "${name}" must be named "${lower}" exactly (lowercase, no spaces)`);
			return;
		}
		const wantTile = lower === 'collisions';
		if (isTile !== wantTile)
			err(layerWhere(name, line), `layer "${name}" must be ${wantTile ? 'a tile layer' : 'an object layer'}`);
		if (found.has(lower))
			err(layerWhere(name, line), `there are two layers named "${name}"${line ? ` (the first on line ${found.get(lower)})` : ''}`);
		else found.set(lower, line);
	};
	for (const l of map.tileLayers) seeRole(l.name, true, l.line, l.offset);
	for (const l of map.objectLayers) {
		seeRole(l.name, false, l.line, l.offset);
		if (!roles.includes(l.name.trim().toLowerCase()))
			warn(layerWhere(l.name, l.line), `object layer "${l.name}" is not used (the map reads sectors, arenas, objects and spawns)`);
	}
	for (const need of ['sectors', 'arenas', 'spawns'])
		if (!found.has(need)) err(undefined, `the map has no object layer named "${need}"`);
	if (!found.has('objects')) warn(undefined, 'the map has no "objects" layer, so arenas have no game objects');
	if (!found.has('collisions')) warn(undefined, 'the map has no "collisions" layer, so every tile is walkable');

	const objectLayer = (name: string) => map.objectLayers.find((l) => l.name === name)?.objects ?? [];
	// without a parent layer, every child would be reported as outside its parent: say it once
	const hasLayer = (name: string) => map.objectLayers.some((l) => l.name === name);

	// ---- collision -----------------------------------------------------------------------------
	const collision = new Uint8Array(N);
	const coll = map.tileLayers.find((l) => l.name === 'collisions');
	if (coll) for (let t = 0; t < N; t++) collision[t] = coll.data[t] !== 0 ? 1 : 0;
	let walkableCount = 0;
	for (let t = 0; t < N; t++) if (!collision[t]) walkableCount++;

	// ---- rectangles ----------------------------------------------------------------------------
	const checkName = (layer: string, o: MapObject, where: string): boolean => {
		const at = objAt(o);
		if (o.name.trim() === '') {
			err(where, `a ${layer === 'spawns' ? 'spawn' : 'zone'} needs a name`, at);
			return false;
		}
		if (o.name !== o.name.trim()) {
			err(where, `name "${o.name}" starts or ends with a space`, at);
			return false;
		}
		if (layer !== 'spawns' && o.name.includes(':')) {
			err(where, `name "${o.name}" contains ":", which separates the parts of an address`, at);
			return false;
		}
		const known = KNOWN_PROPS[layer as ZoneLayer | 'spawns'];
		for (const p of Object.keys(o.properties))
			if (!known.includes(p))
				warn(
					where,
					`unknown property "${p}"${known.length ? ` (${layer} read: ${known.join(', ')})` : ` (${layer} have no properties)`}`,
					at
				);
		return true;
	};
	const near = (v: number) => Math.abs(v - Math.round(v)) < 1e-6;
	const pieces = (layer: ZoneLayer): Piece[] => {
		const out: Piece[] = [];
		for (const o of objectLayer(layer)) {
			const where = objWhere(layer, o);
			const at = objAt(o);
			if (!checkName(layer, o, where)) continue;
			if (o.shape !== 'rect') {
				err(where, `a zone must be a rectangle, not ${o.shape === 'ellipse' ? 'an' : 'a'} ${o.shape === 'tile' ? 'tile object' : o.shape}`, at);
				continue;
			}
			if (o.rotation !== 0) {
				err(where, `a zone rectangle cannot be rotated (rotation=${o.rotation})`, at);
				continue;
			}
			if (!(o.width > 0 && o.height > 0)) {
				err(where, `the rectangle has no area (${o.width}x${o.height} px)`, at);
				continue;
			}
			const fx = o.x / TW;
			const fy = o.y / TH;
			const fw = o.width / TW;
			const fh = o.height / TH;
			// off the map first: that is what needs fixing, whatever the rectangle's alignment
			if (fx < -1e-6 || fy < -1e-6 || fx + fw > W + 1e-6 || fy + fh > H + 1e-6) {
				const x0 = Math.floor(fx + 1e-6);
				const y0 = Math.floor(fy + 1e-6);
				err(
					where,
					`the rectangle (tiles ${x0}..${Math.ceil(fx + fw - 1e-6) - 1}, ${y0}..${Math.ceil(fy + fh - 1e-6) - 1}) lies outside the ${W}x${H} map`,
					at
				);
				continue;
			}
			if (!near(fx) || !near(fy) || !near(fw) || !near(fh)) {
				err(
					where,
					`the rectangle is not on tile boundaries (x=${o.x}, y=${o.y}, width=${o.width}, height=${o.height} px; tiles are ${TW}x${TH} px); turn on Snap to Grid in Tiled`,
					at
				);
				continue;
			}
			const rect = { x: Math.round(fx), y: Math.round(fy), w: Math.round(fw), h: Math.round(fh) };
			if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > W || rect.y + rect.h > H) {
				err(
					where,
					`the rectangle (tiles ${rect.x}..${rect.x + rect.w - 1}, ${rect.y}..${rect.y + rect.h - 1}) lies outside the ${W}x${H} map`,
					at
				);
				continue;
			}
			out.push({ name: o.name, obj: o, rect, where, at });
		}
		return out;
	};
	const tilesOf = (rects: ZoneRect[]): number[] => {
		const set = new Set<number>();
		for (const r of rects)
			for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) set.add(y * W + x);
		return [...set].sort((a, b) => a - b);
	};

	/**
	 * Groups pieces into zones. Rule: rectangles of one layer with the same name form ONE zone
	 * when they have the same parent (no parent for sectors), whether or not they touch, so
	 * "customer tables" may be six separate tables and an L-shaped room two rectangles. The same
	 * name under different parents makes different zones ("A:kitchen" and "B:kitchen").
	 * Rectangles of one zone that disagree on a property (sector `kind`, object `state`) are two
	 * different things sharing a name, and are reported as duplicates.
	 */
	const group = (
		layer: ZoneLayer,
		ps: Piece[],
		parentOf: (p: Piece) => number,
		label: (name: string, parent: number) => string,
		property?: string
	): { name: string; parent: number; pieces: Piece[]; value?: string }[] => {
		const byKey = new Map<string, { name: string; parent: number; pieces: Piece[]; value?: string }>();
		for (const p of ps) {
			const parent = parentOf(p);
			const key = `${parent}\u0000${p.name}`;
			const g = byKey.get(key);
			if (g) g.pieces.push(p);
			else byKey.set(key, { name: p.name, parent, pieces: [p] });
		}
		if (property)
			for (const g of byKey.values()) {
				const values = g.pieces.map((p) => p.obj.properties[property]).filter((v) => v !== undefined && v !== '');
				g.value = values[0];
				const other = g.pieces.find((p) => {
					const v = p.obj.properties[property];
					return v !== undefined && v !== '' && v !== g.value;
				});
				if (other) {
					const first = g.pieces.find((p) => p.obj.properties[property] === g.value)!;
					err(
						other.where,
						`duplicate ${layer.slice(0, -1)} "${label(g.name, g.parent)}": object ${first.obj.id ?? '?'} has ${property} "${g.value}" but object ${other.obj.id ?? '?'} has ${property} "${other.obj.properties[property]}"; rename one, or give them the same ${property}`,
						zoneAt(label(g.name, g.parent))
					);
				}
			}
		return [...byKey.values()];
	};

	/**
	 * The single zone (index in `owner`) containing all of the rect. Otherwise an error, and the
	 * zone holding most of the rect (if any) so that checks of what lies inside can go on.
	 */
	const containerOf = (
		p: Piece,
		owner: Int32Array,
		what: 'sector' | 'arena',
		nameOf: (k: number) => string
	): number | undefined => {
		const share = new Map<number, number>();
		for (const t of tilesOf([p.rect])) share.set(owner[t], (share.get(owner[t]) ?? 0) + 1);
		const inside = [...share.keys()].filter((k) => k >= 0);
		if (inside.length === 1 && !share.has(-1)) return inside[0];
		if (inside.length === 0) {
			err(p.where, `the rectangle is not inside any ${what}`, p.at);
			return undefined;
		}
		if (inside.length === 1) err(p.where, `the rectangle is not entirely inside ${what} "${nameOf(inside[0])}"`, p.at);
		else
			err(
				p.where,
				`the rectangle spans ${inside.length} ${what}s (${inside.map((k) => `"${nameOf(k)}"`).join(', ')}); it must lie inside exactly one`,
				p.at
			);
		return inside.reduce((best, k) => (share.get(k)! > share.get(best)! ? k : best));
	};

	const claim = (owner: Int32Array, tiles: number[], k: number, what: string, nameOf: (k: number) => string, where: string) => {
		const clashes = new Map<number, number>();
		for (const t of tiles) {
			const prev = owner[t];
			if (prev >= 0 && prev !== k) {
				if (!clashes.has(prev)) clashes.set(prev, t);
			} else owner[t] = k;
		}
		for (const [prev, t] of clashes)
			err(where, `${what}s "${nameOf(prev)}" and "${nameOf(k)}" overlap (first at tile ${tileName(t)})`, zoneAt(nameOf(k)));
	};

	// ---- sectors --------------------------------------------------------------------------------
	const sectorGroups = group('sectors', pieces('sectors'), () => -1, (n) => n, 'kind');
	const sectorOf = new Int32Array(N).fill(-1);
	const sectors: SectorDef[] = [];
	const zones: ZoneView[] = [];
	sectorGroups.forEach((g, si) => {
		const rects = g.pieces.map((p) => p.rect);
		const tiles = tilesOf(rects);
		sectors.push({ name: g.name, kind: g.value ?? '', tiles, arenas: [] });
		zones.push({ kind: 'sector', name: g.name, address: g.name, rects, ids: idsOf(g.pieces), value: g.value });
		claim(sectorOf, tiles, si, 'sector', (k) => sectors[k].name, g.pieces[0].where);
	});

	// ---- arenas ---------------------------------------------------------------------------------
	const arenaPieces = hasLayer('sectors') ? pieces('arenas') : [];
	const arenaParent = new Map<Piece, number>();
	for (const p of arenaPieces) {
		const s = containerOf(p, sectorOf, 'sector', (k) => sectors[k].name);
		if (s !== undefined) arenaParent.set(p, s);
	}
	const arenaGroups = group(
		'arenas',
		arenaPieces.filter((p) => arenaParent.has(p)),
		(p) => arenaParent.get(p)!,
		(n, s) => `${sectors[s].name}:${n}`
	);
	const arenas: { def: ArenaDef; sector: number; where: string }[] = [];
	const arenaOf = new Int32Array(N).fill(-1);
	arenaGroups.forEach((g, ai) => {
		const rects = g.pieces.map((p) => p.rect);
		const tiles = tilesOf(rects);
		const address = `${sectors[g.parent].name}:${g.name}`;
		const def: ArenaDef = {
			name: g.name,
			address,
			tiles,
			walkable: tiles.filter((t) => !collision[t]),
			objects: []
		};
		arenas.push({ def, sector: g.parent, where: g.pieces[0].where });
		sectors[g.parent].arenas.push(def);
		zones.push({ kind: 'arena', name: g.name, address, rects, ids: idsOf(g.pieces) });
		claim(arenaOf, tiles, ai, 'arena', (k) => arenas[k].def.address, g.pieces[0].where);
	});

	// ---- game objects ---------------------------------------------------------------------------
	const objectPieces = hasLayer('sectors') && hasLayer('arenas') ? pieces('objects') : [];
	const objectParent = new Map<Piece, number>();
	for (const p of objectPieces) {
		const a = containerOf(p, arenaOf, 'arena', (k) => arenas[k].def.address);
		if (a !== undefined) objectParent.set(p, a);
	}
	const objectGroups = group(
		'objects',
		objectPieces.filter((p) => objectParent.has(p)),
		(p) => objectParent.get(p)!,
		(n, a) => `${arenas[a].def.address}:${n}`,
		'state'
	);
	const objects: { def: ObjectDef; arena: number; where: string }[] = [];
	for (const g of objectGroups) {
		const rects = g.pieces.map((p) => p.rect);
		const tiles = tilesOf(rects);
		const arena = arenas[g.parent];
		const address = `${arena.def.address}:${g.name}`;
		const access = new Set<number>();
		for (const t of tiles) {
			const x = t % W;
			const around = [t, x > 0 ? t - 1 : -1, x < W - 1 ? t + 1 : -1, t - W, t + W];
			for (const c of around)
				if (c >= 0 && c < N && !collision[c] && arenaOf[c] === g.parent) access.add(c);
		}
		const def: ObjectDef = {
			name: g.name,
			address,
			defaultState: g.value ?? 'idle',
			tiles,
			access: [...access].sort((a, b) => a - b)
		};
		if (def.access.length === 0)
			err(
				g.pieces[0].where,
				`object "${address}" is inside walls: no walkable tile of arena "${arena.def.address}" is on it or next to it`,
				zoneAt(address)
			);
		objects.push({ def, arena: g.parent, where: g.pieces[0].where });
		arena.def.objects.push(def);
		zones.push({ kind: 'object', name: g.name, address, rects, ids: idsOf(g.pieces), value: def.defaultState });
	}

	for (const s of sectors) if (s.arenas.length === 0) warn(undefined, `sector "${s.name}" has no arenas`, zoneAt(s.name));
	for (const a of arenas)
		if (a.def.walkable.length === 0) err(a.where, `arena "${a.def.address}" has no walkable tile`, zoneAt(a.def.address));

	// ---- reachability: 4-connected walkable areas ----------------------------------------------
	const area = new Int32Array(N).fill(-1);
	const sizes: number[] = [];
	const queue = new Int32Array(N);
	for (let s = 0; s < N; s++) {
		if (collision[s] || area[s] >= 0) continue;
		const id = sizes.length;
		let head = 0;
		let tail = 0;
		queue[tail++] = s;
		area[s] = id;
		while (head < tail) {
			const t = queue[head++];
			const x = t % W;
			const next = [x > 0 ? t - 1 : -1, x < W - 1 ? t + 1 : -1, t - W, t + W];
			for (const c of next)
				if (c >= 0 && c < N && !collision[c] && area[c] < 0) {
					area[c] = id;
					queue[tail++] = c;
				}
		}
		sizes.push(tail);
	}
	const main = sizes.length ? sizes.indexOf(Math.max(...sizes)) : -1;
	const reachable = (tiles: number[]) => tiles.some((t) => area[t] === main);
	for (const a of arenas)
		if (a.def.walkable.length && !reachable(a.def.walkable))
			warn(
				a.where,
				`arena "${a.def.address}" cannot be reached: no walkable path leads to it from the main walkable area`,
				zoneAt(a.def.address)
			);
	for (const o of objects) {
		const arenaOk = reachable(arenas[o.arena].def.walkable);
		if (arenaOk && o.def.access.length && !reachable(o.def.access))
			warn(
				o.where,
				`object "${o.def.address}" cannot be reached: its access tiles are cut off from the main walkable area`,
				zoneAt(o.def.address)
			);
	}

	// ---- spawns ---------------------------------------------------------------------------------
	const spawns: Record<string, TilePoint> = {};
	const spawnViews: { name: string; x: number; y: number }[] = [];
	/** spawn name -> the first object with it */
	const spawnFirst = new Map<string, MapObject>();
	for (const o of objectLayer('spawns')) {
		const where = objWhere('spawns', o);
		if (!checkName('spawns', o, where)) continue;
		let px: number;
		let py: number;
		if (o.shape === 'point' || (o.shape === 'rect' && o.width === 0 && o.height === 0)) {
			px = o.x;
			py = o.y;
		} else if (o.shape === 'rect' || o.shape === 'ellipse') {
			px = o.x + o.width / 2;
			py = o.y + o.height / 2;
		} else if (o.shape === 'tile') {
			px = o.x + o.width / 2; // tile objects are anchored at their bottom-left corner
			py = o.y - o.height / 2;
		} else {
			err(where, `a spawn must be a point or a rectangle, not a ${o.shape}`, objAt(o));
			continue;
		}
		const x = Math.floor(px / TW);
		const y = Math.floor(py / TH);
		const first = spawnFirst.get(o.name);
		if (first) {
			const firstPlace = first.line ? `on line ${first.line}` : `object ${first.id ?? '?'}`;
			err(where, `duplicate spawn "${o.name}" (the first is ${firstPlace})`, objAt(o));
			continue;
		}
		spawnFirst.set(o.name, o);
		if (x < 0 || y < 0 || x >= W || y >= H) {
			err(where, `spawn "${o.name}" at tile (${x}, ${y}) lies outside the ${W}x${H} map`, objAt(o));
			continue;
		}
		const t = y * W + x;
		if (collision[t]) {
			err(where, `spawn "${o.name}" at tile (${x}, ${y}) is on a blocked tile (collisions layer)`, { kind: 'tile', x, y });
			continue;
		}
		if (main >= 0 && area[t] !== main)
			warn(where, `spawn "${o.name}" at tile (${x}, ${y}) is cut off from the main walkable area`, { kind: 'tile', x, y });
		spawns[o.name] = { x, y };
		spawnViews.push({ name: o.name, x, y });
	}

	return { collision, sectors, spawns, zones, spawnViews, walkable: walkableCount, spawnNames: new Set(spawnFirst.keys()) };
}
