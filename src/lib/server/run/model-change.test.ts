// Runs against an OpenAI-compatible test server: a resume or fork under another model identity
// is refused unless allowed (and then recorded), another embedding size is refused always, and
// an embedding failure pauses the run at its last commit, from which it resumes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsResponse, fakeVector, startFakeOpenAI, type FakeHandler, type FakeOpenAI } from '../model/testing/fake-openai';
import { openRun, resumeRun, startRun } from './runner';

const root = mkdtempSync(path.join(tmpdir(), 'model-change-'));
const saved = { ...process.env };
let server: FakeOpenAI;
/** replaced by tests that make embeddings fail */
let embedHandler: FakeHandler | null = null;

function useModel(chat: string, dims = 8): void {
	process.env.OPENAI_BASE_URL = server.url;
	process.env.OPENAI_API_KEY = 'sk-test-not-a-key';
	process.env.SIMULACRA_CHAT_MODEL = chat;
	process.env.SIMULACRA_EMBED_MODEL = 'embed-test';
	process.env.SIMULACRA_EMBED_DIMENSIONS = String(dims);
	process.env.SIMULACRA_MODEL_MAX_RETRIES = '0';
	delete process.env.SIMULACRA_MODELS;
}

let serverDims = 8;

beforeAll(async () => {
	server = await startFakeOpenAI({
		embeddings: (req, n) => {
			if (embedHandler) return embedHandler(req, n);
			const input = (req.body as { input: string[] }).input;
			return { json: embeddingsResponse(input.map((t) => fakeVector(t, serverDims))) };
		}
	});
});

afterAll(async () => {
	await server?.close();
	for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
	Object.assign(process.env, saved);
	rmSync(root, { recursive: true, force: true });
});

const home = (name: string) => path.join(root, name);

describe('model changes are explicit', () => {
	it('refuses a resume under another chat model unless allowed, then records the change', async () => {
		useModel('model-a');
		process.env.SIMULACRA_HOME = home('a');
		const first = await startRun({ world: 'the-ville-3', seed: 3, steps: 6, model: 'openai', home: home('a') });
		const meta = openRun(first.run, home('a')).meta;
		expect(meta.identity?.chat).toEqual({ endpoint: new URL(server.url).host, model: 'model-a' });
		expect(meta.identity?.embed.dimensions).toBe(8);
		expect(JSON.stringify(meta)).not.toContain('sk-test');

		useModel('model-b');
		await expect(resumeRun(first.run, { home: home('a'), steps: 2 })).rejects.toThrow(/was made with openai: chat model-a .*configured now is openai: chat model-b.*--allow-model-change/);
		// refused before anything was written
		expect(openRun(first.run, home('a')).committed()).toBe(6);

		const resumed = await resumeRun(first.run, { home: home('a'), steps: 2, allowModelChange: true });
		expect(resumed.steps).toBe(8);
		const after = openRun(first.run, home('a')).meta;
		expect(after.identity?.chat.model).toBe('model-b');
		expect(after.model.model).toBe('model-b');
		expect(after.modelChanges).toHaveLength(1);
		expect(after.modelChanges?.[0].step).toBe(6);
		expect(after.modelChanges?.[0].from.chat.model).toBe('model-a');
		expect(after.modelChanges?.[0].to.chat.model).toBe('model-b');

		// the same model again: no change to record
		await resumeRun(first.run, { home: home('a'), steps: 1 });
		expect(openRun(first.run, home('a')).meta.modelChanges).toHaveLength(1);

		// a fork under another model: refused, then allowed and recorded in the fork
		useModel('model-c');
		await expect(startRun({ home: home('a'), from: { run: first.run, step: 4 }, steps: 2 })).rejects.toThrow(/model-b.*model-c/);
		const fork = await startRun({ home: home('a'), from: { run: first.run, step: 4 }, steps: 2, allowModelChange: true });
		const forkMeta = openRun(fork.run, home('a')).meta;
		// the parent's change at step 6 came after the fork step and is not the fork's
		expect(forkMeta.modelChanges?.map((c) => [c.step, c.from.chat.model, c.to.chat.model])).toEqual([[4, 'model-b', 'model-c']]);
	}, 120_000);

	it('refuses embeddings of another size even when a change is allowed', async () => {
		useModel('model-a');
		process.env.SIMULACRA_HOME = home('d');
		serverDims = 8;
		const run = await startRun({ world: 'the-ville-3', seed: 3, steps: 3, model: 'openai', home: home('d') });
		useModel('model-a', 16);
		serverDims = 16;
		try {
			await expect(resumeRun(run.run, { home: home('d'), steps: 1, allowModelChange: true })).rejects.toThrow(
				/16 dimensions and the run's memories have 8 \(vectors of different sizes cannot be compared\)/
			);
			await expect(startRun({ home: home('d'), from: { run: run.run, step: 2 }, steps: 1, allowModelChange: true })).rejects.toThrow(/different sizes/);
		} finally {
			serverDims = 8;
		}
		expect(openRun(run.run, home('d')).meta.modelChanges ?? []).toEqual([]);
	}, 60_000);
});

describe('faults pause, never abort', () => {
	it('an embedding failure pauses the run at its last commit; resume finishes it as if nothing happened', async () => {
		useModel('model-a');
		process.env.SIMULACRA_HOME = home('f1');
		const before = server.embeddingRequests().length;
		const whole = await startRun({ world: 'the-ville-3', seed: 5, steps: 380, model: 'openai', home: home('f1') });
		const used = server.embeddingRequests().length - before;
		expect(used).toBeGreaterThan(3);

		// the same run in a fresh data home (no cached embeddings), the endpoint failing half-way
		process.env.SIMULACRA_HOME = home('f2');
		const start = server.embeddingRequests().length;
		// the last embedding request of the run fails (after the first step: a committed step to go back to)
		const failFrom = start + used - 1;
		let down = true;
		embedHandler = (req, n) => {
			void n;
			if (down && server.embeddingRequests().length > failFrom) return { status: 503, json: { error: { message: 'overloaded' } } };
			const input = (req.body as { input: string[] }).input;
			return { json: embeddingsResponse(input.map((t) => fakeVector(t, 8))) };
		};
		const paused = await startRun({ world: 'the-ville-3', seed: 5, steps: 380, model: 'openai', home: home('f2') });
		down = false;
		embedHandler = null;
		expect(paused.status).toBe('paused');
		expect(paused.pause?.reason).toBe('fault');
		expect(paused.pause?.message).toMatch(/^model fault at step \d+: .*503/);
		expect(paused.pause?.message).not.toContain('sk-test');
		const at = paused.pause?.step ?? -1;
		expect(at).toBeGreaterThan(0);
		expect(at).toBeLessThan(380);
		const reader = openRun(paused.run, home('f2'));
		expect(reader.meta.status).toBe('paused');
		expect(reader.committed()).toBe(at);
		// the half-done step left nothing behind
		expect(reader.calls().every((c) => c.s < at)).toBe(true);
		expect(paused.steps).toBe(at);

		const done = await resumeRun(paused.run, { home: home('f2') });
		expect(done.status).toBe('done');
		expect(done.steps).toBe(380);
		expect(done.stateHash).toBe(whole.stateHash);
	}, 120_000);
});
