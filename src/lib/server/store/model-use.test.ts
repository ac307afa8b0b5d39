// A run's model use per game hour and per template, checked against its calls log; a fork
// counts its parent's calls up to the fork step; the API route.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelUse } from '../../api/model-use';
import { openRun, startRun } from '../run/runner';
import { call, ok } from '../ide/testing';
import { modelUse } from './model-use';
import { runQueries } from '../read/queries';
import * as useRoute from '../../../routes/api/runs/[id]/model-use/+server';

const home = mkdtempSync(path.join(tmpdir(), 'model-use-'));
process.env.SIMULACRA_HOME = home;
afterAll(() => {
	runQueries().release();
	rmSync(home, { recursive: true, force: true });
});

describe('model use over time', () => {
	it('calls, tokens and latency per game hour and per template add up to the calls log', async () => {
		const id = (await startRun({ world: 'the-ville-3', steps: 1000, seed: 3, home })).run;
		const calls = openRun(id, home).calls();
		const use = modelUse(id, { home });
		// 1,000 steps of 10 s from 07:00: hours 07..09
		expect(use.hours).toHaveLength(3);
		expect(use.hours.map((h) => h.step)).toEqual([0, 360, 720]);
		const hourOf = (s: number) => Math.min(2, Math.floor(Math.max(s, 0) / 360));
		for (let h = 0; h < 3; h++) {
			const inHour = calls.filter((c) => hourOf(c.s) === h);
			expect(use.total[h].calls).toBe(inHour.length);
			expect(use.total[h].prompt).toBe(inHour.reduce((n, c) => n + c.tokens.prompt, 0));
			expect(use.total[h].completion).toBe(inHour.reduce((n, c) => n + c.tokens.completion, 0));
			expect(use.total[h].latencyMs).toBeCloseTo(inHour.reduce((n, c) => n + c.latencyMs, 0), 6);
			for (const t of use.templates) expect(use.byTemplate[t.template][h].calls).toBe(inHour.filter((c) => c.template === t.template).length);
		}
		expect(use.templates.reduce((n, t) => n + t.calls, 0)).toBe(calls.length);
		for (let i = 1; i < use.templates.length; i++) expect(use.templates[i - 1].calls).toBeGreaterThanOrEqual(use.templates[i].calls);

		// a fork: its parent's calls before the fork step, then its own
		const fork = (await startRun({ from: { run: id, step: 500 }, steps: 100, home })).run;
		const forked = modelUse(fork, { home });
		const own = openRun(fork, home).calls();
		expect(forked.total.reduce((n, b) => n + b.calls, 0)).toBe(calls.filter((c) => c.s < 500).length + own.length);

		expect(await ok<ModelUse>(call(useRoute.GET, { id }))).toEqual(JSON.parse(JSON.stringify(use)));
	}, 120_000);
});
