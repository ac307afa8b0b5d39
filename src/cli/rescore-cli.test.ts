// `simulacra rescore` as a person uses it: a real process, its exit code and output.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const home = mkdtempSync(path.join(tmpdir(), 'rescore-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { ...process.env, SIMULACRA_HOME: home };

function cli(...a: string[]) {
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a], { cwd: root, env, encoding: 'utf8' });
	return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('simulacra rescore', () => {
	it("prints {weights, retrievals, changed} per weighting; the run's own weights change nothing", () => {
		const made = cli('run', '--world', 'the-ville-3', '--steps', '800', '--seed', '2', '--json');
		expect(made.code, made.err).toBe(0);
		const run = JSON.parse(made.out).run as string;

		const r = cli('rescore', run, '--weights', '1,1,1', '--weights', 'run', '--weights', '0,0,1', '--decay', 'run', '--json');
		expect(r.code, r.err).toBe(0);
		const cells = JSON.parse(r.out) as { weights: unknown; decay: unknown; retrievals: number; changed: number; mismatched: number }[];
		expect(cells.map((c) => c.weights)).toEqual([{ recency: 1, importance: 1, relevance: 1 }, 'run', { recency: 0, importance: 0, relevance: 1 }]);
		expect(cells[0].retrievals).toBeGreaterThan(10);
		expect(cells[0].changed).toBe(0);
		expect(cells[1].changed).toBe(0);
		expect(cells[2].changed).toBeGreaterThan(0);
		expect(cells[0].mismatched).toBe(0);

		const text = cli('rescore', run, '--weights', '0,0,1', '--agent', 'Klaus Mueller');
		expect(text.code, text.err).toBe(0);
		expect(text.out).toMatch(/retrievals re-scored/);
		expect(text.out).toMatch(/weights 0,0,1 {2}decay run: \d+ of \d+ change their top k/);

		for (const [args, message] of [
			[[run], /rescore needs --weights R,I,V/],
			[[run, '--weights', '1,2'], /weights #1: "1,2" is not three numbers/],
			[[run, '--weights', '1,1,1', '--decay', '2'], /decay #1: "2" is not a decay/],
			[['no-such-run', '--weights', '1,1,1'], /no run "no-such-run"/]
		] as const) {
			const bad = cli('rescore', ...args);
			expect(bad.code).toBe(1);
			expect(bad.err).toMatch(message);
			expect(bad.err).not.toMatch(/\n\s+at /);
		}
	}, 240_000);
});
