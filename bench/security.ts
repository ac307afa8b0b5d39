// Hostile input: the maps of src/lib/server/world/hostile.ts read and imported in a process of
// their own (time per map, peak memory), and a long fuzz run over every reader of outside data
// (src/lib/server/fuzz/fuzz.ts) with a fresh seed: inputs, slowest input, peak memory.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FUZZ_TARGETS } from '../src/lib/server/fuzz/fuzz';
import { writeHostileMaps, type HostileResult } from '../src/lib/server/world/hostile';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

/** Inputs per fuzz target in the long run (the unit tests run a few hundred in all). */
const LONG_RUNS: Record<string, number> = { xml: 5000, tmx: 2000, tsx: 1000, tmj: 1500, world: 1500, templates: 500 };

export async function benchSecurity(): Promise<Row[]> {
	const rows: Row[] = [];
	const root = mkdtempSync(path.join(tmpdir(), 'bench-security-'));
	try {
		const maps = writeHostileMaps(path.join(root, 'maps'));
		const worlds = path.join(root, 'worlds');
		mkdirSync(worlds);
		const script = path.join(root, 'run.mjs');
		const module = path.join(import.meta.dirname, '..', 'src', 'lib', 'server', 'world', 'hostile.ts');
		writeFileSync(
			script,
			`import { readHostileMaps } from ${JSON.stringify(module)};
const out = await readHostileMaps(JSON.parse(process.argv[2]), ${JSON.stringify(worlds)});
process.stdout.write(JSON.stringify(out));`
		);
		const r = spawnSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(maps)], { encoding: 'utf8', timeout: 120_000 });
		if (r.status !== 0) throw new Error(`the hostile maps run failed: ${r.stderr}`);
		const { results, maxRssMb } = JSON.parse(r.stdout) as { results: HostileResult[]; maxRssMb: number };
		const name = `hostile maps (${maps.length}), read and imported`;
		const refused = results.filter((x) => x.imported.refused && (x.read.refused || !maps[results.indexOf(x)].file.endsWith('.tmx'))).length;
		rows.push({ bench: name, figure: 'refused', value: `${refused} of ${results.length}` });
		const slowest = results.reduce((a, x) => (Math.max(x.read.ms, x.imported.ms) > Math.max(a.read.ms, a.imported.ms) ? x : a));
		rows.push({ bench: name, figure: 'slowest refusal', value: `${Math.max(slowest.read.ms, slowest.imported.ms).toFixed(0)} ms (${slowest.name})` });
		rows.push({ bench: name, figure: 'peak memory of the process', value: `${maxRssMb.toFixed(0)} MB` });

		for (const [target, run] of Object.entries(FUZZ_TARGETS)) {
			const seed = Date.now() ^ (Math.random() * 0x7fffffff);
			const t0 = performance.now();
			const rep = await run(LONG_RUNS[target], seed);
			const bench = `fuzz: ${rep.target}`;
			rows.push({ bench, figure: 'inputs (read / refused)', value: `${rep.inputs} (${rep.accepted} / ${rep.refused}), seed ${seed}` });
			rows.push({ bench, figure: 'slowest input / all', value: `${rep.slowestMs.toFixed(0)} ms / ${((performance.now() - t0) / 1000).toFixed(1)} s` });
			rows.push({ bench, figure: 'peak memory of the process', value: `${rep.maxRssMb.toFixed(0)} MB` });
		}
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
	return rows;
}
