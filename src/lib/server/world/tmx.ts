// Reading a Tiled map. tmx-parser decodes tile layers and merges external tilesets, but it is
// lossy and unmaintained: it silently drops group layers, chunks and templates, ignores the
// orientation, has no zstd, keeps no object ids or line numbers, truncates object coordinates
// with parseInt and reads malformed XML leniently. So the raw XML is scanned first with our own
// strict reader: anything tmx-parser cannot represent is refused with the feature and the
// line, and zone geometry comes from the scan. tmx-parser's tile data is cross-checked against
// the scan's own decoding, so a silent misreading cannot reach the world. The scan (`scanMap`)
// is also what the map editor reads through (tmx-doc.ts), so both refuse the same things.

import { open, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseXml, XmlSyntaxError, type XmlElement } from '../../world/xml';
import { FileLimitError, imageTypeOf, inflateCapped, LIMIT_ENV, limits, readHead, readTextCapped, xmlLimits } from '../limits';
import { lineWhere, type ProblemList } from '../../world/problems';
import type { ObjectLayer, ObjectShape, ParsedMap, TileLayer, TilesetView } from '../../world/types';
export type { MapObject, ObjectLayer, ParsedMap, TileLayer, ObjectShape } from '../../world/types';

// ---------------------------------------------------------------------------------------------
// tmx-parser (CommonJS, untyped): the shapes we read from it.

interface TmxTile {
	gid: number;
}
interface TmxTileLayer {
	type: 'tile';
	name: string | null;
	opacity: number;
	visible: boolean;
	tiles: (TmxTile | undefined)[];
	horizontalFlips: boolean[];
	verticalFlips: boolean[];
	diagonalFlips: boolean[];
}
interface TmxOtherLayer {
	type: 'object' | 'image';
	name: string | null;
}
interface TmxTileSet {
	firstGid: number;
	name: string | null;
	tileWidth: number;
	tileHeight: number;
	image: { source: string; width: number | null; height: number | null } | null;
}
interface TmxMap {
	orientation: string;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	layers: (TmxTileLayer | TmxOtherLayer)[];
	tileSets: TmxTileSet[];
}
interface TmxParserModule {
	parse(content: string, pathToFile: string, cb: (err: Error | null, map?: TmxMap) => void): void;
}

const tmxParser = createRequire(import.meta.url)('tmx-parser') as TmxParserModule;

const FLIP_H = 0x80000000;
const FLIP_V = 0x40000000;
const FLIP_D = 0x20000000;
const GID_MASK = 0x1fffffff;

// ---------------------------------------------------------------------------------------------
// The strict scan. One implementation of every refusal, shared by the world reader (`readMap`,
// below) and the map editor's reader (`readMapDoc` in tmx-doc.ts).

export type TileEncoding = 'csv' | 'base64' | 'xml';

export interface ScannedTileset {
	/** the map's <tileset> element (an external tileset's holds only firstgid and source) */
	el: XmlElement;
	firstGid: number;
	/** an external tileset's source attribute, as written in the map */
	source?: string;
	/** image path relative to the base folder */
	view: TilesetView;
}

export interface ScannedTileLayer {
	kind: 'tile';
	el: XmlElement;
	name: string;
	line: number;
	offset: boolean;
	/** raw gids, flip flags included */
	gids: Uint32Array;
	encoding: TileEncoding;
	compression?: 'zlib' | 'gzip';
}

export interface ScannedObjectLayer {
	kind: 'object';
	el: XmlElement;
	layer: ObjectLayer;
	/** the <object> element of each of `layer.objects`, same order */
	objectEls: XmlElement[];
}

/** image layers: not drawn, kept as read */
export interface ScannedOtherLayer {
	kind: 'other';
	el: XmlElement;
}

export type ScannedLayer = ScannedTileLayer | ScannedObjectLayer | ScannedOtherLayer;

export interface MapScan {
	/** the map file relative to the base folder */
	file: string;
	root: XmlElement;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	tilesets: ScannedTileset[];
	/** in document order */
	layers: ScannedLayer[];
}

export interface ScanOptions {
	/**
	 * What the base folder is called in messages: "the world folder" unless said otherwise
	 * (an import names the folder it imports from). Every file the map refers to (tilesets,
	 * their images) must be a regular file inside it, links resolved.
	 */
	folderName?: string;
}

const isInside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * Where a file a map refers to really is: `undefined` with a reason when it is missing, lies
 * outside `realBase` (directly or through a link) or is not a regular file.
 */
export async function confinedFile(
	realBase: string,
	abs: string
): Promise<{ real: string } | { missing: true; why: string } | { missing: false; why: string }> {
	let real: string;
	try {
		real = await realpath(abs);
	} catch {
		return { missing: true, why: 'not found' };
	}
	if (!isInside(realBase, real) || real === realBase) return { missing: false, why: 'lies outside' };
	try {
		await readHead(real, 0);
	} catch (e) {
		return { missing: false, why: e instanceof FileLimitError ? 'is not a regular file' : `cannot be read (${(e as Error).message})` };
	}
	return { real };
}

/** `confinedFile` for an image: also a PNG, JPEG, GIF, WebP or BMP by its first bytes. */
export async function confinedImage(
	realBase: string,
	abs: string
): Promise<{ real: string } | { missing: true; why: string } | { missing: false; why: string }> {
	const f = await confinedFile(realBase, abs);
	if (!('real' in f)) return f;
	const head = await readHead(f.real, 16);
	if (!imageTypeOf(head)) return { missing: false, why: 'is not an image (PNG, JPEG, GIF, WebP or BMP)' };
	return f;
}

/** Why a map of `tiles` tiles over all its tile layers is refused, or undefined. */
export function tooManyTiles(width: number, height: number, tileLayers: number, max = limits().maxTiles): string | undefined {
	const tiles = width * height * Math.max(1, tileLayers);
	if (tiles <= max) return undefined;
	return `the map is ${width}x${height} tiles${tileLayers > 1 ? ` with ${tileLayers} tile layers` : ''}, ${tiles.toLocaleString('en')} tiles in all, more than the ${max.toLocaleString('en')} allowed (${LIMIT_ENV.maxTiles})`;
}

/** A map file's path relative to `baseDir`, with forward slashes. */
export const relativeTo = (baseDir: string, abs: string) => path.relative(baseDir, abs).split(path.sep).join('/');

/**
 * Parses and checks the text of the map `mapAbs`: everything the world cannot hold is recorded
 * in `problems` with the file and line, and undefined comes back. Paths in problems and in the
 * tileset views are relative to `baseDir` (the world folder).
 */
export async function scanMap(
	xml: string,
	mapAbs: string,
	baseDir: string,
	problems: ProblemList,
	opts: ScanOptions = {}
): Promise<MapScan | undefined> {
	const rel = (abs: string) => relativeTo(baseDir, abs);
	const file = rel(mapAbs);
	const errorsBefore = problems.errors.length;
	const err = (line: number | string | undefined, message: string, inFile = file) =>
		problems.error(inFile, typeof line === 'number' ? lineWhere(line) : line, message);

	const lim = limits();
	const folder = opts.folderName ?? 'the world folder';
	let realBase: string;
	try {
		realBase = await realpath(baseDir);
	} catch {
		err(undefined, `the folder ${baseDir} cannot be read`);
		return undefined;
	}
	let root: XmlElement;
	try {
		root = parseXml(xml, xmlLimits(lim));
	} catch (e) {
		if (e instanceof XmlSyntaxError) {
			err(`line ${e.line}, column ${e.column}`, `malformed XML: ${e.message}`);
			return undefined;
		}
		throw e;
	}
	if (root.name !== 'map') {
		err(root.line, `not a Tiled map: the root element is <${root.name}>, expected <map>`);
		return undefined;
	}

	const orientation = root.attrs.orientation ?? 'orthogonal';
	if (orientation !== 'orthogonal')
		err(
			root.line,
			`${orientation} maps are not supported (orientation="${orientation}"); only orthogonal maps are`
		);
	if (root.attrs.infinite === '1')
		err(
			root.line,
			'infinite maps are not supported (infinite="1"); make the map finite in Tiled (Map > Map Properties > Infinite)'
		);
	const dim = (el: XmlElement, attr: string, fileOf = file): number | undefined => {
		const raw = el.attrs[attr];
		if (raw === undefined) {
			err(el.line, `<${el.name}> needs a "${attr}" attribute`, fileOf);
			return undefined;
		}
		const v = Number(raw);
		if (!Number.isInteger(v) || v <= 0) {
			err(el.line, `<${el.name}> ${attr}="${raw}" must be a positive whole number`, fileOf);
			return undefined;
		}
		return v;
	};
	/** an optional id attribute: undefined when absent, else a positive whole number */
	const idOf = (el: XmlElement, label: string): number | undefined => {
		const raw = el.attrs.id;
		if (raw === undefined) return undefined;
		const v = Number(raw);
		if (!Number.isInteger(v) || v <= 0) {
			err(el.line, `${label}: id="${raw}" must be a positive whole number`);
			return undefined;
		}
		return v;
	};
	const width = dim(root, 'width');
	const height = dim(root, 'height');
	const tileWidth = dim(root, 'tilewidth');
	const tileHeight = dim(root, 'tileheight');
	if (
		problems.errors.length > errorsBefore ||
		width === undefined ||
		height === undefined ||
		tileWidth === undefined ||
		tileHeight === undefined
	)
		return undefined;
	// every tile layer holds width x height tiles: refuse a map too large before decoding any
	const tooMany = tooManyTiles(width, height, root.children.filter((c) => c.name === 'layer').length, lim.maxTiles);
	if (tooMany) {
		err(root.line, tooMany);
		return undefined;
	}

	const layers: ScannedLayer[] = [];
	const tilesets: ScannedTileset[] = [];
	const mapDir = path.dirname(mapAbs);

	// ---- tile layers -------------------------------------------------------------------
	const scanTileLayer = (el: XmlElement) => {
		const name = el.attrs.name ?? '';
		const label = `layer "${name}"`;
		idOf(el, label);
		if (
			(el.attrs.width !== undefined && Number(el.attrs.width) !== width) ||
			(el.attrs.height !== undefined && Number(el.attrs.height) !== height)
		)
			err(
				el.line,
				`${label} is ${el.attrs.width}x${el.attrs.height} tiles but the map is ${width}x${height}`
			);
		const data = el.children.find((c) => c.name === 'data');
		if (!data) {
			err(el.line, `${label} has no <data>`);
			return;
		}
		const chunk = data.children.find((c) => c.name === 'chunk');
		if (chunk) {
			err(
				chunk.line,
				`${label}: chunked tile data (<chunk>) belongs to infinite maps and is not supported; make the map finite`
			);
			return;
		}
		const encoding = data.attrs.encoding;
		const compression = data.attrs.compression || undefined;
		const count = width * height;
		let gids: Uint32Array;
		if (encoding === undefined) {
			const tiles = data.children.filter((c) => c.name === 'tile');
			gids = new Uint32Array(tiles.length);
			for (let k = 0; k < tiles.length; k++) {
				const raw = tiles[k].attrs.gid ?? '0';
				const v = Number(raw);
				if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
					err(tiles[k].line, `${label}: gid="${raw}" is not a tile id`);
					return;
				}
				gids[k] = v;
			}
		} else if (encoding === 'csv') {
			if (compression) {
				err(data.line, `${label}: CSV data cannot be compressed (compression="${compression}")`);
				return;
			}
			const text = data.text;
			// count before splitting: a long run of commas must not become millions of strings
			let commas = 0;
			for (let at = text.indexOf(','); at >= 0 && commas < count; at = text.indexOf(',', at + 1)) commas++;
			if (text.trim() !== '' && commas + 1 > count) {
				err(data.line, `${label} has more than ${count} CSV values but a ${width}x${height} map needs ${count}`);
				return;
			}
			const tokens = text.trim() === '' ? [] : text.split(',');
			gids = new Uint32Array(tokens.length);
			let pos = 0; // offset of the current token in the text
			for (let k = 0; k < tokens.length; pos += tokens[k].length + 1, k++) {
				const tok = tokens[k].trim();
				const v = /^\d+$/.test(tok) ? Number(tok) : NaN;
				if (!(v <= 0xffffffff)) {
					// the text starts on the <data> line; count the newlines before the bad token
					const at = pos + tokens[k].search(/\S|$/);
					const lineNo = data.line + (text.slice(0, at).match(/\n/g)?.length ?? 0);
					err(
						lineNo,
						`${label}: CSV value ${k + 1} ${tok === '' ? 'is empty' : `"${tok}" is not a tile id`}`
					);
					return;
				}
				gids[k] = v;
			}
		} else if (encoding === 'base64') {
			if (compression === 'zstd') {
				err(
					data.line,
					`${label}: zstd compression is not supported; save the map with CSV or base64 (zlib or gzip) tile layer data (Map > Map Properties > Tile Layer Format)`
				);
				return;
			}
			if (compression !== undefined && compression !== 'zlib' && compression !== 'gzip') {
				err(
					data.line,
					`${label}: unknown compression "${compression}"; use none, zlib or gzip`
				);
				return;
			}
			const b64 = data.text.trim();
			if (!/^[A-Za-z0-9+/=\s]*$/.test(b64)) {
				err(data.line, `${label}: the base64 data contains characters that are not base64`);
				return;
			}
			let bytes: Buffer = Buffer.from(b64, 'base64');
			if (compression) {
				// never more than the layer's tiles take: a small "zip bomb" is stopped there
				const out = inflateCapped(bytes, compression, count * 4);
				if ('error' in out) {
					err(data.line, `${label}: the ${compression} data cannot be decompressed (${out.error})`);
					return;
				}
				bytes = out.bytes;
			}
			if (bytes.length % 4 !== 0) {
				err(data.line, `${label}: the decoded data is ${bytes.length} bytes, not a whole number of 4-byte tiles`);
				return;
			}
			gids = new Uint32Array(bytes.length / 4);
			for (let k = 0; k < gids.length; k++) gids[k] = bytes.readUInt32LE(k * 4);
		} else {
			err(data.line, `${label}: unknown tile data encoding "${encoding}"; use csv or base64`);
			return;
		}
		if (gids.length !== count) {
			err(
				data.line,
				`${label} has ${gids.length} tiles but a ${width}x${height} map needs ${count}`
			);
			return;
		}
		layers.push({
			kind: 'tile',
			el,
			name,
			line: el.line,
			offset: hasOffset(el),
			gids,
			encoding: encoding === undefined ? 'xml' : encoding,
			...(compression ? { compression: compression as 'zlib' | 'gzip' } : {})
		});
	};

	// ---- object layers -----------------------------------------------------------------
	const num = (el: XmlElement, attr: string, label: string): number => {
		const raw = el.attrs[attr];
		if (raw === undefined) return 0;
		const v = Number(raw);
		if (!Number.isFinite(v)) {
			err(el.line, `${label}: ${attr}="${raw}" is not a number`);
			return 0;
		}
		return v;
	};
	const scanObjectLayer = (el: XmlElement) => {
		const layer: ObjectLayer = { name: el.attrs.name ?? '', line: el.line, offset: hasOffset(el), objects: [] };
		const objectEls: XmlElement[] = [];
		idOf(el, `layer "${layer.name}"`);
		for (const o of el.children) {
			if (o.name !== 'object') continue;
			const name = o.attrs.name ?? '';
			const label = `layer "${layer.name}", object ${o.attrs.id ?? '?'}${name ? ` "${name}"` : ''}`;
			const id = idOf(o, label);
			if (o.attrs.template !== undefined) {
				err(
					o.line,
					`${label}: template objects are not supported (template="${o.attrs.template}"); detach the object from its template in Tiled`
				);
				continue;
			}
			const childNames = new Set(o.children.map((c) => c.name));
			const shape: ObjectShape =
				o.attrs.gid !== undefined
					? 'tile'
					: childNames.has('ellipse')
						? 'ellipse'
						: childNames.has('point')
							? 'point'
							: childNames.has('polygon')
								? 'polygon'
								: childNames.has('polyline')
									? 'polyline'
									: childNames.has('text')
										? 'text'
										: 'rect';
			const properties: Record<string, string> = {};
			for (const p of o.children.find((c) => c.name === 'properties')?.children ?? []) {
				if (p.name === 'property' && p.attrs.name !== undefined)
					properties[p.attrs.name] = p.attrs.value ?? p.text;
			}
			layer.objects.push({
				id,
				name,
				x: num(o, 'x', label),
				y: num(o, 'y', label),
				width: num(o, 'width', label),
				height: num(o, 'height', label),
				rotation: num(o, 'rotation', label),
				shape,
				properties,
				line: o.line
			});
			objectEls.push(o);
		}
		layers.push({ kind: 'object', el, layer, objectEls });
	};

	// ---- tilesets ------------------------------------------------------------------------
	const scanTileset = async (el: XmlElement) => {
		const firstGid = dim(el, 'firstgid');
		if (firstGid === undefined) return;
		let ts = el;
		let tsFile = file;
		let baseTsDir = mapDir;
		const source = el.attrs.source;
		if (source !== undefined) {
			const abs = path.resolve(mapDir, source);
			tsFile = rel(abs);
			if (!/\.tsx$/i.test(source)) {
				err(
					el.line,
					`tileset "${source}" is not a .tsx file; tilesets must be saved in Tiled's XML format (.tsx)`
				);
				return;
			}
			if (tsFile.startsWith('../') || path.isAbsolute(tsFile)) {
				err(el.line, `tileset "${source}" lies outside ${folder}`);
				return;
			}
			const found = await confinedFile(realBase, abs);
			if (!('real' in found)) {
				err(
					el.line,
					found.missing
						? `tileset file "${tsFile}" not found (source="${source}")`
						: `tileset "${source}" ${found.why}${found.why === 'lies outside' ? ` ${folder}` : ''}`
				);
				return;
			}
			let tsx: string;
			try {
				tsx = await readTextCapped(found.real, lim.maxFileBytes);
			} catch (e) {
				err(el.line, `cannot read tileset file "${tsFile}": ${(e as Error).message}`);
				return;
			}
			try {
				ts = parseXml(tsx, xmlLimits(lim));
			} catch (e) {
				if (e instanceof XmlSyntaxError) {
					err(`line ${e.line}, column ${e.column}`, `malformed XML: ${e.message}`, tsFile);
					return;
				}
				throw e;
			}
			if (ts.name !== 'tileset') {
				err(ts.line, `not a Tiled tileset: the root element is <${ts.name}>`, tsFile);
				return;
			}
			// Tiled never writes one; tmx-parser would follow it and crash the process
			if (ts.attrs.source !== undefined) {
				err(ts.line, `the tileset points to another tileset (source="${ts.attrs.source}"); a .tsx file must hold the tileset itself`, tsFile);
				return;
			}
			baseTsDir = path.dirname(abs);
		}
		const name = ts.attrs.name ?? '';
		const label = `tileset "${name}"`;
		const tw = dim(ts, 'tilewidth', tsFile);
		const th = dim(ts, 'tileheight', tsFile);
		const margin = Number(ts.attrs.margin ?? 0);
		const spacing = Number(ts.attrs.spacing ?? 0);
		if (tw === undefined || th === undefined) return;
		const image = ts.children.find((c) => c.name === 'image');
		if (!image) {
			const collection = ts.children.some(
				(c) => c.name === 'tile' && c.children.some((g) => g.name === 'image')
			);
			err(
				ts.line,
				collection
					? `${label} is an image collection (one image per tile), which is not supported; use a tileset made from one image`
					: `${label} has no image`,
				tsFile
			);
			return;
		}
		const imgSource = image.attrs.source;
		if (!imgSource) {
			err(image.line, `${label}: <image> has no source (embedded image data is not supported)`, tsFile);
			return;
		}
		const imgAbs = path.resolve(baseTsDir, imgSource);
		const imgRel = rel(imgAbs);
		if (imgRel.startsWith('../') || path.isAbsolute(imgRel)) {
			err(image.line, `${label}: image "${imgSource}" lies outside ${folder}`, tsFile);
			return;
		}
		const img = await confinedImage(realBase, imgAbs);
		if (!('real' in img)) {
			err(
				image.line,
				img.missing
					? `${label}: image file "${imgRel}" not found (source="${imgSource}")`
					: `${label}: image "${imgSource}" ${img.why}${img.why === 'lies outside' ? ` ${folder}` : ''}`,
				tsFile
			);
			return;
		}
		let imageWidth = Number(image.attrs.width ?? NaN);
		let imageHeight = Number(image.attrs.height ?? NaN);
		const real = await pngSize(img.real);
		if (real) {
			if (
				Number.isFinite(imageWidth) &&
				Number.isFinite(imageHeight) &&
				(real.width !== imageWidth || real.height !== imageHeight)
			)
				problems.warn(
					tsFile,
					lineWhere(image.line),
					`${label}: "${imgRel}" is ${real.width}x${real.height} px but the tileset says ${imageWidth}x${imageHeight}; using the real size`
				);
			imageWidth = real.width;
			imageHeight = real.height;
		}
		if (!(imageWidth > 0 && imageHeight > 0)) {
			err(image.line, `${label}: the size of image "${imgRel}" is unknown (give width and height, or use a PNG)`, tsFile);
			return;
		}
		const fit = (size: number, tile: number) =>
			Math.max(0, Math.floor((size - 2 * margin + spacing) / (tile + spacing)));
		const columns = ts.attrs.columns !== undefined ? Number(ts.attrs.columns) : fit(imageWidth, tw);
		const tileCount =
			ts.attrs.tilecount !== undefined ? Number(ts.attrs.tilecount) : columns * fit(imageHeight, th);
		if (!Number.isInteger(columns) || columns <= 0 || !Number.isInteger(tileCount) || tileCount <= 0) {
			err(ts.line, `${label} holds no tiles (columns=${columns}, tilecount=${tileCount})`, tsFile);
			return;
		}
		tilesets.push({
			el,
			firstGid,
			...(source !== undefined ? { source } : {}),
			view: {
				name,
				firstGid,
				image: imgRel,
				imageWidth,
				imageHeight,
				tileWidth: tw,
				tileHeight: th,
				columns,
				tileCount,
				margin,
				spacing
			}
		});
	};

	for (const el of root.children) {
		switch (el.name) {
			case 'tileset':
				await scanTileset(el);
				break;
			case 'layer':
				scanTileLayer(el);
				break;
			case 'objectgroup':
				scanObjectLayer(el);
				break;
			case 'imagelayer':
				idOf(el, `image layer "${el.attrs.name ?? ''}"`);
				problems.warn(
					file,
					lineWhere(el.line),
					`image layer "${el.attrs.name ?? ''}" is not shown (only tile layers are drawn)`
				);
				layers.push({ kind: 'other', el });
				break;
			case 'group':
				err(
					el.line,
					`group layer "${el.attrs.name ?? ''}" is not supported; move its layers to the top level and delete the group`
				);
				break;
			default:
				break; // properties, editorsettings: nothing the world needs
		}
	}
	if (problems.errors.length > errorsBefore) return undefined;

	// every gid must belong to a tileset (checked on the scan, before tmx-parser maps gids)
	const views = tilesets.map((t) => t.view);
	for (const layer of layers) {
		if (layer.kind !== 'tile') continue;
		const bad = unknownGids(layer.gids, views);
		if (bad)
			err(
				layer.line,
				`layer "${layer.name}": ${bad.count} tile${bad.count === 1 ? '' : 's'} use${bad.count === 1 ? 's' : ''} a tile id no tileset defines (first at tile (${bad.first % width}, ${Math.floor(bad.first / width)}), gid ${layer.gids[bad.first] & GID_MASK})`
			);
	}
	if (problems.errors.length > errorsBefore) return undefined;
	return { file, root, width, height, tileWidth, tileHeight, tilesets, layers };
}

/** Tiles whose gid (flip flags removed) no tileset defines: how many, and the index of the first. */
export function unknownGids(
	gids: ArrayLike<number>,
	tilesets: readonly TilesetView[]
): { count: number; first: number } | undefined {
	const ranges = [...tilesets].sort((a, b) => a.firstGid - b.firstGid);
	let count = 0;
	let first = -1;
	for (let k = 0; k < gids.length; k++) {
		const g = gids[k] & GID_MASK;
		if (g === 0) continue;
		let owner: TilesetView | undefined;
		for (const r of ranges) if (r.firstGid <= g) owner = r;
		if (!owner || g >= owner.firstGid + owner.tileCount) {
			if (count++ === 0) first = k;
		}
	}
	return count ? { count, first } : undefined;
}

// ---------------------------------------------------------------------------------------------
// The world's reader

/**
 * Reads and checks `mapAbs`. Returns undefined (with errors recorded) when the map cannot be
 * represented; zone-level checks happen later, on the result.
 */
export async function readMap(
	mapAbs: string,
	worldDir: string,
	problems: ProblemList
): Promise<ParsedMap | undefined> {
	const file = relativeTo(worldDir, mapAbs);
	const err = (line: number | undefined, message: string) => problems.error(file, lineWhere(line), message);

	let xml: string;
	try {
		xml = await readTextCapped(mapAbs);
	} catch (e) {
		err(undefined, `cannot read the map file: ${(e as Error).message}`);
		return undefined;
	}
	const scan = await scanMap(xml, mapAbs, worldDir, problems);
	if (!scan) return undefined;
	const { width, height, tileWidth, tileHeight } = scan;
	const tileLayers = scan.layers.filter((l): l is ScannedTileLayer => l.kind === 'tile');
	const objectLayers = scan.layers.flatMap((l) => (l.kind === 'object' ? [l.layer] : []));
	const tilesets = scan.tilesets.map((t) => t.view);
	const count = width * height;

	// ---- tmx-parser ------------------------------------------------------------------------
	let parsed: TmxMap;
	try {
		parsed = await runTmxParser(xml, mapAbs);
	} catch (e) {
		const msg = (e as Error).message ?? String(e);
		const m = /Line: (\d+)/.exec(msg);
		err(m ? Number(m[1]) + 1 : undefined, `the map cannot be read: ${msg.split('\n')[0]}`);
		return undefined;
	}

	const parsedTileLayers = parsed.layers.filter((l): l is TmxTileLayer => l.type === 'tile');
	if (parsedTileLayers.length !== tileLayers.length || parsed.tileSets.length !== tilesets.length) {
		err(undefined, 'the map reader found a different number of layers or tilesets than the map holds');
		return undefined;
	}
	const layers: TileLayer[] = [];
	for (let li = 0; li < tileLayers.length; li++) {
		const scanned = tileLayers[li];
		const pl = parsedTileLayers[li];
		const data = new Array<number>(count);
		let flips: number[] | undefined;
		for (let k = 0; k < count; k++) {
			const gid = pl.tiles[k]?.gid ?? 0;
			data[k] = gid;
			const f = (pl.horizontalFlips[k] ? 1 : 0) | (pl.verticalFlips[k] ? 2 : 0) | (pl.diagonalFlips[k] ? 4 : 0);
			if (f) (flips ??= new Array<number>(count).fill(0))[k] = f;
			const raw = scanned.gids[k];
			const expectFlips = (raw & FLIP_H ? 1 : 0) | (raw & FLIP_V ? 2 : 0) | (raw & FLIP_D ? 4 : 0);
			if ((raw & GID_MASK) !== gid || expectFlips !== f) {
				err(
					scanned.line,
					`layer "${scanned.name}": tile (${k % width}, ${Math.floor(k / width)}) was decoded inconsistently (${raw & GID_MASK} vs ${gid})`
				);
				return undefined;
			}
		}
		layers.push({
			name: pl.name ?? scanned.name,
			visible: pl.visible !== false,
			opacity: typeof pl.opacity === 'number' && Number.isFinite(pl.opacity) ? pl.opacity : 1,
			data,
			...(flips ? { flips } : {}),
			line: scanned.line,
			offset: scanned.offset
		});
	}

	const views: TilesetView[] = tilesets.map((s, k) => {
		const p = parsed.tileSets[k];
		return {
			name: p.name ?? s.name,
			firstGid: p.firstGid,
			image: s.image,
			imageWidth: s.imageWidth,
			imageHeight: s.imageHeight,
			tileWidth: p.tileWidth || s.tileWidth,
			tileHeight: p.tileHeight || s.tileHeight,
			columns: s.columns,
			tileCount: s.tileCount,
			margin: s.margin,
			spacing: s.spacing
		};
	});

	return { file, width, height, tileWidth, tileHeight, tileLayers: layers, objectLayers, tilesets: views };
}

const hasOffset = (el: XmlElement) => Number(el.attrs.offsetx ?? 0) !== 0 || Number(el.attrs.offsety ?? 0) !== 0;

function runTmxParser(xml: string, mapAbs: string): Promise<TmxMap> {
	return new Promise((resolve, reject) => {
		let settled = false;
		// tmx-parser may call back twice (an error, then the end) or throw after calling back.
		const done = (e: Error | null, map?: TmxMap) => {
			if (settled) return;
			settled = true;
			if (e || !map) reject(e ?? new Error('the file holds no map'));
			else resolve(map);
		};
		try {
			tmxParser.parse(xml, mapAbs, done);
		} catch (e) {
			done(e instanceof Error ? e : new Error(String(e)));
		}
	});
}

/** Width and height from a PNG header, or undefined if the file is not a PNG. */
async function pngSize(file: string): Promise<{ width: number; height: number } | undefined> {
	const fh = await open(file, 'r');
	try {
		const buf = Buffer.alloc(24);
		const { bytesRead } = await fh.read(buf, 0, 24, 0);
		if (bytesRead < 24 || buf.readUInt32BE(0) !== 0x89504e47 || buf.toString('latin1', 12, 16) !== 'IHDR')
			return undefined;
		return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
	} finally {
		await fh.close();
	}
}
