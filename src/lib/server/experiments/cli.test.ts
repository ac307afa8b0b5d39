import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths';
import { experimentCommand, reportText } from './cli';
import type { ExperimentReport } from '../../api/experiments';

const home = mkdtempSync(path.join(tmpdir(), 'simulacra-exp-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('experiment command', () => {
	it('names the file and the field of a bad definition, one line, exit 1', () => {
		const file = path.join(home, 'bad.json');
		writeFileSync(file, JSON.stringify({ world: 'the-ville-3', steps: 10, replicates: 2, arms: [{ name: 'A', set: ['retrieval.weights.relevance'] }] }));
		const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'experiment', 'run', file], { cwd: projectRoot(), env: { ...process.env, SIMULACRA_HOME: home }, encoding: 'utf8' });
		expect(r.status).toBe(1);
		expect(r.stderr).toContain(`error: ${file}: arms[0].set[0] (arm "A"): setting "retrieval.weights.relevance" is not KEY=VALUE`);
		expect(r.stderr).not.toMatch(/\n\s+at /);
	});

	it('refuses a misspelt setting before creating anything, naming the arm, the setting and the close name', () => {
		const file = path.join(home, 'typo.json');
		writeFileSync(file, JSON.stringify({ name: 'typo', world: 'the-ville-3', steps: 10, replicates: 2, arms: [{ name: 'base' }, { name: 'relevance x3', set: ['retrieval.weights.relevanse=3', 'retrieval.topK=many'] }] }));
		const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'experiment', 'run', file], { cwd: projectRoot(), env: { ...process.env, SIMULACRA_HOME: home }, encoding: 'utf8' });
		expect(r.status).toBe(1);
		expect(r.stderr).toContain('arms[1].set[0] (arm "relevance x3"): unknown setting "retrieval.weights.relevanse" (did you mean "retrieval.weights.relevance"?)');
		expect(r.stderr).toContain('arms[1].set[1] (arm "relevance x3"): setting "retrieval.topK" takes a number, not "many"');
		expect(r.stderr).not.toMatch(/\n\s+at /);
		// nothing was started: no experiment folder, no run
		expect(existsSync(path.join(home, 'experiments'))).toBe(false);
		expect(existsSync(path.join(home, 'runs'))).toBe(false);
	});

	it('refuses an unknown subcommand', async () => {
		await expect(experimentCommand(['start'], false)).rejects.toThrow(/experiment run FILE \| list \| show ID/);
	});

	it('prints the effects with significance marks', () => {
		const report: ExperimentReport = {
			experiment: { id: 'x-0123456789', name: 'x', world: 'the-ville-3', steps: 10, replicates: 2, base: null, created: '', file: null },
			state: 'done',
			metrics: [{ id: 'retrieval_overlap', label: 'retrieval overlap', description: '' }],
			arms: [
				{ name: 'A', set: [], prompts: null, model: 'offline', runs: [] },
				{ name: 'B', set: ['retrieval.weights.relevance=3'], prompts: null, model: 'offline', runs: [] }
			],
			comparisons: [{ metric: 'retrieval_overlap', a: 'A', b: 'B', effect: -0.325, ci: [-0.4, -0.2], p: 0.0001, pAdjusted: 0.003, delta: -1 }],
			representative: []
		};
		const text = reportText(report);
		expect(text).toMatch(/retrieval_overlap\s+B − A\s+-0\.325\s+\[-0\.4, -0\.2\]\s+0\.0001\s+0\.0030\s+\*/);
		expect(text).toContain('1 significant difference');
	});
});
