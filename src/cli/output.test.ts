// The command line's output as a person meets it: piped into a reader that stops early, the
// retrieval table's order and headers, and what `set-object` says it did.

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, root } from './testing';

const { home, env, args, cli } = cliHarness('cli-output-');

/** Runs the CLI with its output read by a reader that closes the pipe after `keep` bytes (0: before anything is written). */
function closedEarly(keep: number, ...a: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string; got: number }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args(...a), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let err = '';
		let got = 0;
		child.stderr.on('data', (d: Buffer) => (err += d.toString()));
		if (keep === 0) child.stdout.destroy();
		else
			child.stdout.on('data', (d: Buffer) => {
				got += d.length;
				if (got >= keep) child.stdout.destroy();
			});
		child.on('error', reject);
		child.on('exit', (code, signal) => resolve({ code, signal, err, got }));
	});
}

describe('a reader that stops early', () => {
	it('ends the CLI quietly with status 0, without an EPIPE stack trace', async () => {
		// about 74 KB, more than a pipe holds: the writer is still writing when the reader goes
		for (const keep of [300, 0]) {
			const r = await closedEarly(keep, 'world', 'tree', 'smallville', '--json');
			expect(r.err, `keep ${keep}`).not.toMatch(/EPIPE|\n\s+at /);
			expect(r.signal).toBeNull();
			expect(r.code, `keep ${keep}: ${r.err}`).toBe(0);
		}
		const help = await closedEarly(0, '--help');
		expect(help.err).not.toMatch(/EPIPE/);
		expect(help.code).toBe(0);
	}, 60_000);

	it('in a shell pipeline into head', () => {
		const cmd = `"${process.execPath}" ${args('world', 'tree', 'smallville', '--json').map((a) => `"${a}"`).join(' ')} 2>"${path.join(home, 'err.txt')}" | head -c 300 >/dev/null; echo "status \${PIPESTATUS[0]}"; cat "${path.join(home, 'err.txt')}"`;
		for (let i = 0; i < 3; i++) {
			const r = spawnSync('bash', ['-c', cmd], { cwd: root, env, encoding: 'utf8' });
			expect(r.stdout.trim()).toBe('status 0');
		}
	}, 60_000);
});

describe('retrieval and set-object on a run', () => {
	let run = '';
	let committed = 0;
	beforeAll(() => {
		const made = cli('run', '--world', 'the-ville-3', '--steps', '50', '--seed', '3', '--json');
		expect(made.code, made.err).toBe(0);
		run = JSON.parse(made.out).run;
		committed = JSON.parse(made.out).steps;
	}, 60_000);

	it('prints the score table under column headers, best first, ties in rank order', () => {
		const list = cli('retrievals', run, '--agent', 'Klaus Mueller', '--json');
		expect(list.code, list.err).toBe(0);
		const trace = (JSON.parse(list.out) as { id: string }[])[0].id;
		// recency only: the seed memories, all made at once, tie
		const r = cli('retrieval', run, trace, '--weights', '1,0,0');
		expect(r.code, r.err).toBe(0);
		const lines = r.out.trimEnd().split('\n');
		const header = lines.findIndex((l) => /^rank\s+score\s+recency\s+importance\s+relevance\s+memory$/.test(l));
		expect(header, r.out).toBeGreaterThan(0);
		const rows = lines.slice(header + 1).map((l) => /^\s*(\d+|-)\s+(\d+\.\d+)\s/.exec(l)!);
		expect(rows.every(Boolean), r.out).toBe(true);
		const scores = rows.map((m) => Number(m[2]));
		expect(new Set(scores).size, 'the weights make ties').toBeLessThan(scores.length);
		for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
		const ranks = rows.map((m) => m[1]).filter((x) => x !== '-').map(Number);
		expect(ranks).toEqual(ranks.map((_, i) => i + 1));
	}, 60_000);

	it('set-object says which fork it made, from which step, that the change takes effect at its first step, and how to see it', () => {
		const address = 'Hobbs Cafe:cafe:coffee machine';
		const r = cli('set-object', run, '--object', address, '--state', 'broken');
		expect(r.code, r.err).toBe(0);
		const fork = /as (\S+)\n/.exec(r.out)?.[1] ?? '';
		expect(r.out).toContain(`set-object: forked ${run} at step ${committed} (its last step) as ${fork}`);
		expect(r.out).toContain(`"${address}" is "broken" from the fork's first step (${committed} -> ${committed + 1})`);
		// without --steps: one game hour (10 s steps), so agents can come across it
		expect(r.out).toContain(`the fork ran 360 steps (1 game hour), to step ${committed + 360}; that is the default`);
		const control = `npm run simulacra -- run --from ${run}@${committed} --steps 360`;
		expect(r.out).toContain(control);
		expect(r.out).toContain(`npm run simulacra -- diff <the run that prints> ${fork}`);
		const runs = JSON.parse(cli('runs', '--json').out) as { id: string; steps: number; parent: { run: string; step: number } | null }[];
		expect(runs.find((x) => x.id === fork)).toMatchObject({ steps: committed + 360, parent: { run, step: committed } });

		// following the advice shows the effect
		const made = cli('run', '--from', `${run}@${committed}`, '--steps', '360', '--json');
		expect(made.code, made.err).toBe(0);
		const diff = cli('diff', JSON.parse(made.out).run, fork);
		expect(diff.code, diff.err).toBe(0);
		expect(diff.out).toContain(`input at step ${committed}: - -> ${address} set to "broken"`);
		expect(diff.out).not.toMatch(/verdict: Identical/);

		// --json says the same, with the commands
		const j = cli('set-object', run, '--step', '20', '--steps', '10', '--object', address, '--state', 'on fire', '--json');
		expect(j.code, j.err).toBe(0);
		const value = JSON.parse(j.out);
		expect(value).toMatchObject({ input: { type: 'set-object', address, state: 'on fire' }, from: { run, step: 20 }, stepsRun: 10, steps: 30, compare: null });
	}, 120_000);
});
