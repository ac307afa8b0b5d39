// The prompts command group and `run --prompts` as a person uses them: real processes.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'cli-prompts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const home = path.join(dir, 'home');
const prompts = path.join(dir, 'prompts');
cpSync(path.join(root, 'prompts'), prompts, { recursive: true });
const env = { ...process.env, SIMULACRA_HOME: home, SIMULACRA_PROMPTS: prompts };

function cli(...a: string[]) {
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a], { cwd: root, env, encoding: 'utf8' });
	expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
	return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('simulacra prompts', () => {
	it('refuses a broken working copy with file and line, saves a fixed one, and runs with it by version prefix', () => {
		const file = path.join(prompts, 'importance.md');
		const good = readFileSync(file, 'utf8');
		writeFileSync(file, good.replace('Memories of {{name}}:', 'Memories of {{person}}:'));
		const bad = cli('prompts', 'save', '--message', 'typo');
		expect(bad.code).toBe(1);
		expect(bad.err).toMatch(/importance\.md:28: unknown placeholder \{\{person\}\}/);

		writeFileSync(file, good.replace('Rate every memory', 'Carefully rate every memory'));
		const saved = cli('prompts', 'save', '-m', 'ask for care', '--json');
		expect(saved.code).toBe(0);
		const info = JSON.parse(saved.out);
		// the first use of the store: the working copy being saved is the first version, and the baseline
		expect(info).toMatchObject({ created: true, message: 'ask for care', labels: ['baseline'] });

		const run = cli('run', '--world', 'the-ville-3', '--steps', '1', '--prompts', info.version.slice(0, 8), '--json');
		expect(run.code).toBe(0);
		const meta = JSON.parse(readFileSync(path.join(home, 'runs', JSON.parse(run.out).run, 'run.json'), 'utf8'));
		expect(meta.promptSet.version).toBe(info.version);
	}, 60_000);
});
