import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../run/runner';
import { listRetrievals, retrievalTable } from '../run/traces';
import { parseGrid } from './grid';
import { rescoreRun } from './run';

const home = mkdtempSync(path.join(tmpdir(), 'rescore-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('re-scoring a recorded run', () => {
	let run = '';
	let fork = '';
	beforeAll(async () => {
		run = (await startRun({ world: 'the-ville-3', steps: 800, seed: 2, home })).run;
		fork = (await startRun({ home, from: { run, step: 560 }, steps: 240 })).run;
	}, 180_000);

	it("changes nothing under the run's own weights, and agrees with the score tables under others", async () => {
		const grid = parseGrid(['run', '1,1,1', '0,0,1', '3,1,1']);
		const report = await rescoreRun(run, { grid, home });
		const all = listRetrievals(run, { home });
		expect(report.retrievals).toBe(all.length);
		expect(report.retrievals).toBeGreaterThan(10);
		expect(report.skipped).toBe(0);
		expect(report.mismatched).toBe(0);
		expect(report.cells.map((c) => c.weights)).toEqual([null, { recency: 1, importance: 1, relevance: 1 }, { recency: 0, importance: 0, relevance: 1 }, { recency: 3, importance: 1, relevance: 1 }]);
		expect(report.cells[0].changed).toBe(0);
		expect(report.cells[1].changed).toBe(0);
		expect(report.agents).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);

		// the debugger's score table (rebuilt one retrieval at a time) under relevance alone
		const relevance = { recency: 0, importance: 0, relevance: 1 };
		let changed = 0;
		const byPurpose: Record<string, number> = {};
		for (const t of all) {
			const table = await retrievalTable(run, t.id, { home, weights: relevance });
			const recorded = new Set(t.selected);
			if (table.selected.length !== recorded.size || table.selected.some((id) => !recorded.has(id))) {
				changed++;
				byPurpose[t.purpose] = (byPurpose[t.purpose] ?? 0) + 1;
			}
		}
		expect(changed).toBeGreaterThan(0);
		expect(report.cells[2].changed).toBe(changed);
		for (const [purpose, n] of Object.entries(byPurpose)) expect(report.cells[2].byPurpose[purpose].changed).toBe(n);
		const perAgent = Object.values(report.cells[2].byAgent);
		expect(perAgent.reduce((s, a) => s + a.retrievals, 0)).toBe(all.length);
		expect(perAgent.reduce((s, a) => s + a.changed, 0)).toBe(changed);
		expect(report.cells[2].entered[0].description).not.toBe('');
	}, 180_000);

	it("re-scores a fork's whole lineage, filtered by agent and purpose", async () => {
		const lineage = listRetrievals(fork, { home });
		expect(lineage.some((t) => t.run === run) && lineage.some((t) => t.run === fork)).toBe(true);
		const grid = parseGrid(['run', '0,1,0'], ['run', '0.9']);
		const report = await rescoreRun(fork, { grid, home });
		expect(report.retrievals).toBe(lineage.length);
		expect(report.mismatched).toBe(0);
		expect(report.cells).toHaveLength(4);
		expect(report.cells[0].changed).toBe(0);
		expect(report.cells[2].decay).toBe(0.9);

		const purpose = lineage[0].purpose;
		const klaus = await rescoreRun(fork, { grid, home, agent: 'Klaus Mueller', purpose });
		expect(klaus.retrievals).toBe(lineage.filter((t) => t.agent === 'klaus-mueller' && t.purpose === purpose).length);
		expect(Object.keys(klaus.cells[1].byAgent)).toEqual(klaus.retrievals ? ['klaus-mueller'] : []);
		await expect(rescoreRun(fork, { grid, home, agent: 'Nobody' })).rejects.toThrow(/has no agent "Nobody"/);
		await expect(rescoreRun('no-such-run', { grid, home })).rejects.toThrow(/no run "no-such-run"/);
	}, 180_000);
});
