// Importing maps made elsewhere: Tiled JSON (exported by the real Tiled, and written by hand
// with base64 data and tilesets of every kind) and .tmx with tilesets in other folders become
// new worlds; refused maps, taken names and bad names create nothing; the CLI reports it all.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WorldError, ProblemList } from '../../world/problems';
import { importMap } from './import';
import { loadWorld } from './load';
import { projectRoot } from '../paths';
import { readManifest } from './manifest';
import { TINY_WORLD_DIR } from './testing';
import { readMapDoc } from './tmx-doc';

const root = mkdtempSync(path.join(tmpdir(), 'import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let worlds: string;
let n = 0;
beforeEach(() => {
	worlds = path.join(root, `worlds-${++n}`);
	mkdirSync(worlds);
});

const DOC_FIXTURE = path.join(path.dirname(TINY_WORLD_DIR), 'doc');
const TILED = '/usr/bin/tiled';

/** Exports a map to Tiled JSON with the real Tiled (headless). */
function tiledExport(tmx: string, out: string): void {
	if (!existsSync(TILED))
		throw new Error(
			`Tiled is not installed at ${TILED}, and the import tests need it: run "node scripts/ensure-tools.js" (npm test runs it before the unit tests) or install the "tiled" package`
		);
	const r = spawnSync(TILED, ['--export-map', 'json', tmx, out], {
		env: { ...process.env, QT_QPA_PLATFORM: 'offscreen', XDG_RUNTIME_DIR: root, XDG_CONFIG_HOME: root, HOME: root },
		encoding: 'utf8',
		timeout: 60_000
	});
	if (r.status !== 0 || !existsSync(out)) throw new Error(`tiled --export-map failed (exit ${r.status}): ${r.stderr}`);
}

/** A copy of a fixture folder to import from. */
function source(from: string): string {
	const dir = mkdtempSync(path.join(root, 'src-'));
	cpSync(from, dir, { recursive: true });
	return dir;
}

const listing = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe('importMap', () => {
	it('imports a Tiled JSON map exported by Tiled: the same map, tilesets copied, a world that loads', async () => {
		const src = source(TINY_WORLD_DIR);
		tiledExport(path.join(src, 'tiny.tmx'), path.join(src, 'exported.tmj'));
		const report = await importMap(path.join(src, 'exported.tmj'), { name: 'from-json', worldsDir: worlds });

		expect(report).toEqual({
			ok: true,
			world: 'from-json',
			dir: path.join(worlds, 'from-json'),
			map: path.join(worlds, 'from-json', 'from-json.tmx'),
			layers: [
				{ name: 'ground', kind: 'tile', role: 'visual' },
				{ name: 'walls', kind: 'tile', role: 'visual' },
				{ name: 'collisions', kind: 'tile', role: 'collisions' },
				{ name: 'sectors', kind: 'object', role: 'sectors' },
				{ name: 'arenas', kind: 'object', role: 'arenas' },
				{ name: 'objects', kind: 'object', role: 'objects' },
				{ name: 'spawns', kind: 'object', role: 'spawns' }
			],
			zones: { sectors: 2, arenas: 3, objects: 5, spawns: 2 },
			warnings: []
		});
		const dir = report.dir;
		expect(listing(dir)).toEqual(['from-json.tmx', 'personas', 'scenario.json', 'tilesets', 'tilesets/tiny.png', 'tilesets/tiny.tsx', 'world.json']);
		expect(JSON.parse(readFileSync(path.join(dir, 'scenario.json'), 'utf8'))).toEqual({ seeds: [], facts: [] });
		const problems = new ProblemList();
		const { manifest } = await readManifest(dir, problems);
		expect(problems.errors).toEqual([]);
		expect(manifest).toMatchObject({ name: 'from-json', map: 'from-json.tmx', secondsPerStep: 10 });

		// the same map as the original, read with the editor's reader
		const original = await readMapDoc(TINY_WORLD_DIR, 'tiny.tmx');
		const imported = await readMapDoc(dir, 'from-json.tmx');
		expect(imported.layers.map((l) => [l.id, l.name, l.visible, l.opacity])).toEqual(original.layers.map((l) => [l.id, l.name, l.visible, l.opacity]));
		expect(imported.layers.map((l) => (l.kind === 'tile' ? l.data : l.kind === 'object' ? l.objects.map((o) => [o.id, o.name, o.x, o.y, o.width, o.height]) : null))).toEqual(
			original.layers.map((l) => (l.kind === 'tile' ? l.data : l.kind === 'object' ? l.objects.map((o) => [o.id, o.name, o.x, o.y, o.width, o.height]) : null))
		);
		expect([imported.nextLayerId, imported.nextObjectId]).toEqual([original.nextLayerId, original.nextObjectId]);
		expect(imported.tilesets.map((t) => [t.firstGid, t.source, t.view.image])).toEqual([[1, 'tilesets/tiny.tsx', 'tilesets/tiny.png']]);

		// a world with no personas yet, but a world
		const world = await loadWorld(dir);
		expect(world.def.sectors.map((s) => `${s.name} (${s.kind})`)).toEqual(['Cottage (house)', 'Garden (park)']);
		expect(world.def.personas).toEqual([]);
	});

	it('imports a hand-written JSON map: base64 data, an embedded tileset, a .tsj tileset, and says what it cannot use', async () => {
		const src = mkdtempSync(path.join(root, 'src-'));
		mkdirSync(path.join(src, 'art'));
		cpSync(path.join(DOC_FIXTURE, 'tiles.png'), path.join(src, 'art', 'tiles.png'));
		writeFileSync(
			path.join(src, 'art', 'terrain.tsj'),
			JSON.stringify({
				type: 'tileset',
				name: 'terrain',
				image: 'tiles.png',
				imagewidth: 128,
				imageheight: 64,
				tilewidth: 32,
				tileheight: 32,
				tilecount: 8,
				columns: 4,
				margin: 0,
				spacing: 0,
				tiles: [{ id: 2, properties: [{ name: 'name', type: 'string', value: 'rock' }], animation: [{ tileid: 2, duration: 100 }, { tileid: 3, duration: 100 }] }]
			})
		);
		const W = 4;
		const H = 3;
		const gids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, (11 | 0x80000000) >>> 0, 0];
		const raw = Buffer.alloc(gids.length * 4);
		gids.forEach((g, k) => raw.writeUInt32LE(g, k * 4));
		const rect = (id: number, name: string, x: number, y: number, w: number, h: number, extra = {}) => ({ id, name, x: x * 32, y: y * 32, width: w * 32, height: h * 32, rotation: 0, visible: true, type: '', ...extra });
		const map = {
			type: 'map',
			version: '1.8',
			orientation: 'orthogonal',
			renderorder: 'right-down',
			infinite: false,
			width: W,
			height: H,
			tilewidth: 32,
			tileheight: 32,
			nextlayerid: 8,
			nextobjectid: 20,
			properties: [
				{ name: 'story', type: 'string', value: 'Once upon a time\nthere was a harbour' },
				{ name: 'year', type: 'int', value: 1900 }
			],
			tilesets: [
				{ firstgid: 1, source: 'art/terrain.tsj' },
				{ firstgid: 9, name: 'props', image: 'art/tiles.png', imagewidth: 128, imageheight: 64, tilewidth: 32, tileheight: 32, tilecount: 8, columns: 4, margin: 0, spacing: 0 }
			],
			layers: [
				{ id: 1, name: 'ground', type: 'tilelayer', width: W, height: H, encoding: 'base64', compression: 'zlib', data: zlib.deflateSync(raw).toString('base64'), opacity: 1, visible: true, x: 0, y: 0 },
				{ id: 2, name: 'sectors', type: 'objectgroup', objects: [rect(1, 'Harbour', 0, 0, 4, 3, { properties: [{ name: 'kind', type: 'string', value: 'harbour' }] })], opacity: 1, visible: true, x: 0, y: 0 },
				{
					id: 3,
					name: 'arenas',
					type: 'objectgroup',
					objects: [rect(2, 'pier', 0, 0, 2, 3), { id: 3, name: 'pool', x: 96, y: 0, polygon: [{ x: 0, y: 0 }, { x: 32, y: 0 }, { x: 0, y: 32 }], rotation: 0, visible: true }],
					opacity: 1,
					visible: true,
					x: 0,
					y: 0
				},
				{ id: 4, name: 'objects', type: 'objectgroup', objects: [rect(4, 'crane', 1, 1, 1, 1, { properties: [{ name: 'state', type: 'string', value: 'lifting' }] })], opacity: 1, visible: true, x: 0, y: 0 },
				{ id: 5, name: 'spawns', type: 'objectgroup', objects: [{ id: 5, name: 'sailor', x: 16, y: 80, point: true, rotation: 0, visible: true }], opacity: 1, visible: true, x: 0, y: 0 },
				{ id: 6, name: 'Notes', type: 'objectgroup', objects: [], opacity: 1, visible: false, x: 0, y: 0 },
				{ id: 7, name: 'sky', type: 'imagelayer', image: 'art/tiles.png', opacity: 0.5, visible: true, x: 0, y: 0 }
			]
		};
		writeFileSync(path.join(src, 'harbour.json'), JSON.stringify(map, null, 1));

		const report = await importMap(path.join(src, 'harbour.json'), { name: 'harbour', worldsDir: worlds });
		expect(report.layers).toEqual([
			{ name: 'ground', kind: 'tile', role: 'visual' },
			{ name: 'sectors', kind: 'object', role: 'sectors' },
			{ name: 'arenas', kind: 'object', role: 'arenas' },
			{ name: 'objects', kind: 'object', role: 'objects' },
			{ name: 'spawns', kind: 'object', role: 'spawns' },
			{ name: 'Notes', kind: 'object', role: 'none' },
			{ name: 'sky', kind: 'image', role: 'none' }
		]);
		expect(report.zones).toEqual({ sectors: 1, arenas: 1, objects: 1, spawns: 1 });
		const warnings = report.warnings.join('\n');
		expect(warnings).toMatch(/layer "arenas", object 3 "pool".*a zone must be a rectangle, not a polygon/);
		expect(warnings).toMatch(/image layer "sky" is not shown/);
		expect(warnings).toMatch(/object layer "Notes" is not used/);
		expect(warnings).toMatch(/no "collisions" layer/);

		const dir = report.dir;
		expect(listing(dir)).toEqual([
			'harbour.tmx',
			'images',
			'images/tiles.png',
			'personas',
			'scenario.json',
			'tilesets',
			'tilesets/terrain.tsx',
			'tilesets/tiles.png',
			'world.json'
		]);
		const doc = await readMapDoc(dir, 'harbour.tmx');
		const ground = doc.layers[0];
		expect(ground.kind === 'tile' && [ground.encoding, ground.compression, ground.data]).toEqual(['base64', 'zlib', gids]);
		// the .tsj became a .tsx beside its image; the embedded tileset stays in the map
		expect(doc.tilesets.map((t) => [t.firstGid, t.source ?? 'embedded', t.view.name, t.view.image, t.view.tileCount])).toEqual([
			[1, 'tilesets/terrain.tsx', 'terrain', 'tilesets/tiles.png', 8],
			[9, 'embedded', 'props', 'tilesets/tiles.png', 8]
		]);
		const tsx = readFileSync(path.join(dir, 'tilesets', 'terrain.tsx'), 'utf8');
		expect(tsx).toContain('<image source="tiles.png" width="128" height="64"/>');
		expect(tsx).toMatch(/<tile id="2">\s*<properties>\s*<property name="name" value="rock"\/>\s*<\/properties>\s*<animation>\s*<frame tileid="2" duration="100"\/>/);
		const story = doc.properties.find((p) => p.attrs.name === 'story')!;
		expect(story.text).toBe('Once upon a time\nthere was a harbour');
		expect(doc.properties.find((p) => p.attrs.name === 'year')!.attrs).toEqual({ name: 'year', type: 'int', value: '1900' });
		const spawns = doc.layers.find((l) => l.name === 'spawns');
		expect(spawns?.kind === 'object' && spawns.objects[0].shape.map((s) => s.name)).toEqual(['point']);
		expect(doc.layers.find((l) => l.name === 'Notes')!.visible).toBe(false);
		expect([doc.nextLayerId, doc.nextObjectId]).toEqual([8, 20]);
	});

	it('imports a .tmx whose tileset and image live in other folders of the folder it imports from', async () => {
		const src = mkdtempSync(path.join(root, 'src-'));
		for (const d of ['maps', 'shared', 'art']) mkdirSync(path.join(src, d));
		cpSync(path.join(DOC_FIXTURE, 'tiles.png'), path.join(src, 'art', 'tiles.png'));
		writeFileSync(
			path.join(src, 'shared', 'tiles.tsx'),
			readFileSync(path.join(DOC_FIXTURE, 'tiles.tsx'), 'utf8').replace('source="tiles.png"', 'source="../art/tiles.png"')
		);
		writeFileSync(
			path.join(src, 'maps', 'town.tmx'),
			readFileSync(path.join(TINY_WORLD_DIR, 'tiny.tmx'), 'utf8').replace('source="tilesets/tiny.tsx"', 'source="../shared/tiles.tsx"')
		);
		// the map's own folder is where an import may read, unless a wider folder is given
		const err = await importMap(path.join(src, 'maps', 'town.tmx'), { name: 'town_2', worldsDir: worlds }).catch((e: unknown) => e);
		expect((err as WorldError).problems).toEqual([
			{ file: 'town.tmx', where: 'line 3', message: 'tileset "../shared/tiles.tsx" lies outside the folder the map is imported from' }
		]);
		expect(readdirSync(worlds)).toEqual([]);
		const report = await importMap(path.join(src, 'maps', 'town.tmx'), { name: 'town_2', worldsDir: worlds, root: src });
		expect(report.zones).toEqual({ sectors: 2, arenas: 3, objects: 5, spawns: 2 });
		expect(report.warnings).toEqual([]);
		const dir = report.dir;
		expect(listing(path.join(dir, 'tilesets'))).toEqual(['tiles.png', 'tiles.tsx']);
		expect(readFileSync(path.join(dir, 'tilesets', 'tiles.tsx'), 'utf8')).toContain('<image source="tiles.png" width="128" height="64"/>');
		const doc = await readMapDoc(dir, 'town_2.tmx');
		expect(doc.tilesets.map((t) => [t.source, t.view.image])).toEqual([['tilesets/tiles.tsx', 'tilesets/tiles.png']]);
		const original = await readMapDoc(TINY_WORLD_DIR, 'tiny.tmx');
		expect(doc.layers.map((l) => (l.kind === 'tile' ? l.data : l.name))).toEqual(original.layers.map((l) => (l.kind === 'tile' ? l.data : l.name)));
		expect((await loadWorld(dir)).def.sectors.length).toBe(2);
	});

	it('refuses maps it cannot hold and creates nothing', async () => {
		const src = source(TINY_WORLD_DIR);
		const iso = path.join(src, 'iso.tmx');
		writeFileSync(iso, readFileSync(path.join(src, 'tiny.tmx'), 'utf8').replace('orientation="orthogonal"', 'orientation="isometric"'));
		const err = await importMap(iso, { name: 'iso', worldsDir: worlds }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(WorldError);
		expect((err as WorldError).problems).toEqual([
			{ file: 'iso.tmx', where: 'line 2', message: 'isometric maps are not supported (orientation="isometric"); only orthogonal maps are' }
		]);

		const json = path.join(src, 'infinite.tmj');
		writeFileSync(
			json,
			JSON.stringify({ type: 'map', orientation: 'orthogonal', infinite: true, width: 4, height: 4, tilewidth: 32, tileheight: 32, tilesets: [], layers: [{ id: 1, name: 'g', type: 'group', layers: [] }] }, null, 1)
		);
		const jerr = await importMap(json, { name: 'infinite', worldsDir: worlds }).catch((e: unknown) => e);
		expect(jerr).toBeInstanceOf(WorldError);
		expect((jerr as WorldError).problems.map((p) => `${p.file} (${p.where}): ${p.message}`)).toEqual([
			'infinite.tmj (line 4): infinite maps are not supported ("infinite": true); make the map finite in Tiled (Map > Map Properties > Infinite)'
		]);
		const zstd = path.join(src, 'zstd.json');
		writeFileSync(
			zstd,
			JSON.stringify({ type: 'map', orientation: 'orthogonal', width: 1, height: 1, tilewidth: 32, tileheight: 32, tilesets: [], layers: [{ id: 1, name: 'g', type: 'tilelayer', encoding: 'base64', compression: 'zstd', data: 'AAAA' }, { id: 2, name: 'zones', type: 'group', layers: [] }] }, null, 1)
		);
		const zerr = await importMap(zstd, { name: 'zstd', worldsDir: worlds }).catch((e: unknown) => e);
		expect((zerr as WorldError).problems.map((p) => p.message)).toEqual([
			expect.stringMatching(/layer "g": zstd compression is not supported/),
			expect.stringMatching(/group layer "zones" is not supported/)
		]);
		const missing = path.join(src, 'missing.tmx');
		writeFileSync(missing, readFileSync(path.join(src, 'tiny.tmx'), 'utf8').replace('tilesets/tiny.tsx', 'tilesets/nowhere.tsx'));
		await expect(importMap(missing, { name: 'missing', worldsDir: worlds })).rejects.toThrow(/tileset file "tilesets\/nowhere.tsx" not found/);
		await expect(importMap(path.join(src, 'world.json'), { name: 'manifest', worldsDir: worlds })).rejects.toThrow(/not a Tiled JSON map/);
		await expect(importMap(path.join(src, 'tilesets', 'tiny.png'), { name: 'png', worldsDir: worlds })).rejects.toThrow(/not a Tiled map/);
		expect(readdirSync(worlds)).toEqual([]);
	});

	it('refuses a taken name and names that are not a plain folder name', async () => {
		const map = path.join(TINY_WORLD_DIR, 'tiny.tmx');
		await importMap(map, { name: 'taken', worldsDir: worlds });
		const before = listing(worlds);
		await expect(importMap(map, { name: 'taken', worldsDir: worlds })).rejects.toThrow(/a world named "taken" already exists/);
		for (const name of ['My Town', '../escape', '.hidden', 'a/b', '', 'UPPER', '-dash'])
			await expect(importMap(map, { name, worldsDir: worlds })).rejects.toThrow(/is not a world name/);
		expect(listing(worlds)).toEqual(before);
		expect(existsSync(path.join(root, 'escape'))).toBe(false);
	});
});

describe('simulacra world import', () => {
	const cliRoot = projectRoot();
	function cli(...a: string[]) {
		const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(cliRoot, 'src/cli/main.ts'), ...a], {
			cwd: cliRoot,
			env: { ...process.env, SIMULACRA_WORLDS: worlds, SIMULACRA_HOME: path.join(root, 'home') },
			encoding: 'utf8'
		});
		return { code: r.status, out: r.stdout, err: r.stderr };
	}

	it('prints the report, and one line per problem with exit 1 for a refused map', () => {
		const ok = cli('world', 'import', path.join(TINY_WORLD_DIR, 'tiny.tmx'), '--name', 'cli-town', '--json');
		expect(ok.code, ok.err).toBe(0);
		const report = JSON.parse(ok.out);
		expect(report).toMatchObject({ ok: true, world: 'cli-town', map: path.join(worlds, 'cli-town', 'cli-town.tmx'), zones: { sectors: 2, arenas: 3, objects: 5, spawns: 2 }, warnings: [] });
		expect(report.layers).toHaveLength(7);
		expect(existsSync(path.join(worlds, 'cli-town', 'world.json'))).toBe(true);

		const src = source(TINY_WORLD_DIR);
		const bad = path.join(src, 'bad.tmx');
		writeFileSync(bad, readFileSync(path.join(src, 'tiny.tmx'), 'utf8').replace('infinite="0"', 'infinite="1"').replace('orientation="orthogonal"', 'orientation="staggered"'));
		const refused = cli('world', 'import', bad, '--name', 'bad-town', '--json');
		expect(refused.code).toBe(1);
		const body = JSON.parse(refused.out);
		expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/cannot import .*bad\.tmx: 2 problems/) });
		expect(body.problems.map((p: { message: string }) => p.message)).toEqual([
			expect.stringMatching(/staggered maps are not supported/),
			expect.stringMatching(/infinite maps are not supported/)
		]);
		const plain = cli('world', 'import', bad, '--name', 'bad-town');
		expect(plain.code).toBe(1);
		expect(plain.err.trim().split('\n')).toEqual([
			expect.stringMatching(/^error: cannot import .*bad\.tmx: 2 problems$/),
			'  bad.tmx (line 2): staggered maps are not supported (orientation="staggered"); only orthogonal maps are',
			expect.stringMatching(/^ {2}bad\.tmx \(line 2\): infinite maps are not supported/)
		]);
		expect(existsSync(path.join(worlds, 'bad-town'))).toBe(false);
	}, 60_000);

	it('--root widens the folder a map\'s tilesets may come from', () => {
		const src = mkdtempSync(path.join(root, 'cli-src-'));
		for (const d of ['maps', 'shared']) mkdirSync(path.join(src, d));
		cpSync(path.join(DOC_FIXTURE, 'tiles.png'), path.join(src, 'shared', 'tiles.png'));
		cpSync(path.join(DOC_FIXTURE, 'tiles.tsx'), path.join(src, 'shared', 'tiles.tsx'));
		const map = path.join(src, 'maps', 'town.tmx');
		writeFileSync(map, readFileSync(path.join(TINY_WORLD_DIR, 'tiny.tmx'), 'utf8').replace('source="tilesets/tiny.tsx"', 'source="../shared/tiles.tsx"'));
		const narrow = cli('world', 'import', map, '--name', 'root-town', '--json');
		expect(narrow.code).toBe(1);
		expect(JSON.parse(narrow.out).problems[0].message).toMatch(/lies outside the folder the map is imported from/);
		const wide = cli('world', 'import', map, '--name', 'root-town', '--root', src, '--json');
		expect(wide.code, wide.err).toBe(0);
		expect(JSON.parse(wide.out)).toMatchObject({ ok: true, world: 'root-town', zones: { sectors: 2, arenas: 3, objects: 5, spawns: 2 } });
	}, 60_000);
});
