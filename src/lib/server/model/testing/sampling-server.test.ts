import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIProvider } from '../providers/openai';
import { ProviderError } from '../providers/types';
import { PROXY_PAGE, SAMPLING_FAULTS, startSamplingServer, type SamplingServer, type SamplingServerOptions } from './sampling-server';

const ajv = new Ajv({ strict: true, allErrors: true });

const SCHEMA = {
	type: 'object',
	additionalProperties: false,
	required: ['mood', 'steps'],
	properties: {
		mood: { type: 'string', enum: ['calm', 'busy', 'tired', 'happy'] },
		steps: { type: 'array', minItems: 1, maxItems: 6, items: { type: 'integer', minimum: 0, maximum: 1000 } }
	}
};
const validate = ajv.compile(SCHEMA);

const body = (content = 'how is the day going?') => ({
	model: 'any-model',
	messages: [{ role: 'user', content }],
	response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: SCHEMA } }
});

const servers: SamplingServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(opts: SamplingServerOptions = {}): Promise<SamplingServer> {
	const s = await startSamplingServer(opts);
	servers.push(s);
	return s;
}

async function post(url: string, json: unknown): Promise<Response> {
	return fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
}

async function content(url: string, json: unknown): Promise<string> {
	const res = await post(url, json);
	expect(res.status).toBe(200);
	return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content;
}

describe('the sampling server', () => {
	it('answers the same request twice with two different answers, both valid for the schema', async () => {
		const server = await start({ seed: 3 });
		const answers: string[] = [];
		for (let i = 0; i < 12; i++) answers.push(await content(server.url, body()));
		for (const a of answers) expect(validate(JSON.parse(a)), ajv.errorsText(validate.errors)).toBe(true);
		expect(answers[1]).not.toBe(answers[0]);
		// a few may repeat (the schema allows only so many small answers), most do not
		expect(new Set(answers).size).toBeGreaterThan(8);
		expect(server.counts).toMatchObject({ chat: 12, faults: 0, withoutSchema: 0 });
	});

	it('is seeded: the same requests in the same order get the same answers', async () => {
		const a = await start({ seed: 9 });
		const b = await start({ seed: 9 });
		const c = await start({ seed: 10 });
		const ask = async (s: SamplingServer) => [await content(s.url, body('x')), await content(s.url, body('x')), await content(s.url, body('y'))];
		const [fromA, fromB, fromC] = [await ask(a), await ask(b), await ask(c)];
		expect(fromB).toEqual(fromA);
		expect(fromC).not.toEqual(fromA);
	});

	it('answers after a latency drawn per request, so answers arrive in another order', async () => {
		const server = await start({ seed: 4, latencyMs: [10, 150] });
		const started = performance.now();
		const finished: { i: number; ms: number }[] = [];
		await Promise.all(
			Array.from({ length: 10 }, async (_, i) => {
				await content(server.url, body(`question ${i}`));
				finished.push({ i, ms: performance.now() - started });
			})
		);
		expect(server.latencies).toHaveLength(10);
		for (const ms of server.latencies) expect(ms >= 10 && ms <= 150).toBe(true);
		expect(new Set(server.latencies).size).toBeGreaterThan(5);
		const times = finished.map((f) => f.ms);
		expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(40);
		expect(finished.map((f) => f.i)).not.toEqual([...finished.map((f) => f.i)].sort((x, y) => x - y));
		// the order of arrival follows the drawn latencies
		const byLatency = server.requests.map((r, n) => ({ q: (r.body as { messages: { content: string }[] }).messages[0].content, ms: server.latencies[n] }));
		const slowest = byLatency.reduce((a, b) => (b.ms > a.ms ? b : a));
		expect(`question ${finished[finished.length - 1].i}`).toBe(slowest.q);
	});

	it('embeds deterministically: the same text gets the same unit vector', async () => {
		const server = await start({ seed: 2, dims: 12 });
		const embed = async (input: string[]) =>
			((await (await fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'e', input }) })).json()) as { data: { embedding: number[] }[] }).data.map(
				(d) => d.embedding
			);
		const [a, b] = await embed(['coffee', 'tea']);
		const [again] = await embed(['coffee']);
		expect(again).toEqual(a);
		expect(b).not.toEqual(a);
		expect(a).toHaveLength(12);
		expect(Math.hypot(...a)).toBeCloseTo(1, 5);
		expect(server.counts.embeddings).toBe(2);
	});

	it('sends the faults it is told to, on the requests it is told to', async () => {
		const server = await start({ seed: 1, faults: { at: { 0: 'html', 1: 'empty', 2: '503', 3: 'huge', 4: 'drip' }, hugeBytes: 1_000_000, drip: { chunk: 5, intervalMs: 20, forever: true } } });
		const html = await post(server.url, body());
		expect(html.status).toBe(200);
		expect(html.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await html.text()).toBe(PROXY_PAGE);
		const empty = await post(server.url, body());
		expect([empty.status, await empty.text()]).toEqual([200, '']);
		expect((await post(server.url, body())).status).toBe(503);
		expect((await (await post(server.url, body())).arrayBuffer()).byteLength).toBe(1_000_000);
		const drip = await post(server.url, body());
		const reader = drip.body!.getReader();
		let got = 0;
		for (let i = 0; i < 3; i++) got += (await reader.read()).value!.byteLength;
		expect(got).toBeLessThanOrEqual(15);
		await reader.cancel();
		expect(validate(JSON.parse(await content(server.url, body())))).toBe(true);
		expect(server.faultsSent).toEqual(['html', 'empty', '503', 'huge', 'drip', undefined]);
		expect(server.counts).toMatchObject({ chat: 6, faults: 5, faultsByKind: { html: 1, empty: 1, '503': 1, huge: 1, drip: 1 } });
	});

	it('sends a seeded fraction of faults of the kinds asked for', async () => {
		const run = async () => {
			const server = await start({ seed: 8, faults: { rate: 0.4, kinds: ['503', 'empty'] } });
			for (let i = 0; i < 40; i++) await (await post(server.url, body())).arrayBuffer();
			return server;
		};
		const [a, b] = [await run(), await run()];
		expect(a.faultsSent).toEqual(b.faultsSent);
		expect(a.counts.faults).toBeGreaterThan(6);
		expect(a.counts.faults).toBeLessThan(26);
		expect(a.counts.faultsByKind.html + a.counts.faultsByKind.huge + a.counts.faultsByKind.drip).toBe(0);
		expect(a.counts.faultsByKind['503']).toBeGreaterThan(0);
		expect(a.counts.faultsByKind.empty).toBeGreaterThan(0);
	});

	it('ends an endless drip when it is closed', async () => {
		const server = await startSamplingServer({ faults: { at: [0], kinds: ['drip'], drip: { chunk: 1, intervalMs: 10, forever: true } } });
		const res = await post(server.url, body());
		const reader = res.body!.getReader();
		await reader.read();
		await server.close();
		await expect(
			(async () => {
				for (;;) if ((await reader.read()).done) return 'ended';
			})()
		).rejects.toThrow();
	});
});

describe('the provider against the sampling server', () => {
	it('gets a valid answer through every kind of fault, each on a first attempt', async () => {
		const server = await start({ seed: 5, latencyMs: [0, 20], faults: { at: { 0: 'html', 2: 'empty', 4: '503', 6: 'huge', 8: 'drip' } } });
		const sleeps: number[] = [];
		const provider = new OpenAIProvider({ baseURL: server.url, timeoutMs: 400, maxRetries: 2, sleep: async (ms) => void sleeps.push(ms) });
		for (let i = 0; i < 5; i++) {
			const res = await provider.chat({ template: 'answer', vars: {}, messages: [{ role: 'user', content: 'how is the day going?' }], sampling: {}, jsonSchema: SCHEMA });
			expect(validate(JSON.parse(res.text))).toBe(true);
		}
		expect(server.counts).toMatchObject({ chat: 10, faults: 5 });
		expect(server.faultsSent).toEqual(['html', undefined, 'empty', undefined, '503', undefined, 'huge', undefined, 'drip', undefined]);
		expect(sleeps).toHaveLength(5);
		for (const r of server.chatRequests()) expect((r.body as { max_tokens?: number }).max_tokens).toBe(1024);
	});

	it('gives up with a ProviderError naming the fault when every attempt fails', async () => {
		for (const kind of SAMPLING_FAULTS) {
			const server = await start({ faults: { rate: 1, kinds: [kind], drip: { bytesPerSecond: 20, forever: true } } });
			const provider = new OpenAIProvider({ baseURL: server.url, timeoutMs: 300, maxRetries: 1, sleep: async () => {} });
			const err = await provider.chat({ template: 'answer', vars: {}, messages: [{ role: 'user', content: 'hi' }], sampling: {}, jsonSchema: SCHEMA }).catch((e: unknown) => e);
			expect(err, kind).toBeInstanceOf(ProviderError);
			expect((err as ProviderError).message, kind).toMatch(
				{
					html: /failed after 2 attempts: the endpoint answered HTTP 200 with text\/html \(<!DOCTYPE html>.*\) instead of a chat completion; is a proxy in the way\?$/,
					huge: /failed after 2 attempts: the answer was larger than 262144 bytes/,
					drip: /failed after 2 attempts: timed out: the whole request took longer than 300 ms \(headers and body\)$/,
					empty: /failed after 2 attempts: the endpoint answered HTTP 200 with an empty body instead of a chat completion$/,
					'503': /failed after 2 attempts: HTTP 503: 503 the server is overloaded/
				}[kind]
			);
			expect(server.counts.chat, kind).toBe(2);
		}
	});
});
