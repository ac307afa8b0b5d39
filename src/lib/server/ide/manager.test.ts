import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentDetail, Frame, InputResult, RunEvent, RunInfo, RunListing, Timeline } from '../../api/types';
import { loadState, openRun, stateHash } from '../run/runner';
import { retrievalTable, type RetrievalTable, type TraceSummary } from '../run/traces';
import { runManager } from './manager';
import * as runsRoute from '../../../routes/api/runs/+server';
import * as runRoute from '../../../routes/api/runs/[id]/+server';
import * as controlRoute from '../../../routes/api/runs/[id]/control/+server';
import * as eventsRoute from '../../../routes/api/runs/[id]/events/+server';
import * as framesRoute from '../../../routes/api/runs/[id]/frames/+server';
import * as timelineRoute from '../../../routes/api/runs/[id]/timeline/+server';
import * as agentRoute from '../../../routes/api/runs/[id]/agents/[agent]/+server';
import * as retrievalsRoute from '../../../routes/api/runs/[id]/retrievals/+server';
import * as retrievalRoute from '../../../routes/api/runs/[id]/retrievals/[...trace]/+server';
import * as callsRoute from '../../../routes/api/runs/[id]/calls/+server';
import * as interviewRoute from '../../../routes/api/runs/[id]/interview/+server';
import * as inputsRoute from '../../../routes/api/runs/[id]/inputs/+server';

// The route handlers read the data home when called: point it at a fresh folder first.
const home = mkdtempSync(path.join(tmpdir(), 'ide-manager-'));
process.env.SIMULACRA_HOME = home;
const manager = runManager();

afterAll(async () => {
	await manager.shutdown();
	rmSync(home, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any) => Response | Promise<Response>;

/** Calls a route handler the way SvelteKit would, with the parts the handlers use. */
async function call(handler: Handler, params: Record<string, string>, query = '', body?: unknown, signal?: AbortSignal): Promise<Response> {
	const url = new URL(`http://127.0.0.1/api/test${query ? `?${query}` : ''}`);
	const request = new Request(url, body === undefined ? { signal } : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal });
	return handler({ params, url, request });
}

async function ok<T>(res: Response | Promise<Response>): Promise<T> {
	const r = await res;
	const body = await r.json();
	if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${JSON.stringify(body)}`);
	return body as T;
}

async function fails(res: Response | Promise<Response>, status: number, pattern?: RegExp): Promise<string> {
	const r = await res;
	expect(r.status).toBe(status);
	expect(r.headers.get('content-type')).toMatch(/json/);
	const body = (await r.json()) as { error: string };
	expect(typeof body.error).toBe('string');
	expect(body.error).not.toMatch(/\n\s+at /); // no stack trace
	if (pattern) expect(body.error).toMatch(pattern);
	return body.error;
}

/** Reads server-sent events from a response body until `enough` says stop. */
async function readEvents(res: Response, enough: (events: RunEvent[]) => boolean, timeoutMs = 20_000): Promise<RunEvent[]> {
	const reader = (res.body as ReadableStream<Uint8Array>).getReader();
	const decoder = new TextDecoder();
	const events: RunEvent[] = [];
	let buffer = '';
	const deadline = Date.now() + timeoutMs;
	while (!enough(events)) {
		if (Date.now() > deadline) throw new Error(`no more events after ${events.length}`);
		const { value, done } = await reader.read();
		if (done) break;
		buffer += decoder.decode(value, { stream: true });
		let cut: number;
		while ((cut = buffer.indexOf('\n\n')) >= 0) {
			const chunk = buffer.slice(0, cut);
			buffer = buffer.slice(cut + 2);
			for (const line of chunk.split('\n')) if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as RunEvent);
		}
	}
	await reader.cancel();
	return events;
}

const stepFrames = (id: string) => openRun(id, home).steps();

describe('run manager and API', () => {
	let runId = '';

	it('starts a paused run, steps it, runs N, plays to the target; frames equal the journal', async () => {
		const { id } = await ok<{ id: string }>(call(runsRoute.POST, {}, '', { world: 'the-ville-3', steps: 40, seed: 3, paused: true }));
		runId = id;
		expect(id).toMatch(/^the-ville-3-/);
		let info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 0, target: 40, status: 'paused', live: true, firstStep: 0, parent: null, secondsPerStep: 10 });
		expect(info.agents.map((a) => a.id)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
		expect(JSON.parse(readFileSync(path.join(home, 'runs', id, 'run.json'), 'utf8')).status).toBe('paused');

		info = await ok<RunInfo>(call(controlRoute.POST, { id }, '', { action: 'step' }));
		expect(info.steps).toBe(1);
		expect(info.status).toBe('paused');

		await ok(call(controlRoute.POST, { id }, '', { action: 'run', steps: 12 }));
		await manager.settled(id);
		info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 13, status: 'paused', live: true });
		// no snapshot since step 0, yet the paused run's latest retrievals can be rebuilt
		const first = openRun(id, home).snapshot(0).memory;
		const recent = (await ok<TraceSummary[]>(call(retrievalsRoute.GET, { id }))).filter((t) => t.candidates > first[t.agent].size);
		expect(recent.length).toBeGreaterThan(0);
		const recentTable = await ok<RetrievalTable>(call(retrievalRoute.GET, { id, trace: recent.at(-1)?.id ?? '' }));
		expect(recentTable.matchesRecord).toBe(true);
		expect(recentTable.candidates.length).toBe(recent.at(-1)?.candidates);

		// the SSE stream: a status first, then a step event per committed step
		const abort = new AbortController();
		const stream = await call(eventsRoute.GET, { id }, '', undefined, abort.signal);
		expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
		await ok(call(controlRoute.POST, { id }, '', { action: 'run', steps: 3 }));
		const events = await readEvents(stream, (es) => es.filter((e) => e.type === 'step').length >= 3);
		abort.abort();
		expect(events[0]).toMatchObject({ type: 'status', steps: 13 });
		const steps = events.filter((e): e is Extract<RunEvent, { type: 'step' }> => e.type === 'step');
		expect(steps.map((e) => e.step)).toEqual([14, 15, 16]);
		await manager.settled(id);
		const journal = stepFrames(id);
		for (const e of steps) {
			expect(e.frame.step).toBe(e.step);
			expect(e.frame.agents).toEqual(journal[e.step - 1].agents);
		}

		// at 20 steps per second, 5 steps take at least 4 intervals of 50 ms
		await ok(call(controlRoute.POST, { id }, '', { action: 'speed', stepsPerSecond: 20 }));
		const t0 = performance.now();
		await ok(call(controlRoute.POST, { id }, '', { action: 'run', steps: 5 }));
		await manager.settled(id);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(195);
		expect((await ok<RunInfo>(call(runRoute.GET, { id }))).steps).toBe(21);

		await ok(call(controlRoute.POST, { id }, '', { action: 'speed', stepsPerSecond: 0 }));
		info = await ok<RunInfo>(call(controlRoute.POST, { id }, '', { action: 'play' }));
		expect(info.status).toBe('running');
		await manager.settled(id);
		info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 40, status: 'done', live: false });
		expect(openRun(id, home).meta.status).toBe('done');

		// frames: N = the state after N steps, from the journal's commit lines
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

		const timeline = await ok<Timeline>(call(timelineRoute.GET, { id }));
		expect(timeline.steps).toBe(40);
		expect(timeline.firstStep).toBe(0);
		// every agent plans its day in the first step: the markers show on frame 1
		expect(timeline.markers.filter((m) => m.kind === 'plan').map((m) => [m.step, m.agents[0]])).toEqual(info.agents.map((a) => [1, a.id]));
		expect(timeline.markers.every((m) => m.step >= 1 && m.step <= 40 && m.label.length > 0)).toBe(true);

		const listing = await ok<RunListing[]>(call(runsRoute.GET, {}));
		expect(listing.find((r) => r.id === id)).toMatchObject({ steps: 40, target: 40, status: 'done', live: false, parent: null });
	}, 120_000);

	it('agent detail at step N is the restored state at N; seeking forward replays on from a kept state', async () => {
		const id = runId;
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
			expect(detail.pending).toBe(klaus.pending.length);
			expect(detail.importanceSinceReflection).toBe(klaus.importanceSinceReflection);
			expect(detail.memories.map((m) => [m.id, m.lastAccess])).toEqual(stream.records.map((r) => [r.id, stream.lastAccess(r.index)]));
			expect(detail.persona.name).toBe('Klaus Mueller');
			expect(await manager.withState(id, n, (s) => stateHash(s))).toBe(stateHash(sim));
		}
		const before = { ...manager.states.stats };
		await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }, 'step=20'));
		await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }, 'step=23'));
		// 17 was kept: 20 steps on from it, then 23 from 20, without a restore
		expect(manager.states.stats.restores).toBe(before.restores);
		expect(manager.states.stats.replayed - before.replayed).toBe(6);
		const { sim } = await loadState(id, 23, { home });
		expect(await manager.withState(id, 23, (s) => stateHash(s))).toBe(stateHash(sim));
		const latest = await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'maria-lopez' }));
		expect(latest.step).toBe(40);
	}, 120_000);

	it('retrievals, score tables (re-scored without changing the run), calls and interviews', async () => {
		const id = runId;
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
		const hashBefore = await manager.withState(id, 40, (s) => stateHash(s));
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
		expect(await manager.withState(id, 40, (s) => stateHash(s))).toBe(hashBefore);
		const { sim } = await loadState(id, 30, { home });
		expect(await manager.withState(id, 30, (s) => stateHash(s))).toBe(stateHash(sim));
	}, 120_000);

	it('forks from a step (listed with its parent), queues inputs on a live run, resumes a finished run on play', async () => {
		const id = runId;
		const { id: fork } = await ok<{ id: string }>(call(runsRoute.POST, {}, '', { from: { run: id, step: 20 }, steps: 10, set: ['retrieval.weights.relevance=2'] }));
		await manager.settled(fork);
		const listed = (await ok<RunListing[]>(call(runsRoute.GET, {}))).find((r) => r.id === fork);
		expect(listed).toMatchObject({ parent: { run: id, step: 20 }, steps: 30, status: 'done' });
		// a fork's frames before its first step are its parent's
		const mine = await ok<Frame[]>(call(framesRoute.GET, { id: fork }, 'from=0&to=21'));
		const theirs = await ok<Frame[]>(call(framesRoute.GET, { id }, 'from=0&to=21'));
		expect(mine.slice(0, 21)).toEqual(theirs.slice(0, 21));
		expect(mine.map((f) => f.step)).toEqual([...Array(22).keys()]);
		const forkTimeline = await ok<Timeline>(call(timelineRoute.GET, { id: fork }));
		expect(forkTimeline.firstStep).toBe(20);
		expect(forkTimeline.markers.filter((m) => m.kind === 'plan' && m.step === 1).length).toBe(3);
		const forkDetail = await ok<AgentDetail>(call(agentRoute.GET, { id: fork, agent: 'klaus-mueller' }, 'step=10'));
		const parentDetail = await ok<AgentDetail>(call(agentRoute.GET, { id, agent: 'klaus-mueller' }, 'step=10'));
		expect(forkDetail).toEqual(parentDetail);

		// a whisper at a past step of a finished run is a fork that applies it
		const whisper = await ok<InputResult>(call(inputsRoute.POST, { id }, '', { step: 10, inputs: [{ type: 'whisper', agent: 'Maria Lopez', text: 'I should call my mother.' }] }));
		expect(whisper.queued).toBe(false);
		expect(whisper.run).not.toBe(id);
		await manager.settled(whisper.run);
		const forked = openRun(whisper.run, home);
		expect(forked.meta.parent).toEqual({ run: id, step: 10 });
		expect(forked.steps()[0].inputs).toEqual([{ type: 'whisper', agent: 'maria-lopez', text: 'I should call my mother.' }]);
		const wt = await ok<Timeline>(call(timelineRoute.GET, { id: whisper.run }));
		expect(wt.markers.some((m) => m.kind === 'input' && m.step === 11 && m.agents[0] === 'maria-lopez')).toBe(true);

		// a paused live run takes inputs for its next step
		const { id: live } = await ok<{ id: string }>(call(runsRoute.POST, {}, '', { world: 'the-ville-3', steps: 5, seed: 4, paused: true }));
		await ok(call(controlRoute.POST, { id: live }, '', { action: 'run', steps: 2 }));
		await manager.settled(live);
		const address = await anyObject(live);
		const queued = await ok<InputResult>(call(inputsRoute.POST, { id: live }, '', { inputs: [{ type: 'set-object', address, state: 'wet paint' }] }));
		expect(queued).toMatchObject({ run: live, queued: true, step: 2 });
		await ok(call(controlRoute.POST, { id: live }, '', { action: 'step' }));
		expect(openRun(live, home).steps()[2].inputs).toEqual([{ type: 'set-object', address, state: 'wet paint' }]);

		// play on a finished run reopens it and raises its target
		const info = await ok<RunInfo>(call(controlRoute.POST, { id: fork }, '', { action: 'play', steps: 5 }));
		expect(info.live).toBe(true);
		expect(info.target).toBe(35);
		await manager.settled(fork);
		const after = await ok<RunInfo>(call(runRoute.GET, { id: fork }));
		expect(after).toMatchObject({ steps: 35, status: 'done', live: false });
		const { sim } = await loadState(fork, 35, { home });
		expect((await ok<Frame[]>(call(framesRoute.GET, { id: fork }, 'from=35')))[0].agents).toEqual(sim.view());
	}, 180_000);

	it('answers bad ids, steps and bodies with 400/404 JSON', async () => {
		const id = runId;
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
		await fails(call(controlRoute.POST, { id }, '', { action: 'jump' }), 400, /unknown action/);
		await fails(call(controlRoute.POST, { id }, '', { action: 'speed', stepsPerSecond: -1 }), 400);
		await fails(call(controlRoute.POST, { id }, '', { action: 'run' }), 400);
		await fails(call(runsRoute.POST, {}, '', { world: 'nowhere', steps: 3 }), 404, /no world/);
		await fails(call(runsRoute.POST, {}, '', { world: '../worlds/the-ville-3', steps: 3 }), 404);
		await fails(call(runsRoute.POST, {}, '', { world: 'the-ville-3' }), 400, /steps/);
		await fails(call(runsRoute.POST, {}, '', { from: { run: id, step: 999 }, steps: 3 }), 404);
		await fails(call(runsRoute.POST, {}, '', { from: { run: id, step: 5 }, steps: 1, set: ['retrieval.weights.nope=1'] }), 400, /unknown setting/);
		await fails(call(interviewRoute.POST, { id }, '', { agent: 'klaus-mueller', question: '' }), 400, /question/);
		await fails(call(inputsRoute.POST, { id }, '', { inputs: [{ type: 'teleport' }] }), 400);
		await fails(call(inputsRoute.POST, { id }, '', { inputs: [{ type: 'set-object', address: 'Nowhere:at:all', state: 'on' }], step: 3 }), 400, /unknown object/);
		const bad = await call(runsRoute.POST, {}, '', undefined);
		expect(bad.status).toBe(400); // an empty body has no steps
		const notJson = await runsRoute.POST({ request: new Request('http://127.0.0.1/api/runs', { method: 'POST', body: '{oops' }) } as never);
		await fails(notJson, 400, /not valid JSON/);
		await fails(call(eventsRoute.GET, { id: 'missing' }), 404);
	}, 60_000);
});

async function anyObject(id: string): Promise<string> {
	const { sim } = await loadState(id, 0, { home });
	return Object.keys(sim.state.objects)[0];
}
