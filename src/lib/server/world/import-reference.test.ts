// Importing the reference implementation's town and a starting simulation as a world, from a
// small checkout of our own in its formats (./reference/testing.ts): the map's layers and
// tilesets (a placeholder for the missing image), collisions, zones from the mazes, spawns,
// personas from scratch.json, the clock; a world that `world check` accepts and that runs; and
// refused checkouts that name the file and row and leave nothing behind.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WorldError, type WorldProblem } from '../../world/problems';
import { loadState, startRun } from '../run/runner';
import { checkWorld } from './check';
import { importReference } from './import-reference';
import { loadWorld } from './load';
import { csvRows } from './reference/maze';
import { parseRefTime } from './reference/files';
import { rectangles } from './reference/town';
import { writeFixtureCheckout, MAZES, W, H } from './reference/testing';

const root = mkdtempSync(path.join(tmpdir(), 'import-ref-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let worlds: string;
let checkout: ReturnType<typeof writeFixtureCheckout>;
beforeEach(() => {
	n++;
	worlds = path.join(root, `worlds-${n}`);
	checkout = writeFixtureCheckout(path.join(root, `checkout-${n}`));
});

const refused = async (p: Promise<unknown>): Promise<WorldProblem[]> => {
	try {
		await p;
	} catch (e) {
		if (e instanceof WorldError) return e.problems;
		throw e;
	}
	throw new Error('the import was not refused');
};

/** The worlds folder holds nothing made by a refused import (no world, no hidden folder). */
const nothingMade = () => expect(existsSync(worlds) ? readdirSync(worlds) : []).toEqual([]);

describe('the reference formats', () => {
	it('reads CSV rows as the reference does (cells stripped) and its times', () => {
		expect(csvRows('1, the Ville, Hobbs Cafe \n2,a,"b, c"\n\n3, x')).toEqual([
			['1', 'the Ville', 'Hobbs Cafe'],
			['2', 'a', 'b, c'],
			['3', 'x']
		]);
		expect(parseRefTime('February 13, 2023, 00:00:10')).toBe(Date.UTC(2023, 1, 13, 0, 0, 10));
		expect(parseRefTime('February 13, 2023')).toBe(Date.UTC(2023, 1, 13));
		expect(parseRefTime('2023-02-14 21:11:20')).toBe(Date.UTC(2023, 1, 14, 21, 11, 20));
		expect(parseRefTime('February 30, 2023')).toBeUndefined();
	});

	it('covers a zone of any shape with rectangles, exactly', () => {
		// an L and a lone tile
		const tiles = [0, 1, 2, 6, 12, 14];
		const rects = rectangles(6, 3, tiles);
		const covered = rects.flatMap((r) => Array.from({ length: r.w * r.h }, (_, k) => (r.y + Math.floor(k / r.w)) * 6 + r.x + (k % r.w)));
		expect(covered.sort((a, b) => a - b)).toEqual(tiles);
		expect(rects).toEqual([
			{ x: 0, y: 0, w: 3, h: 1 },
			{ x: 0, y: 1, w: 1, h: 2 },
			{ x: 2, y: 2, w: 1, h: 1 }
		]);
	});
});

describe('world import <checkout> --storage <simulation>', () => {
	it('imports the town and the personas as a world that checks, loads and runs', async () => {
		const report = await importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds });
		expect(report.world).toBe('ville');
		expect(report.zones).toEqual({ sectors: 2, arenas: 3, objects: 3, spawns: 4 });
		expect(report.start).toBe('2023-02-13T00:00:00');
		expect(report.missingImages).toEqual(['environment/frontend_server/static_dirs/assets/the_ville/visuals/map_assets/field/field.png']);
		expect(report.warnings.join('\n')).toMatch(/placeholder/);
		expect(report.personas.map((p) => [p.id, p.home, p.tile])).toEqual([
			['ann-lee', "Ann Lee's house:main room", [1, 2]],
			['bob-ray', 'Hobbs Cafe:cafe', [4, 3]]
		]);
		expect(readdirSync(worlds)).toEqual(['ville']);

		const dir = path.join(worlds, 'ville');
		// the missing image is a placeholder of the declared size; the present one is copied as it is
		const png = readFileSync(path.join(dir, 'tilesets', 'field.png'));
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 64]);
		const real = path.join(checkout.frontend, 'static_dirs/assets/the_ville/visuals/map_assets/blocks/blocks.png');
		expect(readFileSync(path.join(dir, 'tilesets', 'blocks.png')).equals(readFileSync(real))).toBe(true);

		const check = await checkWorld(dir);
		expect(check.errors).toEqual([]);
		expect(check.ok).toBe(true);
		const { def, map } = await loadWorld(dir);
		// the map's layers in order, the block layers hidden, then the world's own
		expect(map.layers.map((l) => [l.name, l.visible])).toEqual([
			['Bottom Ground', true],
			['Wall', true],
			['Interior Furniture L1', true],
			['Collisions (reference)', false],
			['Arena Blocks', false],
			['collisions', false]
		]);
		expect(Array.from(def.collision)).toEqual(MAZES.collision.map((id) => (id ? 1 : 0)));
		expect(def.name).toBe('The Ville (2 agents)');
		expect(def.secondsPerStep).toBe(10);
		expect(def.settings.retrieval.decay).toBe(0.99);
		// every sector, arena and object the mazes use, on exactly their tiles
		const tree = def.sectors.map((s) => [s.name, s.arenas.map((a) => [a.name, a.objects.map((o) => o.name)])]);
		expect(tree).toEqual([
			["Ann Lee's house", [['main room', ['bed']], ['bathroom', ['toilet']]]],
			['Hobbs Cafe', [['cafe', ['cafe counter']]]]
		]);
		const tilesOf = (id: number, maze: number[]) => maze.flatMap((v, t) => (v === id ? [t] : []));
		expect(def.sectors[1].tiles).toEqual(tilesOf(102, MAZES.sector));
		expect(def.sectors[1].arenas[0].objects[0].tiles).toEqual(tilesOf(123, MAZES.object));
		expect(def.spawns['Hobbs Cafe:cafe:sp-A']).toEqual({ x: 3, y: 3 });
		expect(def.spawns['ann-lee']).toEqual({ x: 1, y: 2 });
		// every scratch field with a counterpart
		const ann = def.personas.find((p) => p.id === 'ann-lee')!;
		expect(ann).toEqual({
			id: 'ann-lee',
			name: 'Ann Lee',
			firstName: 'Ann',
			lastName: 'Lee',
			age: 30,
			innate: 'kind, curious',
			learned: 'Ann Lee is a barista.',
			currently: 'Ann Lee is planning a party.',
			lifestyle: 'Ann Lee goes to bed around 11pm.',
			dailyPlanRequirement: 'Ann works at Hobbs Cafe',
			home: "Ann Lee's house:main room",
			spawn: 'ann-lee',
			knownPlaces: ['Hobbs Cafe'],
			seedMemories: [],
			perception: { visionRadius: 4, attentionBandwidth: 3, retention: 5 }
		});
		expect(W * H).toBe(def.width * def.height);

		const home = path.join(root, `home-${n}`);
		const before = process.env.SIMULACRA_WORLDS;
		process.env.SIMULACRA_WORLDS = worlds;
		try {
			const run = await startRun({ world: 'ville', steps: 30, home });
			expect(run.agents).toBe(2);
			expect(run.steps).toBe(30);
		} finally {
			if (before === undefined) delete process.env.SIMULACRA_WORLDS;
			else process.env.SIMULACRA_WORLDS = before;
		}
	}, 60_000);

	it('keeps nodes.json as structured seed memories: an agent starts with each kind, time, importance and evidence', async () => {
		const report = await importReference(checkout.checkout, { simulation: 'rec_two', name: 'ville-rec', worldsDir: worlds });
		expect(report.start).toBe('2023-02-13T00:01:40');
		expect(report.personas.map((p) => [p.id, p.tile, p.seedMemories])).toEqual([
			['ann-lee', [3, 1], 6],
			['bob-ray', [4, 3], 1]
		]);
		const dir = path.join(worlds, 'ville-rec');
		const file = JSON.parse(readFileSync(path.join(dir, 'personas', 'ann-lee.json'), 'utf8'));
		expect(file.seedMemories).toEqual([]);
		// Bob's spatial memory names one of the two arenas of Ann's house: known as that arena
		expect(JSON.parse(readFileSync(path.join(dir, 'personas', 'bob-ray.json'), 'utf8')).knownPlaces).toEqual(["Ann Lee's house:main room"]);
		expect(file.memories[5]).toEqual({
			id: 'node_6',
			kind: 'reflection',
			description: 'Ann Lee cares about her friends',
			created: '2023-02-13T00:01:20',
			importance: 7,
			evidence: ['node_1', 'node_3'],
			keywords: ['idle']
		});
		expect((await checkWorld(dir)).errors).toEqual([]);

		const home = path.join(root, `home-${n}`);
		const before = process.env.SIMULACRA_WORLDS;
		process.env.SIMULACRA_WORLDS = worlds;
		try {
			const run = await startRun({ world: 'ville-rec', steps: 1, home });
			const { sim, reader } = await loadState(run.run, 0, { home });
			const ann = sim.stream('ann-lee').records;
			const t = (m: number, s: number) => Date.UTC(2023, 1, 13, 0, m, s);
			expect(ann.map((m) => [m.kind, m.source, m.importance, m.created, m.description])).toEqual([
				['observation', 'seed', 3, t(0, 0), 'Ann Lee is idle'],
				['observation', 'seed', 1, t(0, 30), 'bed is being used'],
				['conversation', 'seed', 6, t(1, 0), 'conversing about the party'],
				['thought', 'seed', 5, t(1, 0), "For Ann Lee's planning: remember Bob is coming"],
				['plan', 'seed', 3, t(1, 10), "This is Ann Lee's plan for Monday February 13: open the cafe"],
				['reflection', 'seed', 7, t(1, 20), 'Ann Lee cares about her friends']
			]);
			expect(ann[2].with).toBe('bob-ray');
			expect(ann[3].evidence).toEqual(['ann-lee/m2']);
			expect(ann[5].evidence).toEqual(['ann-lee/m0', 'ann-lee/m2']);
			expect(sim.stream('bob-ray').records.map((m) => [m.kind, m.importance, m.description])).toEqual([['observation', 3, 'Bob Ray is idle']]);
			// the arenas its spatial memory names, not every arena of their sectors
			expect(sim.agent('bob-ray').spatial["Ann Lee's house"]).toEqual({ 'main room': ['bed'] });
			// importance came from nodes.json: the model rated nothing when the run began
			const init = reader.calls().filter((c) => c.s < 0);
			expect(init.filter((c) => c.template === 'importance')).toEqual([]);
		} finally {
			if (before === undefined) delete process.env.SIMULACRA_WORLDS;
			else process.env.SIMULACRA_WORLDS = before;
		}
	}, 60_000);

	it('refuses a folder that is not a checkout, naming what it expected', async () => {
		const problems = await refused(importReference(root, { simulation: 'base_two', name: 'x', worldsDir: worlds }));
		expect(problems[0].message).toMatch(/not a checkout of the reference implementation.*maze_meta_info\.json/);
		const missing = await refused(importReference(checkout.checkout, { simulation: 'nope', name: 'x', worldsDir: worlds }));
		expect(missing[0].message).toMatch(/no simulation "nope".*it holds: base_two, rec_two/);
		nothingMade();
	});

	it('names the maze of the wrong size, the unnamed id and the persona without scratch, and makes nothing', async () => {
		const matrix = path.join(checkout.frontend, 'static_dirs/assets/the_ville/matrix');
		writeFileSync(path.join(matrix, 'maze', 'arena_maze.csv'), MAZES.arena.slice(1).join(', '));
		const objects = [...MAZES.object];
		objects[2 * W + 2] = 999; // tile (2, 2)
		writeFileSync(path.join(matrix, 'maze', 'game_object_maze.csv'), objects.join(', '));
		rmSync(path.join(checkout.frontend, 'storage/base_two/personas/Bob Ray/bootstrap_memory/scratch.json'));
		const problems = await refused(importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds }));
		const m = 'environment/frontend_server/static_dirs/assets/the_ville/matrix';
		expect(problems).toContainEqual({ file: `${m}/maze/arena_maze.csv`, message: `holds 29 ids, but maze_meta_info.json says the maze is 6 x 5 = 30 tiles (one id per tile, row by row)` });
		expect(problems).toContainEqual({
			file: `${m}/maze/game_object_maze.csv`,
			where: 'row 2, column 2',
			message: 'id 999 is not named in special_blocks/game_object_blocks.csv (its first tile is (2, 2))'
		});
		nothingMade();

		// with the mazes right, the persona without a scratch is named
		writeFileSync(path.join(matrix, 'maze', 'arena_maze.csv'), MAZES.arena.join(', '));
		writeFileSync(path.join(matrix, 'maze', 'game_object_maze.csv'), MAZES.object.join(', '));
		const persona = await refused(importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds }));
		expect(persona).toEqual([
			{
				file: 'environment/frontend_server/storage/base_two/personas/Bob Ray/bootstrap_memory/scratch.json',
				message: 'not found: every persona folder has bootstrap_memory/scratch.json'
			}
		]);
		nothingMade();
	});

	it('names a special-block row of the wrong shape, a bad living area and a persona on a wall', async () => {
		const blocks = path.join(checkout.frontend, 'static_dirs/assets/the_ville/matrix/special_blocks');
		writeFileSync(path.join(blocks, 'arena_blocks.csv'), "111, the Ville, Ann Lee's house, main room\n112, the Ville, bathroom\n113, the Ville, Hobbs Cafe, cafe\n");
		const rows = await refused(importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds }));
		expect(rows).toContainEqual({
			file: 'environment/frontend_server/static_dirs/assets/the_ville/matrix/special_blocks/arena_blocks.csv',
			where: 'row 2',
			message: 'expected 4 columns (id, world, sector, arena), got 3: "112, the Ville, bathroom"'
		});
		writeFileSync(path.join(blocks, 'arena_blocks.csv'), "111, the Ville, Ann Lee's house, main room\n112, the Ville, Ann Lee's house, bathroom\n113, the Ville, Hobbs Cafe, cafe\n");

		const sim = path.join(checkout.frontend, 'storage/base_two');
		const scratchFile = path.join(sim, 'personas/Ann Lee/bootstrap_memory/scratch.json');
		const scratch = JSON.parse(readFileSync(scratchFile, 'utf8'));
		writeFileSync(scratchFile, JSON.stringify({ ...scratch, living_area: 'the Ville:Nowhere:attic' }, null, 2));
		writeFileSync(path.join(sim, 'environment/0.json'), JSON.stringify({ 'Ann Lee': { x: 1, y: 2 }, 'Bob Ray': { x: 0, y: 0 } }));
		const places = await refused(importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds }));
		expect(places).toEqual([
			{
				file: 'environment/frontend_server/storage/base_two/personas/Ann Lee/bootstrap_memory/scratch.json',
				where: '"living_area"',
				message: '"the Ville:Nowhere:attic" is not an arena of the town (the mazes\' sectors and arenas)'
			},
			{ file: 'environment/frontend_server/storage/base_two/environment/0.json', where: '"Bob Ray"', message: '"Bob Ray" stands at (0, 0), a blocked tile of the collision maze' }
		]);
		nothingMade();
	});

	it('never overwrites a world', async () => {
		await importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds });
		const again = await refused(importReference(checkout.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds }));
		expect(again[0].message).toMatch(/already exists/);
		expect(readdirSync(worlds)).toEqual(['ville']);
	});
});

describe('the IDE\'s import request', () => {
	it('checks the body, lists a checkout\'s simulations and imports with the name given', async () => {
		const { importReferenceRequest, simulationsOf } = await import('./import-reference-api');
		expect(simulationsOf(checkout.checkout).simulations).toEqual(['base_two', 'rec_two']);
		expect(() => simulationsOf('')).toThrow(/give the folder of a checkout/);
		await expect(importReferenceRequest(worlds, { checkout: checkout.checkout, storage: 'base_two', id: 'Bad Id' })).rejects.toThrow(/^id must be 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit \(got "Bad Id"\)$/);
		await expect(importReferenceRequest(worlds, { checkout: checkout.checkout, storage: 'base_two', id: 'x', extra: 1 })).rejects.toThrow(/unknown field "extra"/);
		const made = await importReferenceRequest(worlds, { checkout: checkout.checkout, storage: 'base_two', id: 'two', name: 'Two Friends' });
		expect([made.id, made.name, made.report.personas.length]).toEqual(['two', 'Two Friends', 2]);
		expect((await loadWorld(path.join(worlds, 'two'))).def.name).toBe('Two Friends');
	});
});
