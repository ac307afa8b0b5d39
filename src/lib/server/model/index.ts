// Wiring: which provider, which prompts, which cache. The offline stand-in is the default;
// SIMULACRA_PROVIDER=openai selects an OpenAI-compatible endpoint (see providers/openai.ts).

import path from 'node:path';
import { dataHome } from '../paths';
import { AnswerCache } from './cache';
import { ModelGateway, type Recorder, type ReplaySource } from './gateway';
import { loadPromptSet } from './load';
import { OfflineProvider } from './providers/offline';
import { OpenAIProvider, openAIOptionsFromEnv } from './providers/openai';
import type { ModelProvider } from './providers/types';

export { AnswerCache, chatCacheKey, embedCacheKey, type CachedAnswer } from './cache';
export { ModelGateway, ReplayMissError, SYSTEM_PROMPT, type GatewayOptions, type RecordedCall, type Recorder, type ReplaySource } from './gateway';
export { loadPromptSet } from './load';
export { OfflineProvider, OFFLINE_LABEL, offlineAnswer } from './providers/offline';
export { OpenAIProvider, openAIOptionsFromEnv, type OpenAIProviderOptions } from './providers/openai';
export { ProviderError, type ChatMessage, type ChatRequest, type ChatResult, type ModelProvider, type TokenCounts } from './providers/types';

export type ProviderKind = 'offline' | 'openai';

export function providerKindFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderKind {
	const raw = env.SIMULACRA_PROVIDER?.trim().toLowerCase() || 'offline';
	if (raw !== 'offline' && raw !== 'openai') throw new Error(`SIMULACRA_PROVIDER must be "offline" or "openai" (got "${raw}")`);
	return raw;
}

export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): ModelProvider {
	return providerKindFromEnv(env) === 'openai' ? new OpenAIProvider(openAIOptionsFromEnv(env)) : new OfflineProvider();
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
	const concurrency = Number(env.SIMULACRA_MODEL_CONCURRENCY) > 0 ? Math.floor(Number(env.SIMULACRA_MODEL_CONCURRENCY)) : 8;
	const gateway = new ModelGateway({
		provider,
		templates,
		cache,
		recorder: options.recorder,
		replay: options.replay,
		retries: options.retries,
		concurrency,
		recordVars: options.recordVars ?? true
	});
	return { gateway, cache };
}
