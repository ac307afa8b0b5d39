// The model as the bottleneck: the offline stand-in answering after 800 ms, as a hosted model
// does, with 32 calls in flight. Game time per wall time for Smallville's busiest hour
// (07:00-08:00, the day plans and the first meetings) and for a whole game day, with the paper's
// settings and the fast profile; the share of wall time the step loop spent waiting for an answer
// it needed; calls made ahead of need that no step used. And the busiest hour as a user runs it:
// the command line, process start included.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveRun } from '../src/lib/server/run/runner';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

const LATENCY_MS = 800;
const IN_FLIGHT = 32;

async function measure(steps: number, label: string, profile: 'paper' | 'fast'): Promise<Row[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-latency-'));
	const saved = { latency: process.env.SIMULACRA_OFFLINE_LATENCY_MS, concurrency: process.env.SIMULACRA_MODEL_CONCURRENCY };
	process.env.SIMULACRA_OFFLINE_LATENCY_MS = String(LATENCY_MS);
	process.env.SIMULACRA_MODEL_CONCURRENCY = String(IN_FLIGHT);
	try {
		const live = await LiveRun.start({ world: 'smallville', steps, seed: 1, home, profile });
		// the step loop waits when a step needs an answer that has not arrived (sampled every 5 ms)
		let samples = 0;
		let waiting = 0;
		const sampler = setInterval(() => {
			samples++;
			if (live.model.activity().waitingFor.length > 0) waiting++;
		}, 5);
		const t0 = performance.now();
		try {
			await live.runToTarget();
		} finally {
			clearInterval(sampler);
		}
		const wallS = (performance.now() - t0) / 1000;
		const activity = live.model.activity();
		const s = live.summary();
		await live.close();
		const gameS = steps * 10;
		const name = `${label} (25 agents, ${steps.toLocaleString('en')} steps, ${profile === 'paper' ? "the paper's settings" : 'fast profile'}), model answering after ${LATENCY_MS} ms, ${IN_FLIGHT} calls in flight`;
		return [
			{ bench: name, figure: 'wall time', value: `${wallS.toFixed(0)} s for ${s.llmCalls} calls` },
			{ bench: name, figure: 'game time per wall time', value: `${(gameS / wallS).toFixed(1)}x real time` },
			{ bench: name, figure: 'wall time the step loop spent waiting for an answer', value: `${Math.round((100 * waiting) / Math.max(1, samples))}%` },
			{
				bench: name,
				figure: 'calls made ahead of need: used by a step / never used (share of the calls steps made)',
				value: `${activity.aheadUsed} / ${activity.aheadStarted - activity.aheadUsed} (${((100 * (activity.aheadStarted - activity.aheadUsed)) / Math.max(1, s.llmCalls)).toFixed(1)}%)`
			}
		];
	} finally {
		for (const [k, v] of [['SIMULACRA_OFFLINE_LATENCY_MS', saved.latency], ['SIMULACRA_MODEL_CONCURRENCY', saved.concurrency]] as const) {
			if (v === undefined) delete process.env[k];
			else process.env[k] = v;
		}
		rmSync(home, { recursive: true, force: true });
	}
}

/** Smallville 07:00-08:00, in process and from the command line. */
export async function benchLatency(): Promise<Row[]> {
	const rows: Row[] = [];
	for (const profile of ['paper', 'fast'] as const) rows.push(...(await measure(360, 'Smallville 07:00-08:00', profile)), commandLine(profile));
	return rows;
}

/** `npm run simulacra -- run --world smallville --steps 360` in a new process: wall time from spawn to exit. */
function commandLine(profile: 'paper' | 'fast'): Row {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-latency-cli-'));
	try {
		const args = ['--import', 'tsx', 'src/cli/main.ts', 'run', '--world', 'smallville', '--steps', '360', ...(profile === 'fast' ? ['--profile', 'fast'] : [])];
		const env = { ...process.env, SIMULACRA_HOME: home, SIMULACRA_OFFLINE_LATENCY_MS: String(LATENCY_MS), SIMULACRA_MODEL_CONCURRENCY: String(IN_FLIGHT) };
		const t0 = performance.now();
		const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
		const wallS = (performance.now() - t0) / 1000;
		if (r.status !== 0) throw new Error(`the command line run failed: ${r.stderr}`);
		return {
			bench: `Smallville 07:00-08:00 from the command line (\`run --world smallville --steps 360${profile === 'fast' ? ' --profile fast' : ''}\`), process start included, ${LATENCY_MS} ms a call, ${IN_FLIGHT} in flight`,
			figure: 'wall time; game time per wall time',
			value: `${wallS.toFixed(1)} s; ${(3600 / wallS).toFixed(1)}x real time`
		};
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}

/** A whole game day of Smallville, both ways (long: run it with `--only latency-day`). */
export async function benchLatencyDay(): Promise<Row[]> {
	return [...(await measure(8640, 'Smallville, one game day', 'paper')), ...(await measure(8640, 'Smallville, one game day', 'fast'))];
}
