// Routing, provenance, keys and embedding faults over real HTTP: two local OpenAI-compatible
// servers stand for two endpoints (say, a small local model and a hosted one).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PromptSet } from '../../../prompts/promptset';
import { createModel } from '../../run/models';
import { AnswerCache } from '../cache';
import { parseModelConfig, type ModelConfig } from '../config';
import { ChatFault, EmbeddingFault, ModelGateway, type RecordedCall } from '../gateway';
import { languageModelProvider } from '../index';
import { loadPromptSet } from '../load';
import { chatCompletion, embeddingsResponse, fakeVector, startFakeOpenAI, type FakeHandler, type FakeOpenAI } from '../testing/fake-openai';
import { SAMPLE_VARS } from '../testing/sample-vars';
import { RoutedProvider } from './routed';

const KEY_A = 'sk-endpoint-A-0123456789SECRET';

let set: PromptSet;
const servers: FakeOpenAI[] = [];
beforeAll(async () => {
	set = await loadPromptSet();
});
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handlers: { chat?: FakeHandler; embeddings?: FakeHandler; dims?: number } = {}): Promise<FakeOpenAI> {
	const s = await startFakeOpenAI(handlers);
	servers.push(s);
	return s;
}

/** Answers each template validly, whatever model is asked. */
const answers: FakeHandler = (req) => {
	const text = JSON.stringify(req.body);
	if (text.includes('"name":"importance"')) return { json: chatCompletion('{"ratings": [3, 5, 8]}') };
	if (text.includes('"name":"daily_plan"')) {
		return { json: chatCompletion(JSON.stringify({ wake_hour: 6, agenda: ['wake up at 6:00 am', 'bake', 'open the bakery', 'lunch at 12:00 pm', 'bed at 9:00 pm'] })) };
	}
	if (text.includes('"name":"action_emoji"')) return { json: chatCompletion('{"emoji": "🍞"}') };
	return { json: chatCompletion('{}') };
};

function config(a: FakeOpenAI, b: FakeOpenAI, extra: Partial<Record<keyof ModelConfig, unknown>> = {}): ModelConfig {
	return parseModelConfig(
		{
			endpoints: { small: { baseURL: a.url, apiKeyEnv: 'SMALL_KEY', concurrency: 2 }, big: { baseURL: b.url } },
			chat: { endpoint: 'big', model: 'big-model' },
			embed: { endpoint: 'small', model: 'small-embed', dimensions: 8 },
			routes: { importance: { endpoint: 'small', model: 'small-model' } },
			...extra
		},
		'models.json'
	);
}

const fast = { maxRetries: 0, baseDelayMs: 1, sleep: async () => {} };

describe('a routed provider', () => {
	it('sends importance to endpoint A\'s model and daily_plan to B\'s, and records host and model of each', async () => {
		const a = await serve({ chat: answers });
		const b = await serve({ chat: answers });
		const provider = languageModelProvider({ SMALL_KEY: KEY_A }, config(a, b), fast);
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		expect((await g.complete({ template: 'importance', vars: SAMPLE_VARS.importance, key: '1/nora/0' })).failsafe).toBe(false);
		expect((await g.complete({ template: 'daily_plan', vars: SAMPLE_VARS.daily_plan, key: '1/nora/1' })).failsafe).toBe(false);

		expect(a.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['small-model']);
		expect(b.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['big-model']);
		const hostA = new URL(a.url).host;
		const hostB = new URL(b.url).host;
		expect(calls.map(({ template, provider, endpoint, model }) => ({ template, provider, endpoint, model }))).toEqual([
			{ template: 'importance', provider: 'openai', endpoint: hostA, model: 'small-model' },
			{ template: 'daily_plan', provider: 'openai', endpoint: hostB, model: 'big-model' }
		]);
		expect(provider.label).toBe(`big-model (OpenAI-compatible, ${b.url}; 1 template routed; embeddings at ${hostA})`);
	});

	it('sends embeddings to the embedding endpoint with its model', async () => {
		const a = await serve();
		const b = await serve();
		const g = new ModelGateway({ provider: languageModelProvider({ SMALL_KEY: KEY_A }, config(a, b), fast), templates: set });
		expect(await g.embed(['the oven is idle'])).toHaveLength(1);
		expect(a.embeddingRequests().map((r) => (r.body as { model: string }).model)).toEqual(['small-embed']);
		expect(b.embeddingRequests()).toHaveLength(0);
	});

	it('sends each endpoint its own key only, and never records or reports one', async () => {
		const echo: FakeHandler = (req) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } } });
		const a = await serve({ chat: echo, embeddings: echo });
		const b = await serve({ chat: answers });
		const provider = languageModelProvider({ SMALL_KEY: KEY_A, OPENAI_API_KEY: 'sk-classic-key-0123456789' }, config(a, b), fast);
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		const refused = await g.complete({ template: 'importance', vars: SAMPLE_VARS.importance, key: 'k1' }).catch((e: unknown) => e);
		await g.complete({ template: 'daily_plan', vars: SAMPLE_VARS.daily_plan, key: 'k2' });
		const fault = await g.embed(['x']).catch((e: unknown) => e);

		expect(a.chatRequests()[0].headers.authorization).toBe(`Bearer ${KEY_A}`);
		// an endpoint with no apiKeyEnv gets no real key (not even OPENAI_API_KEY)
		expect(b.chatRequests()[0].headers.authorization).toBe('Bearer no-key');
		expect(refused).toBeInstanceOf(ChatFault);
		expect((refused as Error).message).toMatch(/HTTP 401: .*\[redacted\]/);
		expect(fault).toBeInstanceOf(EmbeddingFault);
		expect((fault as Error).message).toMatch(/HTTP 401/);
		const texts = [JSON.stringify(calls), (refused as Error).message, String((refused as Error).stack), (fault as Error).message, String((fault as Error).stack)];
		for (const text of [...texts, JSON.stringify(provider), JSON.stringify(provider.config)]) {
			expect(text).not.toContain(KEY_A);
			expect(text).not.toContain('sk-classic-key');
		}
	});

	it('refuses to start without a key its configuration names', async () => {
		const a = await serve();
		const b = await serve();
		expect(() => languageModelProvider({}, config(a, b))).toThrow('models.json: endpoints.small.apiKeyEnv: the environment variable SMALL_KEY is not set');
	});

	it('keys cached answers by endpoint and model: the same prompt routed elsewhere is asked again', async () => {
		const a = await serve({ chat: answers });
		const b = await serve({ chat: answers });
		const cache = AnswerCache.memory();
		const req = { template: 'importance' as const, vars: SAMPLE_VARS.importance, key: 'k' };
		const first = new ModelGateway({ provider: languageModelProvider({ SMALL_KEY: KEY_A }, config(a, b), fast), templates: set, cache });
		await first.complete(req);
		await first.complete(req);
		expect(a.chatRequests()).toHaveLength(1);
		const elsewhere = config(a, b, { routes: { importance: { endpoint: 'big', model: 'small-model' } } });
		const calls: RecordedCall[] = [];
		await new ModelGateway({ provider: languageModelProvider({ SMALL_KEY: KEY_A }, elsewhere, fast), templates: set, cache, recorder: (c) => calls.push(c) }).complete(req);
		expect(b.chatRequests()).toHaveLength(1);
		expect(calls[0]).toMatchObject({ cacheHit: false, endpoint: new URL(b.url).host, model: 'small-model' });
	});

	it('retries wrong-size embeddings, then reports an EmbeddingFault naming host, model and the fix', async () => {
		const a = await serve({ dims: 4 });
		const b = await serve();
		const g = new ModelGateway({ provider: languageModelProvider({ SMALL_KEY: KEY_A }, config(a, b), fast), templates: set });
		const err = await g.embed(['the oven is idle']).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EmbeddingFault);
		expect(a.embeddingRequests()).toHaveLength(3);
		expect((err as EmbeddingFault).message).toBe(
			`embeddings from small-embed at ${new URL(a.url).host} came back with 4 dimensions instead of 8, 3 times in a row. ` +
				'Check that the embedding model named in the configuration is the one this endpoint serves; if the model really has 4 dimensions, ' +
				'set embed.dimensions (or SIMULACRA_EMBED_DIMENSIONS) to 4. A run keeps the dimension it started with: a run started with another embedding model resumes only with that model.'
		);
	});

	it('gets over a passing wrong-size answer', async () => {
		const a = await serve({
			embeddings: (req, n) => {
				const input = (req.body as { input: string[] }).input;
				return { json: embeddingsResponse(input.map((t) => fakeVector(t, n === 0 ? 3 : 8))) };
			}
		});
		const b = await serve();
		const g = new ModelGateway({ provider: languageModelProvider({ SMALL_KEY: KEY_A }, config(a, b), fast), templates: set });
		const [v] = await g.embed(['the oven is idle']);
		expect(v).toHaveLength(8);
		expect(a.embeddingRequests()).toHaveLength(2);
	});

	it('learns the dimension from the first embedding when the configuration does not state it', async () => {
		const a = await serve({ dims: 6 });
		const b = await serve();
		const c = config(a, b, { embed: { endpoint: 'small', model: 'mystery-embed' } });
		const provider = languageModelProvider({ SMALL_KEY: KEY_A }, c, fast);
		expect(provider).toMatchObject({ learnDimensions: true, dimensions: 0 });
		const g = new ModelGateway({ provider, templates: set });
		expect(await g.resolveDimensions()).toBe(6);
		expect(g.dimensions).toBe(6);
		expect(a.embeddingRequests()).toHaveLength(1);
		expect((await g.embed(['a', 'b']))[1]).toHaveLength(6);
	});
});

describe('a run\'s model', () => {
	it('hands the journal each call with provider, endpoint host and model', async () => {
		const a = await serve({ chat: answers });
		const b = await serve({ chat: answers });
		const home = mkdtempSync(path.join(tmpdir(), 'simulacra-home-'));
		try {
			const file = path.join(home, 'models.json');
			writeFileSync(
				file,
				JSON.stringify({
					endpoints: { small: { baseURL: a.url, apiKeyEnv: 'SMALL_KEY' }, big: { baseURL: b.url } },
					chat: { endpoint: 'big', model: 'big-model' },
					embed: { endpoint: 'small', model: 'small-embed', dimensions: 8 },
					routes: { importance: { endpoint: 'small', model: 'small-model' } }
				})
			);
			const model = await createModel('openai', { home, env: { SIMULACRA_HOME: home, SIMULACRA_MODELS: file, SMALL_KEY: KEY_A } });
			try {
				await model.complete({ template: 'importance', vars: SAMPLE_VARS.importance, key: '3/nora/0' });
				await model.complete({ template: 'daily_plan', vars: SAMPLE_VARS.daily_plan, key: '3/nora/1' });
				const calls = model.drainCalls();
				expect(calls.map((c) => [c.provider, c.endpoint, c.model])).toEqual([
					['openai', new URL(a.url).host, 'small-model'],
					['openai', new URL(b.url).host, 'big-model']
				]);
				expect(JSON.stringify(calls)).not.toContain(KEY_A);
			} finally {
				model.close();
			}
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it('keeps each endpoint\'s concurrency across the models it serves', async () => {
		let active = 0;
		let peak = 0;
		const slow: FakeHandler = async (req) => {
			active++;
			peak = Math.max(peak, active);
			await new Promise((r) => setTimeout(r, 30));
			active--;
			return answers(req, 0);
		};
		const a = await serve({ chat: slow });
		const b = await serve({ chat: answers });
		const c = config(a, b, { routes: { importance: { endpoint: 'small', model: 'small-model' }, action_emoji: { endpoint: 'small', model: 'other-small' } } });
		const provider = languageModelProvider({ SMALL_KEY: KEY_A }, c, fast);
		expect(provider).toBeInstanceOf(RoutedProvider);
		expect(provider.route('action_emoji')).toEqual({ provider: 'openai', endpoint: new URL(a.url).host, model: 'other-small' });
		expect(provider.route('dialogue_turn')).toEqual({ provider: 'openai', endpoint: new URL(b.url).host, model: 'big-model' });
		const g = new ModelGateway({ provider, templates: set, concurrency: 16 });
		await Promise.all(
			Array.from({ length: 6 }, (_, i) =>
				i % 2
					? g.complete({ template: 'importance', vars: { ...SAMPLE_VARS.importance, name: `Name ${i}` }, key: `k${i}` })
					: g.complete({ template: 'action_emoji', vars: { activity: `baking ${i}` }, key: `k${i}` })
			)
		);
		expect(a.chatRequests()).toHaveLength(6);
		expect(peak).toBe(2);
	});
});
