// The editable map on disk: read -> write -> read loses nothing, saved maps open in the real
// Tiled with the same layers, tiles, objects and properties, the world loads them, and maps
// the doc cannot hold are refused with the feature and the line.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseDoc, getProperty, setProperty, type DocObject, type DocObjectLayer, type DocTileLayer, type MapDoc } from '../../world/doc';
import { ProblemList, WorldError } from '../../world/problems';
import type { XmlElement } from '../../world/xml';
import { PathError } from '../files';
import { loadWorld } from './load';
import { projectRoot } from '../paths';
import { copyWorld, lineOf, removeWorldCopies, TINY_WORLD_DIR } from './testing';
import { readMap } from './tmx';
import { readMapDoc, readMapDocAt, saveMapDoc, writeMapDoc } from './tmx-doc';

afterAll(removeWorldCopies);

const FIXTURES = path.join(path.dirname(TINY_WORLD_DIR));
const DOC_FIXTURE = path.join(FIXTURES, 'doc');
const WORLDS = path.join(projectRoot(), 'worlds');

// ---- helpers -------------------------------------------------------------------------------------

/** The value without `line` fields (line numbers change when a file is rewritten). */
function noLines(v: unknown): unknown {
	if (Array.isArray(v)) return v.map(noLines);
	if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'line').map(([k, x]) => [k, noLines(x)]));
	return v;
}

/** Writes the doc next to its map as `name` and reads it back. */
async function rewrite(dir: string, doc: MapDoc, name = 'rewritten.tmx'): Promise<MapDoc> {
	const file = path.join(dir, path.dirname(doc.file), name);
	writeFileSync(file, writeMapDoc(doc));
	const back = (await readMapDocAt(file, dir)).doc;
	return { ...back, file: doc.file };
}

const TILED = '/usr/bin/tiled';
const tiledHome = mkdtempSync(path.join(tmpdir(), 'tiled-home-'));
afterAll(() => rmSync(tiledHome, { recursive: true, force: true }));

interface TiledProperty {
	name: string;
	type: string;
	value: unknown;
}
interface TiledObject {
	id: number;
	name: string;
	x: number;
	y: number;
	width: number;
	height: number;
	point?: boolean;
	polygon?: { x: number; y: number }[];
	properties?: TiledProperty[];
}
interface TiledLayer {
	id: number;
	name: string;
	type: string;
	data?: number[] | string;
	encoding?: string;
	compression?: string;
	objects?: TiledObject[];
	properties?: TiledProperty[];
	visible: boolean;
	opacity: number;
}
interface TiledMap {
	width: number;
	height: number;
	nextlayerid: number;
	nextobjectid: number;
	layers: TiledLayer[];
	properties?: TiledProperty[];
	tilesets: { firstgid: number; source?: string; name?: string }[];
}

/** The map as the real Tiled reads it: `tiled --export-map json`, headless. */
function tiledExport(tmx: string, out = tmx.replace(/\.tmx$/, '.tiled.json')): TiledMap {
	if (!existsSync(TILED))
		throw new Error(
			`Tiled is not installed at ${TILED}, and the map round-trip tests need it: run "node scripts/ensure-tools.js" (npm test runs it before the unit tests) or install the "tiled" package`
		);
	rmSync(out, { force: true });
	const r = spawnSync(TILED, ['--export-map', 'json', tmx, out], {
		env: { ...process.env, QT_QPA_PLATFORM: 'offscreen', XDG_RUNTIME_DIR: tiledHome, XDG_CONFIG_HOME: tiledHome, HOME: tiledHome },
		encoding: 'utf8',
		timeout: 60_000
	});
	if (r.status !== 0 || !existsSync(out)) throw new Error(`tiled --export-map failed (exit ${r.status}): ${r.stderr}`);
	return JSON.parse(readFileSync(out, 'utf8')) as TiledMap;
}

/** Tile data of a Tiled JSON layer: a list, or base64 (uncompressed, zlib or gzip). */
function tiledData(l: TiledLayer): number[] {
	if (Array.isArray(l.data)) return l.data;
	let bytes = Buffer.from(l.data ?? '', 'base64');
	if (l.compression === 'zlib') bytes = zlib.inflateSync(bytes);
	if (l.compression === 'gzip') bytes = zlib.gunzipSync(bytes);
	const out: number[] = [];
	for (let k = 0; k < bytes.length; k += 4) out.push(bytes.readUInt32LE(k));
	return out;
}

/** name -> value of property elements, as text. */
const propsOf = (props: readonly XmlElement[]) => Object.fromEntries(props.map((p) => [p.attrs.name, p.attrs.value ?? p.text]));
const tiledPropsOf = (props: TiledProperty[] = []) => Object.fromEntries(props.map((p) => [p.name, String(p.value)]));

/** Tiled's reading of the saved map agrees with the doc: layers, tiles, objects, properties. */
function expectTiledAgrees(doc: MapDoc, json: TiledMap): void {
	expect(json.width).toBe(doc.width);
	expect(json.height).toBe(doc.height);
	expect(json.nextlayerid).toBe(doc.nextLayerId);
	expect(json.nextobjectid).toBe(doc.nextObjectId);
	expect(tiledPropsOf(json.properties)).toEqual(propsOf(doc.properties));
	expect(json.tilesets.map((t) => t.firstgid)).toEqual(doc.tilesets.map((t) => t.firstGid));
	expect(json.layers.map((l) => [l.id, l.name, l.type])).toEqual(
		doc.layers.map((l) => [l.id, l.name, l.kind === 'tile' ? 'tilelayer' : l.kind === 'object' ? 'objectgroup' : 'imagelayer'])
	);
	doc.layers.forEach((l, k) => {
		const t = json.layers[k];
		expect([t.visible, t.opacity], `layer "${l.name}"`).toEqual([l.visible, l.opacity]);
		expect(tiledPropsOf(t.properties), `layer "${l.name}"`).toEqual(propsOf(l.properties));
		if (l.kind === 'tile') expect(tiledData(t), `tiles of layer "${l.name}"`).toEqual(l.data);
		if (l.kind === 'object') {
			const objects = (t.objects ?? []).map((o) => ({ id: o.id, name: o.name, x: o.x, y: o.y, width: o.width, height: o.height, props: tiledPropsOf(o.properties) }));
			expect(objects, `objects of layer "${l.name}"`).toEqual(
				l.objects.map((o) => ({ id: o.id, name: o.name, x: o.x, y: o.y, width: o.width, height: o.height, props: propsOf(o.properties) }))
			);
		}
	});
}

const tileLayer = (doc: MapDoc, name: string) => doc.layers.find((l): l is DocTileLayer => l.kind === 'tile' && l.name === name)!;
const objectLayer = (doc: MapDoc, name: string) => doc.layers.find((l): l is DocObjectLayer => l.kind === 'object' && l.name === name)!;

function newObject(doc: MapDoc, layer: string, o: Omit<DocObject, 'id' | 'attrs' | 'properties' | 'shape'> & Partial<DocObject>): DocObject {
	const obj: DocObject = { id: doc.nextObjectId++, attrs: {}, properties: [], shape: [], ...o };
	objectLayer(doc, layer).objects.push(obj);
	return obj;
}

// ---- read -> write -> read ---------------------------------------------------------------------

describe('read -> write -> read keeps everything', () => {
	for (const world of ['smallville', 'the-ville-3']) {
		it(`worlds/${world}`, async () => {
			const dir = copyWorld({}, path.join(WORLDS, world));
			const doc = await readMapDoc(dir, `${world}.tmx`);
			expect(doc.layers.length).toBeGreaterThan(5);
			const back = await rewrite(dir, doc);
			expect(noLines(back)).toEqual(noLines(doc));
			// written the way Tiled writes it: the default towns come back byte for byte
			expect(writeMapDoc(doc)).toBe(readFileSync(path.join(WORLDS, world, `${world}.tmx`), 'utf8'));
		});
	}

	it('the tiny fixture', async () => {
		const doc = await readMapDoc(TINY_WORLD_DIR, 'tiny.tmx');
		const dir = copyWorld();
		expect(noLines(await rewrite(dir, doc))).toEqual(noLines(doc));
		expect(tileLayer(doc, 'collisions')).toMatchObject({ visible: false, opacity: 0.5, encoding: 'csv' });
		expect(objectLayer(doc, 'objects').objects[0]).toMatchObject({ id: 7, name: 'stove', x: 32, y: 32, width: 32, height: 32 });
		expect(getProperty(objectLayer(doc, 'objects').objects[0].properties, 'state')).toBe('off');
	});

	it('a map with every encoding, flipped tiles, typed and multi-line properties, shapes and an image layer', async () => {
		const dir = copyWorld({}, DOC_FIXTURE);
		const doc = await readMapDoc(dir, 'features.tmx');

		// what was read
		expect(doc.layers.map((l) => (l.kind === 'tile' ? `${l.name}:${l.encoding}${l.compression ? '+' + l.compression : ''}` : `${l.name}:${l.kind}`))).toEqual([
			'ground:csv',
			'zlib layer:base64+zlib',
			'gzip layer:base64+gzip',
			'plain base64:base64',
			'xml tiles:xml',
			'shapes:object',
			'backdrop:other',
			'empty layer:object'
		]);
		const ground = tileLayer(doc, 'ground').data;
		expect(ground.slice(0, 5)).toEqual([1, 0x80000002, 0x40000003, 0x20000004, 0xe0000005]);
		expect(tileLayer(doc, 'xml tiles').data.slice(6, 8)).toEqual([0x40000008, 0x40000008]);
		expect(getProperty(doc.properties, 'notes')).toBe('First line\n  second line, indented\nthird line & more');
		expect(getProperty(doc.properties, 'title')).toBe('Features & "quotes" <here>');
		expect(doc.properties.find((p) => p.attrs.name === 'count')?.attrs).toEqual({ name: 'count', type: 'int', value: '42' });
		expect(doc.extra.map((e) => e.name)).toEqual(['editorsettings']);
		expect(doc.tilesets.map((t) => [t.firstGid, t.source ?? t.xml?.name, t.view.image, t.view.tileCount])).toEqual([
			[1, 'tiles.tsx', 'tiles.png', 8],
			[9, 'tileset', 'tiles.png', 8]
		]);
		const shapes = objectLayer(doc, 'shapes');
		expect(shapes.attrs).toEqual({ color: '#ff0000', draworder: 'index' });
		expect(shapes.objects.map((o) => [o.id, o.name, o.shape.map((s) => s.name).join()])).toEqual([
			[1, 'box', ''],
			[2, 'marker', 'point'],
			[3, 'pond', 'polygon'],
			[4, 'path', 'polyline'],
			[5, 'ball', 'ellipse'],
			[6, 'sign', 'text'],
			[7, 'tilted', ''],
			[8, '', '']
		]);
		expect(shapes.objects[1]).toMatchObject({ x: 48.5, y: 80.25, width: 0, height: 0 });
		expect(shapes.objects[2].shape[0].attrs.points).toBe('0,0 48,8 40,56 -8,40');
		expect(shapes.objects[5].shape[0].text).toBe('Welcome to\nFeatures <Town>');
		expect(shapes.objects[6].attrs).toEqual({ rotation: '45', visible: '0' });
		const gzip = tileLayer(doc, 'gzip layer');
		expect(gzip).toMatchObject({ visible: false, opacity: 0.5, attrs: { offsetx: '4', offsety: '-2', tintcolor: '#80ff0000' } });
		const backdrop = doc.layers.find((l) => l.name === 'backdrop')!;
		expect(backdrop.kind === 'other' && backdrop.xml.children.map((c) => c.attrs.source)).toEqual(['tiles.png']);
		expect(propsOf(backdrop.properties)).toEqual({ credit: 'drawn by hand' });

		// written and read back: the same doc; each layer keeps its own encoding
		const text = writeMapDoc(doc);
		expect(text).toContain('<data encoding="base64" compression="zlib">');
		expect(text).toContain('<data encoding="base64" compression="gzip">');
		expect(text).toContain('<tile gid="1073741832"/>');
		const back = await rewrite(dir, doc);
		expect(noLines(back)).toEqual(noLines(doc));

		// the world's reader (tmx-parser) reads the written map with the same tiles and flips
		const problems = new ProblemList();
		const parsed = await readMap(path.join(dir, 'rewritten.tmx'), dir, problems);
		expect(problems.errors).toEqual([]);
		expect(parsed!.tileLayers.find((l) => l.name === 'ground')!.flips!.slice(0, 5)).toEqual([0, 1, 2, 4, 7]);
		expect(parsed!.tileLayers.map((l) => l.data)).toEqual(
			doc.layers.filter((l): l is DocTileLayer => l.kind === 'tile').map((l) => l.data.map((g) => g & 0x1fffffff))
		);

		// and so does the real Tiled
		const json = tiledExport(path.join(dir, 'rewritten.tmx'));
		expectTiledAgrees(doc, json);
		const tiledShapes = json.layers.find((l) => l.name === 'shapes')!.objects!;
		expect(tiledShapes[1].point).toBe(true);
		expect(tiledShapes[2].polygon).toEqual([
			{ x: 0, y: 0 },
			{ x: 48, y: 8 },
			{ x: 40, y: 56 },
			{ x: -8, y: 40 }
		]);
		expect(json.properties!.find((p) => p.name === 'count')).toEqual({ name: 'count', type: 'int', value: 42 });
		expect(json.properties!.find((p) => p.name === 'notes')!.value).toBe('First line\n  second line, indented\nthird line & more');
	});
});

// ---- editing, saving, Tiled and the world ------------------------------------------------------

describe('a map edited through the doc and saved', () => {
	it('opens in Tiled with the same layers, tiles, objects and properties, and the world loads it', async () => {
		const dir = copyWorld();
		const doc = await readMapDoc(dir, 'tiny.tmx');
		const W = doc.width;
		const nextObject = doc.nextObjectId;

		// paint: a wall and its collision at (11, 0), a flipped ground tile
		tileLayer(doc, 'walls').data[11] = 2;
		tileLayer(doc, 'collisions').data[11] = 2;
		tileLayer(doc, 'ground').data[W * 9] = (1 | 0x80000000) >>> 0;
		// make room for a sector in the last column: the garden and its lawns lose it
		for (const o of [...objectLayer(doc, 'sectors').objects, ...objectLayer(doc, 'arenas').objects])
			if (o.name === 'Garden' || o.name === 'lawn') o.width = 96;
		newObject(doc, 'sectors', { name: 'Orchard', x: 352, y: 0, width: 32, height: 320, properties: setProperty([], 'kind', 'orchard') });
		newObject(doc, 'arenas', { name: 'trees', x: 352, y: 0, width: 32, height: 320 });
		newObject(doc, 'objects', { name: 'apple tree', x: 352, y: 96, width: 32, height: 32, properties: setProperty([], 'state', 'blooming') });
		const spawn = newObject(doc, 'spawns', { name: 'carol', x: 368, y: 272, width: 0, height: 0, shape: [{ name: 'point', attrs: {}, children: [], text: '', line: 0 }] });
		// a new layer above the walls, and a renamed one
		const flowers: DocTileLayer = {
			kind: 'tile',
			id: doc.nextLayerId++,
			name: 'flowers',
			visible: true,
			opacity: 0.8,
			attrs: {},
			properties: setProperty([], 'season', 'spring'),
			encoding: 'base64',
			compression: 'zlib',
			data: new Array<number>(W * doc.height).fill(0).map((_, k) => (k % 5 === 0 ? 1 : 0))
		};
		doc.layers.splice(doc.layers.findIndex((l) => l.name === 'walls') + 1, 0, flowers);
		tileLayer(doc, 'walls').name = 'stone walls';
		expect(analyseDoc(doc).problems.errors).toEqual([]);

		await saveMapDoc(dir, doc);
		expect(doc.nextObjectId).toBe(nextObject + 4);
		expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

		// our reader: the same doc
		expect(noLines(await readMapDoc(dir, 'tiny.tmx'))).toEqual(noLines(doc));

		// the real Tiled: same layer names, ids and order, tiles, objects, properties
		const json = tiledExport(path.join(dir, 'tiny.tmx'));
		expectTiledAgrees(doc, json);
		expect(json.layers.map((l) => l.name)).toEqual(['ground', 'stone walls', 'flowers', 'collisions', 'sectors', 'arenas', 'objects', 'spawns']);
		expect(json.layers.find((l) => l.name === 'spawns')!.objects!.find((o) => o.id === spawn.id)).toMatchObject({ name: 'carol', point: true });
		expect(json.layers.find((l) => l.name === 'objects')!.objects!.at(-1)!.properties).toEqual([{ name: 'state', type: 'string', value: 'blooming' }]);

		// the world loads the saved map
		const world = await loadWorld(dir);
		const orchard = world.def.sectors.find((s) => s.name === 'Orchard')!;
		expect(orchard.kind).toBe('orchard');
		expect(orchard.arenas[0].objects[0]).toMatchObject({ address: 'Orchard:trees:apple tree', defaultState: 'blooming' });
		expect(world.def.spawns.carol).toEqual({ x: 11, y: 8 });
		expect(world.def.collision[11]).toBe(1);
		expect(world.map.layers.map((l) => l.name)).toContain('stone walls');
		expect(world.map.layers.find((l) => l.name === 'ground')!.flips![W * 9]).toBe(1);
	});

	it('the default town passes the same Tiled round trip', async () => {
		const dir = copyWorld({}, path.join(WORLDS, 'smallville'));
		const map = path.join(dir, 'smallville.tmx');
		const before = tiledExport(map, path.join(dir, 'before.json'));
		const doc = await readMapDoc(dir, 'smallville.tmx');
		await saveMapDoc(dir, doc);
		const after = tiledExport(map, path.join(dir, 'after.json'));
		expect(after).toEqual(before);
		expectTiledAgrees(doc, after);
		const world = await loadWorld(dir);
		expect(world.def.sectors.length).toBe(17);
	});
});

describe('saveMapDoc', () => {
	it('raises the next-id counters above the ids in use, never lowers them', async () => {
		const dir = copyWorld();
		const doc = await readMapDoc(dir, 'tiny.tmx');
		doc.nextLayerId = 1;
		doc.nextObjectId = 1;
		await saveMapDoc(dir, doc);
		expect([doc.nextLayerId, doc.nextObjectId]).toEqual([8, 14]);
		doc.nextObjectId = 500;
		await saveMapDoc(dir, doc);
		expect((await readMapDoc(dir, 'tiny.tmx')).nextObjectId).toBe(500);
	});

	it('refuses an inconsistent doc and leaves the file as it was', async () => {
		const dir = copyWorld();
		const original = readFileSync(path.join(dir, 'tiny.tmx'), 'utf8');
		const fresh = () => readMapDoc(dir, 'tiny.tmx');
		const refused = async (doc: MapDoc, message: RegExp) => {
			const err = await saveMapDoc(dir, doc).catch((e: unknown) => e);
			expect(err).toBeInstanceOf(WorldError);
			expect((err as WorldError).problems.map((p) => `${p.where}: ${p.message}`).join('\n')).toMatch(message);
			expect(readFileSync(path.join(dir, 'tiny.tmx'), 'utf8')).toBe(original);
			expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
		};

		const short = await fresh();
		tileLayer(short, 'ground').data.pop();
		await refused(short, /layer 1 "ground": the layer has 119 tiles but a 12x10 map needs 120/);

		const twoLayers = await fresh();
		twoLayers.layers[1].id = 1;
		await refused(twoLayers, /layer id 1 is also used by layer 1 "ground"/);

		const twoObjects = await fresh();
		objectLayer(twoObjects, 'arenas').objects[0].id = 1;
		await refused(twoObjects, /object id 1 is also used by layer 4 "sectors", object 1 "Cottage"/);

		const unknownTile = await fresh();
		tileLayer(unknownTile, 'walls').data[5] = 99;
		await refused(unknownTile, /layer "walls": 1 tile uses a tile id no tileset defines \(first at tile \(5, 0\), gid 99\)/);

		const badXml = await fresh();
		objectLayer(badXml, 'objects').objects[0].properties = [{ name: 'property name="x"', attrs: {}, children: [], text: '', line: 0 }];
		await refused(badXml, /is not an XML element name/);
	});

	it('keeps the file inside the world folder', async () => {
		const dir = copyWorld();
		const doc = await readMapDoc(dir, 'tiny.tmx');
		for (const file of ['../escape.tmx', '/tmp/escape.tmx', 'tilesets/../../escape.tmx'])
			await expect(saveMapDoc(dir, { ...doc, file })).rejects.toBeInstanceOf(PathError);
		await expect(saveMapDoc(dir, { ...doc, file: 'tiny.txt' })).rejects.toThrow(/\.tmx/);
		expect(existsSync(path.join(path.dirname(dir), 'escape.tmx'))).toBe(false);
		await expect(readMapDoc(dir, '../tiny/tiny.tmx')).rejects.toBeInstanceOf(PathError);
	});
});

// ---- refusals ------------------------------------------------------------------------------------

describe('maps the doc cannot hold are refused with the feature and the line', () => {
	const MAP_LINE = 2;
	const cases: [string, Record<string, (t: string) => string>, RegExp, (text: string) => number][] = [
		['infinite', { 'tiny.tmx': (t) => t.replace('infinite="0"', 'infinite="1"') }, /infinite maps are not supported/, () => MAP_LINE],
		['isometric', { 'tiny.tmx': (t) => t.replace('orientation="orthogonal"', 'orientation="isometric"') }, /isometric maps are not supported/, () => MAP_LINE],
		[
			'hexagonal',
			{ 'tiny.tmx': (t) => t.replace('orientation="orthogonal"', 'orientation="hexagonal" hexsidelength="16" staggeraxis="y" staggerindex="odd"') },
			/hexagonal maps are not supported/,
			() => MAP_LINE
		],
		[
			'staggered',
			{ 'tiny.tmx': (t) => t.replace('orientation="orthogonal"', 'orientation="staggered" staggeraxis="y" staggerindex="odd"') },
			/staggered maps are not supported/,
			() => MAP_LINE
		],
		[
			'zstd',
			{ 'tiny.tmx': (t) => t.replace(/(<layer id="2"[^>]*>\s*)<data encoding="csv">[^<]*<\/data>/, '$1<data encoding="base64" compression="zstd">KLUv/SAAAQAA</data>') },
			/layer "walls": zstd compression is not supported/,
			(t) => lineOf(t, 'compression="zstd"')
		],
		[
			'group layer',
			{ 'tiny.tmx': (t) => t.replace(' <objectgroup id="4"', ' <group id="9" name="zones">\n <objectgroup id="4"').replace('</map>', '</group>\n</map>') },
			/group layer "zones" is not supported/,
			(t) => lineOf(t, '<group')
		],
		[
			'chunks',
			{ 'tiny.tmx': (t) => t.replace(/(<layer id="1"[^>]*>\s*<data encoding="csv">)/, '$1<chunk x="0" y="0" width="12" height="10">1</chunk>') },
			/chunked tile data \(<chunk>\) belongs to infinite maps/,
			(t) => lineOf(t, '<chunk')
		],
		[
			'template',
			{ 'tiny.tmx': (t) => t.replace('<object id="8" name="table"', '<object id="8" template="table.tx" name="table"') },
			/template objects are not supported/,
			(t) => lineOf(t, 'template=')
		],
		[
			'wrong data length',
			{ 'tiny.tmx': (t) => t.replace('2,2,2,2,2,2,2,2,0,0,0,0\n</data>', '2,2,2,2,2,2,2,2,0,0,0\n</data>') },
			/layer "walls" has 119 tiles but a 12x10 map needs 120/,
			(t) => lineOf(t, '<layer id="2"') + 1 // its <data>
		]
	];
	for (const [feature, edits, message, line] of cases)
		it(feature, async () => {
			const dir = copyWorld(edits);
			const text = readFileSync(path.join(dir, 'tiny.tmx'), 'utf8');
			const err = await readMapDoc(dir, 'tiny.tmx').catch((e: unknown) => e);
			expect(err).toBeInstanceOf(WorldError);
			const [p] = (err as WorldError).problems;
			expect(p.file).toBe('tiny.tmx');
			expect(p.message).toMatch(message);
			expect(p.where).toBe(`line ${line(text)}`);
		});
});
