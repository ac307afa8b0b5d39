// The one-day Smallville runs (25 agents, 8,640 steps, offline) that the behaviour diff and the
// compare page are measured on: a base run, a second run from step 0 with another retrieval
// weight, and a fork of the base at step 100 with the garden's vegetable patch set on fire
// (agents see it, talk of it and change course). Made once per bench process, in a temporary
// data home that is removed when the process exits.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRun } from '../src/lib/server/run/runner';

export const DAY = 8640;
/** the step the fork starts from */
export const FORK_AT = 100;

export interface DayRuns {
	/** the data home holding the runs */
	home: string;
	base: string;
	/** from step 0, recency weight 0.5 */
	other: string;
	/** the base forked at FORK_AT, vegetable patch on fire */
	fork: string;
}

let made: Promise<DayRuns> | null = null;

async function make(): Promise<DayRuns> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-day-runs-'));
	process.once('exit', () => rmSync(home, { recursive: true, force: true }));
	const base = await startRun({ world: 'smallville', steps: DAY, seed: 1, home });
	const other = await startRun({ world: 'smallville', steps: DAY, seed: 1, home, set: ['retrieval.weights.recency=0.5'] });
	const fork = await startRun({
		home,
		from: { run: base.run, step: FORK_AT },
		steps: DAY - FORK_AT,
		inputs: [{ type: 'set-object', address: 'Johnson Park:garden:vegetable patch', state: 'on fire' }]
	});
	return { home, base: base.run, other: other.run, fork: fork.run };
}

/** The three runs, made on first use; later calls in the same process answer the same runs. */
export function dayRuns(): Promise<DayRuns> {
	if (!made) {
		made = make();
		made.catch(() => (made = null));
	}
	return made;
}
