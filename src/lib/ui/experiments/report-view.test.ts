// The experiment report as the server renders it: strip plots with a dot per run linked to it,
// the effects table with significance marked, the compare link and the exports.

import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import type { ExperimentReport } from '$lib/api/experiments';
import ExperimentReportView from './ExperimentReportView.svelte';

const runs = (arm: string, values: number[]) => values.map((v, r) => ({ replicate: r, run: `run-${arm}-${r}`, seed: 1 + r, sample: r, metrics: { retrieval_overlap: v, conversations: 2 } }));
const report: ExperimentReport = {
	experiment: { id: 'rel-0123456789', name: 'relevance x3', world: 'the-ville-3', steps: 120, replicates: 3, base: null, created: '2026-01-01T00:00:00Z', file: null },
	state: 'done',
	metrics: [
		{ id: 'conversations', label: 'conversations per agent', description: 'talks' },
		{ id: 'retrieval_overlap', label: 'retrieval overlap', description: 'overlap' }
	],
	arms: [
		{ name: 'base', set: [], prompts: null, model: 'offline', runs: runs('base', [0.9, 0.95, 1]) },
		{ name: 'x3', set: ['retrieval.weights.relevance=3'], prompts: null, model: 'offline', runs: runs('x3', [0.6, 0.62, 0.7]) }
	],
	comparisons: [
		{ metric: 'conversations', a: 'base', b: 'x3', effect: 0, ci: [0, 0], p: 1, pAdjusted: 1, delta: 0 },
		{ metric: 'retrieval_overlap', a: 'base', b: 'x3', effect: -0.31, ci: [-0.36, -0.26], p: 0.05, pAdjusted: 0.04, delta: -1 }
	],
	representative: [{ a: 'base', b: 'x3', runA: 'run-base-1', runB: 'run-x3-1' }]
};

describe('ExperimentReportView', () => {
	const { body } = render(ExperimentReportView, { props: { report, progress: null } });

	it('draws every run of every arm as a dot linked to the run', () => {
		const strip = body.slice(body.indexOf('data-testid="strip-retrieval-overlap"'));
		for (const arm of report.arms) for (const r of arm.runs) expect(strip).toContain(`href="/runs/${r.run}"`);
		expect((strip.slice(0, strip.indexOf('</svg>')).match(/<circle/g) ?? []).length).toBe(6);
	});

	it('marks the significant effect with its interval', () => {
		const row = body.slice(body.indexOf('data-metric="retrieval_overlap"'));
		expect(body).toMatch(/data-metric="retrieval_overlap" class="[^"]*\bsignificant\b/);
		expect(row).toContain('[-0.36, -0.26]');
		expect(row).toContain('0.0400 *');
		expect(body).toMatch(/data-metric="conversations" class="/);
		expect(body).not.toMatch(/data-metric="conversations" class="[^"]*\bsignificant\b/);
	});

	it('links the compare view of the representative pair and the exports', () => {
		expect(body).toContain('href="/compare?a=run-base-1&amp;b=run-x3-1"');
		expect(body).toContain('href="/api/experiments/rel-0123456789/export?format=json"');
		expect(body).toContain('format=csv&amp;table=effects');
	});

	it('agrees in number: "1 replicate", "3 replicates"', () => {
		expect(body).toContain('120 steps · 3 replicates per arm');
		const one = render(ExperimentReportView, { props: { report: { ...report, experiment: { ...report.experiment, replicates: 1, steps: 1 } }, progress: null } }).body;
		expect(one).toContain('1 step · 1 replicate per arm');
	});

	it('shows the progress with an ETA while it runs', () => {
		const job = { key: 'x3#2', arm: 'x3', replicate: 2, seed: 3, sample: 2, state: 'running' as const, stepsDone: 60, stepsTotal: 120 };
		const progress = { id: report.experiment.id, state: 'running' as const, started: '', updated: '', stepsDone: 660, stepsTotal: 720, etaSeconds: 75, jobs: [job] };
		const html = render(ExperimentReportView, { props: { report: { ...report, state: 'running' }, progress } }).body;
		expect(html).toContain('data-testid="experiment-progress"');
		expect(html).toContain('1 min 15 s left');
		expect(html).toContain('x3#2');
	});
});
