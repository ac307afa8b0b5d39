// Any OpenAI-compatible endpoint (OpenAI, a local server, a proxy) through the `openai` SDK.
// Retries are ours rather than the SDK's so that they are bounded, use injected jitter (runs
// stay reproducible in tests) and honour Retry-After. The API key never appears in an error
// message: every message leaving this file is scrubbed.
//
// Each chat request asks for JSON as the endpoint's `structured` setting says: the call's JSON
// Schema as strict structured outputs (`json_schema`, the default), any JSON object
// (`json_object`), or nothing (`off`).

import OpenAI from 'openai';
import { Semaphore } from '../semaphore';
import { ProviderError, type ChatRequest, type ChatResult, type ModelProvider, type ModelRoute } from './types';
import { mulberry32 } from '../../../engine/rng';
import {
	DEFAULT_CHAT_MODEL,
	DEFAULT_EMBED_MODEL,
	endpointHost,
	modelConfigFromEnv,
	OPENAI_BASE_URL,
	safeURL,
	type StructuredMode
} from '../config';

export { DEFAULT_CHAT_MODEL, DEFAULT_EMBED_MODEL } from '../config';

export interface OpenAIProviderOptions {
	baseURL?: string;
	apiKey?: string;
	chatModel?: string;
	embedModel?: string;
	/** embedding dimension; when unset it is learned from the first embedding (see KNOWN_DIMENSIONS for hints) */
	dimensions?: number;
	/** requests in flight at once (default 8) */
	concurrency?: number;
	/** per-request timeout in ms (default 60 000) */
	timeoutMs?: number;
	/** retries after the first attempt for 429, 5xx, timeouts and connection errors (default 4) */
	maxRetries?: number;
	/** first backoff delay in ms (default 500), doubled per retry */
	baseDelayMs?: number;
	/** longest backoff delay in ms (default 20 000) */
	maxDelayMs?: number;
	/** longest Retry-After that is honoured, in ms (default 60 000) */
	maxRetryAfterMs?: number;
	/** a number in [0, 1) per call; default a seeded generator */
	jitter?: () => number;
	sleep?: (ms: number) => Promise<void>;
	/** how JSON is asked for (default `json_schema`: the call's schema, strict) */
	structured?: StructuredMode;
	/** texts per embeddings request (default 128) */
	embedBatchSize?: number;
}

/** Dimensions of well-known embedding models: a hint until the first embedding says otherwise. */
export const KNOWN_DIMENSIONS: Record<string, number> = {
	'text-embedding-3-small': 1536,
	'text-embedding-3-large': 3072,
	'text-embedding-ada-002': 1536,
	'nomic-embed-text': 768,
	'mxbai-embed-large': 1024,
	'all-minilm': 384,
	'bge-m3': 1024
};

/** Provider options from the classic environment variables (see `modelConfigFromEnv`), key included. */
export function openAIOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): OpenAIProviderOptions {
	const config = modelConfigFromEnv(env);
	const ep = config.endpoints.default;
	return {
		baseURL: env.OPENAI_BASE_URL?.trim() ? ep.baseURL : undefined,
		apiKey: env.OPENAI_API_KEY?.trim() || undefined,
		chatModel: config.chat.model,
		embedModel: config.embed.model,
		dimensions: config.embed.dimensions,
		concurrency: ep.concurrency,
		timeoutMs: ep.timeoutMs,
		maxRetries: ep.maxRetries,
		structured: ep.structured
	};
}

/** Reproducible backoff jitter. */
export function seededJitter(seed = 0x5eed): () => number {
	return mulberry32(seed);
}

interface Failure {
	retryable: boolean;
	status?: number;
	retryAfterMs?: number;
	message: string;
}

export class OpenAIProvider implements ModelProvider {
	readonly name = 'openai';
	readonly model: string;
	readonly embedModel: string;
	readonly dimensions: number;
	readonly learnDimensions: boolean;
	readonly label: string;
	/** host (and port) of the endpoint */
	readonly endpoint: string;
	// Truly private (#): the key and the client holding it stay out of logs, inspection and JSON.
	readonly #client: OpenAI;
	readonly #secret: string;
	private readonly sem: Semaphore;
	private readonly timeoutMs: number;
	private readonly maxRetries: number;
	private readonly baseDelayMs: number;
	private readonly maxDelayMs: number;
	private readonly maxRetryAfterMs: number;
	private readonly jitter: () => number;
	private readonly sleep: (ms: number) => Promise<void>;
	private readonly structured: StructuredMode;
	private readonly batchSize: number;
	/** the base URL without credentials, for messages */
	private readonly url: string;

	constructor(options: OpenAIProviderOptions = {}) {
		const baseURL = options.baseURL;
		if (!options.apiKey && !baseURL) {
			throw new Error('the openai provider needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server that needs no key)');
		}
		this.#secret = options.apiKey ?? '';
		this.model = options.chatModel ?? DEFAULT_CHAT_MODEL;
		this.embedModel = options.embedModel ?? DEFAULT_EMBED_MODEL;
		this.learnDimensions = options.dimensions === undefined;
		this.dimensions = options.dimensions ?? KNOWN_DIMENSIONS[this.embedModel] ?? 0;
		this.url = safeURL(baseURL ?? OPENAI_BASE_URL);
		this.endpoint = endpointHost(baseURL ?? OPENAI_BASE_URL);
		this.label = `${this.model} (OpenAI-compatible, ${this.url})`;
		this.sem = new Semaphore(options.concurrency ?? 8);
		this.timeoutMs = options.timeoutMs ?? 60_000;
		this.maxRetries = options.maxRetries ?? 4;
		this.baseDelayMs = options.baseDelayMs ?? 500;
		this.maxDelayMs = options.maxDelayMs ?? 20_000;
		this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
		this.jitter = options.jitter ?? seededJitter();
		this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
		this.structured = options.structured ?? 'json_schema';
		this.batchSize = Math.max(1, options.embedBatchSize ?? 128);
		this.#client = new OpenAI({
			apiKey: this.#secret || 'no-key',
			// Explicit, so the SDK does not pick up a different OPENAI_BASE_URL from the environment.
			baseURL: baseURL ?? OPENAI_BASE_URL,
			maxRetries: 0,
			timeout: this.timeoutMs
		});
	}

	route(): ModelRoute {
		return { provider: this.name, endpoint: this.endpoint, model: this.model };
	}

	/** The `response_format` for a request, as the endpoint's `structured` setting says. */
	private responseFormat(req: ChatRequest): OpenAI.Chat.ChatCompletionCreateParams['response_format'] | undefined {
		if (this.structured === 'json_object') return { type: 'json_object' };
		if (this.structured === 'json_schema' && req.jsonSchema) {
			// A name is letters, digits, "_" and "-", at most 64 characters.
			const name = req.template.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'answer';
			return { type: 'json_schema', json_schema: { name, strict: true, schema: req.jsonSchema } };
		}
		return undefined;
	}

	async chat(req: ChatRequest): Promise<ChatResult> {
		const { temperature, max_tokens, top_p, presence_penalty, frequency_penalty, seed, stop } = req.sampling;
		const model = req.model ?? this.model;
		const responseFormat = this.responseFormat(req);
		const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
			model,
			messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
			...(temperature !== undefined && { temperature }),
			...(max_tokens !== undefined && { max_tokens }),
			...(top_p !== undefined && { top_p }),
			...(presence_penalty !== undefined && { presence_penalty }),
			...(frequency_penalty !== undefined && { frequency_penalty }),
			...(seed !== undefined && { seed }),
			...(stop !== undefined && { stop }),
			...(responseFormat && { response_format: responseFormat })
		};
		const res = await this.withRetries(`chat (${model})`, () => this.#client.chat.completions.create(body, { timeout: this.timeoutMs }), responseFormat !== undefined);
		return {
			text: res.choices?.[0]?.message?.content ?? '',
			tokens: { prompt: res.usage?.prompt_tokens ?? 0, completion: res.usage?.completion_tokens ?? 0 }
		};
	}

	async embed(texts: string[]): Promise<Float32Array[]> {
		const batches: string[][] = [];
		for (let i = 0; i < texts.length; i += this.batchSize) batches.push(texts.slice(i, i + this.batchSize));
		const results = await Promise.all(
			batches.map(async (batch) => {
				// Endpoints refuse empty inputs; an empty text still needs a vector.
				const input = batch.map((t) => (t.trim() ? t : '(empty)'));
				const res = await this.withRetries(`embeddings (${this.embedModel})`, () =>
					this.#client.embeddings.create({ model: this.embedModel, input, encoding_format: 'float' }, { timeout: this.timeoutMs })
				);
				const data = [...(res.data ?? [])].sort((a, b) => a.index - b.index);
				if (data.length !== batch.length) {
					throw new ProviderError(`embeddings (${this.embedModel}) at ${this.url}: got ${data.length} vectors for ${batch.length} texts`, 1);
				}
				return data.map((d) => this.toVector(d.embedding));
			})
		);
		return results.flat();
	}

	/** A unit-length copy of an embedding; its size is checked by the gateway, which knows what to expect. */
	private toVector(raw: unknown): Float32Array {
		if (!Array.isArray(raw) || raw.length === 0 || raw.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
			throw new ProviderError(`embeddings (${this.embedModel}) at ${this.url}: an embedding is not a list of numbers`, 1);
		}
		const v = Float32Array.from(raw as number[]);
		let norm = 0;
		for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
		norm = Math.sqrt(norm);
		if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
		return v;
	}

	/** Removes the API key (and any bearer token) from text that may leave this provider. */
	scrub(text: string): string {
		let out = text;
		// Keys of a few characters are placeholders for local servers, not secrets.
		if (this.#secret.length >= 4) out = out.split(this.#secret).join('[redacted]');
		return out.replace(/Bearer\s+[A-Za-z0-9._~+/=-]{8,}/g, 'Bearer [redacted]').replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-[redacted]');
	}

	private classify(e: unknown): Failure {
		if (e instanceof OpenAI.APIConnectionTimeoutError) return { retryable: true, message: `timed out after ${this.timeoutMs} ms` };
		if (e instanceof OpenAI.APIUserAbortError) return { retryable: false, message: 'aborted' };
		if (e instanceof OpenAI.APIConnectionError) return { retryable: true, message: `connection failed (${e.message})` };
		if (e instanceof OpenAI.APIError) {
			const status = e.status;
			const retryable = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
			return { retryable, status, retryAfterMs: this.retryAfter(e.headers), message: `HTTP ${status ?? '?'}: ${e.message}` };
		}
		// A proxy's error page instead of JSON is usually passing.
		if (e instanceof SyntaxError) return { retryable: true, message: `the endpoint's reply was not JSON (${e.message})` };
		return { retryable: false, message: e instanceof Error ? e.message : String(e) };
	}

	private retryAfter(headers: Headers | undefined): number | undefined {
		if (!headers) return undefined;
		const ms = Number(headers.get('retry-after-ms'));
		if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return Math.min(ms, this.maxRetryAfterMs);
		const raw = headers.get('retry-after');
		if (raw === null) return undefined;
		const seconds = Number(raw);
		if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, this.maxRetryAfterMs);
		const date = Date.parse(raw);
		return Number.isFinite(date) ? Math.min(Math.max(0, date - Date.now()), this.maxRetryAfterMs) : undefined;
	}

	private backoff(retry: number): number {
		const exp = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (retry - 1));
		return Math.round(exp * (0.5 + 0.5 * this.jitter()));
	}

	private async withRetries<T>(what: string, call: () => Promise<T>, structured = false): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				// The slot is held only while the request is in flight, not while backing off.
				return await this.sem.run(call);
			} catch (e) {
				const f = this.classify(e);
				if (!f.retryable || attempt > this.maxRetries) {
					const tries = attempt === 1 ? '1 attempt' : `${attempt} attempts`;
					// A server that does not understand `response_format` refuses the request.
					const hint =
						structured && (f.status === 400 || f.status === 422)
							? ` (if this server does not accept response_format, set this endpoint's "structured" to ${this.structured === 'json_schema' ? '"json_object" or ' : ''}"off")`
							: '';
					throw new ProviderError(this.scrub(`${what} at ${this.url} failed after ${tries}: ${f.message}${hint}`), attempt, f.status);
				}
				await this.sleep(f.retryAfterMs ?? this.backoff(attempt));
			}
		}
	}
}
