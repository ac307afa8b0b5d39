import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRun, resumeRun, startRun } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'budget-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const base = { world: 'the-ville-3', seed: 11, home, snapshotEvery: 50 };

describe('a run pauses at its budget', () => {
	it('stops before the first step once the budget is reached, keeps every step, and resumes to the same state', async () => {
		const full = await startRun({ ...base, steps: 200 });
		// tokens after each step, from the uninterrupted run's journal (the creation's calls count too)
		const calls = openRun(full.run, home).calls();
		const total = calls.reduce((n, c) => n + c.tokens.prompt + c.tokens.completion, 0);
		expect(full.usage.prompt + full.usage.completion).toBe(total);
		expect(full.usage.usd).toBe(0);
		const after = (step: number) => calls.filter((c) => c.s <= step).reduce((n, c) => n + c.tokens.prompt + c.tokens.completion, 0);
		// a budget one token past the tokens before a step in the middle of those that call the model
		const calling = [...new Set(calls.map((c) => c.s))].filter((s) => s > 0).sort((a, b) => a - b);
		expect(calling.length).toBeGreaterThan(2);
		const m = calling[Math.floor(calling.length / 2)];
		const budget = after(m - 1) + 1;
		// the first step after which the budget is reached: the run commits it and stops
		let k = -1;
		while (after(k) < budget) k++;
		expect(k).toBe(m);
		expect(k).toBeLessThan(199);

		const paused = await startRun({ ...base, steps: 200, budget: { tokens: budget } });
		expect(paused.status).toBe('paused');
		expect(paused.pause?.reason).toBe('budget');
		expect(paused.steps).toBe(k + 1);
		expect(paused.pause?.step).toBe(k + 1);
		expect(paused.pause?.message).toMatch(/^budget reached: [\d,]+ of [\d,]+ tokens/);
		const meta = openRun(paused.run, home).meta;
		expect(meta.status).toBe('paused');
		expect(meta.budget).toEqual({ tokens: budget });
		expect(openRun(paused.run, home).committed()).toBe(k + 1);
		expect((meta.usage?.prompt ?? 0) + (meta.usage?.completion ?? 0)).toBe(after(k));

		// resuming under the same budget pauses again at once; a higher one goes on to the end
		const again = await resumeRun(paused.run, { home });
		expect(again.status).toBe('paused');
		expect(again.steps).toBe(k + 1);
		const done = await resumeRun(paused.run, { home, budget: { tokens: total * 2 } });
		expect(done.status).toBe('done');
		expect(done.pause).toBeNull();
		expect(done.steps).toBe(200);
		expect(done.stateHash).toBe(full.stateHash);
		expect(done.usage.prompt + done.usage.completion).toBe(total);
		expect(openRun(paused.run, home).meta.pause).toBeNull();
	}, 120_000);

	it('a dollar budget needs prices: the offline stand-in costs nothing and never reaches one', async () => {
		const s = await startRun({ ...base, steps: 30, budget: { usd: 0.01 } });
		expect(s.status).toBe('done');
		expect(s.usage.usd).toBe(0);
		expect(s.usage.prompt).toBeGreaterThan(0);
	}, 60_000);
});
