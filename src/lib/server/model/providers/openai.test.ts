import { inspect } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PromptSet } from '../../../prompts/promptset';
import { ChatFault, ModelGateway, type RecordedCall } from '../gateway';
import { loadPromptSet } from '../load';
import { chatCompletion, embeddingsResponse, startFakeOpenAI, type FakeOpenAI, type FakeHandler } from '../testing/fake-openai';
import { SAMPLE_VARS } from '../testing/sample-vars';
import { parseModelConfig } from '../config';
import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_TOKENS, OpenAIProvider, openAIOptionsFromEnv, seededJitter, type OpenAIProviderOptions } from './openai';
import { RoutedProvider } from './routed';
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
			{ chat: (_, n) => (n === 0 ? { delayMs: 1500, json: chatCompletion('{"late": true}') } : { json: chatCompletion('{"fast": true}') }) },
			{ timeoutMs: 300 }
		);
		expect((await provider.chat(chatReq)).text).toBe('{"fast": true}');
		expect(server.chatRequests()).toHaveLength(2);
	});

	it('reports a timeout when every attempt is too slow', async () => {
		const { provider } = await setup({ chat: () => ({ delayMs: 1000, json: chatCompletion('{}') }) }, { timeoutMs: 80, maxRetries: 1 });
		await expect(provider.chat(chatReq)).rejects.toThrow(/failed after 2 attempts: timed out: the whole request took longer than 80 ms \(headers and body\)$/);
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

	it('never appears in recorded calls or in the fault that pauses a run', async () => {
		const { provider } = await setup({ chat: (req) => ({ status: 503, json: { error: { message: `overloaded for ${req.headers.authorization}` } } }) }, { maxRetries: 1 });
		const calls: RecordedCall[] = [];
		const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c) });
		const fault = await g.complete({ template: 'choose_arena', vars: SAMPLE_VARS.choose_arena, key: 'k' }).catch((e: unknown) => e);
		expect(fault).toBeInstanceOf(ChatFault);
		expect((fault as Error).message).toMatch(/HTTP 503/);
		expect((fault as Error).message).toMatch(/Bearer \[redacted\]/);
		expect(`${(fault as Error).message} ${(fault as Error).stack} ${JSON.stringify(calls)}`).not.toContain(KEY);
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
		const err = await provider.chat(chatReq).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ProviderError);
		expect((err as ProviderError).message).toMatch(
			/failed after 1 attempt: the endpoint answered HTTP 200 with application\/json that is not valid JSON \(<html>bad gateway<\/html>\) instead of a chat completion; is a proxy in the way\?$/
		);

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

describe('faults of real endpoints', () => {
	const good = chatCompletion('{"choice": "kitchen"}');
	const PAGE = '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>\n';

	async function failure(p: Promise<unknown>): Promise<ProviderError> {
		const e = await p.then(
			() => new Error('no error'),
			(e: unknown) => e
		);
		expect(e).toBeInstanceOf(ProviderError);
		return e as ProviderError;
	}

	it('gives the whole exchange one deadline: a body dripping 5 bytes a second fails at the deadline', async () => {
		const { server, provider } = await setup({ chat: () => ({ json: good, drip: { bytesPerSecond: 5 } }) }, { timeoutMs: 500, maxRetries: 0 });
		const started = performance.now();
		const err = await failure(provider.chat(chatReq));
		const took = performance.now() - started;
		expect(err.message).toMatch(/^chat \(test-chat\) at http:\/\/127\.0\.0\.1:\d+\/v1 failed after 1 attempt: timed out: the whole request took longer than 500 ms \(headers and body\)$/);
		expect(err.fault).toBe('deadline');
		expect(err.status).toBeUndefined();
		expect(took).toBeGreaterThanOrEqual(490);
		expect(took).toBeLessThan(1500);
		// the headers came at once: the SDK's own timeout would not have stopped it
		expect(server.streamedBytes()).toBeGreaterThan(0);
	});

	it('ends a body that never ends, each attempt at the deadline, and retries it', async () => {
		const { server, provider, sleeps } = await setup({ chat: () => ({ json: good, drip: { chunk: 4, intervalMs: 20, forever: true } }) }, { timeoutMs: 300, maxRetries: 2 });
		const started = performance.now();
		const err = await failure(provider.chat(chatReq));
		const took = performance.now() - started;
		expect(err.message).toMatch(/failed after 3 attempts: timed out: the whole request took longer than 300 ms \(headers and body\)$/);
		expect(err.attempts).toBe(3);
		expect(server.chatRequests()).toHaveLength(3);
		expect(sleeps).toHaveLength(2);
		expect(took).toBeLessThan(3 * 300 + 600);
	});

	it('turns a proxy\'s HTML page with HTTP 200 into a ProviderError after the retries, not an answer', async () => {
		const { server, provider, sleeps } = await setup({ chat: () => ({ status: 200, contentType: 'text/html; charset=utf-8', raw: PAGE }) });
		const err = await failure(provider.chat(chatReq));
		expect(err.message).toMatch(
			/failed after 4 attempts: the endpoint answered HTTP 200 with text\/html \(<!DOCTYPE html> <html> <head><title>502 Bad Gateway<\/title><\/head> <body> <cente…\) instead of a chat completion; is a proxy in the way\?$/
		);
		expect(err.fault).toBe('not_a_completion');
		expect(err.status).toBeUndefined();
		expect(err.attempts).toBe(4);
		expect(server.chatRequests()).toHaveLength(4);
		expect(sleeps).toHaveLength(3);
	});

	it('keeps the key out of a quoted page that echoes it', async () => {
		const { provider } = await setup({ chat: (req) => ({ contentType: 'text/html', raw: `<p>${req.headers.authorization}</p>` }) }, { maxRetries: 0 });
		const err = await failure(provider.chat(chatReq));
		expect(err.message).toMatch(/with text\/html \(<p>Bearer \[redacted\]<\/p>\)/);
		expect(err.message).not.toContain(KEY);
	});

	it('refuses an empty body with HTTP 200, whatever its content type and length', async () => {
		const replies = [{ raw: '' }, { raw: '', contentType: 'text/html' }, { raw: '', headers: { 'content-length': '0' } }, { json: good, drip: { forever: false, chunk: 1000 }, raw: '' }];
		for (const reply of replies) {
			const { server, provider } = await setup({ chat: () => reply }, { maxRetries: 1 });
			const err = await failure(provider.chat(chatReq));
			expect(err.message).toMatch(/failed after 2 attempts: the endpoint answered HTTP 200 with an empty body instead of a chat completion$/);
			expect(server.chatRequests()).toHaveLength(2);
			await server.close();
		}
	});

	it('refuses JSON that is not a chat completion with text', async () => {
		const shapes: [unknown, RegExp][] = [
			[{ foo: 1 }, /with JSON that is not a chat completion \(no choices\): \{"foo":1\}$/],
			[[1, 2], /\(a JSON array, not an object\): \[1,2\]$/],
			[{ choices: [] }, /\(no choices\)/],
			[{ error: { message: 'model is loading' } }, /\(an error: model is loading\)/],
			[{ choices: [{ index: 0 }] }, /\(choices\[0\] has no message\)/],
			[{ choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }] }, /\(no text: the model refused: "I cannot help with that\."\)/],
			[{ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] } }] }, /\(no text: the model called a tool\)/],
			[{ choices: [{ message: { role: 'assistant', content: null } }] }, /\(choices\[0\]\.message\.content is null\)/],
			[{ choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] } }] }, /\(choices\[0\]\.message\.content is a list\)/]
		];
		for (const [json, message] of shapes) {
			const { server, provider } = await setup({ chat: () => ({ json }) }, { maxRetries: 1 });
			const err = await failure(provider.chat(chatReq));
			expect(err.message).toMatch(/failed after 2 attempts: the endpoint answered HTTP 200 with JSON that is not a chat completion/);
			expect(err.message).toMatch(message);
			expect(err.fault).toBe('not_a_completion');
			expect(server.chatRequests()).toHaveLength(2);
			await server.close();
		}
	});

	it('stops reading a 5 MB body at the size limit', async () => {
		const { server, provider } = await setup({ chat: () => ({ hugeBytes: 5_000_000 }) }, { maxRetries: 1 });
		const started = performance.now();
		const err = await failure(provider.chat(chatReq));
		expect(performance.now() - started).toBeLessThan(1000);
		expect(err.message).toMatch(
			/failed after 2 attempts: the answer was larger than 262144 bytes \(if answers this big are expected, raise SIMULACRA_MODEL_MAX_ANSWER_BYTES or the endpoint's maxAnswerBytes\)$/
		);
		expect(err.fault).toBe('too_large');
		expect(server.chatRequests()).toHaveLength(2);
		expect(DEFAULT_MAX_ANSWER_BYTES).toBe(262144);

		// A body of 200 MB costs no more: the client hangs up, and the server stops long before the end.
		await server.close();
		const big = await setup({ chat: () => ({ hugeBytes: 200_000_000 }) }, { maxRetries: 0, maxAnswerBytes: 100_000 });
		const t0 = performance.now();
		await expect(big.provider.chat(chatReq)).rejects.toThrow(/the answer was larger than 100000 bytes/);
		expect(performance.now() - t0).toBeLessThan(1000);
		await new Promise((r) => setTimeout(r, 50));
		expect(big.server.streamedBytes()).toBeLessThan(50_000_000);
	});

	it('refuses a body whose Content-Length is over the limit before reading it', async () => {
		const { provider } = await setup({ chat: () => ({ hugeBytes: 5_000_000, headers: { 'content-length': '5000000' } }) }, { maxRetries: 0 });
		await expect(provider.chat(chatReq)).rejects.toThrow(/failed after 1 attempt: the answer was larger than 262144 bytes, it said Content-Length 5000000 /);
	});

	it('quotes a huge error page briefly', async () => {
		const { provider } = await setup({ chat: () => ({ status: 502, contentType: 'text/html', raw: `<html>${'bad gateway '.repeat(2000)}</html>` }) }, { maxRetries: 0 });
		const err = await failure(provider.chat(chatReq));
		expect(err.status).toBe(502);
		expect(err.message.length).toBeLessThan(500);
		expect(err.message).toMatch(/HTTP 502: 502 <html>bad gateway bad gateway/);
	});

	it('uses the good answer that follows a fault on the first attempt', async () => {
		const faults: [string, FakeHandler][] = [
			['html', () => ({ contentType: 'text/html', raw: PAGE })],
			['not JSON', () => ({ raw: PAGE })],
			['empty', () => ({ raw: '' })],
			['wrong shape', () => ({ json: { choices: [{ message: { content: null, refusal: 'no' } }] } })],
			['huge', () => ({ hugeBytes: 5_000_000 })],
			['drip', () => ({ json: good, drip: { bytesPerSecond: 5, forever: true } })],
			['503', () => ({ status: 503, json: { error: { message: 'overloaded' } } })]
		];
		for (const [what, fault] of faults) {
			const { server, provider, sleeps } = await setup({ chat: (req, n) => (n === 0 ? fault(req, n) : { json: good }) }, { timeoutMs: 500 });
			expect((await provider.chat(chatReq)).text, what).toBe('{"choice": "kitchen"}');
			expect(server.chatRequests(), what).toHaveLength(2);
			expect(sleeps, what).toHaveLength(1);
			await server.close();
		}
	});

	it('keeps each request\'s exchange apart when requests are in flight at once', async () => {
		const { provider } = await setup(
			{
				chat: (req) => {
					const content = (req.body as { messages: { content: string }[] }).messages[0].content;
					if (content === 'page') return { contentType: 'text/html', raw: PAGE };
					if (content === 'drip') return { json: good, drip: { bytesPerSecond: 5, forever: true } };
					return { delayMs: 50, json: chatCompletion(`{"answer": "${content}"}`) };
				}
			},
			{ timeoutMs: 400, maxRetries: 0 }
		);
		const ask = (content: string) => provider.chat({ ...chatReq, messages: [{ role: 'user', content }] });
		const [a, page, b, drip] = await Promise.allSettled([ask('a'), ask('page'), ask('b'), ask('drip')]);
		expect(a).toMatchObject({ status: 'fulfilled', value: { text: '{"answer": "a"}' } });
		expect(b).toMatchObject({ status: 'fulfilled', value: { text: '{"answer": "b"}' } });
		expect((page as PromiseRejectedResult).reason.message).toMatch(/with text\/html/);
		expect((drip as PromiseRejectedResult).reason.message).toMatch(/longer than 400 ms/);
	});

	it('clears its deadline timers once an answer is read', async () => {
		const { provider } = await setup({ chat: () => ({ json: good }) }, { timeoutMs: 60_000 });
		await provider.chat(chatReq);
		const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
		const before = timers();
		for (let i = 0; i < 5; i++) await provider.chat(chatReq);
		await provider.embed(['x', 'y']);
		expect(timers()).toBeLessThanOrEqual(before);
		// a body the SDK never reads (JSON with Content-Length 0) is released with its attempt
		await server!.close();
		const empty = await setup({ chat: () => ({ raw: '', headers: { 'content-length': '0' } }) }, { timeoutMs: 60_000, maxRetries: 2, sleep: async () => {} });
		const base = timers();
		await expect(empty.provider.chat(chatReq)).rejects.toThrow(/empty body/);
		expect(timers()).toBeLessThanOrEqual(base);
	});

	it('accepts a completion sent as text/plain', async () => {
		const { provider } = await setup({ chat: () => ({ contentType: 'text/plain', json: good }) });
		expect((await provider.chat(chatReq)).text).toBe('{"choice": "kitchen"}');
	});

	it('lets embeddings be far larger than a chat answer, and refuses an HTML page for them too', async () => {
		const { server, provider } = await setup({ dims: 3000 }, { maxAnswerBytes: 1024, dimensions: 3000 });
		const vectors = await provider.embed(['a', 'b', 'c']);
		expect(vectors).toHaveLength(3);
		expect(vectors[0]).toHaveLength(3000);
		await server.close();
		const page = await setup({ embeddings: () => ({ contentType: 'text/html', raw: PAGE }) }, { maxRetries: 1 });
		const err = await failure(page.provider.embed(['a']));
		expect(err.message).toMatch(/^embeddings \(test-embed\) at .* failed after 2 attempts: the endpoint answered HTTP 200 with text\/html \(.*\) instead of an embeddings list; is a proxy in the way\?$/);
		expect(page.server.embeddingRequests()).toHaveLength(2);
	});
});

describe('max_tokens', () => {
	type Body = { max_tokens?: number };
	const noLimit = { ...chatReq, sampling: { temperature: 0.7 } };

	it('is in every chat request: the template\'s, else the endpoint\'s default', async () => {
		const { server, provider } = await setup({ chat: () => ({ json: chatCompletion('{}') }) });
		await provider.chat(chatReq);
		await provider.chat(noLimit);
		const custom = new OpenAIProvider({ baseURL: server.url, apiKey: KEY, maxTokens: 77 });
		await custom.chat(noLimit);
		await custom.chat(chatReq);
		expect(server.chatRequests().map((r) => (r.body as Body).max_tokens)).toEqual([60, DEFAULT_MAX_TOKENS, 77, 60]);
		expect(DEFAULT_MAX_TOKENS).toBe(1024);
	});

	it('becomes max_completion_tokens, and the temperature is left out, for a model that refuses them (OpenAI\'s reasoning models)', async () => {
		type Sent = { max_tokens?: number; max_completion_tokens?: number; temperature?: number };
		const refuse = (message: string) => ({ status: 400, json: { error: { message, type: 'invalid_request_error', param: null, code: 'unsupported_parameter' } } });
		const { server, provider } = await setup({
			chat: (req) => {
				const b = req.body as Sent;
				if (b.max_tokens !== undefined) return refuse("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
				if (b.temperature !== undefined && b.temperature !== 1)
					return refuse(`Unsupported value: 'temperature' does not support ${b.temperature} with this model. Only the default (1) value is supported.`);
				return { json: chatCompletion('{"choice": "kitchen"}') };
			}
		});
		expect((await provider.chat(chatReq)).text).toBe('{"choice": "kitchen"}');
		// learned once: the next call is asked the model's way at once
		await provider.chat(chatReq);
		const sent = server.chatRequests().map((r) => r.body as Sent);
		expect(sent.map((b) => [b.max_tokens, b.max_completion_tokens, b.temperature])).toEqual([
			[60, undefined, 0],
			[undefined, 60, 0],
			[undefined, 60, undefined],
			[undefined, 60, undefined]
		]);
	});

	it('is not changed for another 400: the refusal is the error', async () => {
		const { server, provider } = await setup({ chat: () => ({ status: 400, json: { error: { message: 'This model\'s maximum context length is 8192 tokens.' } } }) });
		await expect(provider.chat(chatReq)).rejects.toThrow(/HTTP 400: .*maximum context length/);
		expect(server.chatRequests()).toHaveLength(1);
	});

	it('and the answer size limit come from the environment and from models.json', async () => {
		expect(openAIOptionsFromEnv({ SIMULACRA_MODEL_MAX_TOKENS: '300', SIMULACRA_MODEL_MAX_ANSWER_BYTES: '4096' })).toMatchObject({ maxTokens: 300, maxAnswerBytes: 4096 });
		const { server } = await setup({ chat: () => ({ json: chatCompletion(`{"pad": "${'x'.repeat(3000)}"}`) }) });
		const config = parseModelConfig(
			{ endpoints: { local: { baseURL: server.url, maxTokens: 300, maxAnswerBytes: 2048, maxRetries: 0 } }, chat: { model: 'm' }, embed: { model: 'e', dimensions: 8 } },
			'models.json'
		);
		const routed = new RoutedProvider(config, {}, { sleep: async () => {} });
		await expect(routed.chat(noLimit)).rejects.toThrow(/the answer was larger than 2048 bytes/);
		expect((server.chatRequests()[0].body as Body).max_tokens).toBe(300);
	});
});
