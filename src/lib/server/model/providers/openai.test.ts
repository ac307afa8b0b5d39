import { inspect } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PromptSet } from '../../../prompts/promptset';
import { ModelGateway, type RecordedCall } from '../gateway';
import { loadPromptSet } from '../load';
import { chatCompletion, embeddingsResponse, startFakeOpenAI, type FakeOpenAI, type FakeHandler } from '../testing/fake-openai';
import { SAMPLE_VARS } from '../testing/sample-vars';
import { OpenAIProvider, openAIOptionsFromEnv, seededJitter, type OpenAIProviderOptions } from './openai';
import { ProviderError } from './types';

const KEY = 'sk-test-SECRET-0123456789abcdef';

let set: PromptSet;
let server: FakeOpenAI | undefined;
beforeAll(async () => {
	set = await loadPromptSet();
});
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function setup(handlers: { chat?: FakeHandler; embeddings?: FakeHandler; dims?: number }, options: OpenAIProviderOptions = {}) {
	server = await startFakeOpenAI(handlers);
	const sleeps: number[] = [];
	const provider = new OpenAIProvider({
		baseURL: server.url,
		apiKey: KEY,
		chatModel: 'test-chat',
		embedModel: 'test-embed',
		dimensions: handlers.dims ?? 8,
		timeoutMs: 2000,
		maxRetries: 3,
		baseDelayMs: 1,
		maxDelayMs: 5,
		sleep: async (ms) => {
			sleeps.push(ms);
			await new Promise((r) => setTimeout(r, Math.min(ms, 5)));
		},
		...options
	});
	return { server, provider, sleeps };
}

const chatReq = { template: 'choose_arena', vars: {}, messages: [{ role: 'user' as const, content: 'pick one' }], sampling: { temperature: 0, max_tokens: 60 } };

describe('OpenAIProvider over HTTP', () => {
	it('sends the chat request and reads text and token counts', async () => {
		const { server, provider } = await setup({ chat: () => ({ json: chatCompletion('{"choice": "kitchen"}', { prompt_tokens: 42, completion_tokens: 5 }) }) });
		const out = await provider.chat(chatReq);
		expect(out).toEqual({ text: '{"choice": "kitchen"}', tokens: { prompt: 42, completion: 5 } });
		const [req] = server.chatRequests();
		expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
		expect(req.body).toEqual({ model: 'test-chat', messages: [{ role: 'user', content: 'pick one' }], temperature: 0, max_tokens: 60 });
	});

	it('asks for JSON mode when configured', async () => {
		const { server, provider } = await setup({ chat: () => ({ json: chatCompletion('{}') }) }, { structured: 'json_object' });
		await provider.chat(chatReq);
		expect((server.chatRequests()[0].body as { response_format: unknown }).response_format).toEqual({ type: 'json_object' });
	});

	it('waits as Retry-After says after a 429, then succeeds', async () => {
		const { server, provider, sleeps } = await setup({
			chat: (_, n) => (n === 0 ? { status: 429, headers: { 'retry-after': '2' }, json: { error: { message: 'rate limited' } } } : { json: chatCompletion('{"ok": true}') })
		});
		expect((await provider.chat(chatReq)).text).toBe('{"ok": true}');
		expect(server.chatRequests()).toHaveLength(2);
		expect(sleeps).toEqual([2000]);
	});

	it('backs off with jitter on repeated 500s and gives up after the retries', async () => {
		const { server, provider, sleeps } = await setup({ chat: () => ({ status: 500, json: { error: { message: 'boom' } } }) }, { baseDelayMs: 4, maxDelayMs: 100 });
		const err = await provider.chat(chatReq).catch((e) => e);
		expect(err).toBeInstanceOf(ProviderError);
		expect(err.message).toMatch(/^chat \(test-chat\) at http:\/\/127\.0\.0\.1:\d+\/v1 failed after 4 attempts: HTTP 500: 500 boom$/);
		expect(err.status).toBe(500);
		expect(err.attempts).toBe(4);
		expect(server.chatRequests()).toHaveLength(4);
		// 4, 8, 16 ms, each scaled by a seeded factor in [0.5, 1).
		expect(sleeps).toHaveLength(3);
		sleeps.forEach((ms, i) => {
			expect(ms).toBeGreaterThanOrEqual(2 * 2 ** i);
			expect(ms).toBeLessThanOrEqual(4 * 2 ** i);
		});
		const j = seededJitter();
		expect(sleeps).toEqual([4, 8, 16].map((base) => Math.round(base * (0.5 + 0.5 * j()))));
	});

	it('does not retry a client error', async () => {
		const { server, provider } = await setup({ chat: () => ({ status: 400, json: { error: { message: 'bad request' } } }) });
		await expect(provider.chat(chatReq)).rejects.toThrow(/failed after 1 attempt: HTTP 400/);
		expect(server.chatRequests()).toHaveLength(1);
	});

	it('times out a slow request and retries it', async () => {
		const { server, provider } = await setup(
			{ chat: (_, n) => (n === 0 ? { delayMs: 1000, json: chatCompletion('{"late": true}') } : { json: chatCompletion('{"fast": true}') }) },
			{ timeoutMs: 100 }
		);
		expect((await provider.chat(chatReq)).text).toBe('{"fast": true}');
		expect(server.chatRequests()).toHaveLength(2);
	});

	it('reports a timeout when every attempt is too slow', async () => {
		const { provider } = await setup({ chat: () => ({ delayMs: 1000, json: chatCompletion('{}') }) }, { timeoutMs: 80, maxRetries: 1 });
		await expect(provider.chat(chatReq)).rejects.toThrow(/failed after 2 attempts: timed out after 80 ms/);
	});

	it('bounds concurrent requests', async () => {
		let active = 0;
		let peak = 0;
		const { provider } = await setup(
			{
				chat: async () => {
					active++;
					peak = Math.max(peak, active);
					await new Promise((r) => setTimeout(r, 20));
					active--;
					return { json: chatCompletion('{}') };
				}
			},
			{ concurrency: 2 }
		);
		await Promise.all(Array.from({ length: 6 }, () => provider.chat(chatReq)));
		expect(peak).toBe(2);
	});

	it('requests float embeddings in batches and returns unit vectors in order', async () => {
		const { server, provider } = await setup({ dims: 4 }, { embedBatchSize: 2 });
		const texts = ['one', 'two', 'three', '', 'five'];
		const vectors = await provider.embed(texts);
		expect(vectors).toHaveLength(5);
		for (const v of vectors) {
			expect(v.length).toBe(4);
			expect(Math.hypot(...v)).toBeCloseTo(1, 5);
		}
		const reqs = server.embeddingRequests();
		expect(reqs).toHaveLength(3);
		for (const r of reqs) expect(r.body).toMatchObject({ model: 'test-embed', encoding_format: 'float' });
		expect(reqs.map((r) => (r.body as { input: string[] }).input)).toEqual([['one', 'two'], ['three', '(empty)'], ['five']]);
		const again = await provider.embed(['three']);
		expect(Array.from(again[0])).toEqual(Array.from(vectors[2]));
	});

	it('orders embeddings by index and refuses ones that are not lists of numbers', async () => {
		const { provider } = await setup({ dims: 2, embeddings: () => ({ json: embeddingsResponse([[0, 1], [1, 0]]) }) });
		const out = await provider.embed(['a', 'b']);
		expect(Array.from(out[0])).toEqual([0, 1]);
		await server!.close();
		const s = await startFakeOpenAI({ embeddings: () => ({ json: { data: [{ index: 0, embedding: 'AAAA' }] } }) });
		server = s;
		const p = new OpenAIProvider({ baseURL: s.url, apiKey: KEY, embedModel: 'x', dimensions: 2 });
		await expect(p.embed(['a'])).rejects.toThrow(/embeddings \(x\) at http:\/\/127\.0\.0\.1:\d+\/v1: an embedding is not a list of numbers/);
	});
});

describe('the API key', () => {
	it('never appears in errors, even when the server echoes it', async () => {
		const echo: FakeHandler = (req) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } } });
		const { provider } = await setup({ chat: echo, embeddings: echo });
		const chatErr: unknown = await provider.chat(chatReq).catch((e: unknown) => e);
		const embedErr: unknown = await provider.embed(['x']).catch((e: unknown) => e);
		for (const e of [chatErr, embedErr] as Error[]) {
			expect(e).toBeInstanceOf(ProviderError);
			expect(e.message).toMatch(/HTTP 401/);
			expect(e.message).toMatch(/\[redacted\]/);
			expect(e.message).not.toContain(KEY);
			expect(String(e.stack)).not.toContain(KEY);
			expect(JSON.stringify(e)).not.toContain(KEY);
		}
	});

	it('never appears in recorded calls', async () => {
		const { provider } = await setup({ chat: (req) => ({ status: 503, json: { error: { message: `overloaded for ${req.headers.authorization}` } } }) }, { maxRetries: 1 });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		const answer = await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' });
		expect(answer.failsafe).toBe(true);
		expect(calls[0].error).toMatch(/HTTP 503/);
		expect(JSON.stringify(calls)).not.toContain(KEY);
	});

	it('is not needed for a local server, and is required otherwise', () => {
		expect(() => new OpenAIProvider({})).toThrow(/needs OPENAI_API_KEY/);
		expect(new OpenAIProvider({ baseURL: 'http://127.0.0.1:9/v1' }).label).toBe('gpt-4o-mini (OpenAI-compatible, http://127.0.0.1:9/v1)');
	});

	it('is kept out of the provider object, whether inspected or written as JSON', () => {
		const p = new OpenAIProvider({ baseURL: 'http://127.0.0.1:9/v1', apiKey: KEY });
		expect(JSON.stringify(p)).not.toContain(KEY);
		expect(inspect(p, { depth: 10, showHidden: true })).not.toContain(KEY);
	});

	it('is kept out of the label even when the base URL carries credentials', () => {
		const p = new OpenAIProvider({ baseURL: `http://user:${KEY}@127.0.0.1:9/v1?key=${KEY}`, apiKey: KEY });
		expect(p.label).not.toContain(KEY);
	});
});

describe('through the gateway', () => {
	it('repairs a malformed answer, then accepts a valid one', async () => {
		const { server } = await setup({ chat: (_, n) => ({ json: chatCompletion(n === 0 ? '{"choice": "kitchen"' + ' oops' : '```json\n{"choice": "kitchen"}\n```') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8, baseDelayMs: 1 });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		expect(await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' })).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		const second = server.chatRequests()[1].body as { messages: { role: string; content: string }[] };
		expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
		expect(second.messages[3].content).toMatch(/could not be used/);
		expect(calls[0]).toMatchObject({ attempts: 2, failsafe: false, tokens: { prompt: 22, completion: 14 }, provider: 'openai', model: 'gpt-4o-mini' });
	});

	it('falls back to the fail-safe after schema-violating answers', async () => {
		const { server } = await setup({ chat: () => ({ json: chatCompletion('{"ratings": [11, "high"]}') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8 });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c), retries: 2 });
		const answer = await g.complete({ template: 'importance', vars: { name: 'X', memories: ['a', 'b'] }, key: 'k' });
		expect(answer).toEqual({ value: { ratings: [3, 3] }, failsafe: true });
		expect(server.chatRequests()).toHaveLength(3);
		const last = server.chatRequests()[2].body as { messages: { content: string }[] };
		expect(last.messages[last.messages.length - 1].content).toMatch(/\$\.ratings\[0\]: 11 is above the maximum 10/);
		expect(calls[0].error).toMatch(/no valid answer after 3 attempts/);
	});

	it('also handles a body that is not JSON at all', async () => {
		const { server } = await setup({ chat: (_, n) => (n === 0 || n === 1 ? { raw: '<html>bad gateway</html>', status: 200 } : { json: chatCompletion('{"choice": "kitchen"}') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8, maxRetries: 0 });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		const answer = await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' });
		expect(answer).toEqual({ value: { choice: 'bedroom' }, failsafe: true });
		expect(calls[0].error).toMatch(/failed after 1 attempt: the endpoint's reply was not JSON/);

		// With retries, the next (valid) reply is used.
		const retrying = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8, maxRetries: 1, sleep: async () => {} });
		const ok = await new ModelGateway({ provider: retrying, templates: set }).complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' });
		expect(ok).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
	});
});

describe('openAIOptionsFromEnv', () => {
	it('reads the documented variables with defaults', () => {
		expect(openAIOptionsFromEnv({})).toMatchObject({ chatModel: 'gpt-4o-mini', embedModel: 'text-embedding-3-small', concurrency: 8 });
		const o = openAIOptionsFromEnv({
			OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1',
			OPENAI_API_KEY: 'k',
			SIMULACRA_CHAT_MODEL: 'llama',
			SIMULACRA_EMBED_MODEL: 'nomic-embed-text',
			SIMULACRA_MODEL_CONCURRENCY: '2',
			SIMULACRA_MODEL_TIMEOUT_MS: '5000',
			SIMULACRA_JSON_MODE: 'off'
		});
		expect(o).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1', apiKey: 'k', chatModel: 'llama', embedModel: 'nomic-embed-text', concurrency: 2, timeoutMs: 5000, structured: 'off' });
		expect(openAIOptionsFromEnv({}).structured).toBe('json_schema');
		expect(openAIOptionsFromEnv({ SIMULACRA_JSON_MODE: 'on' }).structured).toBe('json_object');
		expect(openAIOptionsFromEnv({ SIMULACRA_STRUCTURED: 'off', SIMULACRA_JSON_MODE: 'on' }).structured).toBe('off');
		// a known model's dimension is a hint, learned for real from the first embedding
		expect(new OpenAIProvider(o)).toMatchObject({ dimensions: 768, learnDimensions: true });
		expect(new OpenAIProvider({ ...o, dimensions: 512 })).toMatchObject({ dimensions: 512, learnDimensions: false });
	});

	it('names a bad variable', () => {
		expect(() => openAIOptionsFromEnv({ SIMULACRA_MODEL_CONCURRENCY: 'many' })).toThrow('SIMULACRA_MODEL_CONCURRENCY must be a positive integer (got "many")');
		expect(() => openAIOptionsFromEnv({ SIMULACRA_STRUCTURED: 'grammar' })).toThrow('SIMULACRA_STRUCTURED must be one of json_schema, json_object, off (got "grammar")');
		expect(() => openAIOptionsFromEnv({ OPENAI_BASE_URL: 'localhost:11434' })).toThrow(/OPENAI_BASE_URL: must start with http:\/\/ or https:\/\//);
		expect(new OpenAIProvider({ apiKey: 'k', embedModel: 'mystery' })).toMatchObject({ dimensions: 0, learnDimensions: true });
	});
});

describe('structured outputs', () => {
	type Body = { model: string; response_format?: { type: string; json_schema?: { name: string; strict: boolean; schema: Record<string, unknown> } }; messages: unknown[] };

	it('sends the call\'s JSON Schema, with the enum of its options, strict, and keeps sending it in repair rounds', async () => {
		const { server } = await setup({ chat: (_, n) => ({ json: chatCompletion(n === 0 ? '{"choice": "attic"}' : '{"choice": "kitchen"}') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8 });
		const g = new ModelGateway({ provider, templates: set });
		expect(await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' })).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		const bodies = server.chatRequests().map((r) => r.body as Body);
		expect(bodies).toHaveLength(2);
		for (const body of bodies) {
			expect(body.response_format).toEqual({
				type: 'json_schema',
				json_schema: {
					name: 'choose_arena',
					strict: true,
					schema: {
						type: 'object',
						properties: { choice: { type: 'string', description: 'One of the options, copied exactly.', enum: SAMPLE_VARS.choose_arena.options } },
						required: ['choice'],
						additionalProperties: false
					}
				}
			});
		}
		expect(bodies[1].messages).toHaveLength(4);
	});

	it('binds list lengths and item numbers to the call, and writes text lengths as the pattern strict mode accepts', async () => {
		const { server } = await setup({ chat: () => ({ json: chatCompletion('{"ratings": [2, 5, 9]}') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8 });
		await new ModelGateway({ provider, templates: set }).complete({ template: 'importance', vars: SAMPLE_VARS.importance, key: 'k' });
		const schema = (server.chatRequests()[0].body as Body).response_format!.json_schema!.schema as { properties: { ratings: Record<string, unknown> } };
		expect(schema.properties.ratings).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
		await new ModelGateway({ provider, templates: set }).complete({ template: 'action_emoji', vars: SAMPLE_VARS.action_emoji, key: 'k2' });
		const emoji = (server.chatRequests()[1].body as Body).response_format!.json_schema!.schema as { properties: { emoji: Record<string, unknown> } };
		expect(emoji.properties.emoji).toEqual({ type: 'string', description: 'One or two emoji, nothing else.', pattern: '^[\\s\\S]{1,8}$' });
	});

	it('asks for any JSON object with json_object, and for nothing with off', async () => {
		const { server } = await setup({ chat: () => ({ json: chatCompletion('{"choice": "kitchen"}') }) });
		for (const structured of ['json_object', 'off'] as const) {
			const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8, structured });
			const answer = await new ModelGateway({ provider, templates: set }).complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' });
			expect(answer.failsafe).toBe(false);
		}
		const [jsonObject, off] = server.chatRequests().map((r) => r.body as Body);
		expect(jsonObject.response_format).toEqual({ type: 'json_object' });
		expect(off).not.toHaveProperty('response_format');
	});

	it('extracts answers from servers that ignore the format: prose, fences, trailing commas, single quotes', async () => {
		const answers = [
			'Sure! The best place is the kitchen.\n```json\n{"choice": "kitchen",}\n```',
			"I would pick {'choice': 'kitchen'} because that is where the oven is.",
			'<think>the oven is in the kitchen</think>\n{\n  // best fit\n  "choice": "kitchen",\n}'
		];
		const { server } = await setup({ chat: (_, n) => ({ json: chatCompletion(answers[n]) }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, dimensions: 8, structured: 'off' });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		for (let i = 0; i < answers.length; i++) {
			expect(await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: `k${i}` })).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		}
		expect(calls.map((c) => c.attempts)).toEqual([1, 1, 1]);
		expect(server.chatRequests()).toHaveLength(3);
	});

	it('says which setting to change when a server refuses response_format', async () => {
		const { provider } = await setup({ chat: () => ({ status: 400, json: { error: { message: "Invalid value for 'response_format'" } } }) });
		const err = await provider.chat({ ...chatReq, jsonSchema: { type: 'object', properties: {}, required: [], additionalProperties: false } }).then(() => new Error('no error'), (e: Error) => e);
		expect(err.message).toMatch(/HTTP 400: .*response_format.* \(if this server does not accept response_format, set this endpoint's "structured" to "json_object" or "off"\)$/);
	});

	it('records the endpoint host and model of each call', async () => {
		const { server } = await setup({ chat: () => ({ json: chatCompletion('{"choice": "kitchen"}') }) });
		const provider = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, chatModel: 'qwen2.5:7b', dimensions: 8 });
		const calls: RecordedCall[] = [];
		await new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) }).complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' });
		expect(calls[0]).toMatchObject({ provider: 'openai', endpoint: new URL(server.url).host, model: 'qwen2.5:7b' });
		expect(calls[0].endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
	});
});
