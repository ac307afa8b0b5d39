// Changing worlds from the studio: creating a world (empty or copied), reading and saving its
// map, settings (world.json) and personas, and the full check of a world with an unsaved map.
// Everything is checked with the loader's own rules before anything is written, every write is
// atomic (../fs/atomic.ts: temporary file, sync, rename), and every path from a request stays inside its world folder.

import { randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../engine/types';
import {
	CreateWorldRequestSchema,
	MapRequestSchema,
	PersonaRequestSchema,
	WorldSettingsRequestSchema,
	type CheckOutcome,
	type PersonaEntry,
	type SaveMapOutcome,
	type SavePersonaResult,
	type SaveSettingsResult,
	type WorldListing
} from '../../api/types';
import { renamePersona, renameScenario, type ReferenceUpdate, type ZoneRename } from '../../editor/references';
import { parsedMapOf, type MapDoc } from '../../world/doc';
import type { JsonDoc } from '../../world/json';
import type { ParsedMap } from '../../world/types';
import { ProblemList, type WorldProblem } from '../../world/problems';
import { parseXml, type XmlElement } from '../../world/xml';
import { analyseZones, type ZoneResult } from '../../world/zones';
import { listWorlds, PathError, resolveInside, splitRelativePath } from '../files';
import { writeFileAtomicAsync } from '../fs/atomic';
import { formatBytes, jsonDepthOfMaps, LIMIT_ENV, limits, readTextCapped, xmlLimits } from '../limits';
import { projectRoot } from '../paths';
import { analyseWorld, checkPersonaPlaces } from './analyse';
import { checkManifest, checkPersonaFile, checkSeedMemoryPlaces, parseJsonFile, placeOfFile, readJsonFile, readManifest, readWorldJsonText, type JsonFile } from './manifest';
import { readMap, tooManyTiles } from './tmx';
import { checkVectorFile, vectorsRel } from './vectors';
import { checkMapDoc, readMapDoc, saveMapDoc } from './tmx-doc';
import { isRecord } from '../../shared/guards';
import { ConflictError, InvalidError, NotFoundError } from '../errors';
import { readJsonBody } from '../http';
import { parseWith } from '../validate';

// ---- request bodies ----------------------------------------------------------------------------

/** Settings and personas: as large as a world's JSON file may be (and a request body). */
export const jsonBodyLimit = () => Math.min(limits().maxWorldJsonBytes, limits().maxBodyBytes);

/** The JSON body of a settings or persona request (../http.ts `readJsonBody`, up to a world JSON file's size). */
export function readWorldJsonBody(request: Request): Promise<unknown> {
	return readJsonBody(request, { limit: jsonBodyLimit() });
}

/**
 * The body of a map saved or checked by the editor: larger (a map of 140x100 tiles and ten
 * layers is a few MB as JSON; `maxMapBodyBytes` leaves room for far larger), and nested as
 * deep as its XML may be.
 */
export function readMapBody(request: Request): Promise<unknown> {
	return readJsonBody(request, { limit: limits().maxMapBodyBytes, maxDepth: jsonDepthOfMaps() });
}

// ---- names and folders -------------------------------------------------------------------------

/** Persona ids (file names without .json): also upper case, as hand-made worlds may have them. */
export const PERSONA_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** The real folder of a listed world (a folder of `worldsDir` with a world.json). 404 otherwise. */
export async function worldDirOf(worldsDir: string, world: string): Promise<string> {
	// Only folder names the listing shows are accepted: never a path, however it is spelled.
	if (typeof world !== 'string' || !(await listWorlds(worldsDir)).some((w) => w.id === world))
		throw new NotFoundError(`No world "${String(world)}"`);
	return resolveInside(worldsDir, world, 'directory');
}

/**
 * A file of a listed world for the asset route: world and path checked, the real path
 * returned. Only the files the world's map uses are served (its external tilesets, their
 * images and those of embedded tilesets, image layers); anything else is "not found".
 */
export async function resolveWorldFile(worldsDir: string, world: string, relPath: string, rawPath = relPath): Promise<string> {
	// Parameters arrive decoded; the raw path shows whether a separator was smuggled in encoded.
	if (/%(2f|5c|00|25|2e)/i.test(rawPath)) throw new PathError('invalid', 'Encoded separators are not allowed in file paths');
	const dir = await worldDirOf(worldsDir, world);
	const real = await resolveInside(dir, relPath, 'file');
	if (!(await filesTheMapUses(dir)).has(real)) throw new PathError('not-found', `Not found: ${relPath}`);
	return real;
}

/**
 * The real paths of the files the world's map refers to and that lie inside the world
 * folder: external tilesets, tileset images, image-layer images. Read with the usual limits;
 * a map or tileset that cannot be read contributes nothing.
 */
export async function filesTheMapUses(worldDir: string): Promise<Set<string>> {
	const used = new Set<string>();
	const root = await realpath(worldDir);
	const add = async (fromDir: string, ref: string | undefined): Promise<string | undefined> => {
		if (!ref) return undefined;
		const rel = path.relative(root, path.resolve(fromDir, ref));
		if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
		try {
			const real = await resolveInside(root, rel.split(path.sep).join('/'), 'file');
			used.add(real);
			return real;
		} catch {
			return undefined;
		}
	};
	const readXml = async (abs: string): Promise<XmlElement | undefined> => {
		try {
			return parseXml(await readTextCapped(abs), xmlLimits());
		} catch {
			return undefined;
		}
	};
	let mapAbs: string;
	try {
		mapAbs = await resolveInside(root, await mapFileOf(root), 'file');
	} catch {
		return used;
	}
	const map = await readXml(mapAbs);
	if (!map) return used;
	const mapDir = path.dirname(mapAbs);
	const imageOf = (el: XmlElement) => el.children.find((c) => c.name === 'image')?.attrs.source;
	for (const el of map.children) {
		if (el.name === 'tileset') {
			if (el.attrs.source !== undefined) {
				const tsx = await add(mapDir, el.attrs.source);
				const ts = tsx && (await readXml(tsx));
				if (ts && tsx) await add(path.dirname(tsx), imageOf(ts));
			} else await add(mapDir, imageOf(el));
		} else if (el.name === 'imagelayer') await add(mapDir, imageOf(el));
	}
	return used;
}

// ---- worlds ------------------------------------------------------------------------------------

/** Where a new empty world's tileset comes from: the tilesets of the bundled town. */
export const TEMPLATE_TILESETS = () => path.join(projectRoot(), 'worlds', 'the-ville-3', 'tilesets');

export const DEFAULT_START = '2023-02-13T07:00:00';

/**
 * Creates `worlds/<id>/`: a copy of the world `from`, or an empty map of width x height
 * (40x30 by default) with the template tileset, ground filled with its grass tile, empty
 * collisions and the sectors, arenas, objects and spawns layers. The folder is built under a
 * hidden name and renamed into place, so a failed creation leaves nothing behind.
 */
export async function createWorld(
	worldsDir: string,
	req: unknown,
	opts: { templateTilesets?: string } = {}
): Promise<WorldListing> {
	const { id, name, from, width = 40, height = 30 } = parseWith(CreateWorldRequestSchema, req);

	const root = await realpath(worldsDir).catch(() => {
		throw new NotFoundError(`the worlds folder ${worldsDir} does not exist`);
	});
	const target = path.join(root, id);
	if (await lstat(target).catch(() => undefined)) throw new ConflictError(`a world "${id}" already exists`);
	const source = from === undefined ? undefined : await worldDirOf(worldsDir, from);

	const tmp = path.join(root, `.new-${id}-${randomBytes(6).toString('hex')}`);
	try {
		await mkdir(tmp);
		if (source) {
			await copyTree(source, tmp, source, '', 0);
			await renameCopy(tmp, name);
		} else await writeEmptyWorld(tmp, id, name, width, height, opts.templateTilesets ?? TEMPLATE_TILESETS());
		if (await lstat(target).catch(() => undefined)) throw new ConflictError(`a world "${id}" already exists`);
		await rename(tmp, target);
	} catch (e) {
		await rm(tmp, { recursive: true, force: true });
		throw e;
	}
	return { id, name };
}

const isInside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Copies a world folder; links are followed only when they stay inside it. */
async function copyTree(src: string, dest: string, root: string, rel: string, depth: number): Promise<void> {
	if (depth > 32) throw new InvalidError(`refused to copy "${rel}": folders nest too deep (a link loop?)`);
	for (const entry of (await readdir(src, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
		const from = path.join(src, entry.name);
		const to = path.join(dest, entry.name);
		const relName = rel ? `${rel}/${entry.name}` : entry.name;
		let real = from;
		if (entry.isSymbolicLink()) {
			real = await realpath(from).catch(() => {
				throw new InvalidError(`refused to copy "${relName}": it is a link to nothing`);
			});
			if (!isInside(root, real) || real === root)
				throw new InvalidError(`refused to copy "${relName}": it is a link to a place outside the world folder`);
		}
		const info = await stat(real);
		if (info.isDirectory()) {
			await mkdir(to);
			await copyTree(real, to, root, relName, depth + 1);
		} else if (info.isFile()) await copyFile(real, to);
		else throw new InvalidError(`refused to copy "${relName}": it is neither a file nor a folder`);
	}
}

/** Gives a copied world its new name (world.json left as it is when it cannot be read). */
async function renameCopy(dir: string, name: string): Promise<void> {
	// read like every world file: a world.json the copy cannot read shows the same problem as the original
	const value = (await readJsonFile(dir, 'world.json', new ProblemList()))?.doc.value;
	if (!isRecord(value)) return;
	await writeFileAtomicAsync(path.join(dir, 'world.json'), jsonText({ ...value, name }));
}

const jsonText = (v: unknown) => JSON.stringify(v, null, '\t') + '\n';

async function writeEmptyWorld(dir: string, id: string, name: string, width: number, height: number, template: string): Promise<void> {
	const files = await readdir(template).catch(() => {
		throw new ConflictError(`the template tileset folder ${template} is missing`);
	});
	const tsx = files.filter((f) => f.toLowerCase().endsWith('.tsx')).sort()[0];
	if (!tsx) throw new ConflictError(`the template folder ${template} holds no .tsx tileset`);
	await mkdir(path.join(dir, 'tilesets'));
	for (const f of files) {
		const info = await lstat(path.join(template, f));
		if (info.isFile()) await copyFile(path.join(template, f), path.join(dir, 'tilesets', f));
	}
	const ts = parseXml(await readTextCapped(path.join(template, tsx)));
	const tw = Number(ts.attrs.tilewidth) || 32;
	const th = Number(ts.attrs.tileheight) || 32;
	const grass = grassTile(ts);
	const mapFile = `${id}.tmx`;
	const row = (gid: number) => Array.from({ length: width }, () => gid).join(',');
	const csv = (gid: number) => Array.from({ length: height }, () => row(gid)).join(',\n');
	const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="${width}" height="${height}" tilewidth="${tw}" tileheight="${th}" infinite="0" nextlayerid="7" nextobjectid="1">
 <tileset firstgid="1" source="tilesets/${tsx}"/>
 <layer id="1" name="ground" width="${width}" height="${height}">
  <data encoding="csv">
${csv(grass + 1)}
</data>
 </layer>
 <layer id="2" name="collisions" width="${width}" height="${height}" visible="0" opacity="0.5">
  <data encoding="csv">
${csv(0)}
</data>
 </layer>
 <objectgroup id="3" name="sectors"/>
 <objectgroup id="4" name="arenas"/>
 <objectgroup id="5" name="objects"/>
 <objectgroup id="6" name="spawns"/>
</map>
`;
	await writeFile(path.join(dir, mapFile), tmx);
	await writeFile(
		path.join(dir, 'world.json'),
		jsonText({ name, map: mapFile, start: DEFAULT_START, secondsPerStep: 10, defaults: DEFAULT_SETTINGS })
	);
	await mkdir(path.join(dir, 'personas'));
	await writeFile(path.join(dir, 'scenario.json'), jsonText({ seeds: [], facts: [] }));
}

/** The local id of the tileset's tile named "grass" (its `name` property), else 0. */
function grassTile(ts: XmlElement): number {
	for (const tile of ts.children) {
		if (tile.name !== 'tile') continue;
		const props = tile.children.find((c) => c.name === 'properties')?.children ?? [];
		if (props.some((p) => p.attrs.name === 'name' && /^grass$/i.test(p.attrs.value ?? p.text))) return Number(tile.attrs.id) || 0;
	}
	return 0;
}

// ---- the map -----------------------------------------------------------------------------------

/** The map file named by world.json, checked to be a file inside the world folder. */
export async function mapFileOf(worldDir: string): Promise<string> {
	const problems = new ProblemList();
	const f = await readJsonFile(worldDir, 'world.json', problems);
	const map = f && isRecord(f.doc.value) ? f.doc.value.map : undefined;
	if (typeof map !== 'string' || map.trim() === '')
		throw new ConflictError('world.json names no map file; fix the world settings first', { problems: problems.errors });
	try {
		await resolveInside(worldDir, map, 'file');
	} catch (e) {
		if (e instanceof PathError) throw new ConflictError(`the map "${map}" named by world.json is not a file inside the world folder`);
		throw e;
	}
	return map;
}

export async function readWorldMap(worldsDir: string, world: string): Promise<MapDoc> {
	const dir = await worldDirOf(worldsDir, world);
	return readMapDoc(dir, await mapFileOf(dir));
}

/** What saving a map answers: the checks of the saved world and the references rewritten with it. */

/**
 * Saves the map and answers the full check of the saved world. The doc must be the map that
 * world.json names, and its tilesets must lie inside the world folder. `renames` (zones the
 * author renamed and agreed to carry over) rewrite the personas' and the scenario's references
 * to them, once the map is written; a rename whose new address the map does not have is left out.
 */
export async function saveWorldMap(worldsDir: string, world: string, body: unknown): Promise<SaveMapOutcome> {
	const req = parseWith(MapRequestSchema, body);
	const dir = await worldDirOf(worldsDir, world);
	const doc = docOfBody(req);
	const renames = req.renames ?? [];
	const file = await mapFileOf(dir);
	if (doc.file !== file) throw new InvalidError(`the map to save is "${doc.file}" but world.json names "${file}"`);
	await checkTilesetPaths(dir, doc);
	// the zones the renames must name (a map too broken to analyse is refused by saveMapDoc)
	const zones =
		renames.length && checkMapDoc(structuredClone(doc)).length === 0 ? analyseZones(parsedMapOf(structuredClone(doc)), new ProblemList()) : undefined;
	await saveMapDoc(dir, doc);
	const files = zones ? await referenceFiles(dir, keptRenames(renames, zones)) : [];
	for (const f of files) await writeFileAtomicAsync(path.join(dir, f.file), f.text);
	const a = await analyseWorld(dir, { worldsDir });
	return { ok: a.errors.length === 0, errors: a.errors, warnings: a.warnings, updated: files.flatMap((f) => f.updates) };
}

/**
 * The full check of a world (settings, personas, scenario, map), with `doc` standing for the
 * saved map when given. With `renames` (and a doc), the references they would rewrite on saving
 * are listed, and the problems those references have now (naming the old address) are left
 * out: saving fixes them.
 */
export async function checkWorldEdit(worldsDir: string, world: string, body: unknown): Promise<CheckOutcome> {
	const req = parseWith(MapRequestSchema, body);
	const dir = await worldDirOf(worldsDir, world);
	const renames = req.renames ?? [];
	const docBody = req.doc;
	let map: ParsedMap | undefined;
	if (docBody !== undefined && docBody !== null) {
		const doc = docOfBody({ doc: docBody });
		// sizes, tile data and ids first: the zone analysis assumes a consistent map
		const broken = checkMapDoc(structuredClone(doc));
		if (broken.length) return { errors: broken, warnings: [], ...(renames.length ? { references: [] } : {}) };
		map = parsedMapOf(doc);
	}
	const a = await analyseWorld(dir, { worldsDir, map });
	if (!renames.length) return { errors: a.errors, warnings: a.warnings };
	if (!map) return { errors: a.errors, warnings: a.warnings, references: [] };
	const files = await referenceFiles(dir, keptRenames(renames, analyseZones(map, new ProblemList())));
	const references = files.flatMap((f) => f.updates);
	const fixed = (p: WorldProblem) =>
		files.some(
			(f) =>
				f.file === p.file &&
				f.updates.some((u) =>
					p.at?.kind === 'persona' ? p.at.field === u.field : f.places.get(u.field) === p.where && p.message.includes(`"${u.from}"`)
				)
		);
	return { errors: a.errors.filter((p) => !fixed(p)), warnings: a.warnings, references };
}

/** The renames whose new address is a zone (or spawn point) of that kind on the map. */
function keptRenames(renames: readonly ZoneRename[], zones: ZoneResult): ZoneRename[] {
	return renames.filter((r) =>
		r.kind === 'sector'
			? zones.sectors.some((s) => s.name === r.to)
			: r.kind === 'arena'
				? zones.sectors.some((s) => s.arenas.some((a) => `${s.name}:${a.name}` === r.to))
				: r.kind === 'spawn'
					? zones.spawnNames.has(r.to)
					: false
	);
}

interface ReferenceFile {
	/** relative to the world folder */
	file: string;
	/** the new content */
	text: string;
	updates: ReferenceUpdate[];
	/** field -> where (`line N`) it is in the file now, for the scenario's problems */
	places: Map<string, string | undefined>;
}

/** The persona files and scenario.json that name a renamed zone, each with its content rewritten. */
async function referenceFiles(dir: string, renames: readonly ZoneRename[]): Promise<ReferenceFile[]> {
	if (!renames.length) return [];
	let names: string[] = [];
	try {
		names = await readdir(await resolveInside(dir, 'personas', 'directory'));
	} catch (e) {
		if (!(e instanceof PathError)) throw e;
	}
	const out: ReferenceFile[] = [];
	for (const n of names.filter((x) => x.toLowerCase().endsWith('.json')).sort()) {
		const file = `personas/${n}`;
		const f = await referenceFile(dir, file, (v) => renamePersona(file, v, renames));
		if (f) out.push(f);
	}
	const scenario = await referenceFile(dir, 'scenario.json', (v) => renameScenario('scenario.json', v, renames));
	if (scenario) out.push(scenario);
	return out;
}

async function referenceFile(
	dir: string,
	file: string,
	rename: (value: unknown) => { value: unknown; updates: ReferenceUpdate[] }
): Promise<ReferenceFile | undefined> {
	let text: string;
	try {
		text = await readWorldJsonText(dir, file);
	} catch {
		// missing, a link out of the folder, too large: its own problems say so
		return undefined;
	}
	const doc: JsonDoc | undefined = parseJsonFile(file, text, new ProblemList())?.doc;
	if (!doc) return undefined;
	const r = rename(doc.value);
	if (!r.updates.length) return undefined;
	const places = new Map<string, string | undefined>();
	const lines = text.split('\n');
	for (const u of r.updates) {
		const line: number | undefined = doc.lineOf(fieldPath(u.field));
		places.set(u.field, line === undefined ? undefined : `line ${line}`);
		// each value replaced where it is written, so the rest of the file stays as it was
		const at = line === undefined ? -1 : line - 1;
		const literal = JSON.stringify(u.from);
		if (at >= 0 && lines[at]?.split(literal).length === 2) lines[at] = lines[at].replace(literal, () => JSON.stringify(u.to));
	}
	let next = lines.join('\n');
	if (!sameJson(next, r.value)) {
		// a value written oddly (twice on a line, split over lines): the whole file, indented as it was
		const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '\t';
		next = JSON.stringify(r.value, null, indent) + (text.endsWith('\n') ? '\n' : '');
	}
	return { file, text: next, updates: r.updates, places };
}

/** `facts[0].event.place` -> ['facts', 0, 'event', 'place'] */
function fieldPath(field: string): (string | number)[] {
	return field.split(/\.|(?=\[)/).map((k) => (/^\[\d+\]$/.test(k) ? Number(k.slice(1, -1)) : k));
}

function sameJson(text: string, value: unknown): boolean {
	try {
		return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
	} catch {
		return false;
	}
}

/** `{ doc }` checked to be a MapDoc in shape (the values are checked when it is saved). */
export function docOfBody(body: unknown): MapDoc {
	const doc = isRecord(body) ? body.doc : undefined;
	const at = (where: string, what: string): never => {
		throw new InvalidError(`the map sent is malformed: ${where} ${what}`);
	};
	const int = (v: unknown, where: string) => (typeof v === 'number' && Number.isInteger(v) ? v : at(where, 'must be a whole number'));
	const num = (v: unknown, where: string) => (typeof v === 'number' && Number.isFinite(v) ? v : at(where, 'must be a number'));
	const str = (v: unknown, where: string) => (typeof v === 'string' ? v : at(where, 'must be text'));
	const attrs = (v: unknown, where: string) => {
		if (!isRecord(v)) at(where, 'must be an object of texts');
		for (const [k, x] of Object.entries(v as object)) str(x, `${where}.${k}`);
	};
	const element = (v: unknown, where: string, depth = 0): void => {
		if (depth > 64) at(where, 'nests too deep');
		if (!isRecord(v)) return void at(where, 'must be an XML element');
		str(v.name, `${where}.name`);
		attrs(v.attrs, `${where}.attrs`);
		str(v.text, `${where}.text`);
		num(v.line, `${where}.line`);
		list(v.children, `${where}.children`).forEach((c, k) => element(c, `${where}.children[${k}]`, depth + 1));
	};
	const list = (v: unknown, where: string): unknown[] => (Array.isArray(v) ? v : at(where, 'must be a list'));
	const elements = (v: unknown, where: string) => list(v, where).forEach((e, k) => element(e, `${where}[${k}]`));

	if (!isRecord(doc)) return at('"doc"', 'must be an object');
	str(doc.file, 'file');
	splitRelativePath(doc.file as string);
	for (const k of ['width', 'height', 'tileWidth', 'tileHeight', 'nextLayerId', 'nextObjectId']) int(doc[k], k);
	const tileLayers = Array.isArray(doc.layers) ? doc.layers.filter((l) => isRecord(l) && l.kind === 'tile').length : 0;
	const tooMany = doc.width as number > 0 && (doc.height as number) > 0 ? tooManyTiles(doc.width as number, doc.height as number, tileLayers) : undefined;
	if (tooMany) throw new InvalidError(`the map sent is too large: ${tooMany}`);
	attrs(doc.attrs, 'attrs');
	elements(doc.properties, 'properties');
	elements(doc.extra, 'extra');
	list(doc.tilesets, 'tilesets').forEach((t, k) => {
		const w = `tilesets[${k}]`;
		if (!isRecord(t)) return at(w, 'must be an object');
		int(t.firstGid, `${w}.firstGid`);
		if (t.source !== undefined) str(t.source, `${w}.source`);
		if (t.xml !== undefined) element(t.xml, `${w}.xml`);
		if (!isRecord(t.view)) at(`${w}.view`, 'must be an object');
		const view = t.view as Record<string, unknown>;
		for (const f of ['name', 'image']) str(view[f], `${w}.view.${f}`);
		for (const f of ['firstGid', 'imageWidth', 'imageHeight', 'tileWidth', 'tileHeight', 'columns', 'tileCount', 'margin', 'spacing'])
			num(view[f], `${w}.view.${f}`);
	});
	list(doc.layers, 'layers').forEach((l, k) => {
		const w = `layers[${k}]`;
		if (!isRecord(l)) return at(w, 'must be an object');
		int(l.id, `${w}.id`);
		str(l.name, `${w}.name`);
		if (typeof l.visible !== 'boolean') at(`${w}.visible`, 'must be true or false');
		num(l.opacity, `${w}.opacity`);
		attrs(l.attrs, `${w}.attrs`);
		elements(l.properties, `${w}.properties`);
		if (l.kind === 'tile') {
			str(l.encoding, `${w}.encoding`);
			if (l.compression !== undefined) str(l.compression, `${w}.compression`);
			list(l.data, `${w}.data`).forEach((g, n) => {
				if (typeof g !== 'number') at(`${w}.data[${n}]`, 'must be a tile id');
			});
		} else if (l.kind === 'object')
			list(l.objects, `${w}.objects`).forEach((o, n) => {
				const ow = `${w}.objects[${n}]`;
				if (!isRecord(o)) return at(ow, 'must be an object');
				int(o.id, `${ow}.id`);
				str(o.name, `${ow}.name`);
				for (const f of ['x', 'y', 'width', 'height']) num(o[f], `${ow}.${f}`);
				attrs(o.attrs, `${ow}.attrs`);
				elements(o.properties, `${ow}.properties`);
				elements(o.shape, `${ow}.shape`);
			});
		else if (l.kind === 'other') element(l.xml, `${w}.xml`);
		else at(`${w}.kind`, 'must be "tile", "object" or "other"');
	});
	return doc as unknown as MapDoc;
}

/** External tilesets and the images of embedded ones must be files inside the world folder. */
async function checkTilesetPaths(worldDir: string, doc: MapDoc): Promise<void> {
	const mapDir = path.posix.dirname(doc.file);
	const inside = async (ref: string, what: string) => {
		const joined = path.posix.normalize(path.posix.join(mapDir, ref));
		if (path.posix.isAbsolute(ref) || joined.startsWith('../') || joined === '..')
			throw new InvalidError(`${what} "${ref}" lies outside the world folder`);
		try {
			await resolveInside(worldDir, joined, 'file');
		} catch (e) {
			if (e instanceof PathError) throw new InvalidError(`${what} "${ref}" is not a file inside the world folder`);
			throw e;
		}
	};
	for (const t of doc.tilesets) {
		if (t.source !== undefined) await inside(t.source, 'tileset');
		const image = t.xml?.children.find((c) => c.name === 'image')?.attrs.source;
		if (image !== undefined) await inside(image, 'tileset image');
	}
}

// ---- settings (world.json) ---------------------------------------------------------------------

/**
 * Parses `text`, about to be written as `file`, with the loader's rules, refusing it when it
 * is larger than a world's JSON file may be (what the check and a run would refuse to read).
 */
function sizedJsonFile(file: string, text: string, problems: ProblemList): JsonFile | undefined {
	const bytes = Buffer.byteLength(text);
	const max = limits().maxWorldJsonBytes;
	if (bytes > max) {
		problems.error(file, undefined, `refused: it would be ${formatBytes(bytes)}, more than the ${formatBytes(max)} allowed (${LIMIT_ENV.maxWorldJsonBytes})`, placeOfFile(file));
		return undefined;
	}
	return parseJsonFile(file, text, problems);
}

export async function readSettings(worldsDir: string, world: string): Promise<Record<string, unknown>> {
	const dir = await worldDirOf(worldsDir, world);
	const problems = new ProblemList();
	const f = await readJsonFile(dir, 'world.json', problems);
	if (!f) throw new InvalidError('world.json cannot be read', { problems: problems.errors });
	if (!isRecord(f.doc.value)) throw new InvalidError('world.json must hold an object');
	return f.doc.value;
}

/** Checks `body` as world.json with the loader's rules, then writes it; nothing is written when it has errors. */
export async function writeSettings(worldsDir: string, world: string, body: unknown): Promise<SaveSettingsResult> {
	const settings = parseWith(WorldSettingsRequestSchema, body);
	const dir = await worldDirOf(worldsDir, world);
	const abs = await resolveInside(dir, 'world.json');
	const text = jsonText(settings);
	const problems = new ProblemList();
	const f = sizedJsonFile('world.json', text, problems);
	if (f) {
		const { map } = checkManifest(dir, f, problems);
		if (map !== undefined)
			try {
				await resolveInside(dir, map, 'file');
			} catch (e) {
				if (!(e instanceof PathError)) throw e;
				problems.error('world.json', undefined, `the map "${map}" must be a file inside the world folder`, { kind: 'settings', field: 'map' });
			}
	}
	if (problems.errors.length) throw new InvalidError('the settings have problems; nothing was saved', { problems: problems.errors });
	await writeFileAtomicAsync(abs, text);
	return { settings, warnings: problems.warnings };
}

// ---- personas ----------------------------------------------------------------------------------

/** Every persona file of the world, sorted by id; `persona` is null for a file that is not a JSON object. */
export async function listPersonas(worldsDir: string, world: string): Promise<PersonaEntry[]> {
	const dir = await worldDirOf(worldsDir, world);
	let names: string[];
	try {
		names = await readdir(await resolveInside(dir, 'personas', 'directory'));
	} catch (e) {
		if (e instanceof PathError) return [];
		throw e;
	}
	const out: PersonaEntry[] = [];
	for (const n of names.filter((n) => n.toLowerCase().endsWith('.json')).sort()) {
		const id = n.slice(0, -'.json'.length);
		// read as the check reads it; unreadable, refused (a link out of the folder, too large,
		// nested too deep) or not an object: listed, without content
		const value = (await readJsonFile(dir, `personas/${n}`, new ProblemList()))?.doc.value;
		out.push({ id, persona: isRecord(value) ? value : null });
	}
	return out;
}

function personaRel(id: string): string {
	if (typeof id !== 'string' || !PERSONA_ID.test(id))
		throw new InvalidError(`a persona id is 1 to 100 letters, digits, "-" or "_", starting with a letter or digit (got ${JSON.stringify(id)})`);
	const rel = `personas/${id}.json`;
	splitRelativePath(rel);
	return rel;
}

/**
 * Creates or replaces `personas/<id>.json` after checking it with the loader's rules and
 * against the saved map (home, spawn and known places must exist there).
 */
export async function writePersona(worldsDir: string, world: string, id: string, body: unknown): Promise<SavePersonaResult> {
	const rel = personaRel(id);
	const persona = parseWith(PersonaRequestSchema, body);
	const dir = await worldDirOf(worldsDir, world);
	const file = `personas/${id}.json`;
	const text = jsonText(persona);
	const problems = new ProblemList();
	const f = sizedJsonFile(file, text, problems);
	if (f) {
		const pf = checkPersonaFile(f, id, problems);
		const zones = await savedZones(dir);
		// who else starts where, so that a shared spawn is warned about
		const spawnUsers = new Map<string, string>();
		const others = await listPersonas(worldsDir, world);
		for (const other of others)
			if (other.id !== id && typeof other.persona?.spawn === 'string') spawnUsers.set(other.persona.spawn, other.id);
		checkPersonaPlaces(pf, zones, problems, spawnUsers);
		// seed memories: made by the world's start, shared with its personas
		const { manifest } = await readManifest(dir, new ProblemList());
		checkSeedMemoryPlaces(pf, { start: manifest?.start, personas: [...new Set([...others.map((o) => o.id), id])] }, problems);
		// its seed memories' stored vectors, against the memories as saved
		if (pf.def) await checkVectorFile(dir, id, pf.def, problems);
	}
	if (problems.errors.length) throw new InvalidError(`persona "${id}" has problems; nothing was saved`, { problems: problems.errors });

	await personasDir(dir, true);
	const target = path.join(dir, rel);
	const existing = await lstat(target).catch(() => undefined);
	if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw new ConflictError(`${file} is not a file`);
	await writeFileAtomicAsync(target, text);
	return { persona, created: !existing, warnings: problems.warnings };
}

/** Checks that `personas` is a real folder of the world (not a link that could lead out of it). */
async function personasDir(dir: string, create: boolean): Promise<void> {
	const pdir = path.join(dir, 'personas');
	const info = await lstat(pdir).catch(() => undefined);
	if (!info && create) await mkdir(pdir);
	else if (!info) throw new NotFoundError('the world has no personas folder');
	else if (!info.isDirectory()) throw new ConflictError('personas is not a folder of the world (a link or a file)');
}

/** The zones of the saved map, to check a persona's places against. */
async function savedZones(dir: string) {
	const map = await mapFileOf(dir);
	const problems = new ProblemList();
	const parsed = await readMap(await resolveInside(dir, map), dir, problems);
	if (!parsed)
		throw new ConflictError(`the saved map "${map}" cannot be read, so the persona's places cannot be checked; fix the map first`, { problems: problems.errors });
	return analyseZones(parsed, new ProblemList());
}

export async function deletePersona(worldsDir: string, world: string, id: string): Promise<{ deleted: string }> {
	const rel = personaRel(id);
	const dir = await worldDirOf(worldsDir, world);
	await personasDir(dir, false);
	const target = path.join(dir, rel);
	const info = await lstat(target).catch(() => undefined);
	if (!info) throw new NotFoundError(`No persona "${id}"`);
	if (!info.isFile() && !info.isSymbolicLink()) throw new ConflictError(`${rel} is not a file`);
	await unlink(target); // a link is removed, never what it points to
	// its seed memories' vectors go with it: a persona made later with this id starts without them
	const vectors = path.join(dir, vectorsRel(id));
	const side = await lstat(vectors).catch(() => undefined);
	if (side && (side.isFile() || side.isSymbolicLink())) await unlink(vectors);
	return { deleted: id };
}
