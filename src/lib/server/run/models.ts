// The model a run talks to: the gateway for the chosen provider, with a recorder that hands
// each step's calls to the journal and keeps the run's totals.

import path from 'node:path';
import type { ModelAnswer, ModelPort, ModelRequest } from '../../engine/model';
import { dataHome, promptsDir as defaultPromptsDir } from '../paths';
import { createModelGateway, OfflineProvider, OpenAIProvider, openAIOptionsFromEnv, type ModelProvider, type RecordedCall } from '../model';
import { callKeyOrder, type CallRecord } from '../journal/journal';

export type ModelChoice = 'offline' | 'openai';

export interface ModelStats {
	calls: number;
	cacheHits: number;
	failsafes: number;
	tokens: { prompt: number; completion: number };
}

export interface LiveModel extends ModelPort {
	readonly provider: string;
	readonly modelName: string;
	readonly label: string;
	readonly promptsDir: string;
	readonly promptSet: { version: string; templates: Record<string, string> };
	/** the calls made since the last drain, in key order */
	drainCalls(): CallRecord[];
	stats(): ModelStats;
	close(): void;
}

/**
 * The offline stand-in made to answer after `ms` milliseconds, as a hosted model would: for
 * measuring how the engine behaves when the model is the bottleneck (SIMULACRA_OFFLINE_LATENCY_MS).
 */
function withLatency(provider: ModelProvider, ms: number): ModelProvider {
	if (!(ms > 0)) return provider;
	const wait = () => new Promise((resolve) => setTimeout(resolve, ms));
	return {
		name: provider.name,
		model: provider.model,
		embedModel: provider.embedModel,
		dimensions: provider.dimensions,
		label: provider.label,
		chat: async (req) => {
			await wait();
			return provider.chat(req);
		},
		embed: (texts) => provider.embed(texts)
	};
}

export async function createModel(
	choice: ModelChoice,
	opts: { home?: string; promptsDir?: string; env?: NodeJS.ProcessEnv } = {}
): Promise<LiveModel> {
	const env = opts.env ?? process.env;
	const home = opts.home ?? dataHome(env);
	const dir = opts.promptsDir ?? defaultPromptsDir();
	const pending: RecordedCall[] = [];
	const totals: ModelStats = { calls: 0, cacheHits: 0, failsafes: 0, tokens: { prompt: 0, completion: 0 } };
	const provider = choice === 'openai' ? new OpenAIProvider(openAIOptionsFromEnv(env)) : withLatency(new OfflineProvider(), Number(env.SIMULACRA_OFFLINE_LATENCY_MS) || 0);
	const { gateway, cache } = await createModelGateway({
		env,
		provider,
		promptsDir: dir,
		cacheDir: path.join(home, 'cache'),
		recorder: (call) => {
			pending.push(call);
			totals.calls++;
			if (call.cacheHit) totals.cacheHits++;
			if (call.failsafe) totals.failsafes++;
			totals.tokens.prompt += call.tokens.prompt;
			totals.tokens.completion += call.tokens.completion;
		}
	});
	return {
		provider: provider.name,
		modelName: provider.model,
		label: provider.label,
		promptsDir: dir,
		promptSet: { version: gateway.templates.version, templates: { ...gateway.templates.versions } },
		get dimensions() {
			return gateway.dimensions;
		},
		complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
			return gateway.complete<T>(req);
		},
		embed(texts: string[]): Promise<Float32Array[]> {
			return gateway.embed(texts);
		},
		drainCalls(): CallRecord[] {
			const calls = pending.splice(0).sort((a, b) => callKeyOrder(a.key, b.key));
			// latency is wall time: kept for the inspector, outside the simulation state
			return calls.map(({ provider: _p, model: _m, replayed: _r, ...c }) => c);
		},
		stats: () => structuredClone(totals),
		close: () => cache?.close()
	};
}
