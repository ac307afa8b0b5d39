import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerCache, chatCacheKey, DEFAULT_MAX_ANSWER_BYTES, embedCacheKey as embedKey, samplingIndex, type CachedAnswer } from './cache';

/** files read whole with readFileSync (the cache must never read its files whole) */
const fsCalls = vi.hoisted(() => ({ readFileSync: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
	const fs = await importOriginal<typeof import('node:fs')>();
	const readFileSync = ((file: Parameters<typeof fs.readFileSync>[0], options?: Parameters<typeof fs.readFileSync>[1]) => {
		fsCalls.readFileSync.push(String(file));
		return fs.readFileSync(file, options);
	}) as typeof fs.readFileSync;
	return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

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

const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const line = (key: string, a: CachedAnswer) => JSON.stringify({ k: key, t: a.text, v: a.value, f: a.failsafe, a: a.attempts, p: a.tokens.prompt, c: a.tokens.completion });
const said = (text: string): CachedAnswer => ({ text, value: { text }, failsafe: false, attempts: 1, tokens: { prompt: 1, completion: 1 } });
const K = hex('k');

describe('AnswerCache', () => {
	it('keeps answers and embeddings across reopening; the first answer for a key stays', () => {
		const a = AnswerCache.open(dir);
		expect(a.putAnswer(K, answer(1))).toEqual(answer(1));
		expect(a.putAnswer(K, answer(2))).toEqual(answer(1));
		const key = embedCacheKey('p', 'm', 'text');
		a.putEmbeddings([[key, new Float32Array([0.5, -0.25, 1])]]);
		a.putEmbeddings([[key, new Float32Array([9])]]);
		a.close();

		const b = AnswerCache.open(dir);
		expect(b.getAnswer(K)).toEqual(answer(1));
		expect(b.getAnswer(hex('missing'))).toBeUndefined();
		expect(b.getAnswer('not a key')).toBeUndefined();
		expect(Array.from(b.getEmbedding(key)!)).toEqual([0.5, -0.25, 1]);
		expect(b.size).toEqual({ answers: 1, embeddings: 1 });
		expect(b.warnings).toEqual([]);
		b.close();
	});

	it('refuses a key that is not 64 lowercase hex digits, naming it', () => {
		const a = AnswerCache.open(dir);
		expect(() => a.putAnswer('k1', answer(1))).toThrow('a model cache key is 64 lowercase hex digits, not "k1"');
		expect(() => a.putEmbeddings([[K.toUpperCase(), new Float32Array([1])]])).toThrow(/64 lowercase hex digits/);
		a.close();
	});

	it('survives a line or record cut off by a crash, silently', () => {
		const a = AnswerCache.open(dir);
		a.putAnswer(hex('good'), answer(1));
		const k1 = embedCacheKey('p', 'm', 'one');
		a.putEmbeddings([[k1, new Float32Array([1, 2])]]);
		a.close();
		appendFileSync(path.join(dir, 'answers.jsonl'), `{"k":"${hex('cut')}","t":"{\\"n`);
		appendFileSync(path.join(dir, 'embeddings.bin'), Buffer.alloc(20, 7));

		const warnings: string[] = [];
		const b = AnswerCache.open(dir, { onWarning: (m) => warnings.push(m) });
		expect(b.getAnswer(hex('good'))).toEqual(answer(1));
		expect(b.getAnswer(hex('cut'))).toBeUndefined();
		expect(statSync(path.join(dir, 'embeddings.bin')).size).toBe(32 + 4 + 8);
		// New entries after the damaged tail are readable again.
		b.putAnswer(hex('after'), answer(3));
		const k2 = embedCacheKey('p', 'm', 'two');
		b.putEmbeddings([[k2, new Float32Array([3])]]);
		expect(b.getAnswer(hex('after'))).toEqual(answer(3));
		expect(warnings).toEqual([]);
		b.close();

		const c = AnswerCache.open(dir, { onWarning: () => {} });
		expect(c.getAnswer(hex('after'))).toEqual(answer(3));
		expect(Array.from(c.getEmbedding(k2)!)).toEqual([3]);
		expect(Array.from(c.getEmbedding(k1)!)).toEqual([1, 2]);
		expect(c.size.answers).toBe(2);
		c.close();
	});

	it('skips garbage, a corrupt middle line and an oversized line with a warning naming each; the others load', () => {
		const file = path.join(dir, 'answers.jsonl');
		const big = said('x'.repeat(1 << 20));
		writeFileSync(
			file,
			[
				line(hex('1'), said('one')),
				'not json',
				`{"k":"${hex('2')}","t":"tw`,
				line(hex('3'), big),
				'{"x": 1}',
				'',
				line(hex('4'), said('four')),
				''
			].join('\n')
		);
		const warnings: string[] = [];
		const c = AnswerCache.open(dir, { onWarning: (m) => warnings.push(m) });
		expect(c.size.answers).toBe(2);
		expect(c.getAnswer(hex('1'))?.text).toBe('one');
		expect(c.getAnswer(hex('4'))?.text).toBe('four');
		expect(c.getAnswer(hex('2'))).toBeUndefined();
		expect(c.getAnswer(hex('3'))).toBeUndefined();
		expect(warnings).toEqual([
			`${file}: line 2 (byte ${line(hex('1'), said('one')).length + 1}) is skipped: it does not start with {"k":"<64 hex digits>"`,
			expect.stringMatching(/: line 3 \(byte \d+\) is skipped: it is cut off or damaged/),
			expect.stringMatching(new RegExp(`: line 4 \\(byte \\d+\\) is skipped: it is longer than the limit of ${DEFAULT_MAX_ANSWER_BYTES} bytes \\(${line(hex('3'), big).length} bytes\\)`)),
			expect.stringMatching(/: line 5 \(byte \d+\) is skipped: it does not start with/)
		]);
		expect(c.warnings).toEqual(warnings);
		c.close();
	});

	it('does not use an indexed line that does not parse when read: the next line for its key takes its place', () => {
		const file = path.join(dir, 'answers.jsonl');
		const bad = (key: string) => `{"k":"${key}","t":"a"x}`;
		writeFileSync(file, [bad(hex('1')), line(hex('2'), said('two')), line(hex('1'), said('one, again')), bad(hex('3')), ''].join('\n'));
		const warnings: string[] = [];
		const c = AnswerCache.open(dir, { onWarning: (m) => warnings.push(m) });
		expect(c.size.answers).toBe(3);
		expect(warnings).toEqual([]);
		expect(c.getAnswer(hex('1'))?.text).toBe('one, again');
		expect(c.getAnswer(hex('1'))?.text).toBe('one, again');
		expect(c.getAnswer(hex('3'))).toBeUndefined();
		expect(warnings).toEqual([
			`${file}: the line at byte 0 (key ${hex('1')}) is not used: it does not parse (${errorOf(bad(hex('1')))})`,
			expect.stringMatching(new RegExp(`: the line at byte \\d+ \\(key ${hex('3')}\\) is not used: it does not parse`))
		]);
		expect(c.size.answers).toBe(2);
		// a key whose only line is damaged can be answered anew, and the new answer is the one every process reads
		expect(c.putAnswer(hex('3'), said('three'))).toEqual(said('three'));
		c.close();
		const d = AnswerCache.open(dir, { onWarning: () => {} });
		expect(d.getAnswer(hex('3'))).toEqual(said('three'));
		expect(d.getAnswer(hex('1'))?.text).toBe('one, again');
		d.close();
	});

	it('does not write an answer whose line is over the size limit', () => {
		const c = AnswerCache.open(dir, { maxAnswerBytes: 1000 });
		const long = said('y'.repeat(1000));
		expect(c.putAnswer(K, long)).toBe(long);
		expect(c.getAnswer(K)).toBeUndefined();
		expect(statSync(path.join(dir, 'answers.jsonl')).size).toBe(0);
		expect(c.putAnswer(K, said('short'))).toEqual(said('short'));
		c.close();
		const big = said('z'.repeat(DEFAULT_MAX_ANSWER_BYTES));
		const d = AnswerCache.open(dir);
		expect(d.putAnswer(hex('big'), big)).toBe(big);
		expect(d.getAnswer(hex('big'))).toBeUndefined();
		expect(d.size.answers).toBe(1);
		d.close();
		const m = AnswerCache.memory({ maxAnswerBytes: 1000 });
		expect(m.putAnswer(K, long)).toBe(long);
		expect(m.getAnswer(K)).toBeUndefined();
	});

	it('ignores garbage lines', () => {
		const ok = hex('ok');
		writeFileSync(path.join(dir, 'answers.jsonl'), 'not json\n{"x": 1}\n' + JSON.stringify({ k: ok, t: '{}', v: {}, f: false, a: 1, p: 0, c: 0 }) + '\n');
		const c = AnswerCache.open(dir, { onWarning: () => {} });
		expect(c.size.answers).toBe(1);
		expect(c.getAnswer(ok)?.value).toEqual({});
		expect(c.warnings).toHaveLength(2);
		c.close();
	});

	it('has a memory-only form that writes nothing, first answer wins', () => {
		const m = AnswerCache.memory();
		expect(m.putAnswer(K, answer(1))).toEqual(answer(1));
		expect(m.putAnswer(K, answer(2))).toEqual(answer(1));
		expect(m.getAnswer(K)).toEqual(answer(1));
		const e = embedCacheKey('p', 'm', 't');
		m.putEmbeddings([[e, new Float32Array([1])]]);
		m.putEmbeddings([[e, new Float32Array([2])]]);
		expect(Array.from(m.getEmbedding(e)!)).toEqual([1]);
		expect(m.dir).toBeUndefined();
		expect(m.size).toEqual({ answers: 1, embeddings: 1 });
	});

	it('names the folder when it cannot be opened', () => {
		const file = path.join(dir, 'a-file');
		writeFileSync(file, 'x');
		expect(() => AnswerCache.open(path.join(file, 'sub'))).toThrow(`cannot open the model cache in ${path.join(file, 'sub')}`);
	});

	it('loads 50,000 answers and 5,000 embeddings quickly', () => {
		const a = AnswerCache.open(dir);
		for (let i = 0; i < 50_000; i++) {
			a.putAnswer(hex(`key-${i}`), { text: `{"summary": "answer number ${i} with some words in it"}`, value: { summary: `answer number ${i} with some words in it` }, failsafe: false, attempts: 1, tokens: { prompt: 120, completion: 20 } });
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
		expect((b.getAnswer(hex('key-49999'))?.value as { summary: string }).summary).toBe('answer number 49999 with some words in it');
		expect(b.getEmbedding(embedCacheKey('p', 'm', 't4999'))![255]).toBeCloseTo(4999 / 5000, 5);
		expect(ms).toBeLessThan(3000);
		b.close();
	});
});

describe('AnswerCache on a large file', () => {
	it('indexes a file of several chunks without reading it whole, reads answers on demand, skips 1 MB lines over the limit', () => {
		const file = path.join(dir, 'answers.jsonl');
		const lines: string[] = [];
		let bytes = 0;
		const add = (text: string) => {
			lines.push(text);
			bytes += Buffer.byteLength(text) + 1;
		};
		const filler = 'w'.repeat(900);
		const entry = (i: number) => line(hex(`e${i}`), said(`${i} ${filler}`));
		let n = 0;
		// up to 3.6 MB, then a 1.1 MB line that crosses the 4 MiB chunk boundary with no newline in that chunk
		while (bytes < 3_600_000) add(entry(n++));
		const crossing = lines.length + 1;
		add(line(hex('over-1'), said('o'.repeat(1_100_000))));
		while (bytes < 6_000_000) add(entry(n++));
		// a 1 MB line over the limit inside one chunk
		const inside = lines.length + 1;
		add(line(hex('over-2'), said('p'.repeat(1_000_000))));
		while (bytes < 7_500_000) add(entry(n++));
		writeFileSync(file, lines.join('\n') + '\n');
		expect(statSync(file).size).toBe(bytes);

		fsCalls.readFileSync = [];
		const warnings: string[] = [];
		const c = AnswerCache.open(dir, { onWarning: (m) => warnings.push(m) });
		expect(fsCalls.readFileSync).toEqual([]);
		expect(c.size.answers).toBe(n);
		for (const i of [0, 1, Math.floor(n / 2), n - 1]) expect(c.getAnswer(hex(`e${i}`))?.text).toBe(`${i} ${filler}`);
		expect(c.getAnswer(hex('over-1'))).toBeUndefined();
		expect(c.getAnswer(hex('over-2'))).toBeUndefined();
		expect(warnings).toEqual([expect.stringContaining(`line ${crossing} (byte `), expect.stringContaining(`line ${inside} (byte `)]);
		expect(warnings.every((w) => w.startsWith(file) && w.includes('longer than the limit'))).toBe(true);

		// answers are read from the file when asked for, not held: an edit in place shows
		const at = lines.slice(0, 7).reduce((s, l) => s + Buffer.byteLength(l) + 1, 0);
		const fd = openSync(file, 'r+');
		writeSync(fd, Buffer.from(entry(7).replace('7 w', '7 W')), 0, undefined, at);
		closeSync(fd);
		expect(c.getAnswer(hex('e7'))?.text).toBe(`7 W${filler.slice(1)}`);
		c.close();
	});
});

describe('AnswerCache shared by processes', () => {
	it('two caches on one folder: the first answer recorded wins in both and after reopening', () => {
		const a = AnswerCache.open(dir);
		const b = AnswerCache.open(dir);
		expect(a.putAnswer(K, said('a'))).toEqual(said('a'));
		// b opened before a recorded its answer, and does not know it: b's draw loses
		expect(b.putAnswer(K, said('b'))).toEqual(said('a'));
		expect(a.getAnswer(K)).toEqual(said('a'));
		expect(b.getAnswer(K)).toEqual(said('a'));
		// a miss catches up with what the other appended
		b.putAnswer(hex('from b'), said('b2'));
		expect(a.getAnswer(hex('from b'))).toEqual(said('b2'));
		expect(a.size.answers).toBe(2);
		a.close();
		b.close();
		const c = AnswerCache.open(dir);
		expect(c.getAnswer(K)).toEqual(said('a'));
		expect(c.size.answers).toBe(2);
		c.close();
	});

	it('picks up a line another process is still writing once it is complete', () => {
		const a = AnswerCache.open(dir);
		const text = line(K, said('slow'));
		appendFileSync(path.join(dir, 'answers.jsonl'), text.slice(0, 50));
		expect(a.getAnswer(K)).toBeUndefined();
		appendFileSync(path.join(dir, 'answers.jsonl'), text.slice(50) + '\n');
		expect(a.getAnswer(K)).toEqual(said('slow'));
		expect(a.warnings).toEqual([]);
		a.close();
	});

	it('two caches on one folder: the first embedding recorded wins', () => {
		const a = AnswerCache.open(dir);
		const b = AnswerCache.open(dir);
		const k = embedCacheKey('p', 'm', 'x');
		const k2 = embedCacheKey('p', 'm', 'y');
		a.putEmbeddings([[k, new Float32Array([1, 2])]]);
		b.putEmbeddings([
			[k, new Float32Array([3, 4])],
			[k2, new Float32Array([5])]
		]);
		expect(Array.from(b.getEmbedding(k)!)).toEqual([1, 2]);
		expect(Array.from(a.getEmbedding(k2)!)).toEqual([5]);
		a.close();
		b.close();
		const c = AnswerCache.open(dir);
		expect(Array.from(c.getEmbedding(k)!)).toEqual([1, 2]);
		expect(c.size.embeddings).toBe(2);
		c.close();
	});

	it('processes appending at once agree on the first answer for every key', async () => {
		const script = path.join(dir, 'put.ts');
		const module = path.join(import.meta.dirname, 'cache.ts');
		writeFileSync(
			script,
			`import { createHash } from 'node:crypto';
import { AnswerCache } from ${JSON.stringify(module)};
const [home, who, n, at] = process.argv.slice(2);
const cache = AnswerCache.open(home);
while (Date.now() < Number(at));
const out: string[] = [];
for (let i = 0; i < Number(n); i++) {
	const key = createHash('sha256').update('race-' + i).digest('hex');
	out.push(cache.putAnswer(key, { text: who + ' ' + i + ' ' + 'x'.repeat(i % 3000), value: null, failsafe: false, attempts: 1, tokens: { prompt: 0, completion: 0 } }).text);
}
cache.close();
process.stdout.write(JSON.stringify(out));`
		);
		const keys = 2000;
		const at = Date.now() + 2500;
		const run = (who: string) =>
			new Promise<string[]>((resolve, reject) => {
				execFile(process.execPath, ['--import', 'tsx', script, path.join(dir, 'cache'), who, String(keys), String(at)], { maxBuffer: 1 << 26 }, (e, stdout, stderr) =>
					e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as string[])
				);
			});
		const outs = await Promise.all(['p1', 'p2', 'p3', 'p4'].map(run));
		const text = readFileSync(path.join(dir, 'cache', 'answers.jsonl'), 'utf8');
		const first = new Map<string, string>();
		for (const l of text.split('\n').filter(Boolean)) {
			const e = JSON.parse(l) as { k: string; t: string };
			if (!first.has(e.k)) first.set(e.k, e.t);
		}
		const c = AnswerCache.open(path.join(dir, 'cache'));
		expect(c.size.answers).toBe(keys);
		for (let i = 0; i < keys; i++) {
			const key = hex(`race-${i}`);
			const agreed = outs.map((o) => o[i]);
			expect(new Set(agreed).size).toBe(1);
			expect(agreed[0]).toBe(first.get(key));
			expect(c.getAnswer(key)?.text).toBe(agreed[0]);
		}
		expect(c.warnings).toEqual([]);
		c.close();
	}, 60_000);
});

function errorOf(text: string): string {
	try {
		JSON.parse(text);
	} catch (e) {
		return (e as Error).message;
	}
	return '';
}

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
