// npm run bench [-- --only day,retrieval] [--readme]
// Measures on this machine and prints a Markdown table; with --readme the figures replace the
// block between the bench markers in README.md.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openRun, startRun } from '../src/lib/server/run/runner';
import { benchDiff } from './diff';
import { benchRetrieval } from './retrieval';
import { benchUi } from './ui';
import { benchEditor } from './editor';
import { benchCompare } from './compare';
import { benchWorkbench } from './workbench';
import { benchCost } from './cost';
import { benchSecurity } from './security';
import { benchLatency, benchLatencyDay } from './latency';
import { benchRescore } from './rescore';
import { benchScale } from './scale';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

async function dayBench(): Promise<Row[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-day-'));
	try {
		const steps = 8640;
		const s = await startRun({ world: 'smallville', steps, seed: 1, home });
		const agentSteps = s.agents * steps;
		const lines = openRun(s.run, home).steps();
		const conversations = lines.reduce((n, l) => n + l.conversations.length, 0);
		const reflections = lines.reduce((n, l) => n + l.events.filter((e) => e.kind === 'reflection').length, 0);
		const name = 'one game day, Smallville (25 agents, 8,640 steps), offline';
		return [
			{ bench: name, figure: 'wall time', value: `${(s.wallMs / 1000).toFixed(1)} s` },
			{ bench: name, figure: 'agent-steps per second', value: Math.round(agentSteps / (s.wallMs / 1000)).toLocaleString('en') },
			{ bench: name, figure: 'model calls per agent-step', value: (s.llmCalls / agentSteps).toFixed(3) },
			{ bench: name, figure: 'prompt + completion tokens per agent-step', value: ((s.tokens.prompt + s.tokens.completion) / agentSteps).toFixed(1) },
			{ bench: name, figure: 'conversations / reflections per agent per day', value: `${(conversations / s.agents).toFixed(1)} / ${(reflections / s.agents).toFixed(1)}` }
		];
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}

const BENCHES: Record<string, () => Promise<Row[]>> = { day: dayBench, retrieval: benchRetrieval, latency: benchLatency, 'latency-day': benchLatencyDay, ui: benchUi, editor: benchEditor, diff: benchDiff, compare: benchCompare, workbench: benchWorkbench, cost: benchCost, security: benchSecurity, rescore: benchRescore, scale: benchScale };
BENCHES['any-answer'] = async () => (await import('./any-answer')).benchAnyAnswer();
BENCHES.storage = async () => (await import('./storage')).benchStorage();
BENCHES.experiments = async () => (await import('./experiments')).benchExperiments();
BENCHES.cache = async () => (await import('./cache')).benchCache();
BENCHES.deadline = async () => (await import('./deadline')).benchDeadline();
BENCHES.evaluation = async () => (await import('./evaluation')).benchEvaluation();
BENCHES.search = async () => (await import('./search')).benchSearch();

async function main() {
	const { values } = parseArgs({ options: { only: { type: 'string' }, readme: { type: 'boolean', default: false } } });
	// the whole-day latency bench takes a quarter of an hour or more: asked for by name only
	const names = values.only ? values.only.split(',') : Object.keys(BENCHES).filter((n) => n !== 'latency-day');
	const rows: Row[] = [];
	for (const name of names) {
		const bench = BENCHES[name];
		if (!bench) throw new Error(`unknown bench "${name}" (${Object.keys(BENCHES).join(', ')})`);
		process.stderr.write(`running ${name}...\n`);
		rows.push(...(await bench()));
	}
	const table = [
		`Measured on ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}.`,
		'',
		'| benchmark | figure | value |',
		'|---|---|---|',
		...rows.map((r) => `| ${r.bench} | ${r.figure} | ${r.value} |`)
	].join('\n');
	process.stdout.write(table + '\n');
	if (values.readme) {
		const file = path.join(import.meta.dirname, '..', 'README.md');
		const text = readFileSync(file, 'utf8');
		const start = `<!-- bench:${names.join(',')} -->`;
		const end = `<!-- /bench:${names.join(',')} -->`;
		const block = `${start}\n${table}\n${end}`;
		const re = new RegExp(`${start}[\\s\\S]*?${end}`);
		writeFileSync(file, re.test(text) ? text.replace(re, block) : text.replace('<!-- bench -->', `${block}\n\n<!-- bench -->`));
	}
}

main().catch((e) => {
	process.stderr.write(`error: ${(e as Error).message}\n`);
	process.exitCode = 1;
});
