// Re-scoring a recorded run from disk: its lineage's retrieval traces, its memory store and the
// query embeddings (from the run's model, which answers recorded embeddings from its cache).

import { timeAtStep } from '../../engine/clock';
import { MemoryStream, type MemoryRecord } from '../../engine/memory';
import { MemoryStore } from '../memory/lance-store';
import { dataHome } from '../paths';
import { createModel, type ModelChoice } from '../run/models';
import { openRun, runWorld } from '../run/runner';
import { findAgent, lineageTraces, type TraceEntry } from '../run/traces';
import { rescore } from './core';
import type { RescoreReport } from '../../api/rescore';
import type { Grid } from './grid';

export interface RescoreOptions {
	grid: Grid;
	home?: string;
	/** only this agent's retrievals (id or full name) */
	agent?: string;
	/** only retrievals of this purpose */
	purpose?: string;
	/** only retrievals at steps from..to (inclusive) */
	from?: number;
	to?: number;
	/** memories listed per cell as entering / leaving (default 10) */
	top?: number;
}

const EMBED_BATCH = 256;

/** Every recorded retrieval of a run re-scored under each cell of the grid. */
export async function rescoreRun(id: string, opts: RescoreOptions): Promise<RescoreReport> {
	const home = opts.home ?? dataHome();
	const t0 = performance.now();
	const reader = openRun(id, home);
	const world = await runWorld(reader);
	const agent = opts.agent ? findAgent(id, opts.agent, home) : undefined;
	const traces = lineageTraces(id, home);
	const counted = (t: TraceEntry) =>
		(agent === undefined || t.agent === agent) &&
		(opts.purpose === undefined || t.purpose === opts.purpose) &&
		(opts.from === undefined || t.step >= opts.from) &&
		(opts.to === undefined || t.step <= opts.to);
	const wanted = traces.filter(counted);
	const agents = new Set(wanted.map((t) => t.agent));

	const streams = new Map<string, MemoryStream>();
	if (wanted.length > 0) {
		const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
		let records: MemoryRecord[];
		try {
			records = await store.load(agent ? { agent } : {});
		} finally {
			store.close();
		}
		const byAgent = new Map<string, MemoryRecord[]>();
		for (const m of records) {
			if (!agents.has(m.agent)) continue;
			let list = byAgent.get(m.agent);
			if (!list) byAgent.set(m.agent, (list = []));
			list.push(m);
		}
		for (const [a, list] of byAgent) {
			const stream = new MemoryStream(a, reader.meta.dimensions, Math.max(1, list.length));
			// a stream is its memories in index order with none missing; stop at a gap
			for (const m of list) {
				if (m.index !== stream.size) break;
				stream.add(m);
			}
			streams.set(a, stream);
		}
	}
	const t1 = performance.now();

	const texts = [...new Set(wanted.map((t) => t.query))];
	const vectors = new Map<string, Float32Array>();
	if (texts.length > 0) {
		const model = await createModel(reader.meta.model.provider as ModelChoice, { home });
		try {
			for (let i = 0; i < texts.length; i += EMBED_BATCH) {
				const batch = texts.slice(i, i + EMBED_BATCH);
				const out = await model.embed(batch);
				batch.forEach((q, j) => vectors.set(q, out[j]));
			}
		} finally {
			model.close();
		}
	}
	const t2 = performance.now();

	const result = rescore({
		traces: traces.filter((t) => agents.has(t.agent)),
		counted: (t) => counted(t as TraceEntry),
		streams,
		stepTime: (step) => timeAtStep(world.start, world.secondsPerStep, step),
		query: (t) => vectors.get((t as TraceEntry).query) as Float32Array,
		grid: opts.grid,
		top: opts.top
	});
	const t3 = performance.now();
	return {
		run: id,
		...result,
		agents: [...agents].sort(),
		purposes: [...new Set(wanted.map((t) => t.purpose))].sort(),
		ms: { load: Math.round(t1 - t0), embed: Math.round(t2 - t1), score: Math.round(t3 - t2) }
	};
}
