import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateRun } from './estimate';
import { openRun, startRun } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'estimate-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The stated accuracy (README): within this factor of the measured tokens. */
const FACTOR = 1.75;

describe('the estimate before a run', () => {
	it('is within the stated factor of the tokens a real offline run spends, from a dry run and from history', async () => {
		const days = 2;
		const steps = 8640 * days;
		const run = await startRun({ world: 'the-ville-3', seed: 4, steps, home });
		const calls = openRun(run.run, home).calls();
		const measured = calls.reduce((n, c) => n + c.tokens.prompt + c.tokens.completion, 0);

		// a new run: a dry run of one game day, scaled to two
		const est = await estimateRun({ world: 'the-ville-3', seed: 4, steps, home });
		expect(est.method).toBe('dry-run');
		expect(est.sampleSteps).toBe(8640);
		expect(est.usd).toBe(0);
		const ratio = (est.tokens.prompt + est.tokens.completion) / measured;
		expect(ratio).toBeGreaterThan(1 / FACTOR);
		expect(ratio).toBeLessThan(FACTOR);
		expect(est.calls / calls.length).toBeGreaterThan(1 / FACTOR);
		expect(est.calls / calls.length).toBeLessThan(FACTOR);
		expect(est.note).toMatch(/dry run of the offline stand-in .* 4 characters a token/);

		// a fork on day 2 estimated from day 1 as recorded
		const day2 = calls.filter((c) => c.s >= 8640).reduce((n, c) => n + c.tokens.prompt + c.tokens.completion, 0);
		const fork = await estimateRun({ from: { run: run.run, step: 8640 }, steps: 8640, home });
		expect(fork.method).toBe('history');
		const forkRatio = (fork.tokens.prompt + fork.tokens.completion) / day2;
		expect(forkRatio).toBeGreaterThan(1 / FACTOR);
		expect(forkRatio).toBeLessThan(FACTOR);

		// a short span is run whole: the estimate is the run's own figure
		const short = await startRun({ world: 'the-ville-3', seed: 4, steps: 300, home });
		const exact = await estimateRun({ world: 'the-ville-3', seed: 4, steps: 300, home });
		expect(exact.tokens.prompt + exact.tokens.completion).toBe(short.usage.prompt + short.usage.completion);
	}, 300_000);
});
