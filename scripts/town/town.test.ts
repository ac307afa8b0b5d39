// The default worlds: the committed files are exactly what the generator writes, and they hold
// together (personas, homes, spawns, zones, relationships, scenario seeds).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWorlds } from './make-town';

const WORLDS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../worlds');

// tmx-parser (CommonJS, untyped): the parts read here
interface TmxObject {
	name: string;
	x: number;
	y: number;
	width: number;
	height: number;
	properties: Record<string, unknown>;
}
interface TmxLayer {
	name: string;
	type: 'tile' | 'object' | 'image';
	tiles?: (unknown | undefined)[];
	objects?: TmxObject[];
}
interface TmxMap {
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	orientation: string;
	layers: TmxLayer[];
}
const tmx = createRequire(import.meta.url)('tmx-parser') as {
	parseFile(file: string, cb: (err: Error | null, map: TmxMap) => void): void;
};
const parseMap = (file: string) =>
	new Promise<TmxMap>((resolve, reject) => tmx.parseFile(file, (err, map) => (err ? reject(err) : resolve(map))));

const CAST = [
	'Latoya Williams', 'Rajiv Patel', 'Abigail Chen', 'Francisco Lopez', 'Hailey Johnson', 'Arthur Burton', 'Ryan Park',
	'Isabella Rodriguez', 'Giorgio Rossi', 'Carlos Gomez', 'Klaus Mueller', 'Maria Lopez', 'Ayesha Khan', 'Wolfgang Schulz',
	'Mei Lin', 'John Lin', 'Eddy Lin', 'Tom Moreno', 'Jane Moreno', 'Tamara Taylor', 'Carmen Ortiz', 'Sam Moore',
	'Jennifer Moore', 'Yuriko Yamamoto', 'Adam Smith'
];
const PERSONA_FIELDS = [
	'id', 'name', 'firstName', 'lastName', 'age', 'innate', 'learned', 'currently', 'lifestyle',
	'dailyPlanRequirement', 'home', 'spawn', 'knownPlaces', 'seedMemories'
];

interface Persona {
	id: string;
	name: string;
	age: number;
	lifestyle: string;
	home: string;
	spawn: string;
	knownPlaces: string[];
	seedMemories: string[];
	[k: string]: unknown;
}

interface Zones {
	map: TmxMap;
	sectors: TmxObject[];
	arenas: TmxObject[];
	objects: TmxObject[];
	spawns: TmxObject[];
	blocked: (x: number, y: number) => boolean;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
const within = (outer: TmxObject, inner: TmxObject) =>
	inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const pointIn = (r: TmxObject, x: number, y: number) => x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;

async function loadZones(world: string): Promise<Zones> {
	const map = await parseMap(path.join(WORLDS, world, `${world}.tmx`));
	const layer = (name: string) => {
		const l = map.layers.find((x) => x.name === name);
		if (!l) throw new Error(`${world}: no layer ${name}`);
		return l;
	};
	const collisions = layer('collisions').tiles ?? [];
	return {
		map,
		sectors: layer('sectors').objects ?? [],
		arenas: layer('arenas').objects ?? [],
		objects: layer('objects').objects ?? [],
		spawns: layer('spawns').objects ?? [],
		blocked: (x, y) => collisions[y * map.width + x] !== undefined
	};
}

function personas(world: string): Persona[] {
	const dir = path.join(WORLDS, world, 'personas');
	return fs
		.readdirSync(dir)
		.sort()
		.map((f) => readJson<Persona>(path.join(dir, f)));
}

/** The arena rectangles of a `Sector:Arena` address (an arena lies inside its sector). */
function arenaRects(z: Zones, address: string): TmxObject[] {
	const [sectorName, arenaName] = address.split(':');
	const sectors = z.sectors.filter((s) => s.name === sectorName);
	return z.arenas.filter((a) => a.name === arenaName && sectors.some((s) => within(s, a)));
}

function listFiles(dir: string): string[] {
	return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
		.sort();
}

describe('the generator', () => {
	let tmp = '';
	beforeAll(() => {
		tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'town-'));
	});
	afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

	it('reproduces the committed worlds byte for byte', () => {
		const written = generateWorlds(tmp);
		expect(written.length).toBeGreaterThan(30);
		for (const world of ['smallville', 'the-ville-3']) {
			expect(listFiles(path.join(tmp, world))).toEqual(listFiles(path.join(WORLDS, world)));
		}
		for (const rel of written) {
			const fresh = fs.readFileSync(path.join(tmp, rel));
			const committed = fs.readFileSync(path.join(WORLDS, rel));
			if (rel.endsWith('.png')) {
				// pixels, not bytes: the deflate stream may differ between zlib builds of Node
				const a = PNG.sync.read(fresh);
				const b = PNG.sync.read(committed);
				expect([a.width, a.height], rel).toEqual([b.width, b.height]);
				expect(a.data.equals(b.data), `${rel} differs from a fresh run of make-town`).toBe(true);
			} else {
				expect(fresh.equals(committed), `${rel} differs from a fresh run of make-town`).toBe(true);
			}
		}
	});
});

describe('Smallville', () => {
	let z: Zones;
	let cast: Persona[];
	beforeAll(async () => {
		z = await loadZones('smallville');
		cast = personas('smallville');
	});

	it('is the paper-sized orthogonal map with every layer', () => {
		expect([z.map.width, z.map.height, z.map.tileWidth, z.map.tileHeight, z.map.orientation]).toEqual([140, 100, 32, 32, 'orthogonal']);
		expect(z.map.layers.map((l) => l.name)).toEqual([
			'ground', 'floor', 'walls', 'furniture', 'decor', 'collisions', 'sectors', 'arenas', 'objects', 'spawns'
		]);
	});

	it('has unique layer and object ids below nextlayerid / nextobjectid', () => {
		const text = fs.readFileSync(path.join(WORLDS, 'smallville/smallville.tmx'), 'utf8');
		const layerIds = [...text.matchAll(/<(?:layer|objectgroup) id="(\d+)"/g)].map((m) => Number(m[1]));
		const objectIds = [...text.matchAll(/<object id="(\d+)"/g)].map((m) => Number(m[1]));
		expect(new Set(layerIds).size).toBe(layerIds.length);
		expect(new Set(objectIds).size).toBe(objectIds.length);
		expect(Number(/nextlayerid="(\d+)"/.exec(text)?.[1])).toBe(Math.max(...layerIds) + 1);
		expect(Number(/nextobjectid="(\d+)"/.exec(text)?.[1])).toBe(Math.max(...objectIds) + 1);
	});

	it('has the places of the paper and enough zones', () => {
		const sectorNames = new Set(z.sectors.map((s) => s.name));
		for (const s of [
			'Hobbs Cafe', 'The Willows Market and Pharmacy', 'Oak Hill College', 'Oak Hill College Dorm', 'Johnson Park',
			'Harvey Oak Supply Store', 'The Rose and Crown Pub', "Lin family's house", "Moreno family's house",
			"Moore family's house", "Adam Smith's house", "Yuriko Yamamoto's house", "Artist's co-living space",
			"Isabella's Apartment", 'Smallville Town Hall'
		]) {
			expect(sectorNames, s).toContain(s);
		}
		expect(sectorNames.size).toBeGreaterThanOrEqual(15);
		expect(z.arenas.length).toBeGreaterThanOrEqual(60);
		expect(new Set(z.objects.map((o) => `${o.x},${o.y},${o.name}`)).size).toBeGreaterThanOrEqual(200);
		for (const a of ['Hobbs Cafe:cafe', 'Hobbs Cafe:kitchen', 'Oak Hill College:library', "Oak Hill College Dorm:Klaus Mueller's room",
			"Oak Hill College Dorm:Wolfgang Schulz's room", "Oak Hill College Dorm:Maria Lopez's room", 'The Willows Market and Pharmacy:pharmacy',
			'Johnson Park:lake']) {
			expect(arenaRects(z, a).length, a).toBeGreaterThan(0);
		}
	});

	it('puts every arena inside a sector and every object inside an arena', () => {
		for (const a of z.arenas) expect(z.sectors.some((s) => within(s, a)), `arena ${a.name}`).toBe(true);
		for (const o of z.objects) expect(z.arenas.some((a) => within(a, o)), `object ${o.name}`).toBe(true);
	});

	it('has all 25 residents with the documented fields', () => {
		expect(cast.map((p) => p.name).sort()).toEqual([...CAST].sort());
		for (const p of cast) {
			expect(Object.keys(p), p.id).toEqual(PERSONA_FIELDS);
			expect(p.id).toBe(p.name.toLowerCase().replace(/ /g, '-'));
			expect(p.seedMemories.length, p.id).toBeGreaterThanOrEqual(5);
			expect(p.seedMemories.length, p.id).toBeLessThanOrEqual(10);
			expect(p.lifestyle, p.id).toMatch(/bed around .*wakes up around/);
			expect(p.age).toBeGreaterThan(17);
		}
	});

	it('gives every resident a home arena with their spawn on a walkable tile inside it', () => {
		const sectorNames = new Set(z.sectors.map((s) => s.name));
		for (const p of cast) {
			const home = arenaRects(z, p.home);
			expect(home.length, `${p.id} home ${p.home}`).toBeGreaterThan(0);
			const spawns = z.spawns.filter((s) => s.name === p.spawn);
			expect(spawns.length, `${p.id} spawn`).toBe(1);
			const tx = Math.floor(spawns[0].x / 32);
			const ty = Math.floor(spawns[0].y / 32);
			expect(z.blocked(tx, ty), `${p.id} spawn blocked`).toBe(false);
			expect(home.some((a) => pointIn(a, tx * 32, ty * 32)), `${p.id} spawn outside ${p.home}`).toBe(true);
			for (const place of p.knownPlaces) expect(sectorNames, `${p.id} knows ${place}`).toContain(place);
		}
	});

	it('starts with a sparse relationship network like the paper (density about 0.167)', () => {
		const mentions = (a: Persona, b: Persona) => a.seedMemories.some((m) => m.includes(b.name));
		let edges = 0;
		for (let i = 0; i < cast.length; i++) {
			for (let j = i + 1; j < cast.length; j++) if (mentions(cast[i], cast[j]) && mentions(cast[j], cast[i])) edges++;
		}
		const density = (2 * edges) / (cast.length * (cast.length - 1));
		expect(density).toBeGreaterThan(0.15);
		expect(density).toBeLessThan(0.19);
		const byId = new Map(cast.map((p) => [p.id, p]));
		const knows = (a: string, b: string) => mentions(byId.get(a)!, byId.get(b)!);
		expect(knows('maria-lopez', 'klaus-mueller')).toBe(true);
		expect(knows('klaus-mueller', 'wolfgang-schulz') && knows('wolfgang-schulz', 'klaus-mueller')).toBe(true);
		expect(knows('yuriko-yamamoto', 'adam-smith') && knows('adam-smith', 'yuriko-yamamoto')).toBe(true);
		expect(knows('sam-moore', 'latoya-williams')).toBe(false);
	});

	it('leaves the two scenario seeds to scenario.json', () => {
		const scenario = readJson<{ seeds: { id: string; agent: string; memory: string }[]; facts: { id: string; keywords: string[] }[] }>(
			path.join(WORLDS, 'smallville/scenario.json')
		);
		expect(scenario.seeds.map((s) => [s.id, s.agent])).toEqual([
			['valentines-party', 'isabella-rodriguez'],
			['mayor-election', 'sam-moore']
		]);
		expect(scenario.seeds[0].memory).toMatch(/February 14.*5pm to 7pm/);
		expect(scenario.facts.map((f) => f.id)).toEqual(['valentines-party', 'mayor-election']);
		for (const p of cast) {
			const text = JSON.stringify(p).toLowerCase();
			expect(text, p.id).not.toMatch(/mayor|valentine/);
		}
		const maria = cast.find((p) => p.id === 'maria-lopez')!;
		expect(maria.seedMemories.join(' ')).toMatch(/crush on Klaus Mueller/);
	});

	it('uses the documented world settings', () => {
		const world = readJson<Record<string, unknown>>(path.join(WORLDS, 'smallville/world.json'));
		expect(world).toMatchObject({
			name: 'Smallville',
			map: 'smallville.tmx',
			start: '2023-02-13T07:00:00',
			secondsPerStep: 10,
			defaults: { perception: { visionRadius: 8, attentionBandwidth: 8, retention: 8 } }
		});
	});
});

describe('The Ville (3 agents)', () => {
	it('is a small map with Isabella, Maria and Klaus at home', async () => {
		const z = await loadZones('the-ville-3');
		expect([z.map.width, z.map.height]).toEqual([40, 30]);
		const cast = personas('the-ville-3');
		expect(cast.map((p) => p.id)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
		const sectorNames = new Set(z.sectors.map((s) => s.name));
		for (const p of cast) {
			const spawn = z.spawns.find((s) => s.name === p.spawn)!;
			const tx = Math.floor(spawn.x / 32);
			const ty = Math.floor(spawn.y / 32);
			expect(z.blocked(tx, ty)).toBe(false);
			expect(arenaRects(z, p.home).some((a) => pointIn(a, tx * 32, ty * 32)), p.id).toBe(true);
			for (const place of p.knownPlaces) expect(sectorNames).toContain(place);
			// nobody remembers residents who do not live on this map
			for (const name of CAST.filter((n) => !cast.some((c) => c.name === n))) {
				expect(p.seedMemories.join(' ')).not.toContain(name);
			}
		}
		const scenario = readJson<{ seeds: { id: string }[] }>(path.join(WORLDS, 'the-ville-3/scenario.json'));
		expect(scenario.seeds.map((s) => s.id)).toEqual(['valentines-party']);
	});
});
