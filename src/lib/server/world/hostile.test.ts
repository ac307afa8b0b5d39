// The hostile maps of issue 13 (src/lib/server/world/hostile.ts): zlib bombs and maps whose
// tilesets reach outside their folder. Each is refused by the world's reader and by the import,
// naming the reason, within a second, and the whole lot in a process that stays under 200 MB.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PathError } from '../files';
import { WorldError } from '../../world/problems';
import { checkWorld } from './check';
import { RequestError } from '../errors';
import { docOfBody, filesTheMapUses, resolveWorldFile } from './edit';
import { readJsonBody } from '../http';
import { mapXml, writeHostileMaps, type HostileResult } from './hostile';
import { importMap } from './import';
import { copyWorld, removeWorldCopies, TINY_WORLD_DIR } from './testing';

const root = mkdtempSync(path.join(tmpdir(), 'hostile-'));
afterAll(() => {
	rmSync(root, { recursive: true, force: true });
	removeWorldCopies();
});
const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('hostile maps', () => {
	it('are refused within a second each, naming why, in a process under 200 MB', () => {
		const maps = writeHostileMaps(path.join(root, 'maps'));
		expect(statSync(maps[0].file).size).toBeLessThan(135 * 1024);
		const worlds = path.join(root, 'worlds');
		mkdirSync(worlds);
		const script = path.join(root, 'run.mjs');
		writeFileSync(
			script,
			`import { readHostileMaps } from ${JSON.stringify(path.join(HERE, 'hostile.ts'))};
const maps = JSON.parse(process.argv[2]);
const out = await readHostileMaps(maps, ${JSON.stringify(worlds)});
process.stdout.write(JSON.stringify(out));`
		);
		const r = spawnSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(maps)], { encoding: 'utf8', timeout: 60_000 });
		expect(r.status, r.stderr).toBe(0);
		const { results, maxRssMb } = JSON.parse(r.stdout) as { results: HostileResult[]; maxRssMb: number };
		for (const [k, res] of results.entries()) {
			const m = maps[k];
			expect(res.imported.refused, `${m.name}: imported`).toBe(true);
			expect(res.imported.message, m.name).toMatch(m.refusal);
			expect(res.imported.ms, m.name).toBeLessThan(1000);
			if (m.file.endsWith('.tmx')) {
				expect(res.read.refused, `${m.name}: read`).toBe(true);
				expect(res.read.message, m.name).toMatch(m.refusal);
				expect(res.read.ms, m.name).toBeLessThan(1000);
			}
			expect(`${res.read.message}\n${res.imported.message}`).not.toMatch(/\n\s+at .*:\d+:\d+/);
		}
		expect(maxRssMb).toBeLessThan(200);
		// nothing was imported, not even half
		expect(readdirSync(worlds)).toEqual([]);
	});
});

describe('files a world map refers to', () => {
	it('must be regular files inside the world folder, images by their bytes', async () => {
		const { ProblemList } = await import('../../world/problems');
		const { readMap } = await import('./tmx');
		const dir = path.join(root, 'fifo');
		mkdirSync(dir);
		spawnSync('mkfifo', [path.join(dir, 'pipe.png')]);
		expect(existsSync(path.join(dir, 'pipe.png'))).toBe(true);
		const { mapXml } = await import('./hostile');
		writeFileSync(path.join(dir, 'pipe.tmx'), mapXml(1, 1, ' <layer id="1" name="g" width="1" height="1"><data encoding="csv">0</data></layer>', 'pipe.png'));
		const problems = new ProblemList();
		const t = performance.now();
		expect(await readMap(path.join(dir, 'pipe.tmx'), dir, problems)).toBeUndefined();
		expect(performance.now() - t).toBeLessThan(1000);
		expect(problems.errors.map((p) => p.message)).toEqual(['tileset "t": image "pipe.png" is not a regular file']);
	});
});

describe('a tileset file', () => {
	it('that points to another tileset is refused, naming the file (tmx-parser would follow it and crash the process)', async () => {
		const { ProblemList } = await import('../../world/problems');
		const { readMap } = await import('./tmx');
		const dir = copyWorld();
		const tsx = path.join(dir, 'tilesets', 'tiny.tsx');
		writeFileSync(tsx, readFileSync(tsx, 'utf8').replace('<tileset ', '<tileset source="../../../../etc/passwd" '));
		const problems = new ProblemList();
		expect(await readMap(path.join(dir, 'tiny.tmx'), dir, problems)).toBeUndefined();
		expect(problems.errors.map((p) => `${p.file}: ${p.message}`)).toEqual([
			'tilesets/tiny.tsx: the tileset points to another tileset (source="../../../../etc/passwd"); a .tsx file must hold the tileset itself'
		]);
	});
});

describe('the asset route', () => {
	it('serves only the files the map uses: its tilesets and their images', async () => {
		const tiny = copyWorld();
		const worlds = path.dirname(tiny);
		writeFileSync(path.join(tiny, 'notes.png'), 'not used by the map');
		expect([...(await filesTheMapUses(tiny))].map((f) => path.relative(tiny, f)).sort()).toEqual(['tilesets/tiny.png', 'tilesets/tiny.tsx']);
		expect(await resolveWorldFile(worlds, 'tiny', 'tilesets/tiny.png')).toBe(path.join(tiny, 'tilesets', 'tiny.png'));
		for (const p of ['world.json', 'personas/alice-chen.json', 'scenario.json', 'tiny.tmx', 'notes.png']) {
			const err = await resolveWorldFile(worlds, 'tiny', p).catch((e: unknown) => e);
			expect(err, p).toBeInstanceOf(PathError);
			expect((err as PathError).status, p).toBe(404);
		}
	});
});

describe('the import', () => {
	const src = () => {
		const d = mkdtempSync(path.join(root, 'src-'));
		writeFileSync(path.join(d, 'tiles.png'), readFileSync(path.join(TINY_WORLD_DIR, 'tilesets', 'tiny.png')));
		return d;
	};
	const layer = ' <layer id="1" name="ground" width="2" height="2"><data encoding="csv">1,1,1,1</data></layer>';
	const problemsOf = async (p: Promise<unknown>) => {
		const e = await p.then(() => undefined, (x: unknown) => x);
		expect(e).toBeInstanceOf(WorldError);
		return (e as WorldError).problems.map((q) => `${q.file}${q.where ? ` (${q.where})` : ''}: ${q.message}`);
	};

	it('refuses an image layer whose picture lies outside its folder, naming the reference', async () => {
		const d = src();
		writeFileSync(path.join(d, 'sky.tmx'), mapXml(2, 2, `${layer}\n <imagelayer id="2" name="sky"><image source="../../../../etc/passwd"/></imagelayer>`));
		const worlds = mkdtempSync(path.join(root, 'worlds-'));
		expect(await problemsOf(importMap(path.join(d, 'sky.tmx'), { name: 'sky', worldsDir: worlds }))).toEqual([
			`sky.tmx (line 7): image layer "sky": image "../../../../etc/passwd" lies outside the folder the map is imported from (${d})`
		]);
		expect(readdirSync(worlds)).toEqual([]);
	});

	it('refuses a .tmj whose tileset file lies outside its folder', async () => {
		const d = src();
		const worlds = mkdtempSync(path.join(root, 'worlds-'));
		const map = { type: 'map', orientation: 'orthogonal', width: 2, height: 2, tilewidth: 32, tileheight: 32, layers: [], tilesets: [{ firstgid: 1, source: '../elsewhere/tiles.tsj' }] };
		writeFileSync(path.join(d, 'far.tmj'), JSON.stringify(map, null, 1));
		expect(await problemsOf(importMap(path.join(d, 'far.tmj'), { name: 'far', worldsDir: worlds }))).toEqual([
			`far.tmj (line 12): tileset "../elsewhere/tiles.tsj" lies outside the folder the map is imported from (${d})`
		]);
	});

	it('refuses a .tmj too large for the tile limit before decoding its layers', async () => {
		const d = src();
		const worlds = mkdtempSync(path.join(root, 'worlds-'));
		const big = { type: 'map', orientation: 'orthogonal', width: 3000, height: 3000, tilewidth: 32, tileheight: 32, tilesets: [], layers: [{ id: 1, name: 'g', type: 'tilelayer', encoding: 'base64', compression: 'zlib', data: 'eJw=' }] };
		writeFileSync(path.join(d, 'big.tmj'), JSON.stringify(big));
		expect(await problemsOf(importMap(path.join(d, 'big.tmj'), { name: 'big', worldsDir: worlds }))).toEqual([
			'big.tmj: the map is 3000x3000 tiles, 9,000,000 tiles in all, more than the 4,000,000 allowed (SIMULACRA_MAX_TILES)'
		]);
	});
});

describe('the world checks', () => {
	it('call a zone off the map off the map, whatever its alignment', async () => {
		const tiny = copyWorld({ 'tiny.tmx': (t) => t.replace('name="lawn" x="256" y="160" width="128"', 'name="lawn" x="100000.5" y="160" width="128"') });
		const r = await checkWorld(tiny);
		expect(r.errors.map((e) => e.message)).toContain('the rectangle (tiles 3125..3129, 5..9) lies outside the 12x10 map');
		expect(r.errors.map((e) => e.message).join('\n')).not.toMatch(/tile boundaries/);
	});

	it('refuse a map sent by the editor over the tile limit, counting every tile layer', () => {
		const layer = (id: number) => ({ id, name: `l${id}`, visible: true, opacity: 1, attrs: {}, properties: [], kind: 'tile', encoding: 'csv', data: [] });
		const doc = { file: 'm.tmx', width: 1000, height: 1000, tileWidth: 32, tileHeight: 32, nextLayerId: 9, nextObjectId: 1, attrs: {}, properties: [], extra: [], tilesets: [], layers: [1, 2, 3, 4, 5].map(layer) };
		const err = (() => {
			try {
				docOfBody({ doc });
			} catch (e) {
				return e;
			}
		})();
		expect(err).toBeInstanceOf(RequestError);
		expect((err as RequestError).message).toBe(
			'the map sent is too large: the map is 1000x1000 tiles with 5 tile layers, 5,000,000 tiles in all, more than the 4,000,000 allowed (SIMULACRA_MAX_TILES)'
		);
	});
});

describe('request bodies read by the world routes', () => {
	const failing = (reason: unknown) =>
		new Request('http://127.0.0.1/', {
			method: 'PUT',
			body: new ReadableStream({ pull: (c) => c.error(reason) }),
			duplex: 'half'
		} as RequestInit);
	it("answer 413 when the server's size limit ends the stream, 400 when it breaks, never a failure", async () => {
		const tooLarge = await readJsonBody(failing(Object.assign(new Error('Payload Too Large'), { status: 413 })), { limit: 1024 }).catch((e: unknown) => e);
		expect([(tooLarge as RequestError).status, (tooLarge as RequestError).message]).toEqual([413, 'the request body is larger than 1024 bytes']);
		const broken = await readJsonBody(failing(new Error('aborted'))).catch((e: unknown) => e);
		expect([(broken as RequestError).status, (broken as RequestError).message]).toEqual([400, 'the request body could not be read']);
	});
});
