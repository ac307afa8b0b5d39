// The model a run talks to: the gateway for the chosen provider, with a recorder that hands
// each step's calls to the journal and keeps the run's totals.

import path from 'node:path';
import type { ModelAnswer, ModelPort, ModelRequest } from '../../engine/model';
import { mulberry32 } from '../../engine/rng';
import { dataHome, promptsDir as defaultPromptsDir } from '../paths';
import { createModelGateway, languageModelProvider, OfflineProvider, type ModelProvider, type RecordedCall } from '../model';
import type { Spend, GatewayActivity } from '../model/gateway';
import { callKeyOrder, type CallRecord } from '../journal/call-line';
import type { ModelIdentity, Price } from '../../api/types';
import { identityFromConfig } from './identity';
import { loadModelConfig, priceFor, type ModelConfig } from '../model/config';

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
	/** which models answer (recorded in run.json; a resume or fork under another is refused unless allowed) */
	readonly identity: ModelIdentity;
	/** a model's price in US dollars per million input / output tokens (null: none configured); the offline stand-in's is 0 */
	price(model: string): Price | null;
	/** the embedding dimension (learned from a first embedding when the configuration does not state it) */
	resolveDimensions(): Promise<number>;
	/**
	 * The model for work done ahead of need (`Simulation.lookahead`): its calls are made at low
	 * priority and not recorded; a step asking the same prompt later gets their answers.
	 */
	readonly ahead: ModelPort;
	/**
	 * answers come at once, in process (the offline stand-in without a simulated latency): asking
	 * ahead of need would only cost time
	 */
	readonly instant: boolean;
	/** calls in flight and what a step waits for */
	activity(): GatewayActivity;
	/** the calls made since the last drain, in key order */
	drainCalls(): CallRecord[];
	/** calls made ahead of need that no step used, since the last drain (with `all`: every one still unclaimed) */
	drainUnusedAhead(all?: boolean): Spend[];
	/** embedding requests sent to an endpoint since the last drain */
	drainEmbeddings(): Spend[];
	stats(): ModelStats;
	close(): void;
}

/**
 * The offline stand-in made to answer after a delay, as a hosted model would: for measuring how
 * the engine behaves when the model is the bottleneck (SIMULACRA_OFFLINE_LATENCY_MS), and, with a
 * range `MIN-MAX`, for answers that arrive in another order than they were asked (each call's
 * delay drawn at random; SIMULACRA_OFFLINE_LATENCY_SEED varies the draws).
 */
function withLatency(provider: ModelProvider, latency: OfflineLatency | null): ModelProvider {
	if (!latency) return provider;
	const draw = mulberry32(latency.seed);
	const wait = () => new Promise((resolve) => setTimeout(resolve, latency.min + draw() * (latency.max - latency.min)));
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

interface OfflineLatency {
	min: number;
	max: number;
	seed: number;
}

/** SIMULACRA_OFFLINE_LATENCY_MS: milliseconds, or a range `MIN-MAX`; null when the answers come at once. */
export function offlineLatency(env: NodeJS.ProcessEnv): OfflineLatency | null {
	const raw = env.SIMULACRA_OFFLINE_LATENCY_MS?.trim() ?? '';
	if (!raw) return null;
	const m = /^(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?$/.exec(raw);
	if (!m) throw new Error(`SIMULACRA_OFFLINE_LATENCY_MS is milliseconds (e.g. 800) or a range of them (e.g. 5-40), not ${JSON.stringify(raw)}`);
	const min = Number(m[1]);
	const max = m[2] === undefined ? min : Number(m[2]);
	if (max < min) throw new Error(`SIMULACRA_OFFLINE_LATENCY_MS: the range ${raw} ends before it starts`);
	return max > 0 ? { min, max, seed: Number(env.SIMULACRA_OFFLINE_LATENCY_SEED) || 1 } : null;
}

/** The configured price of a model (US dollars per million input / output tokens), or null. */
function configuredPrice(config: ModelConfig | null, model: string): Price | null {
	return (config && priceFor(config, model)) ?? null;
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
	const latency = choice === 'openai' ? null : offlineLatency(env);
	const provider = choice === 'openai' ? languageModelProvider(env) : withLatency(new OfflineProvider(), latency);
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
	const config = choice === 'openai' ? loadModelConfig(env) : null;
	return {
		get identity(): ModelIdentity {
			return config
				? identityFromConfig(config, gateway.dimensions)
				: { provider: provider.name, chat: { endpoint: '', model: provider.model }, embed: { endpoint: '', model: provider.embedModel, dimensions: provider.dimensions } };
		},
		price: (model) => (provider.name === 'offline' ? { input: 0, output: 0 } : configuredPrice(config, model)),
		resolveDimensions: () => gateway.resolveDimensions(),
		provider: provider.name,
		instant: choice !== 'openai' && !latency,
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
		ahead: {
			get dimensions() {
				return gateway.dimensions;
			},
			complete: <T>(req: ModelRequest) => gateway.prefetch<T>(req),
			embed: (texts: string[]) => gateway.embedAhead(texts)
		},
		activity: () => gateway.activity(),
		drainCalls(): CallRecord[] {
			const calls = pending.splice(0).sort((a, b) => callKeyOrder(a.key, b.key));
			// latency is wall time: kept for the inspector, outside the simulation state;
			// provider, endpoint and model say who answered each call
			return calls.map(({ replayed: _r, ...c }) => c);
		},
		drainUnusedAhead: (all?: boolean) => gateway.drainUnusedAhead(all),
		drainEmbeddings: () => gateway.drainEmbeddings(),
		stats: () => structuredClone(totals),
		close: () => cache?.close()
	};
}
