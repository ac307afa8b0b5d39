// The behaviour diff of two one-day Smallville runs (25 agents, 8,640 steps), offline: a base
// run, a second run from step 0 with another retrieval weight, and a fork of the base at step
// 100 with the garden's vegetable patch set on fire (the runs of ./day-runs.ts). Measures
// computeDiff: the first call and the median of five after a warm-up.

import { computeDiff } from '../src/lib/server/diff/diff';
import { dayRuns } from './day-runs';

async function timeDiff(a: string, b: string, home: string): Promise<{ median: number; bytes: number; agents: number; divergence: string }> {
	let last = await computeDiff(a, b, { home });
	const times: number[] = [];
	for (let i = 0; i < 5; i++) {
		const t0 = performance.now();
		last = await computeDiff(a, b, { home });
		times.push(performance.now() - t0);
	}
	times.sort((x, y) => x - y);
	const f = last.firstDivergence;
	return {
		median: times[2],
		bytes: JSON.stringify(last).length,
		agents: last.agents.filter((x) => x.differingSteps > 0).length,
		divergence: f ? `step ${f.step} (${f.reason}${f.template ? `, ${f.template}` : ''})` : 'none'
	};
}

export async function benchDiff(): Promise<{ bench: string; figure: string; value: string }[]> {
	const { home, base, other, fork } = await dayRuns();
	const cold = performance.now();
	await computeDiff(base, fork, { home });
	const coldMs = performance.now() - cold;
	const whole = await timeDiff(base, other, home);
	const forked = await timeDiff(base, fork, home);
	const name = 'behaviour diff of two one-day Smallville runs (25 agents, 8,640 steps), offline';
	const row = (what: string, r: Awaited<ReturnType<typeof timeDiff>>) => [
		{ bench: name, figure: `${what}: computeDiff, median of 5`, value: `${r.median.toFixed(0)} ms` },
		{ bench: name, figure: `${what}: first divergence, agents that move differently, RunDiff JSON`, value: `${r.divergence}, ${r.agents} of 25, ${(r.bytes / 1024).toFixed(0)} KB` }
	];
	return [
		{ bench: name, figure: 'first diff computed in the process', value: `${coldMs.toFixed(0)} ms` },
		...row('second run from step 0, recency weight 0.5 (8,640 steps compared)', whole),
		...row('fork at step 100, vegetable patch set on fire (8,540 steps compared)', forked)
	];
}
