// `search`, `inspect --changes` and `export --otlp` as a person runs them: a real process, its
// exit code and output.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const home = mkdtempSync(path.join(tmpdir(), 'find-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { ...process.env, SIMULACRA_HOME: home };

function cli(...a: string[]) {
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a], { cwd: root, env, encoding: 'utf8' });
	expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);
	return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('search, changes and export on the command line', () => {
	let id = '';
	beforeAll(() => {
		const r = cli('run', '--world', 'the-ville-3', '--steps', '400', '--seed', '6', '--json');
		expect(r.code).toBe(0);
		id = JSON.parse(r.out).run;
	}, 120_000);

	it('search --json is a ranked list of {agent, kind, id, step, text, score}; --agent and --kind filter it', () => {
		const r = cli('search', id, 'Klaus Mueller', '--limit', '12', '--json');
		expect(r.code).toBe(0);
		const list = JSON.parse(r.out) as { agent: string; kind: string; id: string; step: number; text: string; score: number }[];
		expect(list).toHaveLength(12);
		for (const x of list) {
			expect(typeof x.agent).toBe('string');
			expect(['memory', 'call', 'conversation']).toContain(x.kind);
			expect(typeof x.id).toBe('string');
			expect(Number.isInteger(x.step)).toBe(true);
			expect(x.text.length).toBeGreaterThan(0);
			expect(x.score).toBeGreaterThan(0);
		}
		const calls = JSON.parse(cli('search', id, 'Klaus Mueller', '--kind', 'call', '--agent', 'maria-lopez', '--json').out) as { agent: string; kind: string }[];
		expect(calls.length).toBeGreaterThan(0);
		expect(calls.every((c) => c.kind === 'call' && c.agent === 'maria-lopez')).toBe(true);
		const text = cli('search', id, 'Klaus Mueller', '--limit', '3');
		expect(text.out).toMatch(/^3 results for "Klaus Mueller"/);
		const bad = cli('search', id);
		expect(bad.code).toBe(1);
		expect(bad.err).toMatch(/search needs a run id and a query/);
	}, 60_000);

	it('inspect --changes --json adds what the step did; export --otlp writes OTLP/JSON lines', () => {
		const r = cli('inspect', id, '--step', '200', '--changes', '--json');
		expect(r.code).toBe(0);
		const v = JSON.parse(r.out) as { step: number; changes: { kind: string; text: string }[] };
		expect(v.step).toBe(200);
		expect(v.changes.length).toBeGreaterThan(0);
		expect(v.changes.every((c) => typeof c.kind === 'string' && typeof c.text === 'string')).toBe(true);
		expect(cli('inspect', id, '--step', '200', '--changes').out).toMatch(/changes of the step to 200/);

		const file = path.join(home, 'trace.jsonl');
		const e = cli('export', id, '--otlp', file, '--json');
		expect(e.code).toBe(0);
		const summary = JSON.parse(e.out).file as { spans: number; steps: number; requests: number };
		expect(summary.steps).toBe(400);
		const lines = readFileSync(file, 'utf8').trim().split('\n');
		expect(lines).toHaveLength(summary.requests);
		const spans = lines.flatMap((l) => JSON.parse(l).resourceSpans[0].scopeSpans[0].spans);
		expect(spans).toHaveLength(summary.spans);
		const none = cli('export', id);
		expect(none.code).toBe(1);
		expect(none.err).toMatch(/--otlp FILE or --otlp-endpoint URL/);
	}, 60_000);
});
