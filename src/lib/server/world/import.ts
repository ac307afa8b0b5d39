// Importing a map made elsewhere as a new world: a Tiled .tmx (read by the same strict reader as
// every world map) or a Tiled JSON map (.tmj/.json, converted). The new folder gets the map
// written by our writer, its tilesets and images copied into tilesets/ (JSON tilesets become
// .tsx files; tilesets embedded in the map stay embedded), a world.json with the default
// settings, an empty personas/ and an empty scenario. Nothing is created for a refused map:
// the world is built in a hidden folder, read back and only then renamed into place.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COLLISION_LAYER, SPAWN_LAYER, ZONE_LAYER, type DocLayer, type DocObject, type MapDoc } from '../../world/doc';
import { ProblemList, WorldError, formatProblem, lineWhere, type WorldProblem } from '../../world/problems';
import type { TilesetView } from '../../world/types';
import { parseXml, XmlSyntaxError, type XmlElement } from '../../world/xml';
import { analyseZones } from '../../world/zones';
import { worldsDir as defaultWorldsDir } from '../paths';
import { formatBytes, inflateCapped, jsonDepthOfMaps, jsonTooDeep, LIMIT_ENV, limits, readTextCapped, xmlLimits } from '../limits';
import { parseJson, JsonSyntaxError, type JsonDoc, type JsonPath } from '../../world/json';
import { checkMapDoc, readMapDocAt, writeMapDoc, xmlText } from './tmx-doc';
import { confinedFile, confinedImage, readMap, tooManyTiles } from './tmx';
import { WORLD_ID } from '../../shared/ids';
import { isRecord } from '../../shared/guards';

export type LayerRole = 'visual' | 'collisions' | 'sectors' | 'arenas' | 'objects' | 'spawns' | 'none';

export interface ImportReport {
	ok: true;
	/** the new world's id (its folder name) */
	world: string;
	/** absolute path of the new world folder */
	dir: string;
	/** absolute path of the map file written */
	map: string;
	layers: { name: string; kind: 'tile' | 'object' | 'image'; role: LayerRole }[];
	zones: { sectors: number; arenas: number; objects: number; spawns: number };
	/** what could not be used as it is, one line each */
	warnings: string[];
}

/** world.json of a new world: the defaults of docs/world-format.md. */
export function defaultManifest(name: string, map: string): object {
	return {
		name,
		map,
		start: '2023-02-13T07:00:00',
		secondsPerStep: 10,
		defaults: {
			perception: { visionRadius: 8, attentionBandwidth: 8, retention: 8, reactionMinutes: 0 },
			retrieval: { weights: { recency: 1, importance: 1, relevance: 1 }, decay: 0.995, topK: 30 },
			reflection: { threshold: 150 },
			conversation: { maxTurns: 8, cooldownMinutes: 60 }
		}
	};
}

/** Where a map or tileset refers to a file: shown when the file is refused. */
interface Reference {
	file: string;
	where?: string;
	/** e.g. `tileset "town": image "../art/tiles.png"` */
	what: string;
}

/** Files of the new world, by path relative to its folder. */
class Plan {
	readonly texts = new Map<string, string>();
	/** new relative path -> absolute source path */
	readonly copies = new Map<string, string>();
	/** absolute source -> the first reference to it */
	readonly references = new Map<string, Reference>();
	/** absolute source -> new relative path (a file used twice is copied once) */
	private readonly placed = new Map<string, string>();
	readonly warnings: string[] = [];

	/**
	 * @param dir the folder the import reads from, as given: every file it copies must be a
	 * regular file inside it
	 * @param root the same folder's real path (links resolved)
	 */
	constructor(
		readonly dir: string,
		readonly root: string
	) {}

	/** A reference that lies outside the import folder (decided from its text, before any look at the disk). */
	outside(abs: string): boolean {
		const rel = path.relative(this.dir, abs);
		return rel === '' || rel.startsWith('..') || path.isAbsolute(rel);
	}

	/** A free path `dir/name` for `source` (the same source always gets the same path). */
	place(dir: string, source: string, name = path.basename(source)): string {
		const key = `${dir}\u0000${source}`;
		const known = this.placed.get(key);
		if (known) return known;
		const ext = path.extname(name);
		const stem = name.slice(0, name.length - ext.length).replace(/[^\w.-]+/g, '-') || 'file';
		let rel = `${dir}/${stem}${ext}`;
		for (let n = 2; this.texts.has(rel) || this.copies.has(rel); n++) rel = `${dir}/${stem}-${n}${ext}`;
		this.placed.set(key, rel);
		return rel;
	}
	/** Copies the image `source` (checked by `verify` before anything is written). */
	copy(dir: string, source: string, ref: Reference): string {
		const rel = this.place(dir, source);
		this.copies.set(rel, source);
		if (!this.references.has(source)) this.references.set(source, ref);
		return rel;
	}

	/**
	 * Every file to copy must be a regular file inside the import folder (links resolved) and
	 * an image by its first bytes. Returns one problem per file refused.
	 */
	async verify(): Promise<WorldProblem[]> {
		const problems: WorldProblem[] = [];
		const max = limits().maxFileBytes;
		for (const abs of new Set(this.copies.values())) {
			const ref = this.references.get(abs)!;
			const refuse = (why: string) => problems.push({ file: ref.file, ...(ref.where ? { where: ref.where } : {}), message: `${ref.what} ${why}` });
			if (this.outside(abs)) {
				refuse(`lies outside the folder the map is imported from (${this.dir})`);
				continue;
			}
			const f = await confinedImage(this.root, abs);
			if (!('real' in f)) {
				refuse(f.why === 'lies outside' ? `lies outside the folder the map is imported from (${this.dir})` : f.why);
				continue;
			}
			const size = (await stat(f.real)).size;
			if (size > max) refuse(`is ${formatBytes(size)}, more than the ${formatBytes(max)} allowed (${LIMIT_ENV.maxFileBytes})`);
		}
		return problems;
	}
	text(dir: string, source: string, name: string, text: string): string {
		const rel = this.place(dir, source, name);
		this.texts.set(rel, text);
		return rel;
	}
}

const refuse = (src: string, problems: WorldProblem[]): never => {
	throw new WorldError(problems, `map "${src}"`);
};

/**
 * Imports the map at `srcPath` as the world `name` in `worldsDir` (SIMULACRA_WORLDS or worlds/).
 * Throws WorldError (nothing written) for a refused map, a bad name or an existing world.
 */
export async function importMap(srcPath: string, opts: { name: string; worldsDir?: string; root?: string }): Promise<ImportReport> {
	const { name } = opts;
	const worlds = path.resolve(opts.worldsDir ?? defaultWorldsDir());
	if (!WORLD_ID.test(name))
		throw new WorldError(
			[{ file: name, message: `"${name}" is not a world name: use lowercase letters, digits, "-" and "_" (at most 64, starting with a letter or digit), e.g. "harbour-town"` }],
			'import'
		);
	const dest = path.join(worlds, name);
	if (existsSync(dest)) throw new WorldError([{ file: name, message: `a world named "${name}" already exists in ${worlds}` }], 'import');

	const src = path.resolve(srcPath);
	const srcName = path.basename(src);
	const info = await stat(src).catch(() => undefined);
	if (!info?.isFile()) refuse(srcName, [{ file: srcPath, message: 'file not found' }]);
	const ext = path.extname(src).toLowerCase();
	if (!['.tmx', '.tmj', '.json'].includes(ext))
		refuse(srcName, [{ file: srcName, message: `not a Tiled map: import a .tmx, .tmj or .json map (got "${ext || 'no extension'}")` }]);

	// every file the map refers to must lie inside this folder: the map's own unless told
	const rootDir = path.resolve(opts.root ?? path.dirname(src));
	const realRoot = await realpath(rootDir).catch(() => refuse(srcName, [{ file: rootDir, message: 'the folder to import from does not exist' }]));
	const inRoot = await confinedFile(realRoot, src);
	if (!('real' in inRoot))
		refuse(srcName, [{ file: srcName, message: `the map ${inRoot.why === 'lies outside' ? `lies outside the folder to import from (${rootDir})` : inRoot.why}` }]);
	const max = limits().maxFileBytes;
	if (info!.size > max)
		refuse(srcName, [{ file: srcName, message: `the map is ${formatBytes(info!.size)}, more than the ${formatBytes(max)} allowed (${LIMIT_ENV.maxFileBytes})` }]);

	const plan = new Plan(rootDir, realRoot);
	const doc = ext === '.tmx' ? await planFromTmx(src, plan) : await planFromJson(src, plan);
	doc.file = `${name}.tmx`;
	const docProblems = checkMapDoc(doc);
	if (docProblems.length) refuse(srcName, docProblems.map((p) => ({ ...p, file: srcName })));
	const refused = await plan.verify();
	if (refused.length) refuse(srcName, refused);

	// ---- build the world in a hidden folder, read it back, then move it into place ----------
	await mkdir(worlds, { recursive: true });
	const tmp = path.join(worlds, `.import-${name}-${randomBytes(4).toString('hex')}`);
	try {
		await mkdir(path.join(tmp, 'personas'), { recursive: true });
		await mkdir(path.join(tmp, 'tilesets'), { recursive: true });
		for (const [rel, abs] of plan.copies) {
			await mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
			await copyFile(abs, path.join(tmp, rel));
		}
		for (const [rel, text] of plan.texts) {
			await mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
			await writeFile(path.join(tmp, rel), text);
		}
		await writeFile(path.join(tmp, doc.file), writeMapDoc(doc));
		await writeFile(path.join(tmp, 'world.json'), JSON.stringify(defaultManifest(name, doc.file), null, '\t') + '\n');
		await writeFile(path.join(tmp, 'scenario.json'), JSON.stringify({ seeds: [], facts: [] }, null, '\t') + '\n');

		// the saved map must read back with the editor's reader and with the world's reader
		const mapAbs = path.join(tmp, doc.file);
		const { doc: saved, warnings: readWarnings } = await readMapDocAt(mapAbs, tmp);
		const problems = new ProblemList();
		const parsed = await readMap(mapAbs, tmp, problems);
		if (!parsed || problems.errors.length) refuse(srcName, problems.errors);
		const zones = analyseZones(parsed!, problems);

		const warnings = [
			...plan.warnings,
			...readWarnings.map(formatProblem),
			...problems.errors.map(formatProblem),
			...problems.warnings.map(formatProblem)
		];
		const report: ImportReport = {
			ok: true,
			world: name,
			dir: dest,
			map: path.join(dest, doc.file),
			layers: saved.layers.map((l) => ({ name: l.name, kind: l.kind === 'other' ? 'image' : l.kind, role: roleOf(l) })),
			zones: {
				sectors: zones.zones.filter((z) => z.kind === 'sector').length,
				arenas: zones.zones.filter((z) => z.kind === 'arena').length,
				objects: zones.zones.filter((z) => z.kind === 'object').length,
				spawns: zones.spawnViews.length
			},
			warnings: [...new Set(warnings)]
		};
		if (existsSync(dest)) throw new WorldError([{ file: name, message: `a world named "${name}" already exists in ${worlds}` }], 'import');
		await rename(tmp, dest);
		return report;
	} catch (e) {
		await rm(tmp, { recursive: true, force: true });
		throw e;
	}
}

const OBJECT_ROLES: readonly string[] = [...Object.values(ZONE_LAYER), SPAWN_LAYER];

/**
 * What the world makes of a layer: tile layers are drawn (`collisions` blocks movement), object
 * layers named sectors, arenas, objects or spawns are read; anything else is not used.
 */
export function roleOf(l: DocLayer): LayerRole {
	if (l.kind === 'tile') {
		if (l.name === COLLISION_LAYER) return 'collisions';
		return OBJECT_ROLES.includes(l.name) ? 'none' : 'visual';
	}
	if (l.kind === 'object' && OBJECT_ROLES.includes(l.name)) return l.name as LayerRole;
	return 'none';
}

// ---- .tmx ----------------------------------------------------------------------------------------

async function planFromTmx(src: string, plan: Plan): Promise<MapDoc> {
	const srcDir = path.dirname(src);
	const { doc } = await readMapDocAt(src, plan.dir, { folderName: 'the folder the map is imported from' });
	const tsxDone = new Map<string, string>();
	for (const t of doc.tilesets) {
		if (t.source !== undefined) {
			const abs = path.resolve(srcDir, t.source);
			let rel = tsxDone.get(abs);
			if (!rel) {
				rel = await planTsx(abs, path.basename(src), plan);
				tsxDone.set(abs, rel);
			}
			t.source = rel;
		} else if (t.xml) {
			t.xml = relocateImage(t.xml, srcDir, plan, 'tilesets/', path.basename(src));
		}
	}
	for (const l of doc.layers) if (l.kind === 'other') l.xml = relocateLayerImage(l.xml, srcDir, plan, l.name, path.basename(src));
	return doc;
}

/** Copies an external .tsx tileset (and its image) into tilesets/; returns the map's new source. */
async function planTsx(abs: string, mapName: string, plan: Plan): Promise<string> {
	const file = path.basename(abs);
	if (plan.outside(abs)) return refuse(mapName, [{ file, message: `the tileset lies outside the folder the map is imported from (${plan.dir})` }]);
	const found = await confinedFile(plan.root, abs);
	if (!('real' in found)) return refuse(mapName, [{ file, message: `the tileset ${found.why === 'lies outside' ? `lies outside the folder the map is imported from (${plan.dir})` : found.why}` }]);
	let text: string;
	try {
		text = await readTextCapped(found.real);
	} catch (e) {
		return refuse(mapName, [{ file, message: `cannot read the tileset: ${(e as Error).message}` }]);
	}
	let root: XmlElement;
	try {
		root = parseXml(text, xmlLimits());
	} catch (e) {
		if (e instanceof XmlSyntaxError) return refuse(mapName, [{ file, where: `line ${e.line}, column ${e.column}`, message: `malformed XML: ${e.message}` }]);
		throw e;
	}
	const moved = relocateImage(root, path.dirname(abs), plan, '', file);
	const sameImage = xmlText(moved) === xmlText(root);
	// the tileset file is copied unchanged when its image keeps its relative path
	return plan.text('tilesets', abs, file, sameImage ? text : `<?xml version="1.0" encoding="UTF-8"?>\n${xmlText(moved)}\n`);
}

/**
 * A tileset element whose <image> is copied into tilesets/ and referred to from `prefix`
 * ('tilesets/' for a tileset in the map, '' for a .tsx file inside tilesets/).
 */
function relocateImage(ts: XmlElement, fromDir: string, plan: Plan, prefix: '' | 'tilesets/', file?: string): XmlElement {
	const label = `tileset "${ts.attrs.name ?? ''}"`;
	const children = ts.children.map((c) => {
		if (c.name !== 'image' || !c.attrs.source) return c;
		const abs = path.resolve(fromDir, c.attrs.source);
		const ref = { file: file ?? 'map', ...(c.line ? { where: lineWhere(c.line) } : {}), what: `${label}: image "${c.attrs.source}"` };
		if (!plan.outside(abs) && !existsSync(abs))
			refuse(file ?? 'map', [{ file: file ?? 'map', where: lineWhere(c.line), message: `${label}: image "${c.attrs.source}" not found` }]);
		const rel = plan.copy('tilesets', abs, ref);
		const source = prefix === 'tilesets/' ? rel : path.posix.basename(rel);
		return { ...c, attrs: { ...c.attrs, source } };
	});
	return { ...ts, children };
}

/** An image layer's picture, copied into images/ when it exists. */
function relocateLayerImage(el: XmlElement, fromDir: string, plan: Plan, layer: string, file: string): XmlElement {
	const children = el.children.map((c) => {
		if (c.name !== 'image' || !c.attrs.source) return c;
		const abs = path.resolve(fromDir, c.attrs.source);
		if (!plan.outside(abs) && !existsSync(abs)) {
			plan.warnings.push(`image layer "${layer}": its image "${c.attrs.source}" was not found and is not copied`);
			return c;
		}
		const ref = { file, ...(c.line ? { where: lineWhere(c.line) } : {}), what: `image layer "${layer}": image "${c.attrs.source}"` };
		return { ...c, attrs: { ...c.attrs, source: plan.copy('images', abs, ref) } };
	});
	return { ...el, children };
}

// ---- Tiled JSON ------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
const el = (name: string, attrs: Record<string, string> = {}, children: XmlElement[] = [], text = ''): XmlElement => ({
	name,
	attrs,
	children,
	text,
	line: 0
});

/** Reads a JSON file with line numbers; refuses malformed JSON. */
async function readJsonDoc(abs: string, label: string, mapName: string): Promise<JsonDoc> {
	let text: string;
	try {
		text = await readTextCapped(abs);
	} catch (e) {
		return refuse(mapName, [{ file: label, message: `cannot read the file: ${(e as Error).message}` }]);
	}
	// a Tiled JSON map nests as its XML would (group layers, class properties)
	const deep = jsonTooDeep(text, jsonDepthOfMaps());
	if (deep) return refuse(mapName, [{ file: label, where: `line ${deep.line}, column ${deep.column}`, message: `refused: its ${deep.message}` }]);
	try {
		return parseJson(text);
	} catch (e) {
		if (e instanceof JsonSyntaxError) return refuse(mapName, [{ file: label, where: `line ${e.line}, column ${e.column}`, message: `invalid JSON: ${e.message}` }]);
		throw e;
	}
}

/** Converts one JSON file (a map or a tileset), collecting problems at the line of each key. */
class JsonReader {
	readonly problems = new ProblemList();
	/** the id given to an object without one (maps older than Tiled 0.11) */
	nextObjectId = 1;
	constructor(
		readonly file: string,
		readonly json: JsonDoc
	) {}
	where(p: JsonPath): string | undefined {
		for (let k = p.length; k >= 0; k--) {
			const line = this.json.lineOf(p.slice(0, k));
			if (line !== undefined) return `line ${line}`;
		}
		return undefined;
	}
	error(p: JsonPath, message: string): void {
		this.problems.error(this.file, this.where(p), message);
	}

	/** Tiled's JSON properties as <property> elements. */
	properties(v: unknown, p: JsonPath): XmlElement[] {
		if (v === undefined) return [];
		if (!Array.isArray(v)) {
			this.error(p, '"properties" must be a list');
			return [];
		}
		return v.flatMap((prop, k) => {
			if (!isRecord(prop) || typeof prop.name !== 'string') {
				this.error([...p, k], 'a property needs a "name"');
				return [];
			}
			return [this.property(prop)];
		});
	}
	private property(prop: Json): XmlElement {
		const type = typeof prop.type === 'string' ? prop.type : 'string';
		const attrs: Record<string, string> = { name: prop.name as string };
		if (type !== 'string') attrs.type = type;
		if (typeof prop.propertytype === 'string' && prop.propertytype) attrs.propertytype = prop.propertytype;
		if (type === 'class') {
			const members = isRecord(prop.value) ? Object.entries(prop.value) : [];
			const inner = members.map(([name, value]) => this.property({ name, value, type: inferType(value) }));
			return el('property', attrs, inner.length ? [el('properties', {}, inner)] : []);
		}
		const value = prop.value === undefined || prop.value === null ? '' : typeof prop.value === 'object' ? JSON.stringify(prop.value) : String(prop.value);
		// a multi-line string is written as the element's text, as Tiled does
		if (type === 'string' && value.includes('\n')) return el('property', attrs, [], value);
		return el('property', { ...attrs, value });
	}

	/** Known scalar members of `o` as attributes, in the given order. */
	attrs(o: Json, keys: readonly string[], skipDefault: Record<string, unknown> = {}): Record<string, string> {
		const out: Record<string, string> = {};
		for (const k of keys) {
			const v = o[k];
			if (v === undefined || v === null || typeof v === 'object') continue;
			if (k in skipDefault && skipDefault[k] === v) continue;
			out[k] = str(v);
		}
		return out;
	}

	/** One object of an object layer (or of a tile's collision shapes). */
	object(o: unknown, p: JsonPath): DocObject | undefined {
		if (!isRecord(o)) {
			this.error(p, 'an object must be a JSON object');
			return undefined;
		}
		if (o.template !== undefined) {
			this.error([...p, 'template'], `template objects are not supported (template "${String(o.template)}"); detach the object from its template in Tiled`);
			return undefined;
		}
		const n = (k: string) => {
			const v = o[k];
			if (v === undefined) return 0;
			if (typeof v !== 'number' || !Number.isFinite(v)) {
				this.error([...p, k], `"${k}" must be a number`);
				return 0;
			}
			return v;
		};
		let id = o.id;
		if (id === undefined) id = this.nextObjectId++;
		if (!(typeof id === 'number' && Number.isInteger(id) && id > 0)) {
			this.error([...p, 'id'], `object id ${JSON.stringify(id)} must be a positive whole number`);
			return undefined;
		}
		const attrs: Record<string, string> = {};
		if (typeof o.type === 'string' && o.type) attrs.type = o.type;
		if (typeof o.class === 'string' && o.class) attrs.class = o.class;
		if (o.gid !== undefined) attrs.gid = str(o.gid);
		if (typeof o.rotation === 'number' && o.rotation !== 0) attrs.rotation = str(o.rotation);
		if (o.visible === false) attrs.visible = '0';
		const shape: XmlElement[] = [];
		const points = (v: unknown) =>
			Array.isArray(v) ? v.map((q) => (isRecord(q) ? `${Number(q.x)},${Number(q.y)}` : '')).join(' ') : '';
		if (o.point === true) shape.push(el('point'));
		else if (o.ellipse === true) shape.push(el('ellipse'));
		else if (o.polygon !== undefined) shape.push(el('polygon', { points: points(o.polygon) }));
		else if (o.polyline !== undefined) shape.push(el('polyline', { points: points(o.polyline) }));
		else if (isRecord(o.text)) {
			const t = o.text;
			const ta = this.attrs(t, ['fontfamily', 'pixelsize', 'wrap', 'color', 'bold', 'italic', 'underline', 'strikeout', 'kerning', 'halign', 'valign'], {
				kerning: true
			});
			shape.push(el('text', ta, [], typeof t.text === 'string' ? t.text : ''));
		}
		return {
			id,
			name: typeof o.name === 'string' ? o.name : '',
			x: n('x'),
			y: n('y'),
			width: n('width'),
			height: n('height'),
			attrs,
			properties: this.properties(o.properties, [...p, 'properties']),
			shape
		};
	}
}

function inferType(v: unknown): string {
	if (typeof v === 'boolean') return 'bool';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
	if (isRecord(v)) return 'class';
	return 'string';
}

/** A DocObject as an <object> element (for the collision shapes inside a tileset). */
function objectElement(o: DocObject): XmlElement {
	const attrs: Record<string, string> = { id: String(o.id) };
	if (o.name) attrs.name = o.name;
	attrs.x = String(o.x);
	attrs.y = String(o.y);
	if (o.width) attrs.width = String(o.width);
	if (o.height) attrs.height = String(o.height);
	const children = [...(o.properties.length ? [el('properties', {}, o.properties)] : []), ...o.shape];
	return el('object', { ...attrs, ...o.attrs }, children);
}

const MAP_ATTRS = [
	'version',
	'tiledversion',
	'class',
	'orientation',
	'renderorder',
	'compressionlevel',
	'width',
	'height',
	'tilewidth',
	'tileheight',
	'hexsidelength',
	'staggeraxis',
	'staggerindex',
	'parallaxoriginx',
	'parallaxoriginy',
	'backgroundcolor',
	'infinite',
	'nextlayerid',
	'nextobjectid'
];
const LAYER_KEYS = ['class', 'offsetx', 'offsety', 'parallaxx', 'parallaxy', 'tintcolor', 'locked'];
const LAYER_DEFAULTS = { offsetx: 0, offsety: 0, parallaxx: 1, parallaxy: 1, locked: false };
const TILESET_ATTRS = ['version', 'tiledversion', 'name', 'class', 'tilewidth', 'tileheight', 'spacing', 'margin', 'tilecount', 'columns', 'objectalignment', 'tilerendersize', 'fillmode', 'backgroundcolor'];
/** tileset members that are converted (or carry nothing a .tsx needs) */
const TILESET_HANDLED = new Set([
	...TILESET_ATTRS,
	'firstgid',
	'source',
	'type',
	'image',
	'imagewidth',
	'imageheight',
	'transparentcolor',
	'tileoffset',
	'grid',
	'properties',
	'tiles',
	'wangsets',
	'transformations'
]);

async function planFromJson(src: string, plan: Plan): Promise<MapDoc> {
	const srcName = path.basename(src);
	const srcDir = path.dirname(src);
	const json = await readJsonDoc(src, srcName, srcName);
	const r = new JsonReader(srcName, json);
	const m = json.value;
	if (!isRecord(m) || (m.type !== undefined && m.type !== 'map') || m.layers === undefined)
		return refuse(srcName, [{ file: srcName, message: 'not a Tiled JSON map (it needs "type": "map" and "layers")' }]);

	const orientation = m.orientation ?? 'orthogonal';
	if (orientation !== 'orthogonal')
		r.error(['orientation'], `${String(orientation)} maps are not supported (orientation "${String(orientation)}"); only orthogonal maps are`);
	if (m.infinite === true) r.error(['infinite'], 'infinite maps are not supported ("infinite": true); make the map finite in Tiled (Map > Map Properties > Infinite)');
	const dim = (k: string): number => {
		const v = m[k];
		if (!(typeof v === 'number' && Number.isInteger(v) && v > 0)) {
			r.error([k], `"${k}" must be a positive whole number`);
			return 0;
		}
		return v;
	};
	const width = dim('width');
	const height = dim('height');
	const tileWidth = dim('tilewidth');
	const tileHeight = dim('tileheight');
	if (r.problems.errors.length) return refuse(srcName, r.problems.errors);
	// every tile layer holds width x height tiles: refuse a map too large before decoding any
	const tileLayers = Array.isArray(m.layers) ? m.layers.filter((l) => isRecord(l) && l.type === 'tilelayer').length : 0;
	const tooMany = tooManyTiles(width, height, tileLayers);
	if (tooMany) return refuse(srcName, [{ file: srcName, message: tooMany }]);

	const doc: MapDoc = {
		file: srcName,
		width,
		height,
		tileWidth,
		tileHeight,
		nextLayerId: typeof m.nextlayerid === 'number' ? m.nextlayerid : 1,
		nextObjectId: typeof m.nextobjectid === 'number' ? m.nextobjectid : 1,
		attrs: r.attrs({ ...m, orientation: 'orthogonal', infinite: false }, MAP_ATTRS, { compressionlevel: -1 }),
		properties: r.properties(m.properties, ['properties']),
		tilesets: [],
		layers: [],
		extra: []
	};

	// ---- tilesets ----------------------------------------------------------------------
	const tilesets = Array.isArray(m.tilesets) ? m.tilesets : [];
	const tsxDone = new Map<string, string>();
	for (const [k, t] of tilesets.entries()) {
		const p = ['tilesets', k];
		if (!isRecord(t) || !(typeof t.firstgid === 'number' && Number.isInteger(t.firstgid) && t.firstgid > 0)) {
			r.error(p, 'a tileset needs a positive whole "firstgid"');
			continue;
		}
		const view = placeholderView(t.firstgid);
		if (typeof t.source === 'string') {
			const abs = path.resolve(srcDir, t.source);
			const found = plan.outside(abs) ? ({ missing: false, why: 'lies outside' } as const) : await confinedFile(plan.root, abs);
			if (!('real' in found)) {
				r.error(
					[...p, 'source'],
					found.missing
						? `tileset file "${t.source}" not found`
						: `tileset "${t.source}" ${found.why === 'lies outside' ? `lies outside the folder the map is imported from (${plan.dir})` : found.why}`
				);
				continue;
			}
			let rel = tsxDone.get(abs);
			if (!rel) {
				if (/\.tsx$/i.test(t.source)) rel = await planTsx(abs, srcName, plan);
				else if (/\.(tsj|json)$/i.test(t.source)) {
					const label = path.basename(abs);
					const tr = new JsonReader(label, await readJsonDoc(abs, label, srcName));
					const ts = tilesetElement(tr, tr.json.value, [], path.dirname(abs), plan, '');
					if (tr.problems.errors.length) return refuse(srcName, tr.problems.errors);
					const stem = label.replace(/\.(tsj|json)$/i, '');
					rel = plan.text('tilesets', abs, `${stem}.tsx`, `<?xml version="1.0" encoding="UTF-8"?>\n${xmlText(ts!)}\n`);
				} else {
					r.error([...p, 'source'], `tileset "${t.source}" is neither a .tsx nor a .tsj/.json tileset`);
					continue;
				}
				tsxDone.set(abs, rel);
			}
			doc.tilesets.push({ firstGid: t.firstgid, source: rel, view });
		} else {
			const ts = tilesetElement(r, t, p, srcDir, plan, 'tilesets/');
			if (ts) doc.tilesets.push({ firstGid: t.firstgid, xml: ts, view });
		}
	}

	// ---- layers ----------------------------------------------------------------------------
	const layers = Array.isArray(m.layers) ? m.layers : [];
	// layers and objects without an id are numbered after the largest id in the file
	const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
	let nextLayerId = Math.max(doc.nextLayerId, ...layers.map((l) => num(isRecord(l) && l.id) + 1));
	r.nextObjectId = Math.max(
		doc.nextObjectId,
		...layers.flatMap((l) => (isRecord(l) && Array.isArray(l.objects) ? l.objects.map((o) => num(isRecord(o) && o.id) + 1) : []))
	);
	for (const [k, l] of layers.entries()) {
		const p = ['layers', k];
		if (!isRecord(l)) {
			r.error(p, 'a layer must be a JSON object');
			continue;
		}
		const lname = typeof l.name === 'string' ? l.name : '';
		const label = `layer "${lname}"`;
		const base = {
			id: typeof l.id === 'number' && Number.isInteger(l.id) && l.id > 0 ? l.id : nextLayerId++,
			name: lname,
			visible: l.visible !== false,
			opacity: typeof l.opacity === 'number' ? l.opacity : 1,
			properties: r.properties(l.properties, [...p, 'properties'])
		};
		const attrs = r.attrs(l, LAYER_KEYS, LAYER_DEFAULTS);
		if (l.type === 'tilelayer') {
			if (l.chunks !== undefined) {
				r.error([...p, 'chunks'], `${label}: chunked tile data belongs to infinite maps and is not supported; make the map finite`);
				continue;
			}
			const data = tileData(r, l, [...p, 'data'], label, width * height);
			if (!data) continue;
			doc.layers.push({ ...base, kind: 'tile', attrs, ...data });
		} else if (l.type === 'objectgroup') {
			if (l.draworder !== undefined && l.draworder !== 'topdown') attrs.draworder = str(l.draworder);
			if (typeof l.color === 'string') attrs.color = l.color;
			const objects = (Array.isArray(l.objects) ? l.objects : []).flatMap((o, j) => r.object(o, [...p, 'objects', j]) ?? []);
			doc.layers.push({ ...base, kind: 'object', attrs, objects });
		} else if (l.type === 'imagelayer') {
			Object.assign(attrs, r.attrs(l, ['repeatx', 'repeaty'], { repeatx: false, repeaty: false }));
			const children: XmlElement[] = [];
			if (typeof l.image === 'string' && l.image) {
				const ia: Record<string, string> = { source: l.image };
				if (typeof l.transparentcolor === 'string') ia.trans = l.transparentcolor.replace(/^#/, '');
				if (typeof l.imagewidth === 'number') ia.width = String(l.imagewidth);
				if (typeof l.imageheight === 'number') ia.height = String(l.imageheight);
				children.push(el('image', ia));
			}
			const xml = relocateLayerImage(el('imagelayer', {}, children), srcDir, plan, lname, srcName);
			doc.layers.push({ ...base, kind: 'other', attrs, xml });
		} else if (l.type === 'group') {
			r.error([...p, 'type'], `group layer "${lname}" is not supported; move its layers to the top level and delete the group`);
		} else {
			r.error([...p, 'type'], `${label}: unknown layer type "${String(l.type)}"`);
		}
	}
	doc.nextLayerId = nextLayerId;
	doc.nextObjectId = r.nextObjectId;
	if (r.problems.errors.length) return refuse(srcName, r.problems.errors);
	return doc;
}

const placeholderView = (firstGid: number): TilesetView => ({
	name: '',
	firstGid,
	image: '',
	imageWidth: 0,
	imageHeight: 0,
	tileWidth: 0,
	tileHeight: 0,
	columns: 0,
	tileCount: 0,
	margin: 0,
	spacing: 0
});

/** A JSON tile layer's data: a list of gids, or base64 (uncompressed, zlib or gzip). */
function tileData(
	r: JsonReader,
	l: Json,
	p: JsonPath,
	label: string,
	count: number
): { encoding: 'csv' | 'base64'; compression?: 'zlib' | 'gzip'; data: number[] } | undefined {
	const encoding = l.encoding ?? 'csv';
	const compression = l.compression === '' ? undefined : l.compression;
	let data: number[];
	if (Array.isArray(l.data) && encoding === 'csv') {
		const bad = l.data.findIndex((g) => !(typeof g === 'number' && Number.isInteger(g) && g >= 0 && g <= 0xffffffff));
		if (bad >= 0) {
			r.error([...p, bad], `${label}: value ${bad + 1} (${JSON.stringify(l.data[bad])}) is not a tile id`);
			return undefined;
		}
		data = l.data as number[];
	} else if (typeof l.data === 'string' && encoding === 'base64') {
		if (compression === 'zstd') {
			r.error([...p.slice(0, -1), 'compression'], `${label}: zstd compression is not supported; save the map with CSV or base64 (zlib or gzip) tile layer data (Map > Map Properties > Tile Layer Format)`);
			return undefined;
		}
		if (compression !== undefined && compression !== 'zlib' && compression !== 'gzip') {
			r.error([...p.slice(0, -1), 'compression'], `${label}: unknown compression "${String(compression)}"; use none, zlib or gzip`);
			return undefined;
		}
		let bytes: Buffer = Buffer.from(l.data, 'base64');
		if (compression) {
			// never more than the layer's tiles take: a small "zip bomb" is stopped there
			const out = inflateCapped(bytes, compression, count * 4);
			if ('error' in out) {
				r.error(p, `${label}: the ${String(compression)} data cannot be decompressed (${out.error})`);
				return undefined;
			}
			bytes = out.bytes;
		}
		if (bytes.length % 4 !== 0) {
			r.error(p, `${label}: the decoded data is ${bytes.length} bytes, not a whole number of 4-byte tiles`);
			return undefined;
		}
		data = [];
		for (let k = 0; k < bytes.length; k += 4) data.push(bytes.readUInt32LE(k));
	} else {
		r.error(p, `${label}: unknown tile data (encoding "${String(encoding)}" with ${Array.isArray(l.data) ? 'a list' : typeof l.data}); use csv or base64`);
		return undefined;
	}
	if (data.length !== count) {
		r.error(p, `${label} has ${data.length} tiles but the map needs ${count}`);
		return undefined;
	}
	return {
		encoding: encoding === 'base64' ? 'base64' : 'csv',
		...(encoding === 'base64' && compression ? { compression: compression as 'zlib' | 'gzip' } : {}),
		data: [...data]
	};
}

/**
 * A Tiled JSON tileset as a <tileset> element, its image copied into tilesets/ (`prefix` is
 * how the element refers to that folder). Undefined (with an error) when it cannot be used.
 */
function tilesetElement(r: JsonReader, t: unknown, p: JsonPath, fromDir: string, plan: Plan, prefix: '' | 'tilesets/'): XmlElement | undefined {
	if (!isRecord(t)) {
		r.error(p, 'a tileset must be a JSON object');
		return undefined;
	}
	const label = `tileset "${String(t.name ?? '')}"`;
	if (typeof t.image !== 'string' || !t.image) {
		const collection = Array.isArray(t.tiles) && t.tiles.some((x) => isRecord(x) && x.image !== undefined);
		r.error(p, collection ? `${label} is an image collection (one image per tile), which is not supported; use a tileset made from one image` : `${label} has no image`);
		return undefined;
	}
	const imgAbs = path.resolve(fromDir, t.image);
	if (!plan.outside(imgAbs) && !existsSync(imgAbs)) {
		r.error([...p, 'image'], `${label}: image "${t.image}" not found`);
		return undefined;
	}
	const copied = plan.copy('tilesets', imgAbs, { file: r.file, where: r.where([...p, 'image']), what: `${label}: image "${t.image}"` });
	const children: XmlElement[] = [];
	if (isRecord(t.tileoffset) && (t.tileoffset.x || t.tileoffset.y))
		children.push(el('tileoffset', { x: str(t.tileoffset.x ?? 0), y: str(t.tileoffset.y ?? 0) }));
	if (isRecord(t.grid)) children.push(el('grid', r.attrs(t.grid, ['orientation', 'width', 'height'])));
	const props = r.properties(t.properties, [...p, 'properties']);
	if (props.length) children.push(el('properties', {}, props));
	const ia: Record<string, string> = { source: prefix === 'tilesets/' ? copied : path.posix.basename(copied) };
	if (typeof t.transparentcolor === 'string') ia.trans = t.transparentcolor.replace(/^#/, '');
	if (typeof t.imagewidth === 'number') ia.width = String(t.imagewidth);
	if (typeof t.imageheight === 'number') ia.height = String(t.imageheight);
	children.push(el('image', ia));
	if (isRecord(t.transformations)) children.push(el('transformations', r.attrs(t.transformations, ['hflip', 'vflip', 'rotate', 'preferuntransformed'])));
	for (const [k, tile] of (Array.isArray(t.tiles) ? t.tiles : []).entries()) {
		if (!isRecord(tile) || typeof tile.id !== 'number') continue;
		const tp = [...p, 'tiles', k];
		const inner: XmlElement[] = [];
		const tprops = r.properties(tile.properties, [...tp, 'properties']);
		if (tprops.length) inner.push(el('properties', {}, tprops));
		if (isRecord(tile.objectgroup)) {
			const og = tile.objectgroup;
			const objs = (Array.isArray(og.objects) ? og.objects : []).flatMap((o, j) => {
				const d = r.object(o, [...tp, 'objectgroup', 'objects', j]);
				return d ? [objectElement(d)] : [];
			});
			const oga: Record<string, string> = { draworder: String(og.draworder ?? 'index') };
			if (typeof og.id === 'number') oga.id = String(og.id);
			inner.push(el('objectgroup', oga, objs));
		}
		if (Array.isArray(tile.animation))
			inner.push(
				el(
					'animation',
					{},
					tile.animation.filter(isRecord).map((f) => el('frame', { tileid: str(f.tileid), duration: str(f.duration) }))
				)
			);
		const ta: Record<string, string> = { id: String(tile.id) };
		if (typeof tile.type === 'string' && tile.type) ta.type = tile.type;
		if (typeof tile.class === 'string' && tile.class) ta.class = tile.class;
		if (typeof tile.probability === 'number') ta.probability = String(tile.probability);
		children.push(el('tile', ta, inner));
	}
	if (Array.isArray(t.wangsets) && t.wangsets.length) {
		const sets = t.wangsets.filter(isRecord).map((w, k) => {
			const wp = [...p, 'wangsets', k];
			const inner: XmlElement[] = [];
			const wprops = r.properties(w.properties, [...wp, 'properties']);
			if (wprops.length) inner.push(el('properties', {}, wprops));
			for (const c of Array.isArray(w.colors) ? w.colors.filter(isRecord) : []) inner.push(el('wangcolor', r.attrs(c, ['name', 'class', 'color', 'tile', 'probability'])));
			for (const wt of Array.isArray(w.wangtiles) ? w.wangtiles.filter(isRecord) : [])
				inner.push(el('wangtile', { tileid: str(wt.tileid), wangid: Array.isArray(wt.wangid) ? wt.wangid.join(',') : '' }));
			return el('wangset', r.attrs(w, ['name', 'class', 'type', 'tile']), inner);
		});
		children.push(el('wangsets', {}, sets));
	}
	const unknown = Object.keys(t).filter((k) => !TILESET_HANDLED.has(k));
	if (unknown.length) plan.warnings.push(`${r.file}: ${label}: ${unknown.map((k) => `"${k}"`).join(', ')} ${unknown.length === 1 ? 'was' : 'were'} not imported`);
	return el('tileset', r.attrs(t, TILESET_ATTRS, { spacing: 0, margin: 0 }), children);
}

