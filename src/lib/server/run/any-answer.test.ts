// Any schema-valid answer, through real HTTP: Smallville runs with the OpenAI-compatible
// provider against a local server that answers every request with random JSON valid for the
// JSON Schema the request carries (or wraps such answers in prose, as small local models do).
// Every step keeps the engine's invariants, and the run is restored from its journal to the
// same state hash.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invariantProblems, memoryTracker } from '../../engine/invariants';
import { startProseServer } from '../model/testing/prose-server';
import { startSchemaServer, type SchemaServer } from '../model/testing/schema-server';
import { LiveRun, loadState, openRun, stateHash } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'any-answer-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ENV_KEYS = [
	'SIMULACRA_HOME',
	'SIMULACRA_MODELS',
	'SIMULACRA_PROVIDER',
	'OPENAI_BASE_URL',
	'OPENAI_API_KEY',
	'SIMULACRA_CHAT_MODEL',
	'SIMULACRA_EMBED_MODEL',
	'SIMULACRA_EMBED_DIMENSIONS',
	'SIMULACRA_MODEL_CONCURRENCY',
	'SIMULACRA_STRUCTURED',
	'SIMULACRA_JSON_MODE'
];
let saved: Record<string, string | undefined> = {};
let server: SchemaServer | null = null;

beforeEach(() => {
	saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
	for (const k of ENV_KEYS) delete process.env[k];
});
afterEach(async () => {
	for (const [k, v] of Object.entries(saved)) {
		if (v === undefined) delete process.env[k];
		else process.env[k] = v;
	}
	await server?.close();
	server = null;
});

function pointAt(s: SchemaServer, dims: number): void {
	process.env.SIMULACRA_HOME = home;
	process.env.OPENAI_BASE_URL = s.url;
	process.env.SIMULACRA_CHAT_MODEL = 'random-valid-json';
	process.env.SIMULACRA_EMBED_MODEL = 'random-unit-vectors';
	process.env.SIMULACRA_EMBED_DIMENSIONS = String(dims);
	process.env.SIMULACRA_MODEL_CONCURRENCY = '16';
}

/** Runs Smallville for `steps` steps, checking the invariants after each; returns the summary and a halfway hash. */
async function runChecked(steps: number, seed: number) {
	const live = await LiveRun.start({ world: 'smallville', steps, seed, home, model: 'openai' });
	const seen = memoryTracker();
	const half = Math.floor(steps / 2);
	let halfHash = '';
	try {
		while (!live.done) {
			await live.advance();
			const problems = invariantProblems(live.sim, live.sim.world, seen);
			expect(problems).toEqual([]);
			if (live.step === half) halfHash = stateHash(live.sim);
		}
	} finally {
		await live.close();
	}
	return { summary: live.summary(), half, halfHash };
}

describe('any schema-valid answer, through HTTP (Smallville)', () => {
	it('the schema server: every invariant at every step, and the journal restores the same state', async () => {
		server = await startSchemaServer({ seed: 11, dims: 32, keepRequests: false });
		pointAt(server, 32);
		const steps = 360;
		const { summary, half, halfHash } = await runChecked(steps, 4);
		expect(summary.steps).toBe(steps);
		expect(server.counts.chat).toBeGreaterThan(100);
		expect(server.counts.withoutSchema).toBe(0);
		expect(summary.tokens.prompt).toBeGreaterThan(0);
		expect(summary.tokens.completion).toBeGreaterThan(0);
		// the embedding requests to the endpoint are paid for too: counted apart, kept in run.json
		expect(summary.embeddings.calls).toBeGreaterThan(0);
		expect(summary.embeddings.calls).toBeLessThanOrEqual(server.counts.embeddings);
		expect(summary.embeddings.prompt).toBeGreaterThan(summary.embeddings.calls);
		expect(openRun(summary.run, home).meta.embeddings).toEqual(summary.embeddings);
		expect(openRun(summary.run, home).steps()).toHaveLength(steps);
		const end = await loadState(summary.run, steps, { home });
		expect(stateHash(end.sim)).toBe(summary.stateHash);
		const middle = await loadState(summary.run, half, { home });
		expect(stateHash(middle.sim)).toBe(halfHash);
	}, 120_000);

	it('the prose server: answers wrapped in prose, fences and trailing commas are read, invariants hold', async () => {
		server = await startProseServer({ seed: 12, dims: 32, keepRequests: false });
		pointAt(server, 32);
		const steps = 180;
		const { summary } = await runChecked(steps, 5);
		expect(summary.steps).toBe(steps);
		expect(server.counts.wrapped).toBeGreaterThan(server.counts.chat / 2);
		const end = await loadState(summary.run, steps, { home });
		expect(stateHash(end.sim)).toBe(summary.stateHash);
	}, 120_000);
});
