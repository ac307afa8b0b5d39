import { describe, expect, it } from 'vitest';
import { MemoryStream, selectTop, type MemoryKind } from '../../engine/memory';
import type { RetrievalWeights } from '../../engine/types';
import { rescore, type RescoreTrace } from './core';
import { parseDecay, parseGrid, parseValues, parseWeighting, weightProduct } from './grid';

const DIMS = 8;
const HOUR = 3_600_000;
const KINDS: MemoryKind[] = ['observation', 'reflection', 'plan', 'conversation'];

function lcg(seed: number): () => number {
	let s = seed >>> 0;
	return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function vector(rand: () => number): Float32Array {
	return Float32Array.from({ length: DIMS }, () => rand() * 2 - 1);
}

/**
 * Two agents whose streams grow while they retrieve, as the engine does: score over the
 * memories so far, take the top k, mark them accessed. Returns the streams and the traces.
 */
function recordedRun(weights: RetrievalWeights, decay: number) {
	const rand = lcg(7);
	const streams = new Map<string, MemoryStream>();
	const queries = new Map<string, Float32Array>();
	const traces: RescoreTrace[] = [];
	for (const agent of ['ann', 'bob']) streams.set(agent, new MemoryStream(agent, DIMS, 4));
	const times: number[] = [];
	let time = 0;
	let before = { time: 0, size: 0 };
	for (let round = 0; round < 40; round++) {
		time += Math.floor(rand() * 2 * HOUR);
		times.push(time);
		// every fifth round Ann's conversation that began last round is committed: its two
		// retrievals recall what she had then, as of then, and count as accesses only afterwards
		if (round % 5 === 3) {
			const stream = streams.get('ann')!;
			const candidates = [...Array(before.size).keys()];
			const touched: number[] = [];
			for (const purpose of ['conversation', 'conversation: what to say']) {
				const id = `ann/r${traces.filter((t) => t.agent === 'ann').length}`;
				const query = vector(rand);
				queries.set(id, query);
				const col = stream.columns(query, before.time, { weights, decay }, candidates);
				const picked = selectTop(col.score, 4, (p) => p);
				touched.push(...picked);
				traces.push({ id, agent: 'ann', step: round, time: before.time, purpose, weights, decay, k: 4, streamSize: before.size, kinds: null, selected: picked.map((i) => stream.records[i].id) });
			}
			stream.touch(touched, time);
		}
		before = { time, size: streams.get('ann')!.size };
		for (const [agent, stream] of streams) {
			for (let j = 0; j < 3; j++) {
				stream.add({ kind: KINDS[Math.floor(rand() * KINDS.length)], description: `${agent} memory ${stream.size}`, created: time, step: round, importance: 1 + Math.floor(rand() * 9), embedding: vector(rand) });
			}
			const id = `${agent}/r${traces.filter((t) => t.agent === agent).length}`;
			const kinds = round % 5 === 4 ? (['observation', 'conversation'] as MemoryKind[]) : null;
			const candidates = [...Array(stream.size).keys()].filter((i) => !kinds || kinds.includes(stream.records[i].kind));
			const query = vector(rand);
			queries.set(id, query);
			const col = stream.columns(query, time, { weights, decay }, candidates);
			const picked = selectTop(col.score, 5, (p) => candidates[p]).map((p) => candidates[p]);
			stream.touch(picked, time);
			traces.push({ id, agent, step: round, time, purpose: round % 2 ? 'plan' : 'reaction', weights, decay, k: 5, streamSize: stream.size, kinds, selected: picked.map((i) => stream.records[i].id) });
		}
	}
	return { streams, traces, stepTime: (step: number) => times[step], query: (t: RescoreTrace) => queries.get(t.id) as Float32Array };
}

/** The top k of one trace under other weights, written out plainly (sorting, not selectTop). */
function plainTopK(stream: MemoryStream, t: RescoreTrace, query: Float32Array, w: RetrievalWeights, decay: number, lastAccess: Float64Array): string[] {
	const cands = stream.records.slice(0, t.streamSize).filter((m) => !t.kinds || t.kinds.includes(m.kind));
	const rec = cands.map((m) => decay ** (Math.max(0, t.time - lastAccess[m.index]) / HOUR));
	const imp = cands.map((m) => m.importance);
	const rel = cands.map((m) => {
		let s = 0;
		for (let d = 0; d < DIMS; d++) s += m.embedding[d] * query[d];
		return s;
	});
	const norm = (xs: number[]) => {
		const lo = Math.min(...xs);
		const hi = Math.max(...xs);
		return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0.5));
	};
	const [r, i, v] = [norm(rec), norm(imp), norm(rel)];
	return cands
		.map((m, c) => ({ m, s: w.recency * r[c] + w.importance * i[c] + w.relevance * v[c] }))
		.sort((a, b) => b.s - a.s || b.m.index - a.m.index)
		.slice(0, t.k)
		.map((x) => x.m.id);
}

describe('re-scoring recorded retrievals', () => {
	const own = { recency: 1, importance: 1, relevance: 1 };
	const run = recordedRun(own, 0.995);

	it("gives back every recorded selection under the run's own weights and decay, given or as 'run'", () => {
		const result = rescore({ ...run, grid: { weights: [null, { ...own }], decays: [null, 0.995] } });
		expect(result.retrievals).toBe(96);
		expect(result.mismatched).toBe(0);
		expect(result.skipped).toBe(0);
		for (const cell of result.cells) {
			expect(cell.changed).toBe(0);
			expect(cell.reordered).toBe(0);
			expect(cell.entered).toEqual([]);
			expect(cell.byAgent).toEqual({ ann: { retrievals: 56, changed: 0 }, bob: { retrievals: 40, changed: 0 } });
		}
		// taken as ordinary retrievals (accesses at once, at the trace's time), conversations would not rebuild
		const immediate = rescore({ ...run, stepTime: () => -Infinity, grid: { weights: [null], decays: [null] } });
		expect(immediate.mismatched).toBeGreaterThan(0);
	});

	it('counts changed top ks as a plain re-implementation does, with the recorded last-access times', () => {
		const grid = { weights: [{ recency: 0, importance: 0, relevance: 1 }, { recency: 3, importance: 0.5, relevance: 0 }], decays: [0.9, null] };
		const result = rescore({ ...run, grid });
		const expected = grid.decays.flatMap((d) =>
			grid.weights.map((w) => {
				let changed = 0;
				const entered = new Map<string, number>();
				const byPurpose: Record<string, number> = {};
				const last = new Map([...run.streams].map(([a, s]) => [a, Float64Array.from(s.records, (m) => m.created)]));
				let later: { at: number; ids: string[] } | null = null;
				for (const t of run.traces) {
					const stream = run.streams.get(t.agent)!;
					const talking = t.time < run.stepTime(t.step);
					if (later && !talking) {
						for (const id of later.ids) last.get('ann')![stream.byId(id)!.index] = later.at;
						later = null;
					}
					const ids = plainTopK(stream, t, run.query(t), w, d ?? t.decay, last.get(t.agent)!);
					const moved = ids.filter((id) => !t.selected.includes(id));
					if (moved.length > 0 || ids.length !== t.selected.length) {
						changed++;
						byPurpose[t.purpose] = (byPurpose[t.purpose] ?? 0) + 1;
					}
					for (const id of moved) entered.set(id, (entered.get(id) ?? 0) + 1);
					if (talking) (later ??= { at: run.stepTime(t.step), ids: [] }).ids.push(...t.selected);
					else for (const id of t.selected) last.get(t.agent)![stream.byId(id)!.index] = t.time;
				}
				return { changed, entered, byPurpose };
			})
		);
		result.cells.forEach((cell, n) => {
			expect(cell.changed).toBe(expected[n].changed);
			expect(Object.values(cell.byPurpose).reduce((n, p) => n + p.changed, 0)).toBe(cell.changed);
			expect(cell.byPurpose['conversation: what to say'].retrievals).toBe(8);
			expect(cell.byPurpose.plan.changed).toBe(expected[n].byPurpose.plan ?? 0);
			for (const move of cell.entered) expect(move.count).toBe(expected[n].entered.get(move.id));
			const most = Math.max(0, ...expected[n].entered.values());
			if (most > 0) expect(cell.entered[0].count).toBe(most);
		});
		// relevance alone moves many retrievals; the cells differ from one another
		expect(result.cells[0].changed).toBeGreaterThan(10);
		expect(new Set(result.cells.map((c) => c.changed)).size).toBeGreaterThan(1);
	});

	it('leaves out (and counts) retrievals whose memories are not all stored, and filters by a predicate', () => {
		const short = new Map(run.streams);
		const ann = run.streams.get('ann')!;
		const cut = new MemoryStream('ann', DIMS, 4);
		for (const m of ann.records.slice(0, 30)) cut.add(m);
		short.set('ann', cut);
		const result = rescore({ ...run, streams: short, grid: { weights: [null], decays: [null] } });
		expect(result.skipped).toBe(run.traces.filter((t) => t.agent === 'ann' && t.streamSize > 30).length);
		expect(result.retrievals + result.skipped).toBe(96);
		expect(result.cells[0].changed).toBe(0);
		const onlyBob = rescore({ ...run, counted: (t) => t.agent === 'bob', grid: { weights: [null], decays: [null] } });
		expect(onlyBob.retrievals).toBe(40);
		expect(Object.keys(onlyBob.cells[0].byAgent)).toEqual(['bob']);
	});
});

describe('re-scoring grids', () => {
	it('reads weightings and decays, and refuses bad ones naming the value', () => {
		expect(parseWeighting('1, 0.5,3')).toEqual({ recency: 1, importance: 0.5, relevance: 3 });
		expect(parseWeighting('run')).toBeNull();
		expect(parseDecay('0.99')).toBe(0.99);
		expect(parseDecay('run')).toBeNull();
		expect(() => parseWeighting('1,2')).toThrow(/weights: "1,2" is not three numbers/);
		expect(() => parseWeighting('1,-2,3')).toThrow(/not three numbers/);
		expect(() => parseWeighting('1,2,1e9')).toThrow(/not three numbers/);
		expect(() => parseDecay('0')).toThrow(/decay: "0" is not a decay/);
		expect(() => parseDecay('1.5')).toThrow(/not a decay/);
		expect(() => parseGrid(['1,1,1'], ['0.9', 'x'])).toThrow(/decay #2: "x"/);
		expect(parseGrid([])).toEqual({ weights: [null], decays: [null] });
		expect(() => parseGrid(Array(2001).fill('1,1,1'))).toThrow(/2001 cells is more than the 2000 allowed/);
		expect(parseValues('0, 1,1,2', 'recency')).toEqual([0, 1, 2]);
		expect(() => parseValues('', 'recency')).toThrow(/recency: "" is not a list/);
		expect(weightProduct([0, 1], [1], [2, 3])).toEqual([
			{ recency: 0, importance: 1, relevance: 2 },
			{ recency: 0, importance: 1, relevance: 3 },
			{ recency: 1, importance: 1, relevance: 2 },
			{ recency: 1, importance: 1, relevance: 3 }
		]);
	});
});
