// Wiring: which provider, which prompts, which cache. The offline stand-in is the default;
// SIMULACRA_PROVIDER=openai selects the configured OpenAI-compatible endpoints (config.ts: a
// models.json file, or the classic environment variables).

import path from 'node:path';
import { dataHome } from '../paths';
import { AnswerCache, SAMPLING_INDEX_ENV, samplingIndex } from './cache';
import { loadModelConfig, type ModelConfig } from './config';
import { ModelGateway, type Recorder, type ReplaySource } from './gateway';
import { loadPromptSet } from './load';
import { OfflineProvider } from './providers/offline';
import { RoutedProvider, type EndpointOverrides } from './providers/routed';
import type { ModelProvider } from './providers/types';

export { AnswerCache, chatCacheKey, embedCacheKey, type CachedAnswer } from './cache';
export {
	apiKeyFor,
	endpointHost,
	loadModelConfig,
	modelConfigFile,
	modelConfigFromEnv,
	ModelConfigError,
	parseModelConfig,
	priceFor,
	routeFor,
	STRUCTURED_MODES,
	type EndpointConfig,
	type ModelConfig,
	type ModelPrice,
	type ModelRef,
	type StructuredMode
} from './config';
export {
	DIMENSION_PROBE,
	EmbeddingFault,
	ModelGateway,
	ReplayMissError,
	SYSTEM_PROMPT,
	type EmbeddingFaultKind,
	type GatewayOptions,
	type RecordedCall,
	type Recorder,
	type ReplaySource
} from './gateway';
export { loadPromptSet } from './load';
export { OfflineProvider, OFFLINE_LABEL, offlineAnswer } from './providers/offline';
export { KNOWN_DIMENSIONS, OpenAIProvider, openAIOptionsFromEnv, type OpenAIProviderOptions } from './providers/openai';
export { RoutedProvider, type EndpointOverrides } from './providers/routed';
export {
	LOCAL_ENDPOINT,
	ProviderError,
	type ChatMessage,
	type ChatRequest,
	type ChatResult,
	type ModelProvider,
	type ModelRoute,
	type TokenCounts
} from './providers/types';

export type ProviderKind = 'offline' | 'openai';

export function providerKindFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderKind {
	const raw = env.SIMULACRA_PROVIDER?.trim().toLowerCase() || 'offline';
	if (raw !== 'offline' && raw !== 'openai') throw new Error(`SIMULACRA_PROVIDER must be "offline" or "openai" (got "${raw}")`);
	return raw;
}

/**
 * The configured language models (see config.ts) as one provider that routes each template to
 * its endpoint and model. Keys are read from `env`; a bad configuration throws ModelConfigError.
 */
export function languageModelProvider(env: NodeJS.ProcessEnv = process.env, config: ModelConfig = loadModelConfig(env), overrides: EndpointOverrides = {}): RoutedProvider {
	return new RoutedProvider(config, env, overrides);
}

export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): ModelProvider {
	return providerKindFromEnv(env) === 'openai' ? languageModelProvider(env) : new OfflineProvider();
}

/** Requests in flight at once for a provider: the sum over its endpoints, or SIMULACRA_MODEL_CONCURRENCY (default 8). */
function concurrencyFor(provider: ModelProvider, env: NodeJS.ProcessEnv): number {
	if (provider instanceof RoutedProvider) {
		const c = provider.config;
		const used = new Set([c.chat.endpoint, c.embed.endpoint, ...Object.values(c.routes).map((r) => r!.endpoint)]);
		return [...used].reduce((n, name) => n + c.endpoints[name].concurrency, 0);
	}
	return Number(env.SIMULACRA_MODEL_CONCURRENCY) > 0 ? Math.floor(Number(env.SIMULACRA_MODEL_CONCURRENCY)) : 8;
}

/** The sampling index a process's runs use (SIMULACRA_SAMPLING_INDEX), with the variable named when it is bad. */
function samplingIndexFromEnv(env: NodeJS.ProcessEnv): number {
	try {
		return samplingIndex(env[SAMPLING_INDEX_ENV]);
	} catch (e) {
		throw new Error(`${SAMPLING_INDEX_ENV}: ${(e as Error).message}`);
	}
}

export interface CreateGatewayOptions {
	env?: NodeJS.ProcessEnv;
	provider?: ModelProvider;
	promptsDir?: string;
	/** cache folder; default `<dataHome>/cache`. `false` disables the cache. */
	cacheDir?: string | false;
	recorder?: Recorder;
	replay?: ReplaySource;
	retries?: number;
	/** keep each call's template variables in its record (default true: the prompt workbench renders recorded calls again) */
	recordVars?: boolean;
}

/**
 * A gateway configured from the environment. The offline stand-in gets no disk cache: its
 * answers are computed faster than they are read back, and caching them would only fill the
 * disk. Remember to `cache.close()` (returned alongside) when the run ends.
 */
export async function createModelGateway(options: CreateGatewayOptions = {}): Promise<{ gateway: ModelGateway; cache?: AnswerCache }> {
	const env = options.env ?? process.env;
	const provider = options.provider ?? providerFromEnv(env);
	const templates = await loadPromptSet(options.promptsDir);
	const wantCache = options.cacheDir !== false && provider.name !== 'offline';
	const cache = wantCache ? AnswerCache.open(options.cacheDir || path.join(dataHome(env), 'cache')) : undefined;
	const concurrency = concurrencyFor(provider, env);
	const gateway = new ModelGateway({
		provider,
		templates,
		cache,
		recorder: options.recorder,
		replay: options.replay,
		retries: options.retries,
		concurrency,
		recordVars: options.recordVars ?? true,
		samplingIndex: samplingIndexFromEnv(env)
	});
	return { gateway, cache };
}
