import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadState, openRun, resumeRun, startRun, type RunOptions } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'lookahead-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Smallville, seed 1: six agents notice each other at step 0. With the paper's settings they
// decide at once to talk: three conversations begin then and are committed at step 48. With the
// fast profile they decide at step 24 (four game minutes later): the conversations begin then and
// are committed at step 72 (a fourth begins at step 30, noticed at step 6).
const base = { world: 'smallville', seed: 1, home, steps: 90 };

async function withModel<T>(latencyMs: number, concurrency: number, run: () => Promise<T>): Promise<T> {
	const saved = { latency: process.env.SIMULACRA_OFFLINE_LATENCY_MS, concurrency: process.env.SIMULACRA_MODEL_CONCURRENCY };
	process.env.SIMULACRA_OFFLINE_LATENCY_MS = String(latencyMs);
	process.env.SIMULACRA_MODEL_CONCURRENCY = String(concurrency);
	try {
		return await run();
	} finally {
		for (const [k, v] of [['SIMULACRA_OFFLINE_LATENCY_MS', saved.latency], ['SIMULACRA_MODEL_CONCURRENCY', saved.concurrency]] as const) {
			if (v === undefined) delete process.env[k];
			else process.env[k] = v;
		}
	}
}

describe('the town does not wait on one reaction or conversation, and the outcome does not depend on waiting', () => {
	it('a reaction and a conversation are state from their first step and take effect at their commit step (fast profile)', async () => {
		const a = await withModel(0, 64, () => startRun({ ...base, profile: 'fast' }));
		const lines = openRun(a.run, home).steps();
		// each committed 48 steps (eight game minutes) after it began
		const committed = lines.flatMap((l) => l.conversations.map((c) => [c.step, l.step]));
		expect(committed).toEqual([
			[24, 72],
			[24, 72],
			[24, 72],
			[30, 78]
		]);
		expect(lines.flatMap((l) => l.conversations).every((c) => c.lines.length >= 2)).toBe(true);
		// at step 10 the decisions are under way: noticed at 0 (or 5, 6), decided four game minutes later
		const early = (await loadState(a.run, 10, { home })).sim;
		expect(early.state.talks ?? []).toEqual([]);
		const reacting = early.state.agents.filter((x) => x.reacting).map((x) => [x.reacting?.step, x.reacting?.commitStep]);
		expect(reacting).toContainEqual([0, 24]);
		expect(reacting).toContainEqual([6, 30]);
		expect(early.state.agents.find((x) => x.reacting)?.action.chatWith).toBe('');
		const { sim } = await loadState(a.run, 27, { home });
		expect(sim.state.talks?.map((t) => [t.step, t.commitStep])).toEqual([
			[24, 72],
			[24, 72],
			[24, 72]
		]);
		const [x, y] = sim.state.talks?.[0].agents ?? ['', ''];
		expect(sim.agent(x).action.chatWith).toBe(y);
		expect(sim.agent(x).reacting).toBeUndefined();
		expect(sim.state.agents.filter((b) => b.reacting).map((b) => b.reacting?.commitStep)).toContain(30);
	}, 120_000);

	it('the same state hash at 0 ms and 800 ms latency, with 1 and 64 calls in flight, and after a fork or a resume mid-conversation', async () => {
		const fast = await withModel(0, 64, () => startRun(base));
		// the paper's settings: conversations begin at step 0, committed at step 48
		expect(openRun(fast.run, home).steps().flatMap((l) => l.conversations.map((c) => [c.step, l.step]))).toContainEqual([0, 48]);
		const one = await withModel(0, 1, () => startRun(base));
		const slow = await withModel(800, 64, () => startRun(base));
		expect(one.stateHash).toBe(fast.stateHash);
		expect(slow.stateHash).toBe(fast.stateHash);
		expect(slow.llmCalls).toBe(fast.llmCalls);
		// answers made ahead that no step used were paid for: counted apart from the run's calls, kept
		// in run.json; a model answering at once is asked nothing ahead (the same state all the same)
		expect(slow.aheadUnused.calls).toBeGreaterThan(0);
		expect(slow.aheadUnused.prompt).toBeGreaterThan(0);
		expect(openRun(slow.run, home).meta.aheadUnused).toEqual(slow.aheadUnused);
		expect(fast.aheadUnused.calls).toBe(0);

		// step 27 is in the middle of three conversations
		const fork = await withModel(0, 8, () => startRun({ home, from: { run: fast.run, step: 27 }, steps: 63 }));
		expect(fork.stateHash).toBe(fast.stateHash);

		const stop = new AbortController();
		let done = 0;
		const onProgress: RunOptions['onProgress'] = () => {
			if (++done === 27) stop.abort();
		};
		const cut = await withModel(0, 8, () => startRun({ ...base, onProgress, signal: stop.signal }));
		expect(cut.steps).toBe(27);
		const resumed = await withModel(0, 8, () => resumeRun(cut.run, { home }));
		expect(resumed.steps).toBe(90);
		expect(resumed.stateHash).toBe(fast.stateHash);
	}, 240_000);
});
