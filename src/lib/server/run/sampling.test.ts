// The same inputs give the same run with an endpoint that behaves like a real one: a new draw
// per request (a model sampling at a temperature above 0), answers after a random latency (so
// they arrive in another order than asked), outages and a proxy's error pages. Smallville runs
// with the OpenAI-compatible provider over real HTTP against the sampling test server.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSamplingServer, type SamplingFault, type SamplingServer, type SamplingServerOptions } from '../model/testing/sampling-server';
import { parseExperiment } from '../experiments/definition';
import { runExperiment } from '../experiments/pool';
import { openRun, resumeRun, startRun } from './runner';

const root = mkdtempSync(path.join(tmpdir(), 'sampling-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ENV = {
	OPENAI_BASE_URL: '',
	SIMULACRA_CHAT_MODEL: 'sampling-model',
	SIMULACRA_EMBED_MODEL: 'random-unit-vectors',
	SIMULACRA_EMBED_DIMENSIONS: '32',
	SIMULACRA_MODEL_CONCURRENCY: '16',
	SIMULACRA_MODEL_MAX_RETRIES: '1'
};
let saved: Record<string, string | undefined> = {};
let server: SamplingServer | null = null;

beforeEach(() => {
	saved = Object.fromEntries(['SIMULACRA_MODELS', 'SIMULACRA_PROVIDER', 'OPENAI_API_KEY', ...Object.keys(ENV)].map((k) => [k, process.env[k]]));
	for (const k of Object.keys(saved)) delete process.env[k];
});
afterEach(async () => {
	for (const [k, v] of Object.entries(saved)) {
		if (v === undefined) delete process.env[k];
		else process.env[k] = v;
	}
	await server?.close();
	server = null;
});

async function serve(opts: SamplingServerOptions = {}): Promise<SamplingServer> {
	server = await startSamplingServer({ seed: 5, dims: 32, latencyMs: [0, 25], keepRequests: false, ...opts });
	Object.assign(process.env, ENV, { OPENAI_BASE_URL: server.url });
	return server;
}

/** A server that fails every request from when it breaks until it is fixed. */
function outage(fault: SamplingFault) {
	let down = false;
	return { when: () => (down ? fault : undefined), breakAt: (step: number) => (done: number) => void (done >= step && (down = true)), fix: () => (down = false) };
}

const run = (home: string, steps: number, onProgress?: (done: number) => void) => startRun({ world: 'smallville', steps, seed: 1, home, model: 'openai', onProgress });

describe('a run is a function of its inputs, with a server that samples and answers in any order', () => {
	it('the same command twice, a fork, and two identical runs side by side give the same state', async () => {
		const s = await serve();
		const home = mkdtempSync(path.join(root, 'rerun-'));
		const first = await run(home, 120);
		expect(first.status).toBe('done');
		expect(first.failsafes).toBe(0);
		// the server would give a new draw for every prompt; the run is answered by the first
		const again = await run(home, 120);
		expect(again.stateHash).toBe(first.stateHash);
		expect(again.cacheHits).toBe(again.llmCalls);
		expect(s.counts.chat).toBeGreaterThanOrEqual(first.llmCalls - first.cacheHits);
		const fork = await startRun({ home, from: { run: first.run, step: 60 }, steps: 60 });
		expect(fork.stateHash).toBe(first.stateHash);

		// two arms of an experiment with the same seed and sampling index, at once, sharing a data
		// home: each has a cache of its own on the same files, as worker processes do
		const shared = mkdtempSync(path.join(root, 'arms-'));
		const [a, b] = await Promise.all([run(shared, 90), run(shared, 90)]);
		expect(b.stateHash).toBe(a.stateHash);
		// they asked the server for the same prompts, and its draws differed
		const steps = (id: string) => JSON.stringify(openRun(id, shared).steps().map((l) => [l.step, l.agents]));
		expect(steps(b.run)).toBe(steps(a.run));
	}, 240_000);

	it('two identical arms of an experiment, in worker processes at once, give identical runs', async () => {
		const s = await serve();
		const h = mkdtempSync(path.join(root, 'experiment-'));
		// one replicate an arm, two workers: the two arms' runs are made at the same time
		const def = parseExperiment({ name: 'aa', world: 'the-ville-3', steps: 120, replicates: 1, model: 'openai', arms: [{ name: 'A' }, { name: 'B' }] }, 'aa.json');
		const { report } = await runExperiment(def, { home: h, workers: 2 });
		expect(report.state).toBe('done');
		const [[a], [b]] = report.arms.map((arm) => arm.runs);
		const agents = (id: string) => JSON.stringify(openRun(id, h).steps().map((l) => [l.step, l.agents, l.conversations]));
		expect(agents(b.run)).toBe(agents(a.run));
		// both asked the server: its draws for the same prompts differed, the runs did not
		const asked = (id: string) => openRun(id, h).calls().filter((c) => !c.cacheHit).length;
		expect(asked(a.run)).toBeGreaterThan(0);
		expect(asked(b.run)).toBeGreaterThan(0);
		expect(s.counts.chat).toBeGreaterThan(asked(a.run));
	}, 240_000);

	// after 20 steps the server fails every request, until it is fixed
	it.each([
		{ what: 'an outage (HTTP 503)', fault: '503' as const, says: /HTTP 503/ },
		{ what: "a proxy's error page with HTTP 200", fault: 'html' as const, says: /text\/html/ }
	])('$what mid-run is a fault, never an answer: the run pauses at its last commit; resumed, it is the run the model gives', async ({ fault, says }) => {
		const broken = outage(fault);
		const s = await serve({ faults: { when: broken.when } });
		const home = mkdtempSync(path.join(root, `${fault}-`));
		const paused = await run(home, 150, broken.breakAt(20));
		expect(paused.status).toBe('paused');
		expect(paused.pause?.reason).toBe('fault');
		expect(paused.pause?.message).toMatch(says);
		expect(s.counts.faultsByKind[fault]).toBeGreaterThan(0);
		broken.fix();
		const resumed = await resumeRun(paused.run, { home });
		expect(resumed.status).toBe('done');
		expect(resumed.failsafes).toBe(0);
		// the same command again is answered from the answers the resumed run used: nothing of the fault was cached
		const again = await run(home, 150);
		expect(again.stateHash).toBe(resumed.stateHash);
		expect(again.failsafes).toBe(0);
	}, 240_000);
});
