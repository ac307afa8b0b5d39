import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRun } from './runner';
import { listRetrievals, retrievalTable } from './traces';

const home = mkdtempSync(path.join(tmpdir(), 'traces-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('retrieval traces', () => {
	it('rebuild every sampled retrieval of a real run: the formula gives the recorded scores and top-k', async () => {
		const run = await startRun({ world: 'the-ville-3', steps: 1500, seed: 2, home });
		const all = listRetrievals(run.run, { home });
		expect(all.length).toBeGreaterThan(10);
		// every 12th, plus conversations' retrievals (made at commit, as of the time the talk began)
		// and the retrieval after each of them, which sees their accesses
		const talks = all.flatMap((t, i) => (t.purpose.startsWith('conversation') ? [t, all.slice(i + 1).find((u) => u.agent === t.agent)] : [])).filter((t) => t !== undefined).slice(0, 12);
		expect(talks.length).toBeGreaterThan(2);
		const sample = [...new Set([...all.filter((_, i) => i % Math.ceil(all.length / 12) === 0), ...talks])];
		for (const t of sample) {
			const table = await retrievalTable(run.run, t.id, { home });
			expect(table.matchesRecord, t.id).toBe(true);
			expect(table.candidates.length).toBe(t.candidates);
			for (const row of table.candidates) {
				const { recency, importance, relevance } = table.weights;
				expect(row.score).toBeCloseTo(recency * row.recencyNorm + importance * row.importanceNorm + relevance * row.relevanceNorm, 12);
				expect(row.recency).toBeCloseTo(table.decay ** ((table.time - row.lastAccess) / 3_600_000), 12);
				for (const v of [row.recencyNorm, row.importanceNorm, row.relevanceNorm]) {
					expect(v).toBeGreaterThanOrEqual(0);
					expect(v).toBeLessThanOrEqual(1);
				}
			}
			const ranked = table.candidates.filter((r) => r.rank > 0).sort((a, b) => a.rank - b.rank);
			expect(ranked.map((r) => r.id)).toEqual(t.selected);
		}
		const one = all[0];
		const reweighted = await retrievalTable(run.run, one.id, { home, weights: { recency: 0, importance: 0, relevance: 1 } });
		const best = [...reweighted.candidates].sort((a, b) => b.relevance - a.relevance || 0)[0];
		expect(reweighted.candidates.find((r) => r.rank === 1)?.relevance).toBe(best.relevance);
		await expect(retrievalTable(run.run, 'nobody/r0', { home })).rejects.toThrow(/no retrieval/);
		expect(listRetrievals(run.run, { home, agent: 'Klaus Mueller' }).every((t) => t.agent === 'klaus-mueller')).toBe(true);
	}, 120_000);
});
