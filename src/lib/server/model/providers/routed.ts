// The configured language models as one provider: chat goes to the endpoint and model routed
// for the template (a cheap model for importance ratings, a strong one for plans and dialogue),
// embeddings to the embedding endpoint. One OpenAI-compatible client per endpoint, so an
// endpoint's concurrency limit holds across every model it serves.

import { apiKeyFor, endpointHost, routeFor, safeURL, type ModelConfig } from '../config';
import { OpenAIProvider, type OpenAIProviderOptions } from './openai';
import type { ChatRequest, ChatResult, ModelProvider, ModelRoute } from './types';

/** Test and tuning knobs passed to every endpoint's client (backoff, jitter, sleep...). */
export type EndpointOverrides = Omit<OpenAIProviderOptions, 'baseURL' | 'apiKey' | 'chatModel' | 'embedModel' | 'dimensions' | 'structured'>;

export class RoutedProvider implements ModelProvider {
	readonly name = 'openai';
	readonly model: string;
	readonly embedModel: string;
	readonly dimensions: number;
	readonly learnDimensions: boolean;
	readonly label: string;
	readonly endpoint: string;
	readonly embedEndpoint: string;
	/** the configuration it was built from (holds no keys) */
	readonly config: ModelConfig;
	private readonly clients = new Map<string, OpenAIProvider>();

	/** Reads each used endpoint's key from `env`; throws ModelConfigError naming a missing one. */
	constructor(config: ModelConfig, env: NodeJS.ProcessEnv = process.env, overrides: EndpointOverrides = {}) {
		this.config = config;
		const used = new Set([config.chat.endpoint, config.embed.endpoint, ...Object.values(config.routes).map((r) => r!.endpoint)]);
		for (const name of used) {
			const ep = config.endpoints[name];
			const isEmbed = name === config.embed.endpoint;
			this.clients.set(
				name,
				new OpenAIProvider({
					...overrides,
					baseURL: ep.baseURL,
					apiKey: apiKeyFor(config, name, env),
					chatModel: name === config.chat.endpoint ? config.chat.model : (Object.values(config.routes).find((r) => r!.endpoint === name)?.model ?? config.chat.model),
					embedModel: config.embed.model,
					...(isEmbed && config.embed.dimensions !== undefined && { dimensions: config.embed.dimensions }),
					structured: ep.structured,
					concurrency: ep.concurrency,
					...(ep.timeoutMs !== undefined && { timeoutMs: ep.timeoutMs }),
					...(ep.maxRetries !== undefined && { maxRetries: ep.maxRetries }),
					...(ep.maxAnswerBytes !== undefined && { maxAnswerBytes: ep.maxAnswerBytes }),
					...(ep.maxTokens !== undefined && { maxTokens: ep.maxTokens })
				})
			);
		}
		const embedder = this.client(config.embed.endpoint);
		this.model = config.chat.model;
		this.embedModel = config.embed.model;
		this.dimensions = embedder.dimensions;
		this.learnDimensions = embedder.learnDimensions;
		this.endpoint = endpointHost(config.endpoints[config.chat.endpoint].baseURL);
		this.embedEndpoint = endpointHost(config.endpoints[config.embed.endpoint].baseURL);
		const routed = Object.keys(config.routes).length;
		const extras = [
			...(routed ? [`${routed} template${routed === 1 ? '' : 's'} routed`] : []),
			...(config.embed.endpoint !== config.chat.endpoint ? [`embeddings at ${this.embedEndpoint}`] : [])
		];
		this.label = `${this.model} (OpenAI-compatible, ${safeURL(config.endpoints[config.chat.endpoint].baseURL)}${extras.map((e) => `; ${e}`).join('')})`;
	}

	private client(name: string): OpenAIProvider {
		const c = this.clients.get(name);
		if (!c) throw new Error(`no client for endpoint "${name}"`);
		return c;
	}

	route(template: string): ModelRoute {
		const r = routeFor(this.config, template);
		return { provider: this.name, endpoint: this.client(r.endpoint).endpoint, model: r.model };
	}

	chat(req: ChatRequest): Promise<ChatResult> {
		const r = routeFor(this.config, req.template);
		return this.client(r.endpoint).chat({ ...req, model: r.model });
	}

	embed(texts: string[]): Promise<Float32Array[]> {
		return this.client(this.config.embed.endpoint).embed(texts);
	}
}
