import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorld, resolveWorldDir, WorldError, type LoadedWorld } from './load';
import { projectRoot } from '../paths';
import { copyWorld, removeWorldCopies, TINY_WORLD_DIR, writeTownSizedWorld } from './testing';

afterAll(removeWorldCopies);

const W = 12;
const tile = (x: number, y: number) => y * W + x;

describe('loadWorld on the tiny fixture', () => {
	let world: LoadedWorld;

	it('builds the world definition', async () => {
		world = await loadWorld(TINY_WORLD_DIR);
		const { def } = world;
		expect(def).toMatchObject({ id: 'tiny', name: 'Tiny Town', width: 12, height: 10, tileWidth: 32, tileHeight: 32 });
		expect(def.start).toBe(Date.UTC(2023, 1, 13, 7, 0, 0));
		expect(def.secondsPerStep).toBe(10);
		// defaults merged over DEFAULT_SETTINGS
		expect(def.settings.perception).toEqual({ visionRadius: 4, attentionBandwidth: 8, retention: 8, reactionMinutes: 0 });
		expect(def.settings.importance).toEqual({ waitMinutes: 0, perCall: 0, mundane: 0 });
		expect(def.settings.retrieval.weights).toEqual({ recency: 1, importance: 1, relevance: 2 });
		expect(def.settings.retrieval.decay).toBe(0.995);
		expect(world.warnings).toEqual([]);
	});

	it('reads collisions row-major', () => {
		const { collision } = world.def;
		expect(collision.length).toBe(120);
		expect(collision[tile(0, 0)]).toBe(1); // wall
		expect(collision[tile(1, 1)]).toBe(1); // stove
		expect(collision[tile(2, 1)]).toBe(0);
		expect(collision[tile(7, 2)]).toBe(0); // door to the garden
		expect(collision[tile(3, 4)]).toBe(0); // door between kitchen and bedroom
		expect(collision.reduce((n, c) => n + (c ? 0 : 1), 0)).toBe(81);
	});

	it('builds the environment tree with addresses, tiles, walkable and access tiles', () => {
		const [cottage, garden] = world.def.sectors;
		expect(cottage).toMatchObject({ name: 'Cottage', kind: 'house' });
		expect(garden).toMatchObject({ name: 'Garden', kind: 'park' });
		expect(cottage.tiles.length).toBe(80);
		expect(cottage.arenas.map((a) => a.address)).toEqual(['Cottage:kitchen', 'Cottage:bedroom']);
		const kitchen = cottage.arenas[0];
		expect(kitchen.tiles.length).toBe(40);
		expect(kitchen.walkable).toContain(tile(3, 4));
		expect(kitchen.walkable).not.toContain(tile(1, 1));
		const stove = kitchen.objects[0];
		expect(stove).toEqual({
			name: 'stove',
			address: 'Cottage:kitchen:stove',
			defaultState: 'off',
			tiles: [tile(1, 1)],
			access: [tile(2, 1), tile(1, 2)]
		});
		const bed = cottage.arenas[1].objects.find((o) => o.name === 'bed')!;
		expect(bed.defaultState).toBe('idle');
		expect(bed.access).toEqual([tile(1, 5), tile(2, 6), tile(2, 7), tile(1, 8)]);
		// two touching rectangles named "lawn" form one arena
		expect(garden.arenas.length).toBe(1);
		expect(garden.arenas[0].tiles.length).toBe(40);
		expect(world.map.zones.find((z) => z.address === 'Garden:lawn')?.rects).toEqual([
			{ x: 8, y: 0, w: 4, h: 5 },
			{ x: 8, y: 5, w: 4, h: 5 }
		]);
	});

	it("keeps access tiles inside the object's arena", () => {
		const kitchen = world.def.sectors[0].arenas[0];
		for (const o of kitchen.objects) for (const t of o.access) expect(kitchen.tiles).toContain(t);
	});

	it('reads spawns, personas and the scenario', () => {
		const { def } = world;
		expect(def.spawns).toEqual({ alice: { x: 2, y: 6 }, bob: { x: 9, y: 3 } });
		expect(def.personas.map((p) => p.id)).toEqual(['alice-chen', 'bob-diaz']);
		expect(def.personas[0].perception).toEqual({ visionRadius: 6 });
		expect(def.personas[1]).not.toHaveProperty('perception');
		expect(def.seeds).toEqual([
			{ id: 'picnic', agent: 'alice-chen', memory: 'Alice is planning a picnic in the garden on Sunday at noon' }
		]);
		expect(def.facts[0].keywords).toEqual(['picnic']);
	});

	it('builds the map view', () => {
		const { map } = world;
		expect(map.layers.map((l) => [l.name, l.visible, l.opacity])).toEqual([
			['ground', true, 1],
			['walls', true, 1],
			['collisions', false, 0.5]
		]);
		expect(map.layers[1].data[tile(0, 0)]).toBe(2);
		expect(map.layers[1].data[tile(8, 0)]).toBe(0);
		expect(map.layers[0].flips).toBeUndefined();
		expect(map.tilesets).toEqual([
			{
				name: 'tiny',
				firstGid: 1,
				image: 'tilesets/tiny.png',
				imageWidth: 64,
				imageHeight: 32,
				tileWidth: 32,
				tileHeight: 32,
				columns: 2,
				tileCount: 2,
				margin: 0,
				spacing: 0
			}
		]);
		expect(map.spawns).toEqual([
			{ name: 'alice', x: 2, y: 6 },
			{ name: 'bob', x: 9, y: 3 }
		]);
		expect(map.zones.filter((z) => z.kind === 'object').map((z) => z.address)).toEqual([
			'Cottage:kitchen:stove',
			'Cottage:kitchen:table',
			'Cottage:bedroom:bed',
			'Cottage:bedroom:desk',
			'Garden:lawn:bench'
		]);
		// the view is plain data
		expect(JSON.parse(JSON.stringify(map))).toEqual(map);
	});
});

describe('world names and paths', () => {
	it('finds the project root', () => {
		expect(path.basename(projectRoot())).not.toBe('world');
		expect(resolveWorldDir('smallville')).toBe(path.join(projectRoot(), 'worlds', 'smallville'));
	});

	it('accepts a bare name with worldsDir, a folder path and a world.json path', async () => {
		const byName = await loadWorld('tiny', { worldsDir: path.dirname(TINY_WORLD_DIR) });
		const byFolder = await loadWorld(path.relative(process.cwd(), TINY_WORLD_DIR));
		const byManifest = await loadWorld(path.join(TINY_WORLD_DIR, 'world.json'));
		expect(byName.dir).toBe(TINY_WORLD_DIR);
		expect(byFolder.dir).toBe(TINY_WORLD_DIR);
		expect(byManifest.dir).toBe(TINY_WORLD_DIR);
		expect(byName.def.sectors).toEqual(byManifest.def.sectors);
	});

	it('throws a WorldError listing the problems', async () => {
		const dir = copyWorld({ 'world.json': (t) => t.replace('"secondsPerStep": 10', '"secondsPerStep": -1') });
		const err = await loadWorld(dir).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(WorldError);
		const problems = (err as WorldError).problems;
		expect(problems).toEqual([
			{
				file: 'world.json',
				where: 'line 5',
				message: '"secondsPerStep" must be a positive whole number, not -1',
				at: { kind: 'settings', field: 'secondsPerStep' }
			}
		]);
		expect((err as Error).message).toContain('world.json (line 5): "secondsPerStep" must be a positive whole number');
	});
});

// ---------------------------------------------------------------------------------------------
// tile layer encodings

function csvLayers(tmx: string): number[][] {
	return [...tmx.matchAll(/<data encoding="csv">([^<]*)<\/data>/g)].map((m) => m[1].split(',').map((s) => Number(s.trim())));
}

function reencode(tmx: string, encode: (gids: number[]) => string): string {
	return tmx.replace(/<data encoding="csv">([^<]*)<\/data>/g, (_m, csv: string) =>
		encode(csv.split(',').map((s) => Number(s.trim())))
	);
}

const bytes = (gids: number[]) => {
	const b = Buffer.alloc(gids.length * 4);
	gids.forEach((g, k) => b.writeUInt32LE(g, k * 4));
	return b;
};

describe('tile layer encodings', () => {
	const encodings: Record<string, (gids: number[]) => string> = {
		'base64 zlib': (g) => `<data encoding="base64" compression="zlib">\n   ${zlib.deflateSync(bytes(g)).toString('base64')}\n  </data>`,
		'base64 gzip': (g) => `<data encoding="base64" compression="gzip">\n   ${zlib.gzipSync(bytes(g)).toString('base64')}\n  </data>`,
		'base64 uncompressed': (g) => `<data encoding="base64">\n   ${bytes(g).toString('base64')}\n  </data>`,
		'XML <tile> elements': (g) => `<data>\n${g.map((x) => (x ? `   <tile gid="${x}"/>` : '   <tile/>')).join('\n')}\n  </data>`
	};

	for (const [label, encode] of Object.entries(encodings)) {
		it(`loads ${label} layers exactly like CSV`, async () => {
			const csv = await loadWorld(TINY_WORLD_DIR);
			const dir = copyWorld({ 'tiny.tmx': (t) => reencode(t, encode) });
			const other = await loadWorld(dir);
			expect(other.map.layers).toEqual(csv.map.layers);
			expect(other.def.collision).toEqual(csv.def.collision);
			expect(other.def.sectors).toEqual(csv.def.sectors);
		});
	}

	it('reads a tileset embedded in the map like an external one', async () => {
		const external = await loadWorld(TINY_WORLD_DIR);
		const dir = copyWorld({
			'tiny.tmx': (t) =>
				t.replace(
					'<tileset firstgid="1" source="tilesets/tiny.tsx"/>',
					'<tileset firstgid="1" name="tiny" tilewidth="32" tileheight="32" tilecount="2" columns="2">\n  <image source="tilesets/tiny.png" width="64" height="32"/>\n </tileset>'
				),
			'tilesets/tiny.tsx': null
		});
		const embedded = await loadWorld(dir);
		expect(embedded.map.tilesets).toEqual(external.map.tilesets);
		expect(embedded.map.layers).toEqual(external.map.layers);
	});

	it('accepts flipped tiles and reports the flip flags separately', async () => {
		const dir = copyWorld({
			'tiny.tmx': (t) => {
				let n = 0;
				// the first wall tile of the "walls" layer (its data is the second CSV block)
				return t.replace(/<data encoding="csv">\n2,/g, (m) => (n++ === 0 ? `<data encoding="csv">\n${(2 | 0x80000000) >>> 0},` : m));
			}
		});
		const w = await loadWorld(dir);
		const walls = w.map.layers[1];
		expect(walls.data[0]).toBe(2);
		expect(walls.flips?.[0]).toBe(1);
		expect(walls.flips?.[1]).toBe(0);
		expect(csvLayers(readFileSync(path.join(dir, 'tiny.tmx'), 'utf8'))[1][0]).toBe(2147483650);
	});
});

describe('a town-sized map', () => {
	it('loads 140x100 tiles with ten layers, reading large CSV blocks intact', async () => {
		const dir = writeTownSizedWorld(path.join(path.dirname(copyWorld()), 'big'));
		const w = await loadWorld(dir);
		expect(w.warnings.map((p) => p.message)).toEqual(['the personas folder holds no .json files']);
		expect(w.map.layers.length).toBe(10);
		const v3 = w.map.layers[3].data;
		expect(v3.length).toBe(14000);
		for (let y = 0; y < 100; y += 7) for (let x = 0; x < 140; x += 3) expect(v3[y * 140 + x]).toBe(1000 + ((x + y + 3) % 200));
		expect(w.def.sectors.length).toBe(25);
		expect(w.def.sectors.reduce((n, s) => n + s.arenas.reduce((m, a) => m + a.objects.length, 0), 0)).toBe(300);
	});
});
