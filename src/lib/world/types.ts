// The map as the UI needs it (plain, JSON-serialisable data). Re-exported by load.ts.
import type { WorldDef } from '../engine/types';
import type { WorldProblem } from './problems';

export interface MapLayerView {
	name: string;
	visible: boolean;
	opacity: number;
	/** gids, row-major, 0 = empty (flip flags removed; see `flips`) */
	data: number[];
	/**
	 * Present only when some tile is flipped: per tile, 1 = horizontal, 2 = vertical,
	 * 4 = diagonal (Tiled's flip flags, same order as `data`).
	 */
	flips?: number[];
}

export interface TilesetView {
	name: string;
	firstGid: number;
	/** path relative to the world folder, with forward slashes */
	image: string;
	imageWidth: number;
	imageHeight: number;
	tileWidth: number;
	tileHeight: number;
	columns: number;
	tileCount: number;
	/** pixels around the tiles and between them in the image (0 for most tilesets) */
	margin: number;
	spacing: number;
}

/** in tiles */
export interface ZoneRect {
	x: number;
	y: number;
	w: number;
	h: number;
}

export interface ZoneView {
	kind: 'sector' | 'arena' | 'object';
	name: string;
	address: string;
	rects: ZoneRect[];
	/** ids of the map objects (rectangles) that make the zone, -1 for an object without an id */
	ids: number[];
	/** a sector's `kind` or an object's default state */
	value?: string;
}

export interface MapView {
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	/** tile layers in drawing order, `collisions` included */
	layers: MapLayerView[];
	tilesets: TilesetView[];
	zones: ZoneView[];
	/** in tiles */
	spawns: { name: string; x: number; y: number }[];
}

export interface LoadedWorld {
	/** absolute path of the world folder */
	dir: string;
	def: WorldDef;
	map: MapView;
	/** problems that do not stop the world from running */
	warnings: WorldProblem[];
}

// ---- the map as read from a .tmx (zones.ts works on this) -----------------------------------

export type ObjectShape = 'rect' | 'point' | 'ellipse' | 'polygon' | 'polyline' | 'text' | 'tile';

export interface MapObject {
	id: number | undefined;
	name: string;
	x: number;
	y: number;
	width: number;
	height: number;
	rotation: number;
	shape: ObjectShape;
	properties: Record<string, string>;
	line: number;
}

export interface ObjectLayer {
	name: string;
	line: number;
	/** the layer is drawn shifted (offsetx/offsety), which the world does not apply */
	offset: boolean;
	objects: MapObject[];
}

export interface TileLayer extends MapLayerView {
	line: number;
	offset: boolean;
}

export interface ParsedMap {
	/** the map file, relative to the world folder */
	file: string;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	/** tile layers in drawing order */
	tileLayers: TileLayer[];
	objectLayers: ObjectLayer[];
	tilesets: TilesetView[];
}
