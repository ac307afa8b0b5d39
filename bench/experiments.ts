// Experiment wall time with 1 and with 2 worker processes: the same experiment (the-ville-3,
// offline, 2 arms x 4 replicates of 360 steps, every metric) in a fresh data home each time.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseExperiment } from '../src/lib/server/experiments/definition';
import { runExperiment } from '../src/lib/server/experiments/pool';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

export async function benchExperiments(): Promise<Row[]> {
	const def = parseExperiment(
		{ name: 'bench', world: 'the-ville-3', steps: 360, replicates: 4, seeds: 'distinct', arms: [{ name: 'A' }, { name: 'B', set: ['retrieval.weights.relevance=3'] }] },
		'bench.json'
	);
	const name = 'experiment: the-ville-3, 2 arms x 4 replicates x 360 steps, offline, every metric';
	const rows: Row[] = [];
	const times: number[] = [];
	for (const workers of [1, 2]) {
		const home = mkdtempSync(path.join(tmpdir(), 'bench-exp-'));
		try {
			const r = await runExperiment(def, { home, workers });
			times.push(r.wallMs);
			rows.push({ bench: name, figure: `wall time, ${workers} worker${workers === 1 ? '' : 's'}`, value: `${(r.wallMs / 1000).toFixed(1)} s (${r.ran} runs)` });
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	}
	rows.push({ bench: name, figure: 'speed-up, 2 workers', value: `${(times[0] / times[1]).toFixed(2)}x` });
	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	for (const r of await benchExperiments()) console.log(`| ${r.bench} | ${r.figure} | ${r.value} |`);
}
