// The model answer cache (src/lib/server/model/cache.ts) with 100,000 and 1,000,000 answers of
// about 1 KB: answers.jsonl is written directly (buffered), then a process of its own opens the
// cache, so its resident memory is the cache's alone: time to open (index the file), memory after
// opening, and the time of 10,000 random getAnswer hits, 10,000 misses (each checks whether
// another process appended) and 10,000 putAnswer (append, then catch up with the file). The file
// was just written, so it is read from the page cache: a cold disk adds its read time to opening.
//
//   npx tsx bench/cache.ts                      (prints the rows)
//   npx tsx bench/cache.ts --child DIR COUNT    (one measurement; prints its figures as JSON)

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

interface CacheFigures {
	entries: number;
	openMs: number;
	rssBefore: number;
	rssAfter: number;
	heapBefore: number;
	heapAfter: number;
	/** ArrayBuffer memory (the index's typed arrays) */
	buffersBefore: number;
	buffersAfter: number;
	hitsMs: number;
	hits: number;
	missesMs: number;
	putsMs: number;
	peakRss: number;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const LOOKUPS = 10_000;

const keyOf = (i: number) => createHash('sha256').update(`bench-${i}`).digest('hex');

/** answers.jsonl with `count` answers of about 1 KB, in the cache's line format. */
function writeAnswers(file: string, count: number): void {
	const words = 'the agent walks to the kitchen and makes breakfast while thinking about the day ahead ';
	const fd = openSync(file, 'w');
	try {
		let chunk: string[] = [];
		let size = 0;
		for (let i = 0; i < count; i++) {
			const summary = `${i}: ${words.repeat(5)}`.slice(0, 440);
			const line = JSON.stringify({ k: keyOf(i), t: JSON.stringify({ summary }), v: { summary }, f: false, a: 1, p: 420, c: 110 });
			chunk.push(line);
			size += line.length + 1;
			if (size >= 4 << 20) {
				writeSync(fd, chunk.join('\n') + '\n');
				chunk = [];
				size = 0;
			}
		}
		if (chunk.length) writeSync(fd, chunk.join('\n') + '\n');
	} finally {
		closeSync(fd);
	}
}

async function child(dir: string, count: number): Promise<void> {
	const { AnswerCache } = await import('../src/lib/server/model/cache');
	const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
	const hitKeys = Array.from({ length: LOOKUPS }, () => keyOf(Math.floor(Math.random() * count)));
	const missKeys = Array.from({ length: LOOKUPS }, (_, i) => keyOf(count + i));
	gc();
	const before = process.memoryUsage();
	const t0 = performance.now();
	const cache = AnswerCache.open(dir);
	const openMs = performance.now() - t0;
	gc();
	const after = process.memoryUsage();
	if (cache.size.answers !== count) throw new Error(`indexed ${cache.size.answers} answers, not ${count}`);

	let t = performance.now();
	let hits = 0;
	for (const k of hitKeys) if (cache.getAnswer(k)) hits++;
	const hitsMs = performance.now() - t;
	t = performance.now();
	for (const k of missKeys) if (cache.getAnswer(k)) throw new Error('a miss was answered');
	const missesMs = performance.now() - t;
	t = performance.now();
	for (const k of missKeys) cache.putAnswer(k, { text: '{"summary": "new"}', value: { summary: 'new' }, failsafe: false, attempts: 1, tokens: { prompt: 420, completion: 110 } });
	const putsMs = performance.now() - t;
	cache.close();

	const out: CacheFigures = {
		entries: count,
		openMs,
		rssBefore: before.rss,
		rssAfter: after.rss,
		heapBefore: before.heapUsed,
		heapAfter: after.heapUsed,
		buffersBefore: before.arrayBuffers,
		buffersAfter: after.arrayBuffers,
		hitsMs,
		hits,
		missesMs,
		putsMs,
		peakRss: process.resourceUsage().maxRSS * 1024
	};
	process.stdout.write(`${JSON.stringify(out)}\n`);
}

function measure(count: number): { figures: CacheFigures; fileBytes: number } {
	const dir = mkdtempSync(path.join(tmpdir(), 'bench-cache-'));
	try {
		const file = path.join(dir, 'answers.jsonl');
		writeAnswers(file, count);
		const fileBytes = statSync(file).size;
		const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(HERE, 'cache.ts'), '--child', dir, String(count)], {
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 600_000
		});
		if (r.status !== 0) throw new Error(`the cache bench process failed: ${r.stderr || r.error?.message}`);
		const last = r.stdout.trim().split('\n').pop() ?? '';
		return { figures: JSON.parse(last) as CacheFigures, fileBytes };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const MB = 2 ** 20;

function rows({ figures: f, fileBytes }: { figures: CacheFigures; fileBytes: number }): Row[] {
	const bench = `answer cache: ${f.entries.toLocaleString('en')} answers of ~1 KB (answers.jsonl ${(fileBytes / MB).toFixed(0)} MB), opened in a process of its own`;
	const us = (ms: number) => `${((ms * 1000) / LOOKUPS).toFixed(1)} µs each`;
	const index = f.heapAfter - f.heapBefore + (f.buffersAfter - f.buffersBefore);
	return [
		{ bench, figure: 'open (index the file)', value: `${f.openMs.toFixed(0)} ms` },
		{ bench, figure: 'resident memory after opening (added by opening)', value: `${(f.rssAfter / MB).toFixed(0)} MB (+${((f.rssAfter - f.rssBefore) / MB).toFixed(0)} MB)` },
		{ bench, figure: 'heap used after opening (+ typed arrays added), per answer', value: `${(f.heapAfter / MB).toFixed(1)} MB (+${((f.buffersAfter - f.buffersBefore) / MB).toFixed(1)} MB), ${(index / f.entries).toFixed(0)} bytes` },
		{ bench, figure: `${LOOKUPS.toLocaleString('en')} random getAnswer hits (read and parsed from the file)`, value: `${f.hitsMs.toFixed(0)} ms, ${us(f.hitsMs)}` },
		{ bench, figure: `${LOOKUPS.toLocaleString('en')} getAnswer misses (each checks for appends by other processes)`, value: `${f.missesMs.toFixed(0)} ms, ${us(f.missesMs)}` },
		{ bench, figure: `${LOOKUPS.toLocaleString('en')} putAnswer (append, catch up with the file)`, value: `${f.putsMs.toFixed(0)} ms, ${us(f.putsMs)}` },
		{ bench, figure: 'peak resident memory of the process', value: `${(f.peakRss / MB).toFixed(0)} MB` }
	];
}

export async function benchCache(): Promise<Row[]> {
	return [100_000, 1_000_000].flatMap((n) => rows(measure(n)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const { values, positionals } = parseArgs({ allowPositionals: true, options: { child: { type: 'boolean', default: false } } });
	if (values.child) {
		const [dir, count] = positionals;
		await child(dir, Number(count));
	} else {
		for (const r of await benchCache()) console.log(`| ${r.bench} | ${r.figure} | ${r.value} |`);
	}
}
