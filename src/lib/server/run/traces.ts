// Retrieval traces of a run and their full score tables, rebuilt on demand from the journal:
// the memories as they were (the first `streamSize` of the agent's stream), their last-access
// times at that moment (creation, or the latest earlier retrieval that returned them) and the
// query's embedding.

import { MemoryStream, topK, type MemoryRecord } from '../../engine/memory';
import type { RetrievalTrace } from '../../engine/state';
import { MemoryStore } from '../memory/lance-store';
import { dataHome } from '../paths';
import { AccessReplay } from './access';
import { timeAtStep } from '../../engine/clock';
import { createModel, type ModelChoice } from './models';
import { runWorld } from './runner';
import { openRun, runLineage } from '../store/store';
import type { RetrievalTable, TraceSummary } from '../../api/traces';
import { ConflictError, NotFoundError } from '../errors';

/** A retrieval that saw memories its run has not stored yet (they are stored with each snapshot; a live run stores them on asking). */
export class MemoriesNotStoredError extends ConflictError {
	constructor(
		readonly run: string,
		agent: string
	) {
		super(`run ${run} has not stored the memories of ${agent} this retrieval saw yet (resume the run, or wait for its next snapshot)`);
		this.name = 'MemoriesNotStoredError';
	}
}

export type TraceEntry = RetrievalTrace & { run: string };

/** Every trace of a run's lineage: its ancestors' up to each fork step, then its own. */
export function lineageTraces(id: string, home = dataHome()): TraceEntry[] {
	return runLineage(id, { home }).flatMap((span) =>
		openRun(span.run, home)
			.traces()
			.filter((t) => span.run === id || t.step < span.to)
			.map(({ s: _s, ...t }) => ({ ...t, run: span.run }))
	);
}

/** An agent id from an id or a full name (any case), as the run's first snapshot lists them. */
export function findAgent(id: string, agent: string, home = dataHome()): string {
	const reader = openRun(id, home);
	const first = reader.snapshotSteps()[0];
	const agents = first === undefined ? [] : reader.snapshot(first).state.agents;
	const wanted = agent.toLowerCase();
	const found = agents.find((a) => a.id === wanted || a.name.toLowerCase() === wanted);
	if (!found) throw new NotFoundError(`run ${id} has no agent "${agent}" (agents: ${agents.map((a) => a.id).join(', ')})`);
	return found.id;
}

export function listRetrievals(id: string, opts: { agent?: string; step?: number; home?: string } = {}): TraceSummary[] {
	const home = opts.home ?? dataHome();
	const agent = opts.agent ? findAgent(id, opts.agent, home) : undefined;
	return lineageTraces(id, home)
		.filter((t) => (agent === undefined || t.agent === agent) && (opts.step === undefined || t.step === opts.step))
		.map((t) => ({
			id: t.id,
			run: t.run,
			agent: t.agent,
			step: t.step,
			time: t.time,
			purpose: t.purpose,
			query: t.query,
			candidates: t.streamSize,
			selected: t.selected
		}));
}

/** The full score table of one retrieval, recomputed with the paper's formula. */
export async function retrievalTable(
	id: string,
	traceId: string,
	opts: { home?: string; weights?: RetrievalTrace['weights'] } = {}
): Promise<RetrievalTable> {
	const home = opts.home ?? dataHome();
	const traces = lineageTraces(id, home);
	const at = traces.findIndex((t) => t.id === traceId);
	if (at < 0) throw new NotFoundError(`run ${id} has no retrieval "${traceId}"`);
	const trace = traces[at];
	// the trace's own run holds the memories it saw (a fork's store has its inherited ones)
	const reader = openRun(trace.run, home);
	const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
	let memories: MemoryRecord[];
	try {
		memories = await store.load({ agent: trace.agent, maxIndexByAgent: { [trace.agent]: trace.streamSize - 1 } });
	} finally {
		store.close();
	}
	const stream = new MemoryStream(trace.agent, reader.meta.dimensions, Math.max(1, memories.length));
	for (const m of memories) stream.add(m);
	if (stream.size !== trace.streamSize) throw new MemoriesNotStoredError(trace.run, trace.agent);
	const world = await runWorld(reader);
	const access = new AccessReplay(
		(agent) => (agent === trace.agent ? memories.map((m) => m.created) : undefined),
		(step) => timeAtStep(world.start, world.secondsPerStep, step)
	);
	for (const earlier of traces.slice(0, at)) {
		if (earlier.agent !== trace.agent) continue;
		access.before(earlier);
		access.after(earlier);
	}
	const lastAccess = access.before(trace) as Float64Array;
	const candidates = memories.filter((m) => !trace.kinds || trace.kinds.includes(m.kind)).map((m) => m.index);
	const model = await createModel(reader.meta.model.provider as ModelChoice, { home });
	let query: Float32Array;
	try {
		[query] = await model.embed([trace.query]);
	} finally {
		model.close();
	}
	const weights = opts.weights ?? trace.weights;
	const rows = stream.score(query, trace.time, { weights, decay: trace.decay }, candidates, (i) => lastAccess[i]);
	const picked = topK(rows, trace.k);
	const rank = new Map(picked.map((p, r) => [p, r + 1]));
	const selected = picked.map((p) => rows[p].id);
	return {
		id: trace.id,
		run: trace.run,
		agent: trace.agent,
		step: trace.step,
		time: trace.time,
		purpose: trace.purpose,
		query: trace.query,
		weights,
		decay: trace.decay,
		k: trace.k,
		candidates: rows.map((r, p) => {
			const m = stream.records[r.index];
			return {
				id: r.id,
				kind: m.kind,
				description: m.description,
				created: m.created,
				lastAccess: lastAccess[r.index],
				recency: r.recency,
				importance: r.importance,
				relevance: r.relevance,
				recencyNorm: r.recencyNorm,
				importanceNorm: r.importanceNorm,
				relevanceNorm: r.relevanceNorm,
				score: r.score,
				rank: rank.get(p) ?? 0
			};
		}),
		selected,
		matchesRecord: selected.length === trace.selected.length && selected.every((s, i) => s === trace.selected[i])
	};
}
