// Experiments end to end, offline on the-ville-3: two identical arms find no difference, tripling
// the relevance weight changes retrieval overlap, and a killed experiment continues where it stopped.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths';
import { openRun, startRun } from '../run/runner';
import { experimentId, parseExperiment } from './definition';
import { runExperiment } from './pool';
import { experimentDir, experimentReport, reportComparisonsCsv, reportRunsCsv, type JobLine } from './store';

const homes: string[] = [];
function home(): string {
	const h = mkdtempSync(path.join(tmpdir(), 'simulacra-exp-'));
	homes.push(h);
	return h;
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** Whether a process of group `pgid` still runs (a killed one not yet reaped, a zombie, does not). */
function groupRunning(pgid: number): boolean {
	return readdirSync('/proc')
		.filter((d) => /^\d+$/.test(d))
		.some((d) => {
			try {
				const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
				const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				return Number(group) === pgid && state !== 'Z' && state !== 'X';
			} catch {
				return false;
			}
		});
}

describe('experiments', () => {
	it('finds no significant difference between two identical arms (A/A, 8 replicates each)', { timeout: 120_000 }, async () => {
		const def = parseExperiment({ name: 'aa', world: 'the-ville-3', steps: 120, replicates: 8, seeds: 'distinct', arms: [{ name: 'A' }, { name: 'B' }] }, 'aa.json');
		const h = home();
		const { report, ran, kept } = await runExperiment(def, { home: h, workers: 2 });
		expect(ran).toBe(16);
		expect(kept).toBe(0);
		expect(report.state).toBe('done');
		expect(report.arms.map((a) => a.runs.length)).toEqual([8, 8]);
		// every metric of the registry was measured, the evaluation's included
		for (const m of ['conversations', 'places', 'plan_adherence', 'reactions', 'retrieval_overlap', 'failsafe', 'tokens', 'cost', 'diffusion', 'density', 'attendance'])
			expect(report.metrics.map((x) => x.id)).toContain(m);
		expect(report.comparisons.length).toBe(report.metrics.length);
		for (const c of report.comparisons) {
			expect(c.pAdjusted, c.metric).toBeGreaterThanOrEqual(0.05);
			expect(c.ci[0], c.metric).toBeLessThanOrEqual(0);
			expect(c.ci[1], c.metric).toBeGreaterThanOrEqual(0);
		}
		// distinct seeds: 16 different runs
		expect(new Set(report.arms.flatMap((a) => a.runs.map((r) => r.run))).size).toBe(16);
		// exports
		expect(reportRunsCsv(report).split('\n')[0]).toBe('arm,replicate,run,seed,sample,metric,value');
		expect(reportComparisonsCsv(report).split('\n').length).toBe(report.comparisons.length + 2);
		// running it again redoes nothing
		const again = await runExperiment(def, { home: h, workers: 2 });
		expect(again.ran).toBe(0);
		expect(again.kept).toBe(16);
	});

	it('shows a difference in retrieval overlap when the relevance weight is tripled', { timeout: 90_000 }, async () => {
		const def = parseExperiment(
			{
				name: 'relevance',
				world: 'the-ville-3',
				steps: 120,
				replicates: 5,
				seeds: 'distinct',
				metrics: ['retrieval_overlap', 'conversations', 'places'],
				arms: [{ name: 'base' }, { name: 'relevance x3', set: ['retrieval.weights.relevance=3'] }]
			},
			'relevance.json'
		);
		const { report } = await runExperiment(def, { home: home(), workers: 2 });
		const overlap = report.comparisons.find((c) => c.metric === 'retrieval_overlap')!;
		expect(overlap.a).toBe('base');
		expect(overlap.b).toBe('relevance x3');
		expect(overlap.effect).toBeLessThan(0);
		expect(overlap.ci[1]).toBeLessThan(0);
		expect(overlap.ci[0]).toBeLessThanOrEqual(overlap.effect);
		expect(overlap.pAdjusted).toBeLessThan(0.05);
		expect(report.representative).toHaveLength(1);
	});

	it('forks every run from a base run and step', { timeout: 90_000 }, async () => {
		const h = home();
		const base = await startRun({ world: 'the-ville-3', steps: 30, seed: 4, home: h });
		const def = parseExperiment(
			{ name: 'forked', base: { run: base.run, step: 20 }, steps: 10, replicates: 1, metrics: ['conversations'], arms: [{ name: 'A' }, { name: 'B', set: ['retrieval.weights.relevance=3'] }] },
			'forked.json'
		);
		const { report } = await runExperiment(def, { home: h, workers: 1 });
		expect(report.experiment.base).toEqual({ run: base.run, step: 20 });
		for (const a of report.arms) {
			expect(a.runs).toHaveLength(1);
			const meta = openRun(a.runs[0].run, h).meta;
			expect(meta.parent).toEqual({ run: base.run, step: 20 });
			expect(meta.target).toBe(30);
		}
		expect(openRun(report.arms[1].runs[0].run, h).meta.overrides).toEqual(['retrieval.weights.relevance=3']);
	});

	it('continues a killed experiment without redoing finished runs', { timeout: 120_000 }, async () => {
		const h = home();
		const raw = { name: 'killed', world: 'the-ville-3', steps: 240, replicates: 2, workers: 2, metrics: ['conversations'], arms: [{ name: 'A' }, { name: 'B', set: ['retrieval.weights.relevance=2'] }] };
		const file = path.join(h, 'killed.json');
		writeFileSync(file, JSON.stringify(raw));
		const id = experimentId(parseExperiment(raw, file));
		const jobsFile = path.join(experimentDir(id, h), 'jobs.jsonl');
		const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'experiment', 'run', file, '--json'], {
			cwd: projectRoot(),
			env: { ...process.env, SIMULACRA_HOME: h },
			detached: true,
			stdio: 'ignore'
		});
		const lines = (): JobLine[] => (existsSync(jobsFile) ? readFileSync(jobsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
		const deadline = Date.now() + 90_000;
		while (!lines().some((l) => l.state === 'done') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		process.kill(-child.pid!, 'SIGKILL');
		// the experiment and its workers are gone once no process of the group is left running
		for (let i = 0; i < 200 && groupRunning(child.pid!); i++) await new Promise((r) => setTimeout(r, 50));
		expect(groupRunning(child.pid!)).toBe(false);
		const before = lines();
		const doneBefore = before.filter((l) => l.state === 'done');
		expect(doneBefore.length).toBeGreaterThanOrEqual(1);
		expect(doneBefore.length).toBeLessThan(4);
		const startedRun = new Map(before.filter((l) => l.state === 'started').map((l) => [l.key, l.run]));

		const result = await runExperiment(parseExperiment(raw, file), { home: h, file });
		expect(result.kept).toBe(doneBefore.length);
		expect(result.ran).toBe(4 - doneBefore.length);
		const report = experimentReport(id, h);
		expect(report.state).toBe('done');
		const finalRun = new Map(report.arms.flatMap((a) => a.runs.map((r) => [`${a.name}#${r.replicate}`, r.run])));
		expect(finalRun.size).toBe(4);
		// finished runs are kept and started ones resumed: the same run ids
		for (const [key, run] of startedRun) expect(finalRun.get(key), key).toBe(run);
		// no run was made twice (a run killed before its id was logged may be left over)
		const folders = readdirSync(path.join(h, 'runs'));
		expect(folders.length).toBeLessThanOrEqual(4 + 2);
		for (const run of finalRun.values()) expect(folders).toContain(run);
	});
});
