// Structural edits of a MapDoc: layers, zones, spawns. Each takes the layer list and returns a
// new one (layers and objects are replaced, never mutated; tile data arrays are shared), so the
// editor's history can keep the list before and after as one undo step.

import {
	COLLISION_LAYER,
	SPAWN_LAYER,
	ZONE_LAYER,
	setProperty,
	type DocLayer,
	type DocObject,
	type DocObjectLayer,
	type DocTileLayer,
	type MapDoc,
	type ZoneKind
} from '../world/doc';
import type { ZoneRect, ZoneView } from '../world/types';

/** The part of a doc that structural edits change. */
export interface DocShape {
	layers: DocLayer[];
	nextLayerId: number;
	nextObjectId: number;
}

export class EditError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'EditError';
	}
}

/** The property that carries a zone's value: a sector's kind, an object's default state. */
export const ZONE_VALUE_PROPERTY: Partial<Record<ZoneKind, string>> = { sector: 'kind', object: 'state' };

// ---- layers ------------------------------------------------------------------------------------

function replaceLayer(shape: DocShape, id: number, next: (l: DocLayer) => DocLayer): DocShape {
	const at = shape.layers.findIndex((l) => l.id === id);
	if (at < 0) throw new EditError(`there is no layer ${id}`);
	const layers = [...shape.layers];
	layers[at] = next(layers[at]);
	return { ...shape, layers };
}

function checkLayerName(shape: DocShape, name: string, except?: number): string {
	const clean = name.trim();
	if (!clean) throw new EditError('a layer needs a name');
	if (shape.layers.some((l) => l.id !== except && l.name === clean))
		throw new EditError(`there is already a layer named "${clean}"`);
	return clean;
}

/** Adds a layer above `aboveId` (or on top); returns the new shape and the layer's id. */
export function addLayer(
	shape: DocShape,
	doc: Pick<MapDoc, 'width' | 'height'>,
	kind: 'tile' | 'object',
	name: string,
	aboveId?: number
): { shape: DocShape; id: number } {
	const clean = checkLayerName(shape, name);
	const id = shape.nextLayerId;
	const base = { id, name: clean, visible: true, opacity: 1, attrs: {}, properties: [] };
	const layer: DocLayer =
		kind === 'tile'
			? { ...base, kind: 'tile', encoding: 'csv', data: new Array<number>(doc.width * doc.height).fill(0) }
			: { ...base, kind: 'object', objects: [] };
	const layers = [...shape.layers];
	const at = aboveId === undefined ? -1 : layers.findIndex((l) => l.id === aboveId);
	layers.splice(at < 0 ? layers.length : at + 1, 0, layer);
	return { shape: { ...shape, layers, nextLayerId: id + 1 }, id };
}

export function renameLayer(shape: DocShape, id: number, name: string): DocShape {
	const clean = checkLayerName(shape, name, id);
	return replaceLayer(shape, id, (l) => ({ ...l, name: clean }));
}

export function setLayerVisible(shape: DocShape, id: number, visible: boolean): DocShape {
	return replaceLayer(shape, id, (l) => ({ ...l, visible }));
}

export function deleteLayer(shape: DocShape, id: number): DocShape {
	if (!shape.layers.some((l) => l.id === id)) throw new EditError(`there is no layer ${id}`);
	return { ...shape, layers: shape.layers.filter((l) => l.id !== id) };
}

/** Moves a layer `delta` places in drawing order (positive = up, drawn later). */
export function moveLayer(shape: DocShape, id: number, delta: number): DocShape {
	const from = shape.layers.findIndex((l) => l.id === id);
	if (from < 0) throw new EditError(`there is no layer ${id}`);
	const to = Math.max(0, Math.min(shape.layers.length - 1, from + delta));
	if (to === from) return shape;
	const layers = [...shape.layers];
	const [layer] = layers.splice(from, 1);
	layers.splice(to, 0, layer);
	return { ...shape, layers };
}

/** The object layer called `name`, created on top when missing (zone and spawn layers). */
function ensureObjectLayer(shape: DocShape, name: string): { shape: DocShape; layer: DocObjectLayer } {
	const found = shape.layers.find((l): l is DocObjectLayer => l.kind === 'object' && l.name === name);
	if (found) return { shape, layer: found };
	const id = shape.nextLayerId;
	const layer: DocObjectLayer = { kind: 'object', id, name, visible: true, opacity: 1, attrs: {}, properties: [], objects: [] };
	return { shape: { ...shape, layers: [...shape.layers, layer], nextLayerId: id + 1 }, layer };
}

/** The collisions tile layer, created (hidden, under the object layers) when missing. */
export function ensureCollisionLayer(shape: DocShape, doc: Pick<MapDoc, 'width' | 'height'>): { shape: DocShape; layer: DocTileLayer } {
	const found = shape.layers.find((l): l is DocTileLayer => l.kind === 'tile' && l.name === COLLISION_LAYER);
	if (found) return { shape, layer: found };
	const firstObject = shape.layers.findIndex((l) => l.kind === 'object');
	const above = firstObject > 0 ? shape.layers[firstObject - 1].id : undefined;
	const made = addLayer(shape, doc, 'tile', COLLISION_LAYER, above);
	const layer = made.shape.layers.find((l) => l.id === made.id) as DocTileLayer;
	return { shape: made.shape, layer };
}

// ---- objects -----------------------------------------------------------------------------------

function mapObjects(shape: DocShape, ids: ReadonlySet<number>, next: (o: DocObject) => DocObject | null): DocShape {
	let touched = 0;
	const layers = shape.layers.map((l) => {
		if (l.kind !== 'object' || !l.objects.some((o) => ids.has(o.id))) return l;
		const objects: DocObject[] = [];
		for (const o of l.objects) {
			if (!ids.has(o.id)) objects.push(o);
			else {
				touched++;
				const n = next(o);
				if (n) objects.push(n);
			}
		}
		return { ...l, objects };
	});
	if (touched === 0) throw new EditError('nothing to change: the objects are gone');
	return { ...shape, layers };
}

function newObject(shape: DocShape, layer: DocObjectLayer, obj: Omit<DocObject, 'id'>): { shape: DocShape; id: number } {
	const id = shape.nextObjectId;
	const next = { ...shape, nextObjectId: id + 1 };
	return { shape: replaceLayer(next, layer.id, (l) => ({ ...(l as DocObjectLayer), objects: [...(l as DocObjectLayer).objects, { ...obj, id }] })), id };
}

function checkZoneName(name: string): string {
	const clean = name.trim();
	if (!clean) throw new EditError('a zone needs a name');
	if (clean.includes(':')) throw new EditError(`"${clean}": zone names cannot contain ":" (it separates the parts of an address)`);
	return clean;
}

/** Adds one rectangle (in tiles) to the zone layer of `kind`. */
export function addZoneRect(
	shape: DocShape,
	doc: Pick<MapDoc, 'tileWidth' | 'tileHeight'>,
	kind: ZoneKind,
	name: string,
	rect: ZoneRect,
	value?: string
): { shape: DocShape; id: number } {
	const clean = checkZoneName(name);
	if (rect.w < 1 || rect.h < 1) throw new EditError('a zone rectangle covers at least one tile');
	const ensured = ensureObjectLayer(shape, ZONE_LAYER[kind]);
	const prop = ZONE_VALUE_PROPERTY[kind];
	return newObject(ensured.shape, ensured.layer, {
		name: clean,
		x: rect.x * doc.tileWidth,
		y: rect.y * doc.tileHeight,
		width: rect.w * doc.tileWidth,
		height: rect.h * doc.tileHeight,
		attrs: {},
		properties: prop && value !== undefined ? setProperty([], prop, value) : [],
		shape: []
	});
}

/** Moves or resizes one map object to `rect` (tiles). */
export function setObjectRect(shape: DocShape, doc: Pick<MapDoc, 'tileWidth' | 'tileHeight'>, id: number, rect: ZoneRect): DocShape {
	if (rect.w < 1 || rect.h < 1) throw new EditError('a zone rectangle covers at least one tile');
	return mapObjects(shape, new Set([id]), (o) => ({
		...o,
		x: rect.x * doc.tileWidth,
		y: rect.y * doc.tileHeight,
		width: rect.w * doc.tileWidth,
		height: rect.h * doc.tileHeight
	}));
}

export function renameZone(shape: DocShape, zone: ZoneView, name: string): DocShape {
	const clean = checkZoneName(name);
	return mapObjects(shape, new Set(zone.ids), (o) => ({ ...o, name: clean }));
}

export function setZoneValue(shape: DocShape, zone: ZoneView, value: string): DocShape {
	const prop = ZONE_VALUE_PROPERTY[zone.kind];
	if (!prop) throw new EditError(`${zone.kind}s have no value to set`);
	return mapObjects(shape, new Set(zone.ids), (o) => ({ ...o, properties: setProperty(o.properties, prop, value) }));
}

/**
 * Deletes a zone's rectangles and everything inside it (a sector's arenas and their objects,
 * an arena's objects), since those would no longer belong anywhere.
 */
export function deleteZone(shape: DocShape, zone: ZoneView, all: readonly ZoneView[]): DocShape {
	const doomed = new Set(zone.ids);
	for (const z of all)
		if (z.address.startsWith(zone.address + ':')) for (const id of z.ids) doomed.add(id);
	return mapObjects(shape, doomed, () => null);
}

export function deleteObject(shape: DocShape, id: number): DocShape {
	return mapObjects(shape, new Set([id]), () => null);
}

// ---- spawns ------------------------------------------------------------------------------------

/** Adds a spawn point at the centre of tile (x, y). */
export function addSpawn(
	shape: DocShape,
	doc: Pick<MapDoc, 'tileWidth' | 'tileHeight'>,
	name: string,
	x: number,
	y: number
): { shape: DocShape; id: number } {
	const clean = name.trim();
	if (!clean) throw new EditError('a spawn point needs a name');
	const ensured = ensureObjectLayer(shape, SPAWN_LAYER);
	if (ensured.layer.objects.some((o) => o.name === clean)) throw new EditError(`there is already a spawn point "${clean}"`);
	return newObject(ensured.shape, ensured.layer, {
		name: clean,
		x: (x + 0.5) * doc.tileWidth,
		y: (y + 0.5) * doc.tileHeight,
		width: 0,
		height: 0,
		attrs: {},
		properties: [],
		shape: [{ name: 'point', attrs: {}, children: [], text: '', line: 0 }]
	});
}

export function moveSpawn(shape: DocShape, doc: Pick<MapDoc, 'tileWidth' | 'tileHeight'>, id: number, x: number, y: number): DocShape {
	return mapObjects(shape, new Set([id]), (o) => ({ ...o, x: (x + 0.5) * doc.tileWidth, y: (y + 0.5) * doc.tileHeight }));
}

/** Renames a spawn point; spawn names are unique (a persona names its spawn). */
export function renameSpawn(shape: DocShape, id: number, name: string): DocShape {
	const clean = name.trim();
	if (!clean) throw new EditError('a spawn point needs a name');
	const layer = shape.layers.find((l): l is DocObjectLayer => l.kind === 'object' && l.name === SPAWN_LAYER);
	if (layer?.objects.some((o) => o.id !== id && o.name === clean)) throw new EditError(`there is already a spawn point "${clean}"`);
	return mapObjects(shape, new Set([id]), (o) => ({ ...o, name: clean }));
}

// ---- reading -----------------------------------------------------------------------------------

interface SpawnView {
	id: number;
	name: string;
	/** tile */
	x: number;
	y: number;
}

export function spawnsOf(doc: MapDoc): SpawnView[] {
	const layer = doc.layers.find((l): l is DocObjectLayer => l.kind === 'object' && l.name === SPAWN_LAYER);
	if (!layer) return [];
	return layer.objects.map((o) => ({
		id: o.id,
		name: o.name,
		x: Math.floor(o.x / doc.tileWidth),
		y: Math.floor(o.y / doc.tileHeight)
	}));
}

/** A free name like "new sector 2" not used by `taken`. */
export function freshName(base: string, taken: Iterable<string>): string {
	const used = new Set(taken);
	if (!used.has(base)) return base;
	for (let n = 2; ; n++) if (!used.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** The gid a collision brush paints: the one the collisions layer uses most, else 1. */
export function collisionGid(doc: MapDoc): number {
	const layer = doc.layers.find((l): l is DocTileLayer => l.kind === 'tile' && l.name === COLLISION_LAYER);
	const counts = new Map<number, number>();
	for (const g of layer?.data ?? []) if (g) counts.set(g, (counts.get(g) ?? 0) + 1);
	let best = 0;
	let most = 0;
	for (const [g, n] of counts) if (n > most) [best, most] = [g, n];
	return best || (doc.tilesets[0]?.firstGid ?? 1);
}
