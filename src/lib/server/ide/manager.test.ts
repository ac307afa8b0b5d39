import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Frame, InputResult, RunEvent, RunInfo, RunListing, Timeline } from '../../api/types';
import { loadState, openRun } from '../run/runner';
import type { RetrievalTable, TraceSummary } from '../../api/traces';
import { runManager } from './manager';
import * as runsRoute from '../../../routes/api/runs/+server';
import * as runRoute from '../../../routes/api/runs/[id]/+server';
import * as controlRoute from '../../../routes/api/runs/[id]/control/+server';
import * as eventsRoute from '../../../routes/api/runs/[id]/events/+server';
import * as framesRoute from '../../../routes/api/runs/[id]/frames/+server';
import * as timelineRoute from '../../../routes/api/runs/[id]/timeline/+server';
import * as retrievalsRoute from '../../../routes/api/runs/[id]/retrievals/+server';
import * as retrievalRoute from '../../../routes/api/runs/[id]/retrievals/[...trace]/+server';
import * as inputsRoute from '../../../routes/api/runs/[id]/inputs/+server';
import { call, fails, ok } from './testing';

// The route handlers read the data home when called: point it at a fresh folder first.
const home = mkdtempSync(path.join(tmpdir(), 'ide-manager-'));
process.env.SIMULACRA_HOME = home;
const manager = runManager();

afterAll(async () => {
	await manager.shutdown();
	rmSync(home, { recursive: true, force: true });
});

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

		await ok(call(controlRoute.POST, { id }, '', { action: 'run', steps: 28 }));
		await manager.settled(id);
		info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 29, status: 'paused', live: true });
		// no snapshot since step 0, yet the paused run's latest retrievals can be rebuilt
		expect(openRun(id, home).snapshotSteps()).toEqual([0]);
		const recent = (await ok<TraceSummary[]>(call(retrievalsRoute.GET, { id }))).filter((t) => t.step > 0);
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
		expect(events[0]).toMatchObject({ type: 'status', steps: 29 });
		const steps = events.filter((e): e is Extract<RunEvent, { type: 'step' }> => e.type === 'step');
		expect(steps.map((e) => e.step)).toEqual([30, 31, 32]);
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
		expect((await ok<RunInfo>(call(runRoute.GET, { id }))).steps).toBe(37);

		await ok(call(controlRoute.POST, { id }, '', { action: 'speed', stepsPerSecond: 0 }));
		info = await ok<RunInfo>(call(controlRoute.POST, { id }, '', { action: 'play' }));
		expect(info.status).toBe('running');
		await manager.settled(id);
		info = await ok<RunInfo>(call(runRoute.GET, { id }));
		expect(info).toMatchObject({ steps: 40, status: 'done', live: false });
		expect(openRun(id, home).meta.status).toBe('done');

		// the queries follow the journal as the live run grew (their own tests: read/queries.test.ts)
		expect((await ok<Frame[]>(call(framesRoute.GET, { id }, 'from=40')))[0].agents).toEqual(stepFrames(id)[39].agents);
		expect((await ok<Timeline>(call(timelineRoute.GET, { id }))).steps).toBe(40);
		const listing = await ok<RunListing[]>(call(runsRoute.GET, {}));
		expect(listing.find((r) => r.id === id)).toMatchObject({ steps: 40, target: 40, status: 'done', live: false, parent: null });
	}, 120_000);

	it('forks from a step (listed with its parent), queues inputs on a live run, resumes a finished run on play', async () => {
		const id = runId;
		const { id: fork } = await ok<{ id: string }>(call(runsRoute.POST, {}, '', { from: { run: id, step: 20 }, steps: 10, set: ['retrieval.weights.relevance=2'] }));
		await manager.settled(fork);
		const listed = (await ok<RunListing[]>(call(runsRoute.GET, {}))).find((r) => r.id === fork);
		expect(listed).toMatchObject({ parent: { run: id, step: 20 }, steps: 30, status: 'done' });
		const forkTimeline = await ok<Timeline>(call(timelineRoute.GET, { id: fork }));
		expect(forkTimeline.firstStep).toBe(20);
		expect(forkTimeline.markers.filter((m) => m.kind === 'plan' && m.step === 1).length).toBe(3);
		// its frames and agents before its first step: read/queries.test.ts

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

	it('answers bad ids, steps and bodies of live work with 400/404 JSON (queries: read/queries.test.ts)', async () => {
		const id = runId;
		await fails(call(controlRoute.POST, { id: 'no-such-run' }, '', { action: 'step' }), 404, /no run/);
		await fails(call(controlRoute.POST, { id: '..' }, '', { action: 'step' }), 404);
		await fails(call(controlRoute.POST, { id }, '', { action: 'jump' }), 400, /action must be one of play, pause, step, run, speed, budget, not "jump"/);
		await fails(call(controlRoute.POST, { id }, '', { action: 'speed', stepsPerSecond: -1 }), 400);
		await fails(call(controlRoute.POST, { id }, '', { action: 'run' }), 400);
		await fails(call(runsRoute.POST, {}, '', { world: 'nowhere', steps: 3 }), 404, /no world/);
		await fails(call(runsRoute.POST, {}, '', { world: '../worlds/the-ville-3', steps: 3 }), 404);
		await fails(call(runsRoute.POST, {}, '', { world: 'the-ville-3' }), 400, /steps/);
		await fails(call(runsRoute.POST, {}, '', { from: { run: id, step: 999 }, steps: 3 }), 404);
		await fails(call(runsRoute.POST, {}, '', { from: { run: id, step: 5 }, steps: 1, set: ['retrieval.weights.nope=1'] }), 400, /unknown setting/);
		await fails(call(inputsRoute.POST, { id }, '', { inputs: [{ type: 'teleport' }] }), 400);
		await fails(call(inputsRoute.POST, { id }, '', { inputs: [{ type: 'set-object', address: 'Nowhere:at:all', state: 'on' }], step: 3 }), 400, /unknown object/);
		const bad = await call(runsRoute.POST, {}, '', undefined);
		expect(bad.status).toBe(400); // an empty body has no steps
		const notJson = await runsRoute.POST({ request: new Request('http://127.0.0.1/api/runs', { method: 'POST', body: '{oops' }) } as never);
		await fails(notJson, 400, /not valid JSON/);
		await fails(call(eventsRoute.GET, { id: 'missing' }), 404);
	}, 60_000);

	it('while a step waits for the model, the event stream says what it waits for', async () => {
		const saved = process.env.SIMULACRA_OFFLINE_LATENCY_MS;
		process.env.SIMULACRA_OFFLINE_LATENCY_MS = '300';
		let id = '';
		try {
			({ id } = await ok<{ id: string }>(call(runsRoute.POST, {}, '', { world: 'the-ville-3', steps: 2, seed: 5, paused: true })));
		} finally {
			if (saved === undefined) delete process.env.SIMULACRA_OFFLINE_LATENCY_MS;
			else process.env.SIMULACRA_OFFLINE_LATENCY_MS = saved;
		}
		const abort = new AbortController();
		const stream = await call(eventsRoute.GET, { id }, '', undefined, abort.signal);
		// the first step plans every agent's day: chains of calls answered after 300 ms each
		await ok(call(controlRoute.POST, { id }, '', { action: 'run', steps: 1 }));
		const events = await readEvents(stream, (es) => es.some((e) => e.type === 'step'));
		abort.abort();
		await manager.settled(id);
		const waiting = events.filter((e): e is Extract<RunEvent, { type: 'model' }> => e.type === 'model');
		expect(waiting.length).toBeGreaterThan(0);
		expect(waiting.every((e) => e.step === 0)).toBe(true);
		const templates = new Set(waiting.flatMap((e) => e.activity.waitingFor.map((w) => w.template)));
		expect(templates.has('agent_summary') || templates.has('daily_plan') || templates.has('hourly_schedule')).toBe(true);
		expect(waiting.some((e) => e.activity.inFlight > 0)).toBe(true);
		expect(waiting.flatMap((e) => e.activity.waitingFor.map((w) => w.agent)).every((a) => ['isabella-rodriguez', 'klaus-mueller', 'maria-lopez'].includes(a))).toBe(true);
		// the step event comes after the waiting
		expect(events.findIndex((e) => e.type === 'step')).toBeGreaterThan(events.findIndex((e) => e.type === 'model'));
	}, 60_000);
});

async function anyObject(id: string): Promise<string> {
	const { sim } = await loadState(id, 0, { home });
	return Object.keys(sim.state.objects)[0];
}
