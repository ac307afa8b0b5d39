// The run store's queries through the API routes: frames, timeline and listing from the
// journal, agents at any step by restore and replay, retrievals, score tables, calls and
// interviews, a fork's history before its first step, the errors, and live runs as seen through
// the `LiveRuns` interface.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetail, Frame, RunInfo, RunListing, RunUsage, Timeline } from '../../api/types';
import { loadState, openRun, startRun, stateHash } from '../run/runner';
import { retrievalTable } from '../run/traces';
import type { RetrievalTable, TraceSummary } from '../../api/traces';
import { RunQueries, runQueries, type LiveView } from './queries';
import * as runsRoute from '../../../routes/api/runs/+server';
import * as runRoute from '../../../routes/api/runs/[id]/+server';
import * as framesRoute from '../../../routes/api/runs/[id]/frames/+server';
import * as timelineRoute from '../../../routes/api/runs/[id]/timeline/+server';
import * as agentRoute from '../../../routes/api/runs/[id]/agents/[agent]/+server';
import * as retrievalsRoute from '../../../routes/api/runs/[id]/retrievals/+server';
import * as retrievalRoute from '../../../routes/api/runs/[id]/retrievals/[...trace]/+server';
import * as callsRoute from '../../../routes/api/runs/[id]/calls/+server';
import * as interviewRoute from '../../../routes/api/runs/[id]/interview/+server';
import * as usageRoute from '../../../routes/api/runs/[id]/usage/+server';
import { call, fails, ok } from '../ide/testing';

// The route handlers read the data home when called: point it at a fresh folder first.
const home = mkdtempSync(path.join(tmpdir(), 'store-queries-'));
process.env.SIMULACRA_HOME = home;
const queries = runQueries();

afterAll(() => {
	queries.release();
	rmSync(home, { recursive: true, force: true });
});

const stepFrames = (id: string) => openRun(id, home).steps();

describe('run queries and their API', () => {
	let id = '';

	beforeAll(async () => {
		id = (await startRun({ world: 'the-ville-3', steps: 40, seed: 3, home })).run;
	}, 120_000);

	it('frames are the journal\'s commit lines (N = the state after N steps); the timeline and the listing', async () => {
		const info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 40, target: 40, status: 'done', live: false, firstStep: 0, parent: null, secondsPerStep: 10 });
		expect(info.agents.map((a) => a.id)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);

		const frames = await ok<Frame[]>(call(framesRoute.GET, { id }, 'from=0&to=40'));
		expect(frames.map((f) => f.step)).toEqual([...Array(41).keys()]);
		const lines = stepFrames(id);
		for (let n = 1; n <= 40; n++) {
			expect(frames[n].agents).toEqual(lines[n - 1].agents);
			expect(frames[n].conversations).toEqual(lines[n - 1].conversations);
			expect(frames[n].time).toBe(info.start + n * info.secondsPerStep * 1000);
		}
		for (const n of [0, 7, 40]) {
			const { sim } = await loadState(id, n, { home });
			expect(frames[n].agents).toEqual(sim.view());
			expect(frames[n].time).toBe(sim.time);
		}
		expect(await ok<Frame[]>(call(framesRoute.GET, { id }, 'from=12'))).toEqual([frames[12]]);
		expect(await queries.frame(id, 12)).toEqual(frames[12]);

		const timeline = await ok<Timeline>(call(timelineRoute.GET, { id }));
		expect(timeline.steps).toBe(40);
		expect(timeline.firstStep).toBe(0);
		// every agent plans its day in the first step: the markers show on frame 1
		expect(timeline.markers.filter((m) => m.kind === 'plan').map((m) => [m.step, m.agents[0]])).toEqual(info.agents.map((a) => [1, a.id]));
		expect(timeline.markers.every((m) => m.step >= 1 && m.step <= 40 && m.label.length > 0)).toBe(true);

		const listing = await ok<RunListing[]>(call(runsRoute.GET, {}));
		expect(listing.find((r) => r.id === id)).toMatchObject({ steps: 40, target: 40, status: 'done', live: false, parent: null });
	}, 60_000);

	it('agent detail at step N is the restored state at N; seeking forward replays on from a kept state', async () => {
		for (const n of [17, 0, 40]) {
			const detail = await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'Klaus Mueller' }, `step=${n}`));
			const { sim } = await loadState(id, n, { home });
			const klaus = sim.agent('klaus-mueller');
			const stream = sim.stream('klaus-mueller');
			expect(detail.step).toBe(n);
			expect(detail.time).toBe(sim.time);
			expect(detail.view).toEqual(sim.view().find((v) => v.id === 'klaus-mueller'));
			expect(detail.plan).toEqual(klaus.plan);
			expect(detail.spatial).toEqual(klaus.spatial);
			// the states Klaus last saw objects in, beside the tree (the spatial view shows them)
			expect(detail.seenStates).toEqual(klaus.seenStates ?? {});
			expect(detail.pending).toBe(klaus.pending.length);
			expect(detail.importanceSinceReflection).toBe(klaus.importanceSinceReflection);
			expect(detail.memories.map((m) => [m.id, m.lastAccess])).toEqual(stream.records.map((r) => [r.id, stream.lastAccess(r.index)]));
			expect(detail.persona.name).toBe('Klaus Mueller');
			expect(await queries.withState(id, n, (s) => stateHash(s))).toBe(stateHash(sim));
		}
		const before = { ...queries.states.stats };
		await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }, 'step=20'));
		await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }, 'step=23'));
		// 17 was kept: 20 steps on from it, then 23 from 20, without a restore
		expect(queries.states.stats.restores).toBe(before.restores);
		expect(queries.states.stats.replayed - before.replayed).toBe(6);
		const { sim } = await loadState(id, 23, { home });
		expect(await queries.withState(id, 23, (s) => stateHash(s))).toBe(stateHash(sim));
		const latest = await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }));
		expect(latest.step).toBe(40);
	}, 120_000);

	it('retrievals, score tables (re-scored without changing the run), calls and interviews', async () => {
		const all = await ok<TraceSummary[]>(call(retrievalsRoute.GET, { id }));
		expect(all.length).toBeGreaterThan(0);
		const klaus = await ok<TraceSummary[]>(call(retrievalsRoute.GET, { id }, 'agent=Klaus%20Mueller'));
		expect(klaus.length).toBeGreaterThan(0);
		expect(klaus.every((t) => t.agent === 'klaus-mueller')).toBe(true);
		const atStep = await ok<TraceSummary[]>(call(retrievalsRoute.GET, { id }, `step=${all[0].step}`));
		expect(atStep.every((t) => t.step === all[0].step)).toBe(true);

		const trace = klaus[0].id;
		const table = await ok<RetrievalTable>(call(retrievalRoute.GET, { id, trace }));
		expect(table).toEqual(await retrievalTable(id, trace, { home }));
		expect(table.matchesRecord).toBe(true);

		const tracesBefore = readFileSync(path.join(home, 'runs', id, 'traces.jsonl'), 'utf8');
		const hashBefore = await queries.withState(id, 40, (s) => stateHash(s));
		const reweighted = await ok<RetrievalTable>(call(retrievalRoute.GET, { id, trace }, 'weights=0,0,1'));
		expect(reweighted.weights).toEqual({ recency: 0, importance: 0, relevance: 1 });
		const top = reweighted.candidates.find((r) => r.rank === 1);
		expect(top?.relevance).toBe(Math.max(...reweighted.candidates.map((r) => r.relevance)));
		expect(readFileSync(path.join(home, 'runs', id, 'traces.jsonl'), 'utf8')).toBe(tracesBefore);

		const calls = await ok<{ step: number; key: string; agent?: string; template: string }[]>(call(callsRoute.GET, { id }, 'agent=klaus-mueller&limit=5'));
		expect(calls.length).toBe(5);
		expect(calls.every((c) => c.agent === 'klaus-mueller')).toBe(true);
		const journal = openRun(id, home).calls().filter((c) => c.agent === 'klaus-mueller');
		expect(calls.map((c) => c.key)).toEqual(journal.slice(-5).map((c) => c.key)); // newest last
		const early = await ok<{ step: number; template: string }[]>(call(callsRoute.GET, { id }, 'from=0&to=0&template=daily_plan'));
		expect(early.length).toBe(3);
		expect(early.every((c) => c.step === 0 && c.template === 'daily_plan')).toBe(true);

		const answer = await ok<{ answer: string; memories: { id: string }[]; agent: string; step: number }>(
			call(interviewRoute.POST, { id }, '', { agent: 'Isabella Rodriguez', step: 30, question: 'What are you planning for today?' })
		);
		expect(answer.agent).toBe('isabella-rodriguez');
		expect(answer.step).toBe(30);
		expect(answer.answer.length).toBeGreaterThan(0);
		expect(answer.memories.length).toBeGreaterThan(0);
		// read-only: the run and the restored state are unchanged
		expect(await queries.withState(id, 40, (s) => stateHash(s))).toBe(hashBefore);
		const { sim } = await loadState(id, 30, { home });
		expect(await queries.withState(id, 30, (s) => stateHash(s))).toBe(stateHash(sim));
	}, 120_000);

	it("a fork's frames, markers and agents before its first step are its parent's", async () => {
		const fork = (await startRun({ from: { run: id, step: 20 }, steps: 10, set: ['retrieval.weights.relevance=2'], home })).run;
		const listed = (await ok<RunListing[]>(call(runsRoute.GET, {}))).find((r) => r.id === fork);
		expect(listed).toMatchObject({ parent: { run: id, step: 20 }, steps: 30, status: 'done' });
		const mine = await ok<Frame[]>(call(framesRoute.GET, { id: fork }, 'from=0&to=21'));
		const theirs = await ok<Frame[]>(call(framesRoute.GET, { id }, 'from=0&to=21'));
		expect(mine.slice(0, 21)).toEqual(theirs.slice(0, 21));
		expect(mine.map((f) => f.step)).toEqual([...Array(22).keys()]);
		const forkTimeline = await ok<Timeline>(call(timelineRoute.GET, { id: fork }));
		expect(forkTimeline.firstStep).toBe(20);
		expect(forkTimeline.steps).toBe(30);
		expect(forkTimeline.markers.filter((m) => m.kind === 'plan' && m.step === 1).length).toBe(3);
		const forkDetail = await ok<AgentDetail>(call(agentRoute.GET, { id: fork, agent: 'klaus-mueller' }, 'step=10'));
		const parentDetail = await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'klaus-mueller' }, 'step=10'));
		expect(forkDetail).toEqual(parentDetail);
		// calls: the parent's count up to the fork step, then the fork's own
		const forkEarly = await ok<{ step: number; key: string }[]>(call(callsRoute.GET, { id: fork }, 'from=0&to=0&template=daily_plan'));
		const parentEarly = await ok<{ step: number; key: string }[]>(call(callsRoute.GET, { id }, 'from=0&to=0&template=daily_plan'));
		expect(forkEarly.length).toBe(3);
		expect(forkEarly).toEqual(parentEarly);
		const forkCalls = await ok<{ step: number; key: string }[]>(call(callsRoute.GET, { id: fork }, 'to=19&limit=2000'));
		expect(forkCalls.length).toBeGreaterThan(3);
		expect(forkCalls).toEqual(await ok(call(callsRoute.GET, { id }, 'to=19&limit=2000')));
		expect(forkCalls.map((c) => c.step)).toEqual([...forkCalls.map((c) => c.step)].sort((a, b) => a - b));
	}, 120_000);

	it('answers bad ids, steps and queries with 400/404 JSON', async () => {
		await fails(call(runRoute.GET, { id: 'no-such-run' }), 404, /no run/);
		await fails(call(runRoute.GET, { id: '..' }), 404);
		await fails(call(runRoute.GET, { id: '../etc' }), 404);
		await fails(call(framesRoute.GET, { id }, 'from=41'), 404, /not among them/);
		await fails(call(framesRoute.GET, { id }, 'from=abc'), 400, /whole number/);
		await fails(call(framesRoute.GET, { id }, 'from=-1'), 400);
		await fails(call(framesRoute.GET, { id }, 'from=10&to=5'), 400);
		await fails(call(framesRoute.GET, { id }), 400, /from is required/);
		await fails(call(agentRoute.GET, { id, agent: 'nobody' }, 'step=3'), 404, /no agent/);
		await fails(call(agentRoute.GET, { id, agent: '<script>' }, 'step=3'), 400);
		await fails(call(agentRoute.GET, { id, agent: 'klaus-mueller' }, 'step=99'), 404);
		await fails(call(retrievalRoute.GET, { id, trace: 'klaus-mueller/r999999' }), 404, /no retrieval/);
		await fails(call(retrievalRoute.GET, { id, trace: '../x' }), 400);
		await fails(call(retrievalRoute.GET, { id, trace: 'klaus-mueller/r0' }, 'weights=1,2'), 400, /three/);
		await fails(call(callsRoute.GET, { id }, 'limit=0'), 400);
		await fails(call(callsRoute.GET, { id }, 'template=Bad-Template'), 400);
		await fails(call(interviewRoute.POST, { id }, '', { agent: 'klaus-mueller', question: '' }), 400, /question/);
		await fails(call(usageRoute.GET, { id: 'no-such-run' }), 404, /no run/);
	}, 60_000);

	it('sees runs open for stepping through LiveRuns: their status, target, usage, budget and pause', async () => {
		const own = new RunQueries({ home });
		const usage = (await ok<RunUsage>(call(usageRoute.GET, { id }))).total;
		const liveUsage = { ...usage, calls: usage.calls + 7 };
		let stored = 0;
		const view: LiveView = {
			running: true,
			meta: { target: 99, budget: { tokens: 5 }, pause: null },
			usage: { total: liveUsage, usage: (budget) => ({ total: liveUsage, agents: {}, templates: {}, models: [], budget }) },
			aheadUnused: { calls: 3, prompt: 300, completion: 30, usd: 0, unpricedTokens: 0 },
			embeddings: { calls: 2, prompt: 40, completion: 0, usd: 0, unpricedTokens: 40 },
			storeMemories: async () => void stored++
		};
		const before = own.list().find((r) => r.id === id);
		expect(before).toMatchObject({ status: 'done', live: false, target: 40 });
		expect(before?.usage?.calls).toBe(usage.calls);

		own.attach({ live: (run) => (run === id ? view : undefined) });
		expect(own.list().find((r) => r.id === id)).toMatchObject({ status: 'running', live: true, target: 99, usage: liveUsage, budget: { tokens: 5 } });
		expect(await own.info(id)).toMatchObject({ status: 'running', live: true, target: 99, steps: 40 });
		expect(own.usage(id)).toEqual({ total: liveUsage, agents: {}, templates: {}, models: [], budget: { tokens: 5 }, aheadUnused: view.aheadUnused, embeddings: view.embeddings });
		view.running = false;
		expect((await own.info(id)).status).toBe('paused');
		// the run's memories are stored: a table needs no help from the live run
		const trace = (await own.retrievals(id))[0].id;
		expect((await own.retrieval(id, trace)).matchesRecord).toBe(true);
		expect(stored).toBe(0);
		own.release();
	}, 60_000);
});
