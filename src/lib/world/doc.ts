// The editable Tiled map: everything a .tmx holds that the editor changes is a typed field, and
// everything else (unknown attributes, embedded tilesets, object shapes, property elements,
// editor settings) is kept as the XML element it was read from, so saving writes it back
// unchanged. Pure and JSON-serialisable: the server reads and writes it
// (`src/lib/server/world/tmx-doc.ts`), the browser edits it (`src/lib/editor/`).

import { ProblemList } from './problems';
import { analyseZones, type ZoneResult } from './zones';
import type { MapObject, ParsedMap, TilesetView } from './types';
import type { XmlElement } from './xml';

export const FLIP_BITS = 0xe0000000;
export const GID_MASK = 0x1fffffff;

/** The layer names with a meaning to the world (docs/world-format.md). */
export const ZONE_LAYER = { sector: 'sectors', arena: 'arenas', object: 'objects' } as const;
export const SPAWN_LAYER = 'spawns';
export const COLLISION_LAYER = 'collisions';
export type ZoneKind = keyof typeof ZONE_LAYER;

export interface DocTileset {
	firstGid: number;
	/** an external tileset: its path relative to the map file, as written in the map */
	source?: string;
	/** an embedded tileset: the <tileset> element as read (written back unchanged) */
	xml?: XmlElement;
	/** what the editor's palette needs (image path relative to the world folder) */
	view: TilesetView;
}

interface LayerBase {
	/** Tiled's layer id (unique within the map, never reused) */
	id: number;
	name: string;
	visible: boolean;
	opacity: number;
	/** other attributes of the layer element (offsetx, tintcolor, class, locked, ...) in order */
	attrs: Record<string, string>;
	/** <property> elements, as read */
	properties: XmlElement[];
}

export interface DocTileLayer extends LayerBase {
	kind: 'tile';
	encoding: 'csv' | 'base64' | 'xml';
	compression?: 'zlib' | 'gzip';
	/** raw gids (flip flags included), row-major, width x height */
	data: number[];
}

export interface DocObject {
	id: number;
	name: string;
	/** pixels */
	x: number;
	y: number;
	width: number;
	height: number;
	/** other attributes (type/class, rotation, gid, visible, ...) in order */
	attrs: Record<string, string>;
	properties: XmlElement[];
	/** shape children after the properties (<point/>, <ellipse/>, <polygon>, <text>), as read */
	shape: XmlElement[];
}

export interface DocObjectLayer extends LayerBase {
	kind: 'object';
	objects: DocObject[];
}

/** A layer the editor shows but does not change (image layers): written back as read. */
export interface DocOtherLayer extends LayerBase {
	kind: 'other';
	xml: XmlElement;
}

export type DocLayer = DocTileLayer | DocObjectLayer | DocOtherLayer;

export interface MapDoc {
	/** the map file, relative to the world folder */
	file: string;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	nextLayerId: number;
	nextObjectId: number;
	/** every attribute of <map> as read, in order (the fields above win when written) */
	attrs: Record<string, string>;
	properties: XmlElement[];
	tilesets: DocTileset[];
	layers: DocLayer[];
	/** other children of <map> (such as <editorsettings>), written before the tilesets */
	extra: XmlElement[];
}

// ---- properties --------------------------------------------------------------------------------

export function getProperty(props: readonly XmlElement[], name: string): string | undefined {
	const p = props.find((e) => e.name === 'property' && e.attrs.name === name);
	if (!p) return undefined;
	return p.attrs.value ?? p.text;
}

/** A new property list with `name` set to a string `value` (removed when `value` is undefined). */
export function setProperty(props: readonly XmlElement[], name: string, value: string | undefined): XmlElement[] {
	const rest = props.filter((e) => !(e.name === 'property' && e.attrs.name === name));
	if (value === undefined) return rest;
	const at = props.findIndex((e) => e.name === 'property' && e.attrs.name === name);
	const el: XmlElement = { name: 'property', attrs: { name, value }, children: [], text: '', line: 0 };
	if (at < 0) return [...rest, el];
	const out = [...props];
	out[at] = el;
	return out;
}

// ---- lookups -----------------------------------------------------------------------------------

export function layerNamed<K extends DocLayer['kind']>(
	doc: MapDoc,
	name: string,
	kind: K
): Extract<DocLayer, { kind: K }> | undefined {
	return doc.layers.find((l) => l.kind === kind && l.name === name) as Extract<DocLayer, { kind: K }> | undefined;
}

export function tilesetOf(doc: MapDoc, gid: number): DocTileset | undefined {
	const g = gid & GID_MASK;
	let best: DocTileset | undefined;
	for (const t of doc.tilesets) if (t.firstGid <= g && (!best || t.firstGid > best.firstGid)) best = t;
	return best && g < best.firstGid + best.view.tileCount ? best : undefined;
}

// ---- the world's reading of the map ------------------------------------------------------------

/** The doc in the shape the zone analysis reads (line numbers are 0: the doc is not a file). */
export function parsedMapOf(doc: MapDoc): ParsedMap {
	const tileLayers: ParsedMap['tileLayers'] = [];
	const objectLayers: ParsedMap['objectLayers'] = [];
	const offset = (l: LayerBase) => Number(l.attrs.offsetx ?? 0) !== 0 || Number(l.attrs.offsety ?? 0) !== 0;
	for (const l of doc.layers) {
		if (l.kind === 'tile') {
			const data = l.data.map((g) => g & GID_MASK);
			tileLayers.push({ name: l.name, visible: l.visible, opacity: l.opacity, data, line: 0, offset: offset(l) });
		} else if (l.kind === 'object') {
			const objects: MapObject[] = l.objects.map((o) => ({
				id: o.id,
				name: o.name,
				x: o.x,
				y: o.y,
				width: o.width,
				height: o.height,
				rotation: Number(o.attrs.rotation ?? 0),
				shape: shapeOf(o),
				properties: Object.fromEntries(
					o.properties.filter((p) => p.name === 'property').map((p) => [p.attrs.name, p.attrs.value ?? p.text])
				),
				line: 0
			}));
			objectLayers.push({ name: l.name, line: 0, offset: offset(l), objects });
		}
	}
	return {
		file: doc.file,
		width: doc.width,
		height: doc.height,
		tileWidth: doc.tileWidth,
		tileHeight: doc.tileHeight,
		tileLayers,
		objectLayers,
		tilesets: doc.tilesets.map((t) => t.view)
	};
}

export function shapeOf(o: DocObject): MapObject['shape'] {
	if (o.attrs.gid !== undefined) return 'tile';
	const s = o.shape.find((e) => ['point', 'ellipse', 'polygon', 'polyline', 'text'].includes(e.name));
	return (s?.name as MapObject['shape']) ?? 'rect';
}

/** Zones, collisions, spawns and problems of the doc, exactly as a run would read the saved map. */
export function analyseDoc(doc: MapDoc): ZoneResult & { problems: ProblemList } {
	const problems = new ProblemList();
	return { ...analyseZones(parsedMapOf(doc), problems), problems };
}
