// Editing worlds: creating, the map, settings and personas, the checks with links to places,
// and the refusal of every path that would leave a world folder.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocObjectLayer, DocTileLayer, MapDoc } from '../../world/doc';
import type { WorldProblem } from '../../world/problems';
import { ConflictError } from '../errors';
import { PathError } from '../files';
import { errorBody, readJsonBody } from '../http';
import { checkWorld } from './check';
import {
	checkWorldEdit,
	createWorld,
	deletePersona,
	docOfBody,
	listPersonas,
	readSettings,
	readWorldMap,
	resolveWorldFile,
	saveWorldMap,
	worldDirOf,
	writePersona,
	writeSettings
} from './edit';
import { loadWorld } from './load';
import { readMapDoc } from './tmx-doc';
import { copyWorld, removeWorldCopies } from './testing';

afterAll(removeWorldCopies);

const temps: string[] = [];
afterAll(() => {
	for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A worlds folder holding a copy of the tiny world, and a folder beside it with a secret. */
function setup(): { worlds: string; tiny: string; outside: string; secret: string } {
	const tiny = copyWorld();
	const worlds = path.dirname(tiny);
	const outside = mkdtempSync(path.join(tmpdir(), 'outside-'));
	temps.push(outside);
	const secret = path.join(outside, 'secret.json');
	writeFileSync(secret, '{"secret": true}\n');
	return { worlds, tiny, outside, secret };
}

/** The error a promise rejects with (fails when it resolves). */
async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string; problems?: WorldProblem[] }> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	expect(err, 'expected a refusal').toBeDefined();
	const { status, body } = errorBody(err);
	return { status, ...body };
}

const layer = <K extends 'tile' | 'object'>(doc: MapDoc, name: string, kind: K) =>
	doc.layers.find((l) => l.name === name && l.kind === kind) as K extends 'tile' ? DocTileLayer : DocObjectLayer;

const atOf = (list: WorldProblem[], message: RegExp) => list.find((p) => message.test(p.message))?.at;

const ALICE = () => JSON.parse(readFileSync(path.join(copyWorld(), 'personas', 'alice-chen.json'), 'utf8')) as Record<string, unknown>;

describe('creating worlds', () => {
	it('makes an empty world that checks without errors and opens in the editor', async () => {
		const { worlds } = setup();
		expect(await createWorld(worlds, { id: 'fresh', name: 'Fresh Town' })).toEqual({ id: 'fresh', name: 'Fresh Town' });
		const dir = path.join(worlds, 'fresh');
		expect(readdirSync(dir).sort()).toEqual(['fresh.tmx', 'personas', 'scenario.json', 'tilesets', 'world.json']);
		expect(readdirSync(path.join(dir, 'personas'))).toEqual([]);
		expect(readdirSync(path.join(dir, 'tilesets')).sort()).toEqual(['town.png', 'town.tsx']);
		expect(JSON.parse(readFileSync(path.join(dir, 'scenario.json'), 'utf8'))).toEqual({ seeds: [], facts: [] });
		const manifest = JSON.parse(readFileSync(path.join(dir, 'world.json'), 'utf8'));
		expect(manifest).toMatchObject({ name: 'Fresh Town', map: 'fresh.tmx', start: '2023-02-13T07:00:00', secondsPerStep: 10 });

		const check = await checkWorld('fresh', { worldsDir: worlds });
		expect(check.errors).toEqual([]);
		expect(check.counts).toMatchObject({ sectors: 0, personas: 0, walkable: 40 * 30 });

		const doc = await readWorldMap(worlds, 'fresh');
		expect([doc.width, doc.height]).toEqual([40, 30]);
		expect(doc.layers.map((l) => `${l.kind}:${l.name}`)).toEqual([
			'tile:ground',
			'tile:collisions',
			'object:sectors',
			'object:arenas',
			'object:objects',
			'object:spawns'
		]);
		// the tile named "grass" in the town tileset is its first tile
		expect(new Set(layer(doc, 'ground', 'tile').data)).toEqual(new Set([1]));
		expect(new Set(layer(doc, 'collisions', 'tile').data)).toEqual(new Set([0]));
	});

	it('makes an empty map of the size asked for', async () => {
		const { worlds } = setup();
		await createWorld(worlds, { id: 'wide_1', name: 'Wide', width: 64, height: 12 });
		const doc = await readWorldMap(worlds, 'wide_1');
		expect([doc.width, doc.height, layer(doc, 'ground', 'tile').data.length]).toEqual([64, 12, 64 * 12]);
	});

	it('copies a world with all its files under a new name', async () => {
		const { worlds, tiny } = setup();
		await createWorld(worlds, { id: 'tiny-copy', name: 'Tiny Copy', from: 'tiny' });
		const copy = path.join(worlds, 'tiny-copy');
		for (const f of ['tiny.tmx', 'personas/alice-chen.json', 'personas/bob-diaz.json', 'scenario.json', 'tilesets/tiny.png', 'tilesets/tiny.tsx'])
			expect(readFileSync(path.join(copy, f)).equals(readFileSync(path.join(tiny, f))), f).toBe(true);
		const w = await loadWorld('tiny-copy', { worldsDir: worlds });
		expect(w.def.name).toBe('Tiny Copy');
		expect(w.def.personas.map((p) => p.id)).toEqual(['alice-chen', 'bob-diaz']);
		expect(JSON.parse(readFileSync(path.join(tiny, 'world.json'), 'utf8')).name).toBe('Tiny Town');
	});

	it('refuses taken ids, bad ids, unknown sources and odd sizes, leaving nothing behind', async () => {
		const { worlds } = setup();
		const before = readdirSync(worlds).sort();
		expect(await refusal(createWorld(worlds, { id: 'tiny', name: 'Again' }))).toMatchObject({ status: 409, message: 'a world "tiny" already exists' });
		for (const id of ['', 'Tiny', '-x', '../x', 'a/b', 'a b', '.hidden', 'a\0b', 'x'.repeat(65)])
			expect((await refusal(createWorld(worlds, { id, name: 'N' }))).status, id).toBe(400);
		expect((await refusal(createWorld(worlds, { id: 'n1', name: ' ' }))).message).toBe('name is empty');
		expect((await refusal(createWorld(worlds, { id: 'n2', name: 'N', from: 'nowhere' }))).status).toBe(404);
		expect((await refusal(createWorld(worlds, { id: 'n3', name: 'N', from: '../tiny' }))).status).toBe(404);
		expect((await refusal(createWorld(worlds, { id: 'n4', name: 'N', width: 0 }))).message).toBe('width must be between 1 and 500, not 0');
		expect((await refusal(createWorld(worlds, { id: 'n5', name: 'N', height: 2.5 }))).status).toBe(400);
		expect((await refusal(createWorld(worlds, { id: 'n6', name: 'N', colour: 'red' }))).message).toBe('unknown field "colour" (fields: id, name, from, width, height)');
		expect(readdirSync(worlds).sort()).toEqual(before);
	});

	it('refuses to copy a world with a link that leaves its folder, and follows links that stay inside', async () => {
		const { worlds, tiny, outside, secret } = setup();
		symlinkSync(path.join(tiny, 'tilesets', 'tiny.tsx'), path.join(tiny, 'tilesets', 'alias.tsx'));
		await createWorld(worlds, { id: 'linked-in', name: 'In', from: 'tiny' });
		expect(readFileSync(path.join(worlds, 'linked-in', 'tilesets', 'alias.tsx'), 'utf8')).toBe(
			readFileSync(path.join(tiny, 'tilesets', 'tiny.tsx'), 'utf8')
		);

		symlinkSync(secret, path.join(tiny, 'personas', 'leak.json'));
		const before = readdirSync(worlds).sort();
		const r = await refusal(createWorld(worlds, { id: 'linked-out', name: 'Out', from: 'tiny' }));
		expect(r).toMatchObject({ status: 400, message: 'refused to copy "personas/leak.json": it is a link to a place outside the world folder' });
		expect(readdirSync(worlds).sort()).toEqual(before);

		rmSync(path.join(tiny, 'personas', 'leak.json'));
		symlinkSync(outside, path.join(tiny, 'elsewhere'));
		expect((await refusal(createWorld(worlds, { id: 'linked-dir', name: 'Out', from: 'tiny' }))).message).toMatch(/"elsewhere": it is a link to a place outside/);
	});
});

describe('the map', () => {
	it('saves an edited map and answers the checks of the saved world', async () => {
		const { worlds, tiny } = setup();
		const doc = await readWorldMap(worlds, 'tiny');
		const bench = layer(doc, 'objects', 'object').objects.find((o) => o.name === 'bench')!;
		bench.name = 'garden bench';
		const r = await saveWorldMap(worlds, 'tiny', { doc });
		expect(r).toEqual({ ok: true, errors: [], warnings: [], updated: [] });
		expect(readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8')).toContain('name="garden bench"');
		const w = await loadWorld(tiny);
		expect(w.def.sectors[1].arenas[0].objects.map((o) => o.address)).toEqual(['Garden:lawn:garden bench']);
	});

	it('saves a map with errors and lists them with their places', async () => {
		const { worlds } = setup();
		const doc = await readWorldMap(worlds, 'tiny');
		const alice = layer(doc, 'spawns', 'object').objects.find((o) => o.name === 'alice')!;
		alice.x = 16;
		alice.y = 16;
		const r = await saveWorldMap(worlds, 'tiny', { doc });
		expect(r.ok).toBe(false);
		expect(r.errors).toEqual([
			{
				file: 'tiny.tmx',
				where: expect.stringMatching(/^layer "spawns", object 12 "alice"/),
				message: 'spawn "alice" at tile (0, 0) is on a blocked tile (collisions layer)',
				at: { kind: 'tile', x: 0, y: 0 }
			}
		]);
	});

	it('refuses a doc that is not the map world.json names, or whose tilesets leave the folder', async () => {
		const { worlds, tiny, outside } = setup();
		const tmx = readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8');
		const doc = await readWorldMap(worlds, 'tiny');
		expect(await refusal(saveWorldMap(worlds, 'tiny', { doc: { ...doc, file: 'other.tmx' } }))).toMatchObject({
			status: 400,
			message: 'the map to save is "other.tmx" but world.json names "tiny.tmx"'
		});
		expect((await refusal(saveWorldMap(worlds, 'tiny', { doc: { ...doc, file: '../tiny.tmx' } }))).status).toBe(400);
		writeFileSync(path.join(outside, 'evil.tsx'), readFileSync(path.join(tiny, 'tilesets', 'tiny.tsx')));
		const rel = path.relative(tiny, path.join(outside, 'evil.tsx')).split(path.sep).join('/');
		const evil = { ...doc, tilesets: [{ ...doc.tilesets[0], source: rel }] };
		expect(await refusal(saveWorldMap(worlds, 'tiny', { doc: evil }))).toMatchObject({ status: 400, message: `tileset "${rel}" lies outside the world folder` });
		const abs = { ...doc, tilesets: [{ ...doc.tilesets[0], source: path.join(outside, 'evil.tsx') }] };
		expect((await refusal(saveWorldMap(worlds, 'tiny', { doc: abs }))).status).toBe(400);
		expect(readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8')).toBe(tmx);
	});

	it('refuses malformed docs with the place at fault', () => {
		expect(() => docOfBody({})).toThrow('"doc" must be an object');
		expect(() => docOfBody({ doc: { file: 'a.tmx', width: '12' } })).toThrow('the map sent is malformed: width must be a whole number');
		expect(() => docOfBody({ doc: { file: '/etc/a.tmx' } })).toThrow(PathError);
	});

	it('malformed tile data is reported by the check, not thrown', async () => {
		const { worlds } = setup();
		const doc = await readWorldMap(worlds, 'tiny');
		layer(doc, 'ground', 'tile').data.pop();
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(r.errors.map((e) => e.message)).toEqual(['the layer has 119 tiles but a 12x10 map needs 120']);
	});
});

describe('the checks, with links to the places', () => {
	let worlds: string;
	let tiny: string;
	let doc: MapDoc;
	beforeEach(async () => {
		({ worlds, tiny } = setup());
		doc = await readWorldMap(worlds, 'tiny');
	});

	it('checks the unsaved doc instead of the saved map, which stays as it was', async () => {
		const tmx = readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8');
		expect(await checkWorldEdit(worlds, 'tiny', {})).toEqual({ errors: [], warnings: [] });
		const coll = layer(doc, 'collisions', 'tile');
		coll.data[2 * 12 + 7] = 1; // close the door from the kitchen to the garden
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(r.errors).toEqual([]);
		expect(r.warnings.map((w) => [w.message, w.at])).toEqual([
			['arena "Cottage:kitchen" cannot be reached: no walkable path leads to it from the main walkable area', { kind: 'zone', address: 'Cottage:kitchen' }],
			['arena "Cottage:bedroom" cannot be reached: no walkable path leads to it from the main walkable area', { kind: 'zone', address: 'Cottage:bedroom' }],
			['spawn "alice" at tile (2, 6) is cut off from the main walkable area', { kind: 'tile', x: 2, y: 6 }]
		]);
		// the doc has no lines; its places are named by layer and object
		expect(r.warnings[0].where).toBe('layer "arenas", object 3 "kitchen"');
		expect(readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8')).toBe(tmx);
	});

	it('objects inside walls link to the zone', async () => {
		layer(doc, 'objects', 'object').objects.push({ id: 50, name: 'safe', x: 0, y: 0, width: 32, height: 32, attrs: {}, properties: [], shape: [] });
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(r.errors.map((e) => [e.message, e.at])).toEqual([
			[
				'object "Cottage:kitchen:safe" is inside walls: no walkable tile of arena "Cottage:kitchen" is on it or next to it',
				{ kind: 'zone', address: 'Cottage:kitchen:safe' }
			]
		]);
	});

	it('personas whose home or spawn is not on the map link to the persona and field', async () => {
		layer(doc, 'arenas', 'object').objects.find((o) => o.name === 'bedroom')!.name = 'sleeping room';
		layer(doc, 'spawns', 'object').objects.find((o) => o.name === 'bob')!.name = 'robert';
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(r.errors.map((e) => [e.file, e.at])).toEqual([
			['personas/alice-chen.json', { kind: 'persona', id: 'alice-chen', field: 'home' }],
			['personas/bob-diaz.json', { kind: 'persona', id: 'bob-diaz', field: 'spawn' }]
		]);
		expect(r.errors[0].message).toMatch(/^home "Cottage:bedroom": sector "Cottage" has no arena "bedroom"/);
	});

	it('duplicate names link to the zone, the map object or the persona', async () => {
		const sectors = layer(doc, 'sectors', 'object');
		const garden = sectors.objects.find((o) => o.name === 'Garden')!;
		sectors.objects.push({ ...structuredClone(garden), id: 60, name: 'Cottage' }); // kind "park", not "house"
		const spawns = layer(doc, 'spawns', 'object');
		spawns.objects.push({ ...structuredClone(spawns.objects[0]), id: 61, x: 304, y: 144 });
		writeFileSync(path.join(tiny, 'personas', 'carol.json'), JSON.stringify({ ...ALICE(), id: 'carol', spawn: 'bob' }));
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(atOf(r.errors, /^duplicate sector "Cottage"/)).toEqual({ kind: 'zone', address: 'Cottage' });
		expect(atOf(r.errors, /^duplicate spawn "alice" \(the first is object 12\)/)).toEqual({ kind: 'object', id: 61 });
		expect(atOf(r.errors, /^duplicate persona name "Alice Chen": alice-chen\.json has it too/)).toEqual({
			kind: 'persona',
			id: 'carol',
			field: 'name'
		});
		expect(atOf(r.warnings, /^spawn "bob" is also used by bob-diaz/)).toEqual({ kind: 'persona', id: 'carol', field: 'spawn' });
	});

	it('settings problems link to the settings field', async () => {
		writeFileSync(path.join(tiny, 'world.json'), readFileSync(path.join(tiny, 'world.json'), 'utf8').replace('"relevance": 2', '"relevance": -2'));
		const r = await checkWorldEdit(worlds, 'tiny', { doc });
		expect(r.errors.map((e) => e.at)).toEqual([{ kind: 'settings', field: 'defaults.retrieval.weights.relevance' }]);
	});
});

describe('renaming zones carries their references over', () => {
	let worlds: string;
	let tiny: string;
	let doc: MapDoc;
	beforeEach(async () => {
		({ worlds, tiny } = setup());
		doc = await readWorldMap(worlds, 'tiny');
	});
	const rename = (layerName: string, from: string, to: string) => {
		for (const o of layer(doc, layerName, 'object').objects) if (o.name === from) o.name = to;
	};
	const file = (rel: string) => readFileSync(path.join(tiny, rel), 'utf8');

	it('an arena: the check lists the personas whose home names it, and their problem goes', async () => {
		rename('arenas', 'bedroom', 'sleeping room');
		const renames = [{ kind: 'arena', from: 'Cottage:bedroom', to: 'Cottage:sleeping room' }];
		// without carrying it over, Alice's home is an error
		expect((await checkWorldEdit(worlds, 'tiny', { doc })).errors.map((e) => e.at)).toEqual([
			{ kind: 'persona', id: 'alice-chen', field: 'home' }
		]);
		const r = await checkWorldEdit(worlds, 'tiny', { doc, renames });
		expect(r.references).toEqual([
			{ file: 'personas/alice-chen.json', field: 'home', from: 'Cottage:bedroom', to: 'Cottage:sleeping room', by: [0] }
		]);
		expect(r.errors).toEqual([]);
		// checking writes nothing
		expect(file('personas/alice-chen.json')).toContain('"home": "Cottage:bedroom"');
	});

	it('saving writes the new address into the personas, changing nothing else in their files', async () => {
		const before = file('personas/alice-chen.json');
		const bob = file('personas/bob-diaz.json');
		rename('arenas', 'bedroom', 'sleeping room');
		const r = await saveWorldMap(worlds, 'tiny', { doc, renames: [{ kind: 'arena', from: 'Cottage:bedroom', to: 'Cottage:sleeping room' }] });
		expect(r).toMatchObject({ ok: true, errors: [] });
		expect(r.updated.map((u) => [u.file, u.field, u.to])).toEqual([['personas/alice-chen.json', 'home', 'Cottage:sleeping room']]);
		expect(file('personas/alice-chen.json')).toBe(before.replace('"Cottage:bedroom"', '"Cottage:sleeping room"'));
		expect(file('personas/bob-diaz.json')).toBe(bob);
		const w = await loadWorld(tiny);
		expect(w.def.personas.find((p) => p.id === 'alice-chen')?.home).toBe('Cottage:sleeping room');
	});

	it('a sector: homes in it, known places and scenario events follow', async () => {
		writeFileSync(
			path.join(tiny, 'scenario.json'),
			JSON.stringify(
				{
					seeds: [],
					facts: [{ id: 'picnic', label: 'Picnic', keywords: ['picnic'], event: { place: 'Garden', start: '2023-02-13T12:00:00', end: '2023-02-13T13:00:00' } }]
				},
				null,
				2
			) + '\n'
		);
		rename('sectors', 'Cottage', 'Farmhouse');
		rename('sectors', 'Garden', 'Orchard');
		const renames = [
			{ kind: 'sector', from: 'Cottage', to: 'Farmhouse' },
			{ kind: 'sector', from: 'Garden', to: 'Orchard' }
		];
		expect((await checkWorldEdit(worlds, 'tiny', { doc })).errors.length).toBe(4);
		const r = await checkWorldEdit(worlds, 'tiny', { doc, renames });
		expect(r.errors).toEqual([]);
		expect(r.references?.map((u) => [u.file, u.field, u.to, u.by])).toEqual([
			['personas/alice-chen.json', 'home', 'Farmhouse:bedroom', [0]],
			['personas/alice-chen.json', 'knownPlaces[0]', 'Orchard', [1]],
			['personas/bob-diaz.json', 'home', 'Farmhouse:kitchen', [0]],
			['scenario.json', 'facts[0].event.place', 'Orchard', [1]]
		]);
		const saved = await saveWorldMap(worlds, 'tiny', { doc, renames });
		expect(saved.ok).toBe(true);
		expect(JSON.parse(file('scenario.json')).facts[0].event.place).toBe('Orchard');
		expect(JSON.parse(file('personas/alice-chen.json'))).toMatchObject({ home: 'Farmhouse:bedroom', knownPlaces: ['Orchard'] });
		expect((await checkWorld(tiny)).errors).toEqual([]);
	});

	it('a spawn point: the personas starting there follow', async () => {
		rename('spawns', 'bob', 'robert');
		const renames = [{ kind: 'spawn', from: 'bob', to: 'robert' }];
		expect((await checkWorldEdit(worlds, 'tiny', { doc })).errors.map((e) => e.at)).toEqual([{ kind: 'persona', id: 'bob-diaz', field: 'spawn' }]);
		const r = await checkWorldEdit(worlds, 'tiny', { doc, renames });
		expect(r).toMatchObject({ errors: [], references: [{ file: 'personas/bob-diaz.json', field: 'spawn', from: 'bob', to: 'robert' }] });
		expect((await saveWorldMap(worlds, 'tiny', { doc, renames })).ok).toBe(true);
		expect(JSON.parse(file('personas/bob-diaz.json')).spawn).toBe('robert');
	});

	it('leaves out renames to an address the map does not have, and refuses malformed ones', async () => {
		const untouched = file('personas/alice-chen.json');
		const r = await saveWorldMap(worlds, 'tiny', { doc, renames: [{ kind: 'arena', from: 'Cottage:bedroom', to: 'Cottage:attic' }] });
		expect(r).toMatchObject({ ok: true, updated: [] });
		expect(file('personas/alice-chen.json')).toBe(untouched);
		for (const renames of ['x', [{ kind: 'room', from: 'a', to: 'b' }], [{ kind: 'arena', from: '', to: 'b' }]])
			expect(await refusal(checkWorldEdit(worlds, 'tiny', { doc, renames }))).toMatchObject({ status: 400 });
	});
});

describe('settings', () => {
	it('reads world.json and writes checked settings', async () => {
		const { worlds, tiny } = setup();
		const settings = await readSettings(worlds, 'tiny');
		expect(settings).toMatchObject({ name: 'Tiny Town', map: 'tiny.tmx' });
		const r = await writeSettings(worlds, 'tiny', { ...settings, name: 'Tinier Town', secondsPerStep: 30 });
		expect(r.warnings).toEqual([]);
		const w = await loadWorld(tiny);
		expect([w.def.name, w.def.secondsPerStep]).toEqual(['Tinier Town', 30]);
		expect(readFileSync(path.join(tiny, 'world.json'), 'utf8')).toMatch(/^\{\n\t"name": "Tinier Town",/);
	});

	it('refuses invalid settings with the loader\'s problems and leaves the file unchanged', async () => {
		const { worlds, tiny } = setup();
		const before = readFileSync(path.join(tiny, 'world.json'), 'utf8');
		const settings = await readSettings(worlds, 'tiny');
		const bad = {
			...settings,
			start: '2023-02-30T07:00:00',
			secondsPerStep: 0,
			defaults: { retrieval: { decay: 2, topk: 3 } }
		};
		const r = await refusal(writeSettings(worlds, 'tiny', bad));
		expect(r.status).toBe(400);
		expect(r.problems!.map((p) => [p.at, p.message])).toEqual([
			[{ kind: 'settings', field: 'start' }, expect.stringMatching(/^"start" must be a calendar time/)],
			[{ kind: 'settings', field: 'secondsPerStep' }, '"secondsPerStep" must be a positive whole number, not 0'],
			[{ kind: 'settings', field: 'defaults.retrieval.topk' }, 'unknown field "defaults.retrieval.topk"; did you mean "topK"?'],
			[{ kind: 'settings', field: 'defaults.retrieval.decay' }, '"defaults.retrieval.decay" must be a number above 0 and at most 1, not 2']
		]);
		for (const map of ['../tiny/tiny.tmx', 'missing.tmx', 'world.json']) {
			const m = await refusal(writeSettings(worlds, 'tiny', { ...settings, map }));
			expect(m.problems!.map((p) => p.at)).toEqual([{ kind: 'settings', field: 'map' }]);
		}
		expect((await refusal(writeSettings(worlds, 'tiny', ['not', 'an', 'object']))).status).toBe(400);
		expect(readFileSync(path.join(tiny, 'world.json'), 'utf8')).toBe(before);
	});

	it('refuses a map named through a link that leaves the folder', async () => {
		const { worlds, tiny, outside } = setup();
		writeFileSync(path.join(outside, 'far.tmx'), readFileSync(path.join(tiny, 'tiny.tmx')));
		symlinkSync(path.join(outside, 'far.tmx'), path.join(tiny, 'far.tmx'));
		const settings = await readSettings(worlds, 'tiny');
		const r = await refusal(writeSettings(worlds, 'tiny', { ...settings, map: 'far.tmx' }));
		expect(r.problems!.map((p) => p.message)).toEqual(['the map "far.tmx" must be a file inside the world folder']);
	});
});

describe('personas', () => {
	it('lists, creates, replaces and deletes persona files', async () => {
		const { worlds, tiny } = setup();
		const list = await listPersonas(worlds, 'tiny');
		expect(list.map((p) => [p.id, p.persona?.name])).toEqual([
			['alice-chen', 'Alice Chen'],
			['bob-diaz', 'Bob Diaz']
		]);
		const carol = { ...ALICE(), id: 'carol-ng', name: 'Carol Ng', firstName: 'Carol', lastName: 'Ng', spawn: 'bob', home: 'Garden:lawn' };
		const created = await writePersona(worlds, 'tiny', 'carol-ng', carol);
		expect(created.created).toBe(true);
		expect(created.warnings.map((w) => [w.message, w.at])).toEqual([
			['spawn "bob" is also used by bob-diaz; both start on one tile', { kind: 'persona', id: 'carol-ng', field: 'spawn' }]
		]);
		expect(JSON.parse(readFileSync(path.join(tiny, 'personas', 'carol-ng.json'), 'utf8'))).toEqual(carol);
		const replaced = await writePersona(worlds, 'tiny', 'carol-ng', { ...carol, age: 40, spawn: 'alice' });
		expect(replaced.created).toBe(false);
		const w = await loadWorld(tiny);
		expect(w.def.personas.find((p) => p.id === 'carol-ng')).toMatchObject({ age: 40, home: 'Garden:lawn' });

		expect(await deletePersona(worlds, 'tiny', 'carol-ng')).toEqual({ deleted: 'carol-ng' });
		expect(existsSync(path.join(tiny, 'personas', 'carol-ng.json'))).toBe(false);
		expect((await refusal(deletePersona(worlds, 'tiny', 'carol-ng'))).status).toBe(404);
		expect(readdirSync(path.join(tiny, 'personas')).sort()).toEqual(['alice-chen.json', 'bob-diaz.json']);
	});

	it('refuses a persona with field problems and writes nothing', async () => {
		const { worlds, tiny } = setup();
		const before = readFileSync(path.join(tiny, 'personas', 'alice-chen.json'), 'utf8');
		const fields = async (body: Record<string, unknown>, id = 'alice-chen') => {
			const r = await refusal(writePersona(worlds, 'tiny', id, body));
			expect(r.status).toBe(400);
			return r.problems!.map((p) => [(p.at as { field?: string }).field, p.message]);
		};
		expect(await fields({ ...ALICE(), id: 'someone-else' })).toEqual([
			['id', '"id" is "someone-else" but the file is named alice-chen.json; they must match']
		]);
		expect(await fields({ ...ALICE(), home: 'Cottage:attic', spawn: 'alicia', knownPlaces: ['Gardn', 'Cottage:attic', 'Cottage:kitchen:stove', 'Cottage:kitchen'] })).toEqual([
			['home', 'home "Cottage:attic": sector "Cottage" has no arena "attic" (its arenas: kitchen, bedroom)'],
			['spawn', 'spawn "alicia" is not on the map\'s spawns layer; did you mean "alice"?'],
			['knownPlaces[0]', 'known place "Gardn" is not a sector on the map; did you mean "Garden"?'],
			['knownPlaces[1]', 'known place "Cottage:attic": sector "Cottage" has no arena "attic" (its arenas: kitchen, bedroom)'],
			['knownPlaces[2]', 'known place "Cottage:kitchen:stove" is neither a sector nor Sector:Arena']
		]);
		const { lifestyle: _, ...noLifestyle } = ALICE();
		expect(await fields({ ...noLifestyle, age: -3, perception: { visionRadius: 0 }, hobby: 'chess' })).toEqual([
			['hobby', 'unknown field "hobby" (persona fields: id, name, firstName, lastName, age, innate, learned, currently, lifestyle, dailyPlanRequirement, home, spawn, knownPlaces, seedMemories, memories, perception)'],
			['age', '"age" must be a whole number, 0 or more, not -3'],
			['lifestyle', 'missing field "lifestyle"'],
			['perception.visionRadius', '"perception.visionRadius" must be a positive whole number, not 0']
		]);
		expect(readFileSync(path.join(tiny, 'personas', 'alice-chen.json'), 'utf8')).toBe(before);
		expect(readdirSync(path.join(tiny, 'personas')).sort()).toEqual(['alice-chen.json', 'bob-diaz.json']);
	});
});

describe('paths from requests never leave the world folder', () => {
	let worlds: string;
	let tiny: string;
	let outside: string;
	let secret: string;
	beforeEach(() => {
		({ worlds, tiny, outside, secret } = setup());
	});
	afterEach(() => {
		// nothing outside was written or removed
		expect(readdirSync(outside).sort()).toEqual(expect.arrayContaining(['secret.json']));
		expect(readFileSync(secret, 'utf8')).toBe('{"secret": true}\n');
	});

	it('the world parameter must be a listed world', async () => {
		for (const w of ['..', '../tiny', 'tiny/..', '/etc', outside, '%2e%2e', '..%2ftiny', 'tiny%2f..', 'tiny\\..', '.', '', 'ti\0ny', 'tiny/']) {
			const r = await refusal(worldDirOf(worlds, w));
			expect(r.status, JSON.stringify(w)).toBe(404);
		}
		// a folder with a world.json reached through a link out of the worlds folder is not listed
		mkdirSync(path.join(outside, 'far'));
		writeFileSync(path.join(outside, 'far', 'world.json'), '{"name": "Far"}');
		symlinkSync(path.join(outside, 'far'), path.join(worlds, 'far'));
		expect((await refusal(worldDirOf(worlds, 'far'))).status).toBe(404);
		expect((await refusal(readSettings(worlds, 'far'))).status).toBe(404);
		expect((await refusal(writeSettings(worlds, 'far', { name: 'x' }))).status).toBe(404);
		expect(readFileSync(path.join(outside, 'far', 'world.json'), 'utf8')).toBe('{"name": "Far"}');
		expect(await worldDirOf(worlds, 'tiny')).toBe(tiny);
	});

	it('every world endpoint refuses bad world names', async () => {
		for (const w of ['..', '../tiny', '%2e%2e', 'a\0b', outside]) {
			const calls: (() => Promise<unknown>)[] = [
				() => readWorldMap(worlds, w),
				() => saveWorldMap(worlds, w, {}),
				() => checkWorldEdit(worlds, w, {}),
				() => readSettings(worlds, w),
				() => writeSettings(worlds, w, {}),
				() => listPersonas(worlds, w),
				() => writePersona(worlds, w, 'x', {}),
				() => deletePersona(worlds, w, 'x')
			];
			for (const c of calls) expect((await refusal(c())).status).toBe(404);
		}
	});

	it('persona ids cannot name another place', async () => {
		const escape = path.relative(path.join(tiny, 'personas'), path.join(outside, 'secret'));
		for (const id of ['..', '../world', '../../x', escape, '/etc/passwd', 'a/b', 'a\\b', '%2e%2e', 'a%2fb', 'a%5cb', 'a\0b', '.hidden', ''])
			for (const c of [() => writePersona(worlds, 'tiny', id, ALICE()), () => deletePersona(worlds, 'tiny', id)])
				expect((await refusal(c())).status, JSON.stringify(id)).toBe(400);
		expect(existsSync(path.join(tiny, 'world.json'))).toBe(true);
	});

	it('a persona file linked outside is replaced or removed as a link; its target is untouched', async () => {
		symlinkSync(secret, path.join(tiny, 'personas', 'linked.json'));
		const list = await listPersonas(worlds, 'tiny');
		expect(list.find((p) => p.id === 'linked')).toEqual({ id: 'linked', persona: null });
		const linked = { ...ALICE(), id: 'linked', name: 'Linked', spawn: 'bob' };
		await writePersona(worlds, 'tiny', 'linked', linked);
		expect(JSON.parse(readFileSync(path.join(tiny, 'personas', 'linked.json'), 'utf8')).name).toBe('Linked');
		symlinkSync(secret, path.join(tiny, 'personas', 'gone.json'));
		await deletePersona(worlds, 'tiny', 'gone');
		expect(existsSync(path.join(tiny, 'personas', 'gone.json'))).toBe(false);
	});

	it('a personas folder linked outside is neither listed, written nor deleted from', async () => {
		rmSync(path.join(tiny, 'personas'), { recursive: true });
		writeFileSync(path.join(outside, 'alice-chen.json'), JSON.stringify(ALICE()));
		symlinkSync(outside, path.join(tiny, 'personas'));
		expect(await listPersonas(worlds, 'tiny')).toEqual([]);
		expect((await refusal(deletePersona(worlds, 'tiny', 'alice-chen'))).status).toBe(409);
		expect((await refusal(deletePersona(worlds, 'tiny', 'secret'))).status).toBe(409);
		expect((await refusal(writePersona(worlds, 'tiny', 'alice-chen', ALICE()))).status).toBe(409);
		expect(readdirSync(outside).sort()).toEqual(['alice-chen.json', 'secret.json']);
	});

	it('a map or world.json linked outside is neither read nor written', async () => {
		const real = readFileSync(path.join(tiny, 'world.json'), 'utf8');
		writeFileSync(path.join(outside, 'far.tmx'), readFileSync(path.join(tiny, 'tiny.tmx')));
		symlinkSync(path.join(outside, 'far.tmx'), path.join(tiny, 'far.tmx'));
		writeFileSync(path.join(tiny, 'world.json'), real.replace('"tiny.tmx"', '"far.tmx"'));
		expect(await refusal(readWorldMap(worlds, 'tiny'))).toMatchObject({
			status: 409,
			message: 'the map "far.tmx" named by world.json is not a file inside the world folder'
		});
		const doc = { ...(await readMapDoc(tiny, 'tiny.tmx')), file: 'far.tmx' };
		expect((await refusal(saveWorldMap(worlds, 'tiny', { doc }))).status).toBe(409);
		expect(readFileSync(path.join(outside, 'far.tmx'), 'utf8')).toBe(readFileSync(path.join(tiny, 'tiny.tmx'), 'utf8'));

		// world.json itself a link out: the folder is no world
		rmSync(path.join(tiny, 'world.json'));
		writeFileSync(path.join(outside, 'world.json'), real);
		symlinkSync(path.join(outside, 'world.json'), path.join(tiny, 'world.json'));
		expect((await refusal(readSettings(worlds, 'tiny'))).status).toBe(404);
		expect((await refusal(writeSettings(worlds, 'tiny', JSON.parse(real)))).status).toBe(404);
		expect(readFileSync(path.join(outside, 'world.json'), 'utf8')).toBe(real);
	});

	it('the asset route\'s resolution refuses "..", absolute paths, encoded separators, NUL and links out', async () => {
		symlinkSync(secret, path.join(tiny, 'tilesets', 'leak.json'));
		symlinkSync(outside, path.join(tiny, 'out'));
		const cases: [string, string, number][] = [
			['../tiny/world.json', '../tiny/world.json', 400],
			['tilesets/../../tiny/world.json', 'tilesets/../../tiny/world.json', 400],
			[secret, secret, 400],
			['tilesets/tiny.png\0', 'tilesets/tiny.png%00', 400],
			['tilesets/a\0b', 'tilesets/a\0b', 400],
			['tilesets/tiny.png', 'tilesets%2ftiny.png', 400],
			['tilesets/tiny.png', 'tilesets%2Ftiny.png', 400],
			['tilesets\\tiny.png', 'tilesets%5ctiny.png', 400],
			['../secret.json', '%2e%2e/secret.json', 400],
			['../secret.json', '%2E%2E%2Fsecret.json', 400],
			['tilesets/leak.json', 'tilesets/leak.json', 404],
			['out/secret.json', 'out/secret.json', 404],
			['missing.png', 'missing.png', 404],
			['tilesets', 'tilesets', 404]
		];
		for (const [decoded, raw, status] of cases) {
			const r = await refusal(resolveWorldFile(worlds, 'tiny', decoded, raw));
			expect(r.status, raw).toBe(status);
		}
		for (const w of ['..', '%2e%2e', 'tiny/..', outside])
			expect((await refusal(resolveWorldFile(worlds, w, 'world.json'))).status, w).toBe(404);
		expect(await resolveWorldFile(worlds, 'tiny', 'tilesets/tiny.png')).toBe(path.join(tiny, 'tilesets', 'tiny.png'));
	});
});

describe('the routes', () => {
	let saved: string | undefined;
	let worlds: string;
	let tiny: string;
	let secret: string;
	beforeEach(() => {
		({ worlds, tiny, secret } = setup());
		saved = process.env.SIMULACRA_WORLDS;
		process.env.SIMULACRA_WORLDS = worlds;
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.SIMULACRA_WORLDS;
		else process.env.SIMULACRA_WORLDS = saved;
	});

	type Handler = (event: never) => Promise<Response> | Response;
	const call = async (handler: Handler, params: Record<string, string>, init: RequestInit = {}, pathname = '/') => {
		const url = new URL(`http://127.0.0.1${pathname}`);
		const event = { params, request: new Request(url, init), url } as unknown as never;
		try {
			return await handler(event);
		} catch (e) {
			// SvelteKit's error(): an HttpError with status and body
			const err = e as { status?: number; body?: { message?: string } };
			if (typeof err.status === 'number') return new Response(JSON.stringify(err.body), { status: err.status });
			throw e;
		}
	};
	const put = (body: unknown): RequestInit => ({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

	it('answer JSON with { message, problems } and the right status, never a stack', async () => {
		const personas = await import('../../../routes/api/worlds/[world]/personas/[id]/+server');
		const settings = await import('../../../routes/api/worlds/[world]/settings/+server');
		const worldsRoute = await import('../../../routes/api/worlds/+server');

		const ok = await call(personas.PUT, { world: 'tiny', id: 'bob-diaz' }, put({ ...ALICE(), id: 'bob-diaz', name: 'Bob Diaz', spawn: 'bob' }));
		expect(ok.status).toBe(200);
		const bad = await call(personas.PUT, { world: 'tiny', id: 'bob-diaz' }, put({ ...ALICE(), id: 'bob-diaz', home: 'Nowhere:x' }));
		expect(bad.status).toBe(400);
		const body = (await bad.json()) as { message: string; problems: WorldProblem[]; stack?: string };
		expect(body.message).toBe('persona "bob-diaz" has problems; nothing was saved');
		expect(body.problems[0].at).toEqual({ kind: 'persona', id: 'bob-diaz', field: 'home' });
		expect(JSON.stringify(body)).not.toMatch(/ at .*\.ts:\d+/);

		const notJson = await call(settings.PUT, { world: 'tiny' }, { method: 'PUT', body: '{name' });
		expect([notJson.status, await notJson.json()]).toEqual([400, { kind: 'invalid', message: 'the request body is not valid JSON' }]);
		const missing = await call(settings.GET, { world: '..' });
		expect([missing.status, await missing.json()]).toEqual([404, { kind: 'not-found', message: 'No world ".."' }]);
		const taken = await call(worldsRoute.POST, {}, { method: 'POST', body: JSON.stringify({ id: 'tiny', name: 'T' }) });
		expect(taken.status).toBe(409);
		const made = await call(worldsRoute.POST, {}, { method: 'POST', body: JSON.stringify({ id: 'made', name: 'Made', from: 'tiny' }) });
		expect([made.status, await made.json()]).toEqual([201, { id: 'made', name: 'Made' }]);
		const listed = await call(worldsRoute.GET, {});
		expect(((await listed.json()) as { id: string }[]).map((w) => w.id)).toEqual(['made', 'tiny']);
	});

	it('the asset route serves world files and refuses the rest', async () => {
		const asset = await import('../../../routes/api/worlds/[world]/asset/[...path]/+server');
		const get = (world: string, p: string, raw = p) => call(asset.GET, { world, path: p }, {}, `/api/worlds/${world}/asset/${raw}`);
		const png = await get('tiny', 'tilesets/tiny.png');
		expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
		symlinkSync(secret, path.join(tiny, 'leak.json'));
		expect((await get('tiny', 'leak.json')).status).toBe(404);
		expect((await get('tiny', '../tiny/world.json')).status).toBe(400);
		expect((await get('tiny', 'tilesets/tiny.png', 'tilesets%2ftiny.png')).status).toBe(400);
		expect((await get('tiny', '../x', '%2e%2e/x')).status).toBe(400);
		expect((await get('tiny', 'a\0b', 'a%00b')).status).toBe(400);
		expect((await get('..', 'tiny/world.json')).status).toBe(404);
	});

	it('limits the size of request bodies', async () => {
		const big = new Request('http://127.0.0.1/', { method: 'PUT', body: 'x'.repeat(2048) });
		expect((await refusal(readJsonBody(big, { limit: 1024 }))).status).toBe(413);
		expect(await readJsonBody(new Request('http://127.0.0.1/', { method: 'PUT', body: '' }))).toEqual({});
	});
});

it('a conflict and a refused path keep their kinds in answers', () => {
	expect(errorBody(new ConflictError('taken'))).toEqual({ status: 409, body: { kind: 'conflict', message: 'taken' } });
	expect(errorBody(new PathError('invalid', 'bad'))).toEqual({ status: 400, body: { kind: 'invalid', message: 'bad' } });
});
