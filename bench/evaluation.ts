// The paper's end-to-end evaluation on two offline game days of Smallville (seed 1): how far the
// party and the election spread, how the relationship network grows, and who was invited to,
// planned and attended the party. The README's evaluation figures are this table.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluateRun } from '../src/lib/server/eval/metrics';
import { startRun } from '../src/lib/server/run/runner';

const pct = (x: number) => `${Math.round(x * 100)}%`;

export async function benchEvaluation() {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-evaluation-'));
	try {
		const steps = 2 * 8640;
		const run = await startRun({ world: 'smallville', steps, seed: 1, home });
		const t0 = performance.now();
		const r = await evaluateRun(run.run, { home });
		const ms = performance.now() - t0;
		const name = 'evaluation of two game days, Smallville (seed 1), offline';
		const rows = r.diffusion.map((d) => {
			const last = d.series[d.series.length - 1];
			return {
				bench: name,
				figure: `knew of "${d.fact.label}": start -> end (hallucinated yes at the end)`,
				value: `${d.start.knowers} (${pct(d.start.share)}) -> ${d.end.knowers} (${pct(d.end.share)}) (${last.hallucinated})`
			};
		});
		const [start, end] = [r.relationships.start, r.relationships.end];
		rows.push({ bench: name, figure: 'relationship density: start -> end (hallucinated answers at the end)', value: `${start.density.toFixed(3)} -> ${end.density.toFixed(3)} (${end.hallucinated})` });
		for (const e of r.events) {
			const c = e.counts;
			rows.push({ bench: name, figure: `"${e.label}": invited / planned it / attended (of them knowing of it)`, value: `${c.invited} / ${c.planned} / ${c.attended} (${c.attendedRightTimeAndPlace})` });
		}
		rows.push({ bench: name, figure: 'evaluation time', value: `${(ms / 1000).toFixed(1)} s (${r.timings.interviews.toLocaleString('en')} interviews)` });
		return rows;
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
