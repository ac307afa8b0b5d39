// What a game day costs: Smallville (25 agents, 8,640 steps) with the offline stand-in, whose
// tokens are the real rendered prompts and its own answers counted at 4 characters a token,
// priced at gpt-4o-mini's list price; and how close the estimate made before a run comes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { costOf, formatUsd } from '../src/lib/server/run/cost';
import { estimateRun } from '../src/lib/server/run/estimate';
import { startRun } from '../src/lib/server/run/runner';

/** gpt-4o-mini's list price, US dollars per million input / output tokens */
export const GPT_4O_MINI = { input: 0.15, output: 0.6 };

export async function benchCost(): Promise<{ bench: string; figure: string; value: string }[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-cost-'));
	try {
		const steps = 8640;
		const s = await startRun({ world: 'smallville', steps, seed: 1, home });
		const agentSteps = s.agents * steps;
		const name = 'one game day, Smallville (25 agents, 8,640 steps), real prompts, 4 characters a token';
		const usd = costOf(s.tokens, GPT_4O_MINI);
		const t0 = performance.now();
		const est = await estimateRun({ world: 'smallville', steps, seed: 1, home, sampleSteps: 720 });
		const estMs = performance.now() - t0;
		const estTokens = est.tokens.prompt + est.tokens.completion;
		const measured = s.tokens.prompt + s.tokens.completion;
		return [
			{ bench: name, figure: 'prompt / completion tokens per agent-step', value: `${(s.tokens.prompt / agentSteps).toFixed(1)} / ${(s.tokens.completion / agentSteps).toFixed(2)}` },
			{ bench: name, figure: 'prompt / completion tokens per call', value: `${Math.round(s.tokens.prompt / s.llmCalls)} / ${Math.round(s.tokens.completion / s.llmCalls)}` },
			{ bench: name, figure: "cost at gpt-4o-mini's list price ($0.15 / $0.60 per million input / output tokens)", value: `${formatUsd(usd)} for ${s.llmCalls.toLocaleString('en')} calls, ${measured.toLocaleString('en')} tokens` },
			{
				bench: name,
				figure: 'estimate from a 2-hour dry run (720 steps) scaled to the day, against the day as run',
				value: `${estTokens.toLocaleString('en')} tokens (${(estTokens / measured).toFixed(2)}x), made in ${(estMs / 1000).toFixed(1)} s`
			}
		];
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
