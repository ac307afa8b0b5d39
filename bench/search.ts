// Search, indexes and trace export over a two-day Smallville run (offline): search latency
// (p50, p95) over a set of queries, warm as the studio's server keeps a run open, and cold as a
// command does (open, search, close); the memory full-text index and the text index of calls
// and lines (build time, size); OTLP/JSON export of one game day (time, size) and the same day
// sent over OTLP/HTTP to a local receiver.

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRun, startRun } from '../src/lib/server/run/runner';
import { parseKinds, RunSearcher } from '../src/lib/server/search/search';
import { journalTexts } from '../src/lib/server/search/text-index';
import { exportOtlpFile, sendOtlp } from '../src/lib/server/trace/otlp';
import { startOtlpReceiver } from '../src/lib/server/trace/otlp-receiver';

type Row = { bench: string; figure: string; value: string };

const QUERIES = [
	'who heard about the party, and from whom',
	"Valentine's Day party",
	'Isabella Rodriguez',
	'Klaus research paper on gentrification',
	'Hobbs Cafe',
	'mayor election',
	'Sam Moore',
	'painting and art supplies',
	'music practice',
	'pharmacy',
	'breakfast at home',
	'talked about the weather',
	'Maria Lopez studying physics',
	'sleeping',
	'college library',
	'the piano',
	'Carlos poetry',
	'Wolfgang Schulz',
	'co-living space',
	'groceries at the supply store'
];

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function ms(v: number): string {
	return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 1 : 0)} ms`;
}

function mb(bytes: number): string {
	return `${(bytes / 1e6).toFixed(1)} MB`;
}

function folderBytes(dir: string): number {
	let n = 0;
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
	}
	return n;
}

export async function benchSearch(): Promise<Row[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-search-'));
	const receiver = await startOtlpReceiver();
	try {
		const steps = 17_280;
		const made = await startRun({ world: 'smallville', steps, seed: 1, home });
		const reader = openRun(made.run, home);
		const texts = journalTexts(reader, -1, reader.committed());
		const calls = texts.filter((t) => t.kind === 'call').length;
		const lines = texts.length - calls;
		const name = `search a two-day Smallville run (25 agents, ${steps.toLocaleString('en')} steps, offline; ${calls.toLocaleString('en')} model calls, ${lines.toLocaleString('en')} conversation lines)`;

		const searcher = await RunSearcher.open(made.run, { home });
		const t0 = performance.now();
		const built = await searcher.ensureIndexes();
		const firstMs = performance.now() - t0;
		const memories = built.memories.indexedRows + built.memories.unindexedRows;
		const text = built.texts[0];

		const warm: number[] = [];
		const filtered: number[] = [];
		for (const q of QUERIES) await searcher.search(q, { limit: 20 }); // warm-up
		for (let r = 0; r < 5; r++) {
			for (const q of QUERIES) {
				let a = performance.now();
				await searcher.search(q, { limit: 20 });
				warm.push(performance.now() - a);
				a = performance.now();
				await searcher.search(q, { limit: 20, agent: 'Isabella Rodriguez', filter: parseKinds('memory,conversation') });
				filtered.push(performance.now() - a);
			}
		}
		searcher.close();
		const cold: number[] = [];
		for (const q of QUERIES.slice(0, 10)) {
			const a = performance.now();
			const s = await RunSearcher.open(made.run, { home });
			await s.search(q, { limit: 20 });
			s.close();
			cold.push(performance.now() - a);
		}
		for (const list of [warm, filtered, cold]) list.sort((a, b) => a - b);

		const day = 8640;
		const file = path.join(home, 'day.otlp.jsonl');
		const exported = exportOtlpFile(made.run, file, { home, to: day });
		const sent = await sendOtlp(made.run, receiver.url, { home, to: day });
		const dayName = `OTLP trace of one game day of that run (${day.toLocaleString('en')} steps: ${exported.spans.toLocaleString('en')} spans, ${exported.calls.toLocaleString('en')} of them model calls)`;

		return [
			{ bench: name, figure: `search p50 / p95, run kept open (${warm.length} searches of ${QUERIES.length} queries, the best 20 of ${memories.toLocaleString('en')} memories, the calls and the lines)`, value: `${ms(percentile(warm, 0.5))} / ${ms(percentile(warm, 0.95))}` },
			{ bench: name, figure: 'search p50 / p95 for one agent, memories and lines', value: `${ms(percentile(filtered, 0.5))} / ${ms(percentile(filtered, 0.95))}` },
			{ bench: name, figure: 'search p50 / p95 opening and closing the run each time (as a command does)', value: `${ms(percentile(cold, 0.5))} / ${ms(percentile(cold, 0.95))}` },
			{ bench: name, figure: 'memory full-text index (LanceDB FTS over descriptions): build / size', value: `${ms(built.memories.ms)} / ${mb(built.memories.bytes)}` },
			{ bench: name, figure: `text index of calls and lines (${text.rows.toLocaleString('en')} rows, LanceDB table + FTS): build / size on disk`, value: `${ms(text.ms)} / ${mb(text.bytes)}` },
			{ bench: name, figure: 'first search of the run, both indexes built', value: ms(firstMs) },
			{ bench: name, figure: 'the run folder without / with the search indexes', value: `${mb(folderBytes(reader.dir) - text.bytes - built.memories.bytes)} / ${mb(folderBytes(reader.dir))}` },
			{ bench: dayName, figure: `export to an OTLP/JSON file (${exported.requests} requests, one a line): time / size`, value: `${ms(exported.ms)} / ${mb(exported.bytes)}` },
			{ bench: dayName, figure: 'sent over OTLP/HTTP to a local receiver (127.0.0.1, JSON)', value: ms(sent.ms) }
		];
	} finally {
		await receiver.close();
		rmSync(home, { recursive: true, force: true });
	}
}
