import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerCache, chatCacheKey, embedCacheKey as embedKey, samplingIndex, type CachedAnswer } from './cache';

const embedCacheKey = (provider: string, model: string, text: string, endpoint = 'e') => embedKey({ provider, endpoint, model, text });

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'simulacra-cache-'));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const answer = (n: number): CachedAnswer => ({ text: `{"n": ${n}}`, value: { n }, failsafe: false, attempts: 1, tokens: { prompt: 10, completion: n } });
const msgs = [{ role: 'user' as const, content: 'hello' }];

describe('cache keys', () => {
	it('depend on provider, endpoint, model, sampling and messages, not on sampling key order', () => {
		const base = { provider: 'openai', endpoint: '127.0.0.1:11434', model: 'm', sampling: { temperature: 0, max_tokens: 5 }, messages: msgs };
		const k = chatCacheKey(base);
		expect(k).toMatch(/^[0-9a-f]{64}$/);
		expect(chatCacheKey({ ...base, sampling: { max_tokens: 5, temperature: 0 } })).toBe(k);
		expect(chatCacheKey({ ...base, model: 'n' })).not.toBe(k);
		expect(chatCacheKey({ ...base, provider: 'offline' })).not.toBe(k);
		expect(chatCacheKey({ ...base, endpoint: 'api.openai.com' })).not.toBe(k);
		expect(chatCacheKey({ ...base, sampling: { temperature: 0.1, max_tokens: 5 } })).not.toBe(k);
		expect(chatCacheKey({ ...base, messages: [{ role: 'user', content: 'hello!' }] })).not.toBe(k);
		expect(embedCacheKey('p', 'm', 'a')).not.toBe(embedCacheKey('p', 'm', 'b'));
		expect(embedCacheKey('p', 'm', 'a')).not.toBe(embedCacheKey('p', 'm2', 'a'));
		expect(embedCacheKey('p', 'm', 'a')).not.toBe(embedCacheKey('p', 'm', 'a', 'other-host:8000'));
	});
});

describe('AnswerCache', () => {
	it('keeps answers and embeddings across reopening', () => {
		const a = AnswerCache.open(dir);
		a.putAnswer('k1', answer(1));
		a.putAnswer('k1', answer(2));
		const key = embedCacheKey('p', 'm', 'text');
		a.putEmbeddings([[key, new Float32Array([0.5, -0.25, 1])]]);
		a.close();

		const b = AnswerCache.open(dir);
		expect(b.getAnswer('k1')).toEqual(answer(2));
		expect(b.getAnswer('missing')).toBeUndefined();
		expect(Array.from(b.getEmbedding(key)!)).toEqual([0.5, -0.25, 1]);
		expect(b.size).toEqual({ answers: 1, embeddings: 1 });
		b.close();
	});

	it('survives a line or record cut off by a crash', () => {
		const a = AnswerCache.open(dir);
		a.putAnswer('good', answer(1));
		const k1 = embedCacheKey('p', 'm', 'one');
		a.putEmbeddings([[k1, new Float32Array([1, 2])]]);
		a.close();
		appendFileSync(path.join(dir, 'answers.jsonl'), '{"k":"cut","t":"{\\"n');
		appendFileSync(path.join(dir, 'embeddings.bin'), Buffer.alloc(20, 7));

		const b = AnswerCache.open(dir);
		expect(b.getAnswer('good')).toEqual(answer(1));
		expect(b.getAnswer('cut')).toBeUndefined();
		expect(statSync(path.join(dir, 'embeddings.bin')).size).toBe(32 + 4 + 8);
		// New entries after the damaged tail are readable again.
		b.putAnswer('after', answer(3));
		const k2 = embedCacheKey('p', 'm', 'two');
		b.putEmbeddings([[k2, new Float32Array([3])]]);
		b.close();

		const c = AnswerCache.open(dir);
		expect(c.getAnswer('after')).toEqual(answer(3));
		expect(Array.from(c.getEmbedding(k2)!)).toEqual([3]);
		expect(Array.from(c.getEmbedding(k1)!)).toEqual([1, 2]);
		c.close();
	});

	it('ignores garbage lines', () => {
		writeFileSync(path.join(dir, 'answers.jsonl'), 'not json\n{"x": 1}\n' + JSON.stringify({ k: 'ok', t: '{}', v: {}, f: false, a: 1, p: 0, c: 0 }) + '\n');
		const c = AnswerCache.open(dir);
		expect(c.size.answers).toBe(1);
		expect(c.getAnswer('ok')?.value).toEqual({});
		c.close();
	});

	it('has a memory-only form that writes nothing', () => {
		const m = AnswerCache.memory();
		m.putAnswer('k', answer(1));
		expect(m.getAnswer('k')).toEqual(answer(1));
		expect(m.dir).toBeUndefined();
	});

	it('names the folder when it cannot be opened', () => {
		const file = path.join(dir, 'a-file');
		writeFileSync(file, 'x');
		expect(() => AnswerCache.open(path.join(file, 'sub'))).toThrow(`cannot open the model cache in ${path.join(file, 'sub')}`);
	});

	it('loads 50,000 answers and 5,000 embeddings quickly', () => {
		const a = AnswerCache.open(dir);
		for (let i = 0; i < 50_000; i++) {
			a.putAnswer(`key-${i}`, { text: `{"summary": "answer number ${i} with some words in it"}`, value: { summary: `answer number ${i} with some words in it` }, failsafe: false, attempts: 1, tokens: { prompt: 120, completion: 20 } });
		}
		const vectors: [string, Float32Array][] = [];
		for (let i = 0; i < 5_000; i++) vectors.push([embedCacheKey('p', 'm', `t${i}`), new Float32Array(256).fill(i / 5000)]);
		a.putEmbeddings(vectors);
		a.close();
		expect(readFileSync(path.join(dir, 'answers.jsonl'), 'utf8').split('\n').length).toBe(50_001);

		const t0 = performance.now();
		const b = AnswerCache.open(dir);
		const ms = performance.now() - t0;
		expect(b.size).toEqual({ answers: 50_000, embeddings: 5_000 });
		expect((b.getAnswer('key-49999')?.value as { summary: string }).summary).toBe('answer number 49999 with some words in it');
		expect(b.getEmbedding(embedCacheKey('p', 'm', 't4999'))![255]).toBeCloseTo(4999 / 5000, 5);
		expect(ms).toBeLessThan(3000);
		b.close();
	});
});

describe('sampling index', () => {
	const base = { provider: 'openai', endpoint: 'x.test', model: 'm', sampling: { temperature: 1 }, messages: [{ role: 'user' as const, content: 'hi' }] };

	it('keys each replicate apart and index 0 as before', () => {
		const k0 = chatCacheKey(base);
		expect(chatCacheKey({ ...base, sample: 0 })).toBe(k0);
		const k1 = chatCacheKey({ ...base, sample: 1 });
		expect(k1).not.toBe(k0);
		expect(chatCacheKey({ ...base, sample: 2 })).not.toBe(k1);
		expect(chatCacheKey({ ...base, sample: 1 })).toBe(k1);
	});

	it('refuses a bad index, naming it', () => {
		expect(samplingIndex('3')).toBe(3);
		expect(() => samplingIndex('-1')).toThrow(/whole number from 0, not "-1"/);
		expect(() => samplingIndex(1.5)).toThrow(/not 1.5/);
	});
});
