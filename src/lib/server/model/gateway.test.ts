import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../../engine/model';
import type { PromptSet } from '../../prompts/promptset';
import { validateOutput } from '../../prompts/schema';
import { outputJsonSchema } from '../../prompts/json-schema';
import { renderTemplate } from '../../prompts/template';
import { AnswerCache } from './cache';
import { ChatFault, DIMENSION_PROBE, EmbeddingFault, ModelGateway, ReplayMissError, SYSTEM_PROMPT, type RecordedCall } from './gateway';
import { loadPromptSet } from './load';
import { OfflineProvider } from './providers/offline';
import { ProviderError, type ChatRequest, type ChatResult, type ModelProvider } from './providers/types';
import { SAMPLE_VARS } from './testing/sample-vars';

let set: PromptSet;
beforeAll(async () => {
	set = await loadPromptSet();
});

/** A provider that answers from a script and remembers what it was asked. */
class ScriptedProvider implements ModelProvider {
	readonly name = 'scripted';
	readonly model = 'script-1';
	readonly embedModel = 'script-embed';
	readonly dimensions: number = 3;
	readonly label = 'scripted test provider';
	readonly chats: ChatRequest[] = [];
	readonly embedded: string[][] = [];
	inFlight = 0;
	maxInFlight = 0;

	constructor(private readonly script: (req: ChatRequest, n: number) => string | Error | Promise<string | Error>) {}

	async chat(req: ChatRequest): Promise<ChatResult> {
		this.chats.push(structuredClone(req));
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		try {
			const out = await this.script(req, this.chats.length - 1);
			if (out instanceof Error) throw out;
			return { text: out, tokens: { prompt: 100, completion: 10 } };
		} finally {
			this.inFlight--;
		}
	}

	async embed(texts: string[]): Promise<Float32Array[]> {
		this.embedded.push([...texts]);
		return texts.map((t) => new Float32Array([t.length, 1, 0]));
	}
}

const choose = { template: 'choose_arena' as const, vars: SAMPLE_VARS.choose_arena, key: '12/nora/3', agent: 'nora', purpose: 'act: arena' };

function gateway(provider: ModelProvider, extra: Partial<ConstructorParameters<typeof ModelGateway>[0]> = {}) {
	const calls: RecordedCall[] = [];
	let clock = 0;
	const g = new ModelGateway({ provider, templates: set, recorder: (c) => calls.push(c), now: () => (clock += 5), ...extra });
	return { g, calls };
}

describe('ModelGateway.complete', () => {
	it('renders, calls, validates and records', async () => {
		const p = new ScriptedProvider(() => 'Here you go: {"choice": "kitchen"}');
		const { g, calls } = gateway(p);
		const answer = await g.complete(choose);
		expect(answer).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(p.chats[0].messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
		expect(p.chats[0].messages[1].content).toMatch(/- bedroom\n- kitchen\n- bathroom/);
		expect(p.chats[0].sampling).toEqual({ temperature: 0, max_tokens: 60 });
		expect(p.chats[0].vars).toEqual(choose.vars);
		expect(calls).toEqual([
			{
				key: '12/nora/3',
				template: 'choose_arena',
				templateVersion: set.versions.choose_arena,
				agent: 'nora',
				purpose: 'act: arena',
				provider: 'scripted',
				endpoint: 'local',
				model: 'script-1',
				prompt: p.chats[0].messages[1].content,
				answer: 'Here you go: {"choice": "kitchen"}',
				value: { choice: 'kitchen' },
				failsafe: false,
				latencyMs: 5,
				tokens: { prompt: 100, completion: 10 },
				cacheHit: false,
				attempts: 1
			}
		]);
	});

	it('repairs an invalid answer by showing the model its errors', async () => {
		const p = new ScriptedProvider((_, n) => (n === 0 ? '{"choice": "garage"}' : '{"choice": "Kitchen"}'));
		const { g, calls } = gateway(p);
		expect(await g.complete(choose)).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(p.chats).toHaveLength(2);
		const repair = p.chats[1].messages;
		expect(repair).toHaveLength(4);
		expect(repair[2]).toEqual({ role: 'assistant', content: '{"choice": "garage"}' });
		expect(repair[3].role).toBe('user');
		expect(repair[3].content).toMatch(/\$\.choice: "garage" is not one of the options: "bedroom", "kitchen", "bathroom"/);
		expect(calls[0].attempts).toBe(2);
		expect(calls[0].tokens).toEqual({ prompt: 200, completion: 20 });
	});

	it('falls back to the fitted fail-safe after the retries, with the reason', async () => {
		const p = new ScriptedProvider(() => 'I cannot decide.');
		const { g, calls } = gateway(p, { retries: 2 });
		const answer = await g.complete(choose);
		// The fail-safe is {{current}}: the area the agent is in.
		expect(answer).toEqual({ value: { choice: 'bedroom' }, failsafe: true });
		expect(p.chats).toHaveLength(3);
		expect(calls[0].failsafe).toBe(true);
		expect(calls[0].attempts).toBe(3);
		expect(calls[0].answer).toBe('I cannot decide.');
		expect(calls[0].error).toMatch(/^no valid answer after 3 attempts: no JSON object found/);
	});

	it('pads list fail-safes to the call, e.g. one importance rating per memory', async () => {
		const p = new ScriptedProvider(() => '{"ratings": [5]}');
		const { g } = gateway(p, { retries: 0 });
		const memories = ['a', 'b', 'c', 'd'];
		const answer = await g.complete({ template: 'importance', vars: { name: 'X', memories }, key: 'k' });
		expect(answer).toEqual({ value: { ratings: [3, 3, 3, 3] }, failsafe: true });
	});

	it('a provider failing past its retries is a fault, never a fail-safe: nothing recorded, nothing cached', async () => {
		let down = true;
		const p = new ScriptedProvider(() => (down ? new ProviderError('chat failed after 5 attempts: HTTP 503', 5, 503) : '{"choice": "kitchen"}'));
		const cache = AnswerCache.memory();
		const { g, calls } = gateway(p, { cache });
		const fault = await g.complete(choose).catch((e: unknown) => e);
		expect(fault).toBeInstanceOf(ChatFault);
		expect((fault as ChatFault).message).toBe('choose_arena for nora (call 12/nora/3): chat failed after 5 attempts: HTTP 503');
		expect(p.chats).toHaveLength(1);
		expect(calls).toHaveLength(0);
		expect(cache.size.answers).toBe(0);
		// the endpoint is back: the same call gets the model's answer
		down = false;
		expect(await g.complete(choose)).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
	});

	it('a provider failure ahead of need is asked again by the step that needs it', async () => {
		let n = 0;
		const p = new ScriptedProvider(() => (n++ === 0 ? new ProviderError('HTTP 503', 1, 503) : '{"choice": "kitchen"}'));
		const { g, calls } = gateway(p);
		await g.prefetch(choose);
		expect(await g.complete(choose)).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(p.chats).toHaveLength(2);
		expect(calls).toHaveLength(1);
	});

	it('identical prompts in flight at once share one request, whatever their keys, and the tokens are counted once', async () => {
		let draws = 0;
		const p = new ScriptedProvider(async () => {
			await new Promise((r) => setTimeout(r, 10));
			return `{"choice": "${['kitchen', 'bedroom'][draws++ % 2]}"}`;
		});
		const { g, calls } = gateway(p, { cache: AnswerCache.memory() });
		const [a, b] = await Promise.all([g.complete(choose), g.complete({ ...choose, key: '12/maria/7', agent: 'maria' })]);
		expect(p.chats).toHaveLength(1);
		expect(b).toEqual(a);
		expect(calls.map((c) => c.tokens.prompt + c.tokens.completion).sort()).toEqual([0, 110]);
	});

	it('the first answer recorded for a prompt is the one used: a later draw by another process is discarded', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'gw-first-'));
		try {
			const first = AnswerCache.open(dir);
			const second = AnswerCache.open(dir);
			const slow = (text: string, ms: number) => new ScriptedProvider(() => new Promise((r) => setTimeout(() => r(text), ms)));
			const a = gateway(slow('{"choice": "kitchen"}', 10), { cache: first });
			const b = gateway(slow('{"choice": "bedroom"}', 40), { cache: second });
			// both miss the cache before either answers; the first to record its draw wins
			const [vb, va] = await Promise.all([b.g.complete(choose), a.g.complete(choose)]);
			expect(va).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
			expect(vb).toEqual(va);
			expect(b.calls[0].answer).toBe('{"choice": "kitchen"}');
			// and it is the one a later process reads
			const third = AnswerCache.open(dir);
			const c = gateway(slow('{"choice": "bedroom"}', 0), { cache: third });
			expect(await c.g.complete(choose)).toEqual(va);
			third.close();
			first.close();
			second.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('throws clear errors for unknown templates and bad variables (programming errors)', async () => {
		const { g } = gateway(new ScriptedProvider(() => '{}'));
		await expect(g.complete({ template: 'nope' as never, vars: {}, key: 'k' })).rejects.toThrow(/no template "nope"/);
		await expect(g.complete({ template: 'choose_arena', vars: { ...choose.vars, options: 'x' }, key: 'k' })).rejects.toThrow(/template choose_arena: "options" must be a list/);
	});

	it('bounds the calls in flight', async () => {
		const p = new ScriptedProvider(async () => {
			await new Promise((r) => setTimeout(r, 5));
			return '{"choice": "kitchen"}';
		});
		const { g } = gateway(p, { concurrency: 3 });
		await Promise.all(Array.from({ length: 12 }, (_, i) => g.complete({ ...choose, vars: { ...choose.vars, activity: `task ${i}` }, key: `k${i}` })));
		expect(p.chats).toHaveLength(12);
		expect(p.maxInFlight).toBe(3);
	});
});

describe('cache', () => {
	it('answers a repeated prompt from the cache, also after reopening, and identically', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'simulacra-gw-'));
		try {
			let n = 0;
			const p = new ScriptedProvider(() => `{"choice": "${++n === 1 ? 'kitchen' : 'bathroom'}"}`);
			const cache = AnswerCache.open(dir);
			const first = gateway(p, { cache });
			const a = await first.g.complete(choose);
			const b = await first.g.complete({ ...choose, key: 'other-key' });
			expect(b).toEqual(a);
			expect(p.chats).toHaveLength(1);
			expect(first.calls[1]).toMatchObject({ key: 'other-key', cacheHit: true, tokens: { prompt: 0, completion: 0 }, answer: '{"choice": "kitchen"}' });
			cache.close();

			const reopened = AnswerCache.open(dir);
			const second = gateway(p, { cache: reopened });
			expect(await second.g.complete(choose)).toEqual(a);
			expect(p.chats).toHaveLength(1);
			// A different prompt is a different key.
			await second.g.complete({ ...choose, vars: { ...choose.vars, activity: 'take a bath' } });
			expect(p.chats).toHaveLength(2);
			reopened.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('keeps a fail-safe caused by invalid answers, but not one caused by a provider failure', async () => {
		const cache = AnswerCache.memory();
		const bad = new ScriptedProvider(() => 'nonsense');
		await gateway(bad, { cache, retries: 1 }).g.complete(choose);
		expect(bad.chats).toHaveLength(2);
		const again = await gateway(bad, { cache, retries: 1 }).g.complete(choose);
		expect(again).toEqual({ value: { choice: 'bedroom' }, failsafe: true });
		expect(bad.chats).toHaveLength(2);

		const down = new ScriptedProvider(() => new ProviderError('offline', 1));
		await expect(gateway(down, { cache }).g.complete({ ...choose, vars: { ...choose.vars, activity: 'x' } })).rejects.toThrow(ChatFault);
		await expect(gateway(down, { cache }).g.complete({ ...choose, vars: { ...choose.vars, activity: 'x' } })).rejects.toThrow(ChatFault);
		expect(down.chats).toHaveLength(2);
	});

	it('asks again when a cached answer no longer fits the call, and uses its own answer', async () => {
		const cache = AnswerCache.memory();
		const p = new ScriptedProvider(() => '{"choice": "kitchen"}');
		const { g } = gateway(p, { cache });
		const { chatCacheKey } = await import('./cache');
		const t = set.templates.get('choose_arena')!;
		const messages = [
			{ role: 'system' as const, content: SYSTEM_PROMPT },
			{ role: 'user' as const, content: renderTemplate(t, choose.vars) }
		];
		const schema = outputJsonSchema(t.output, choose.vars, { strict: true });
		const key = chatCacheKey({ provider: p.name, endpoint: 'local', model: p.model, sampling: t.sampling, messages, schema });
		// an answer recorded before an edit of the options: "attic" is no longer one of them
		cache.putAnswer(key, { text: '{"choice": "attic"}', value: { choice: 'attic' }, failsafe: false, attempts: 1, tokens: { prompt: 1, completion: 1 } });
		expect(await g.complete(choose)).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(p.chats).toHaveLength(1);
	});

	it('the output schema is part of the key: a schema edit asks anew', async () => {
		const cache = AnswerCache.memory();
		const p = new ScriptedProvider(() => '{"choice": "kitchen"}');
		await gateway(p, { cache }).g.complete(choose);
		const t = set.templates.get('choose_arena')!;
		const edited: PromptSet = { ...set, templates: new Map(set.templates).set('choose_arena', { ...t, output: { ...t.output, description: 'the area to go to' } }) };
		await gateway(p, { cache, templates: edited }).g.complete(choose);
		expect(p.chats).toHaveLength(2);
	});
});

describe('replay', () => {
	it('serves recorded values without calling the provider', async () => {
		const p = new ScriptedProvider(() => '{"choice": "kitchen"}');
		const live = gateway(p);
		await live.g.complete(choose);
		const journal = new Map(live.calls.map((c) => [c.key, c]));

		const never = new ScriptedProvider(() => {
			throw new Error('must not be called');
		});
		const replay = gateway(never, { replay: journal });
		expect(await replay.g.complete(choose)).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(never.chats).toHaveLength(0);
		expect(replay.calls[0]).toMatchObject({ key: choose.key, replayed: true, value: { choice: 'kitchen' } });
	});

	it('names a missing key and a template mismatch', async () => {
		const replay = gateway(new ScriptedProvider(() => '{}'), { replay: new Map() });
		await expect(replay.g.complete(choose)).rejects.toThrow(new ReplayMissError('replay: no recorded model call for key "12/nora/3" (template choose_arena)'));
		const rec = { key: choose.key, template: 'choose_sector' } as RecordedCall;
		const wrong = gateway(new ScriptedProvider(() => '{}'), { replay: new Map([[choose.key, rec]]) });
		await expect(wrong.g.complete(choose)).rejects.toThrow(/recorded under key "12\/nora\/3" is for template choose_sector, but choose_arena was asked/);
	});
});

describe('ModelGateway.embed', () => {
	it('embeds through the provider once per distinct text and caches', async () => {
		const p = new ScriptedProvider(() => '{}');
		const cache = AnswerCache.memory();
		const { g } = gateway(p, { cache });
		const v = await g.embed(['ab', 'abc', 'ab']);
		expect(v.map((x) => x[0])).toEqual([2, 3, 2]);
		expect(p.embedded).toEqual([['ab', 'abc']]);
		const w = await g.embed(['abc', 'abcd']);
		expect(w.map((x) => x[0])).toEqual([3, 4]);
		expect(p.embedded).toEqual([['ab', 'abc'], ['abcd']]);
		expect(await g.embed([])).toEqual([]);
		expect(g.dimensions).toBe(3);
	});

	it('asks again for vectors of the wrong dimension, then reports an EmbeddingFault', async () => {
		const p = new ScriptedProvider(() => '{}');
		let n = 0;
		p.embed = async (texts) => texts.map(() => new Float32Array(n++ < 1 ? 2 : 3).fill(1));
		expect((await gateway(p).g.embed(['x']))[0]).toHaveLength(3);
		expect(n).toBe(2);

		const wrong = new ScriptedProvider(() => '{}');
		let asked = 0;
		wrong.embed = async (texts) => (asked++, texts.map(() => new Float32Array(2).fill(1)));
		const err = await gateway(wrong, { embedRetries: 3 }).g.embed(['x']).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EmbeddingFault);
		expect(err).toMatchObject({ kind: 'dimensions', endpoint: 'local', model: 'script-embed', attempts: 4, expected: 3, got: 2 });
		expect((err as Error).message).toMatch(/^embeddings from script-embed at local came back with 2 dimensions instead of 3, 4 times in a row\. Check that/);
		expect(asked).toBe(4);
	});

	it('asks again only for the texts whose vectors were wrong, keeping the good ones', async () => {
		const p = new ScriptedProvider(() => '{}');
		const cache = AnswerCache.memory();
		let first = true;
		p.embed = async (texts) => {
			p.embedded.push([...texts]);
			const out = texts.map((t) => new Float32Array(first && t === 'b' ? 5 : 3).fill(t.length));
			first = false;
			return out;
		};
		const v = await gateway(p, { cache }).g.embed(['a', 'b', 'c']);
		expect(v.map((x) => x.length)).toEqual([3, 3, 3]);
		expect(p.embedded).toEqual([['a', 'b', 'c'], ['b']]);
		expect(cache.size.embeddings).toBe(3);
	});

	it('reports failing and malformed embeddings as EmbeddingFaults after retrying', async () => {
		const down = new ScriptedProvider(() => '{}');
		let calls = 0;
		down.embed = async () => {
			calls++;
			throw new ProviderError('embeddings (script-embed) at http://127.0.0.1:9/v1 failed after 1 attempt: connection failed', 1);
		};
		const err = await gateway(down).g.embed(['x']).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EmbeddingFault);
		expect(err).toMatchObject({ kind: 'failed', attempts: 3 });
		expect((err as Error).message).toMatch(/failed, 3 times in a row: .*connection failed\. Check that the endpoint is running and serves script-embed/);
		expect(calls).toBe(3);

		const short = new ScriptedProvider(() => '{}');
		short.embed = async () => [new Float32Array(3)];
		await expect(gateway(short, { embedRetries: 0 }).g.embed(['x', 'y'])).rejects.toThrow(/unusable, once: the endpoint returned 1 vector for 2 texts/);
	});

	it('learns the dimension from the first embedding when the provider does not state it', async () => {
		const p = new (class extends ScriptedProvider {
			override readonly dimensions = 0;
			readonly learnDimensions = true;
		})(() => '{}');
		p.embed = async (texts) => (p.embedded.push([...texts]), texts.map(() => new Float32Array(5).fill(1)));
		const { g } = gateway(p);
		expect(() => g.dimensions).toThrow(/dimension of script-embed at local is not known until its first embedding; state it \(embed\.dimensions/);
		expect(await g.resolveDimensions()).toBe(5);
		expect(g.dimensions).toBe(5);
		expect(p.embedded).toEqual([[DIMENSION_PROBE]]);
		expect(await g.resolveDimensions()).toBe(5);
		expect(p.embedded).toHaveLength(1);
	});

	it('states the dimension without asking when the provider knows it', async () => {
		const p = new ScriptedProvider(() => '{}');
		const { g } = gateway(p);
		expect(await g.resolveDimensions()).toBe(3);
		expect(p.embedded).toEqual([]);
	});
});

describe('with the offline stand-in', () => {
	it('answers every template validly on the first attempt', async () => {
		const { g, calls } = gateway(new OfflineProvider());
		for (const id of TEMPLATE_IDS) {
			const answer = await g.complete({ template: id, vars: SAMPLE_VARS[id], key: `0/x/${id}` });
			expect(answer.failsafe, id).toBe(false);
			expect(validateOutput(set.templates.get(id)!.output, answer.value, SAMPLE_VARS[id]).ok, id).toBe(true);
		}
		expect(calls.every((c) => c.attempts === 1 && c.provider === 'offline')).toBe(true);
		expect(g.dimensions).toBe(256);
		expect(g.promptSetVersion).toBe(set.version);
	});
});

describe('sampling index', () => {
	it('asks the model anew for each replicate index and replays each from the cache', async () => {
		const cache = AnswerCache.memory();
		const rooms = ['kitchen', 'bedroom', 'bathroom'];
		const p = new ScriptedProvider((_req, n) => `{"choice": "${rooms[n % rooms.length]}"}`);
		const first = await gateway(p, { cache }).g.complete(choose);
		const second = await gateway(p, { cache, samplingIndex: 1 }).g.complete(choose);
		expect(p.chats).toHaveLength(2);
		expect(second).not.toEqual(first);
		// each index replays its own answer without asking again
		expect(await gateway(p, { cache, samplingIndex: 1 }).g.complete(choose)).toEqual(second);
		expect(await gateway(p, { cache, samplingIndex: 0 }).g.complete(choose)).toEqual(first);
		expect(p.chats).toHaveLength(2);
	});

	it('refuses a bad index', () => {
		expect(() => gateway(new ScriptedProvider(() => '{}'), { samplingIndex: -2 })).toThrow(/sampling index/);
	});
});

describe('ModelGateway.prefetch', () => {
	it('asks ahead without recording; a step asking the same prompt under its own key gets that answer', async () => {
		let release!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		const p = new ScriptedProvider(async () => {
			await gate;
			return '{"choice": "kitchen"}';
		});
		const { g, calls } = gateway(p);
		const early = g.prefetch({ ...choose, key: '40/nora/0' });
		await new Promise((r) => setImmediate(r));
		expect(g.activity()).toMatchObject({ inFlight: 1, inFlightAhead: 1, waitingFor: [], aheadStarted: 1 });
		const needed = g.complete(choose);
		await new Promise((r) => setImmediate(r));
		// the step now waits for the call made ahead, which counts as needed now
		expect(g.activity()).toMatchObject({ inFlight: 1, inFlightAhead: 0, waitingFor: [{ template: 'choose_arena', agent: 'nora', key: '12/nora/3' }] });
		release();
		expect(await needed).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(await early).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(p.chats).toHaveLength(1);
		expect(calls.map((c) => [c.key, c.template, c.cacheHit, c.tokens.prompt])).toEqual([['12/nora/3', 'choose_arena', false, 100]]);
		expect(g.activity()).toMatchObject({ aheadUsed: 1, waitingFor: [] });
	});

	it('the offline stand-in\'s answer serves every later call with its prompt, made ahead or not, as a cache would', async () => {
		// the stand-in has no answer cache (its answers are computed faster than read back)
		const p = Object.assign(new ScriptedProvider(() => '{"choice": "kitchen"}'), { name: 'offline' });
		const { g, calls } = gateway(p);
		await g.prefetch({ ...choose, key: '40/nora/0' });
		// two agents choosing the same way in one step: the first claims the answer made ahead, the second shares it
		expect(await g.complete({ ...choose, key: '40/nora/3' })).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		expect(await g.complete({ ...choose, key: '40/omar/1', agent: 'omar' })).toEqual({ value: { choice: 'kitchen' }, failsafe: false });
		// a later step, and work ahead for a later one, asking it again
		await g.complete({ ...choose, key: '41/nora/0' });
		await g.prefetch({ ...choose, key: '60/omar/0' });
		expect(p.chats).toHaveLength(1);
		expect(calls.map((c) => [c.key, c.cacheHit, c.tokens.prompt])).toEqual([
			['40/nora/3', false, 100],
			['40/omar/1', true, 0],
			['41/nora/0', true, 0]
		]);
		expect(g.activity()).toMatchObject({ aheadStarted: 1, aheadUsed: 1 });
		// another provider without a cache asks again (a sampling endpoint's cache keeps its first draw)
		const q = new ScriptedProvider(() => '{"choice": "kitchen"}');
		const other = gateway(q).g;
		await other.complete({ ...choose, key: '40/nora/3' });
		await other.complete({ ...choose, key: '41/nora/0' });
		expect(q.chats).toHaveLength(2);
	});

	it('counts the tokens of answers made ahead that no step used: forgotten ones, and at the end every one unclaimed', async () => {
		const p = new ScriptedProvider(() => '{"choice": "kitchen"}');
		const { g } = gateway(p);
		await g.prefetch({ ...choose, key: '40/nora/0' });
		await g.prefetch({ ...choose, key: '41/nora/0', vars: { ...choose.vars, activity: 'cooking dinner' } });
		await g.complete(choose);
		// one was used by a step; the other is still waiting for one
		expect(g.drainUnusedAhead()).toEqual([]);
		const left = g.drainUnusedAhead(true);
		expect(left).toHaveLength(1);
		expect(left[0]).toMatchObject({ key: '41/nora/0', template: 'choose_arena', agent: 'nora', tokens: { prompt: 100 } });
		expect(g.drainUnusedAhead(true)).toEqual([]);
		// more asked ahead than are kept: the oldest are forgotten, and counted
		for (let i = 0; i < 4100; i++) await g.prefetch({ ...choose, key: `50/nora/${i}`, vars: { ...choose.vars, activity: `task ${i}` } });
		expect(g.drainUnusedAhead()).toHaveLength(4100 - 4096);
	});

	it('another prompt is not served from a call made ahead; a provider failure ahead is asked again when needed', async () => {
		let n = 0;
		const p = new ScriptedProvider(() => (n++ === 0 ? new ProviderError('quota', 1) : '{"choice": "bedroom"}'));
		const { g, calls } = gateway(p);
		await g.prefetch(choose);
		expect(await g.complete(choose)).toEqual({ value: { choice: 'bedroom' }, failsafe: false });
		expect(p.chats).toHaveLength(2);
		expect(calls).toHaveLength(1);
		await g.prefetch({ ...choose, vars: { ...choose.vars, activity: 'cooking dinner' } });
		await g.complete(choose);
		expect(p.chats).toHaveLength(4);
	});
});
