// Weights without the model: every recorded retrieval of a one-day Smallville run (25 agents,
// 8,640 steps, offline) re-scored under 50 weightings, from disk (traces, memories, query
// embeddings) to the counts.
//
//   npx tsx bench/rescore.ts   (prints the rows)

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { weightProduct } from '../src/lib/server/rescore/grid';
import { rescoreRun } from '../src/lib/server/rescore/run';
import { dayRuns } from './day-runs';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

/** 50 weightings: recency 0-2 (5 values) x importance 0-2 (5) x relevance 1 or 3. */
export const FIFTY = weightProduct([0, 0.5, 1, 1.5, 2], [0, 0.5, 1, 1.5, 2], [1, 3]);

export async function benchRescore(): Promise<Row[]> {
	const { home, base } = await dayRuns();
	const name = 'weights without the model: a one-day Smallville run (25 agents, 8,640 steps) re-scored under 50 weightings';
	const first = await rescoreRun(base, { home, grid: { weights: FIFTY, decays: [null] } });
	const times: number[] = [];
	const cpus: number[] = [];
	let last = first;
	for (let i = 0; i < 3; i++) {
		const t0 = performance.now();
		const c0 = process.cpuUsage();
		last = await rescoreRun(base, { home, grid: { weights: FIFTY, decays: [null] } });
		const c = process.cpuUsage(c0);
		times.push(performance.now() - t0);
		cpus.push((c.user + c.system) / 1000);
	}
	times.sort((a, b) => a - b);
	cpus.sort((a, b) => a - b);
	const own = await rescoreRun(base, { home, grid: { weights: [null, { recency: 1, importance: 1, relevance: 1 }], decays: [null] } });
	const changed = last.cells.map((c) => c.changed / Math.max(1, c.retrievals));
	const ms = last.ms;
	return [
		{ bench: name, figure: 'retrievals, with the run\'s own weights changed / rebuilt differently', value: `${last.retrievals.toLocaleString('en')}, ${own.cells.map((c) => c.changed).join(' and ')} / ${own.mismatched}` },
		{ bench: name, figure: 'wall time, median of 3 (first in the process)', value: `${(times[1] / 1000).toFixed(2)} s (${((first.ms.load + first.ms.embed + first.ms.score) / 1000).toFixed(2)} s)` },
		{ bench: name, figure: 'CPU time of the process (all threads), median of 3', value: `${(cpus[1] / 1000).toFixed(2)} s` },
		{ bench: name, figure: 'of which reading traces and memories / embedding queries / scoring', value: `${ms.load} / ${ms.embed} / ${ms.score} ms` },
		{ bench: name, figure: 'retrieval re-scorings per second (retrievals x weightings / scoring time)', value: Math.round((last.retrievals * FIFTY.length) / (ms.score / 1000)).toLocaleString('en') },
		{ bench: name, figure: 'share of retrievals whose top k changes, least / median / most over the grid', value: [Math.min(...changed), [...changed].sort((a, b) => a - b)[25], Math.max(...changed)].map((f) => `${(f * 100).toFixed(1)}%`).join(' / ') }
	];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	for (const r of await benchRescore()) console.log(`| ${r.bench} | ${r.figure} | ${r.value} |`);
	process.exit(0);
}
