// The hostile maps of issue 13 (src/lib/server/world/hostile.ts): zlib bombs and maps whose
// tilesets reach outside their folder. Each is refused by the world's reader and by the import,
// naming the reason, within a second, and the whole lot in a process that stays under 200 MB.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHostileMaps, type HostileResult } from './hostile';

const root = mkdtempSync(path.join(tmpdir(), 'hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
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
