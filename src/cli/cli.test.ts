// The command line as a person uses it: a real process, its exit code and output.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliHarness, root } from './testing';

const { home, env, args, cli } = cliHarness('cli-');

function json(...a: string[]) {
	const r = cli(...a, '--json');
	expect(r.err, r.err).not.toMatch(/\n\s+at /);
	return { code: r.code, value: JSON.parse(r.out) };
}

describe('simulacra CLI', () => {
	it('checks worlds: ok for the default towns, clear errors and exit 1 for broken ones', () => {
		const ok = json('world', 'check', 'the-ville-3');
		expect(ok.code).toBe(0);
		expect(ok.value.ok).toBe(true);
		expect(ok.value.counts.personas).toBe(3);

		const broken = path.join(home, 'broken');
		cpSync(path.join(root, 'worlds/the-ville-3'), broken, { recursive: true });
		const persona = path.join(broken, 'personas/klaus-mueller.json');
		const data = JSON.parse(readFileSync(persona, 'utf8'));
		writeFileSync(persona, JSON.stringify({ ...data, favouriteColour: 'green' }, null, 2));
		const bad = cli('world', 'check', broken);
		expect(bad.code).toBe(1);
		expect(bad.out + bad.err).toMatch(/klaus-mueller\.json.*line \d+.*favouriteColour/s);
		expect(bad.out + bad.err).not.toMatch(/\n\s+at /);

		const missing = cli('world', 'check', path.join(home, 'nowhere'));
		expect(missing.code).toBe(1);
		expect(missing.out + missing.err).not.toMatch(/\n\s+at /);
	});

	it('runs with the paper\'s settings, or the fast profile with --profile fast; an unknown profile is refused', () => {
		const settingsOf = (id: string) => JSON.parse(readFileSync(path.join(home, 'runs', id, 'run.json'), 'utf8')).settings;
		const paper = json('run', '--world', 'the-ville-3', '--steps', '2');
		expect(paper.code).toBe(0);
		expect(settingsOf(paper.value.run).perception.reactionMinutes).toBe(0);
		expect(settingsOf(paper.value.run).importance).toEqual({ waitMinutes: 0, perCall: 0, mundane: 0 });
		const fast = json('run', '--world', 'the-ville-3', '--steps', '2', '--profile', 'fast');
		expect(fast.code).toBe(0);
		expect(settingsOf(fast.value.run).perception.reactionMinutes).toBe(4);
		expect(settingsOf(fast.value.run).importance).toEqual({ waitMinutes: 5, perCall: 0, mundane: 1 });
		const bad = cli('run', '--world', 'the-ville-3', '--steps', '2', '--profile', 'quick');
		expect(bad.code).toBe(1);
		expect(bad.err).toMatch(/unknown profile "quick": choose "paper" or "fast"/);
		expect(bad.err).not.toMatch(/\n\s+at /);
	});

	it('a run with the offline stand-in loads no package it does not use: not the openai SDK, not a second copy of apache-arrow', () => {
		// every package module the process imports, as Node's module hooks see it
		const dir = mkdtempSync(path.join(tmpdir(), 'cli-loads-'));
		try {
			const log = path.join(dir, 'loaded.txt');
			const hooks = path.join(dir, 'hooks.mjs');
			writeFileSync(
				hooks,
				`import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes('/node_modules/')) appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`
			);
			const register = path.join(dir, 'register.mjs');
			writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
			const r = spawnSync(process.execPath, ['--import', register, ...args('run', '--world', 'the-ville-3', '--steps', '1')], { cwd: root, env, encoding: 'utf8' });
			expect(r.status, r.stderr).toBe(0);
			const loaded = readFileSync(log, 'utf8');
			expect(loaded).toMatch(/\/node_modules\/@lancedb\/lancedb\//);
			expect(loaded).not.toMatch(/\/node_modules\/openai\//);
			// LanceDB's own (CommonJS) copy is the one the memory store uses
			expect(loaded).not.toMatch(/\/node_modules\/apache-arrow\/.*\.mjs/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('prints the environment tree and refuses unknown commands without a stack trace', () => {
		const tree = cli('world', 'tree', 'the-ville-3');
		expect(tree.code).toBe(0);
		expect(tree.out).toMatch(/Hobbs Cafe/);
		const bad = cli('frobnicate');
		expect(bad.code).toBe(1);
		expect(bad.err).toMatch(/unknown command "frobnicate"/);
		expect(bad.err).not.toMatch(/\n\s+at /);
	});

	it('a run killed with SIGKILL keeps its committed steps and resumes to the same state', async () => {
		const straight = json('run', '--world', 'the-ville-3', '--steps', '600', '--seed', '3');
		expect(straight.code).toBe(0);
		const expected = straight.value.stateHash;

		const runsDir = path.join(home, 'runs');
		const before = new Set(readdirSync(runsDir));
		const child = spawn(process.execPath, args('run', '--world', 'the-ville-3', '--steps', '600', '--seed', '3', '--json'), { cwd: root, env });
		// wait until the new run has committed some steps, then kill it hard
		let runDir = '';
		for (let i = 0; i < 2000 && !runDir; i++) {
			await new Promise((r) => setTimeout(r, 5));
			const fresh = readdirSync(runsDir).find((id) => !before.has(id));
			const steps = fresh ? path.join(runsDir, fresh, 'steps.jsonl') : '';
			if (steps && existsSync(steps) && readFileSync(steps, 'utf8').split('\n').length > 50) runDir = path.join(runsDir, fresh as string);
		}
		expect(runDir).not.toBe('');
		child.kill('SIGKILL');
		await new Promise((r) => child.once('exit', r));
		const id = path.basename(runDir);
		const killedAt = (json('runs').value as { id: string; steps: number }[]).find((r) => r.id === id)!.steps;
		expect(killedAt).toBeGreaterThanOrEqual(50);
		expect(killedAt).toBeLessThan(600);
		// every committed step can be inspected
		const mid = json('inspect', id, '--step', String(killedAt));
		expect(mid.code).toBe(0);
		expect(mid.value.agents).toHaveLength(3);

		const resumed = json('resume', id);
		expect(resumed.code).toBe(0);
		expect(resumed.value.steps).toBe(600);
		expect(resumed.value.stateHash).toBe(expected);
		expect(existsSync(path.join(runDir, 'snapshots', '600.json.br'))).toBe(true);
	}, 180_000);
});
