import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadState, openRun, resumeRun, startRun, type RunOptions } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'lookahead-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Smallville, seed 1: three conversations begin at step 0 and are committed at step 48 (a
// fourth begins at step 6).
const base = { world: 'smallville', seed: 1, home, steps: 60 };

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

describe('the town does not wait on one conversation, and the outcome does not depend on waiting', () => {
	it('a conversation is state from its first step and takes effect at its commit step', async () => {
		const a = await withModel(0, 64, () => startRun(base));
		const lines = openRun(a.run, home).steps();
		// begun at steps 0 and 6, each committed 48 steps (eight game minutes) later
		const committed = lines.flatMap((l) => l.conversations.map((c) => [c.step, l.step]));
		expect(committed).toEqual([
			[0, 48],
			[0, 48],
			[0, 48],
			[6, 54]
		]);
		expect(lines.flatMap((l) => l.conversations).every((c) => c.lines.length >= 2)).toBe(true);
		const { sim } = await loadState(a.run, 20, { home });
		expect(sim.state.talks?.map((t) => [t.step, t.commitStep])).toEqual([
			[0, 48],
			[0, 48],
			[0, 48],
			[6, 54]
		]);
		const [x, y] = sim.state.talks?.[0].agents ?? ['', ''];
		expect(sim.agent(x).action.chatWith).toBe(y);
	}, 120_000);

	it('the same state hash at 0 ms and 800 ms latency, with 1 and 64 calls in flight, and after a fork or a resume mid-conversation', async () => {
		const fast = await withModel(0, 64, () => startRun(base));
		const one = await withModel(0, 1, () => startRun(base));
		const slow = await withModel(800, 64, () => startRun(base));
		expect(one.stateHash).toBe(fast.stateHash);
		expect(slow.stateHash).toBe(fast.stateHash);
		expect(slow.llmCalls).toBe(fast.llmCalls);

		// step 20 is in the middle of the three conversations
		const fork = await withModel(0, 8, () => startRun({ home, from: { run: fast.run, step: 20 }, steps: 40 }));
		expect(fork.stateHash).toBe(fast.stateHash);

		const stop = new AbortController();
		let done = 0;
		const onProgress: RunOptions['onProgress'] = () => {
			if (++done === 20) stop.abort();
		};
		const cut = await withModel(0, 8, () => startRun({ ...base, onProgress, signal: stop.signal }));
		expect(cut.steps).toBe(20);
		const resumed = await withModel(0, 8, () => resumeRun(cut.run, { home }));
		expect(resumed.steps).toBe(60);
		expect(resumed.stateHash).toBe(fast.stateHash);
	}, 240_000);
});
