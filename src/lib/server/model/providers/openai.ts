// Any OpenAI-compatible endpoint (OpenAI, a local server, a proxy) through the `openai` SDK.
// Retries are ours rather than the SDK's so that they are bounded, use injected jitter (runs
// stay reproducible in tests) and honour Retry-After. The API key never appears in an error
// message: every message leaving this file is scrubbed.
//
// The SDK fetches through a guard (`guardedFetch`): one deadline for the whole exchange of an
// attempt, headers and body (the SDK's own timeout stops once headers arrive, so a server that
// drips its answer would hold a call for minutes, or for ever), and a limit on the size of the
// body. Whatever is not a well-formed answer (a proxy's HTML page, an empty body, JSON of
// another shape, a body too big or too slow) is a provider fault: retried, then a ProviderError
// saying what came back, never an answer text.
//
// Each chat request asks for JSON as the endpoint's `structured` setting says: the call's JSON
// Schema as strict structured outputs (`json_schema`, the default), any JSON object
// (`json_object`), or nothing (`off`).

import { AsyncLocalStorage } from 'node:async_hooks';
import type OpenAI from 'openai';
import { Semaphore } from '../semaphore';
import { ProviderError, type ChatRequest, type ChatResult, type ModelProvider, type ModelRoute, type ProviderFault } from './types';
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
	/** deadline in ms for the whole exchange of one attempt, headers and body (default 60 000) */
	timeoutMs?: number;
	/** retries after the first attempt for 429, 5xx, timeouts, connection errors and answers that are not completions (default 4) */
	maxRetries?: number;
	/** largest chat response body in bytes (default 256 KiB); embeddings get EMBED_MAX_BYTES */
	maxAnswerBytes?: number;
	/** max_tokens of a chat request whose sampling sets none (default 1024) */
	maxTokens?: number;
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

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024;
export const DEFAULT_MAX_TOKENS = 1024;
/** Embeddings answers are big (a 3072-number vector is ~60 kB of JSON): 64 MiB, or 512 KiB a text for larger batches. */
export const EMBED_MAX_BYTES = 64 * 1024 * 1024;
const EMBED_BYTES_PER_TEXT = 512 * 1024;
/** Bytes of a body kept to quote in messages. */
const HEAD_BYTES = 512;

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
		maxAnswerBytes: ep.maxAnswerBytes,
		maxTokens: ep.maxTokens,
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
	fault?: ProviderFault;
}

/** What one attempt's exchange was allowed, and what the guarded fetch saw of it. */
interface Exchange {
	/** largest response body in bytes */
	maxBytes: number;
	/** what a well-formed answer is, for messages: "a chat completion" */
	expected: string;
	/** the setting that raises `maxBytes`, for messages */
	limitSetting?: string;
	status?: number;
	contentType?: string;
	/** body bytes received */
	bytes: number;
	/** the first HEAD_BYTES of the body */
	head: Uint8Array[];
	headBytes: number;
	/** why the guard cut the exchange short */
	fault?: ExchangeFault;
	/** ends the exchange: clears its deadline and drops a body nobody read */
	release?: () => void;
}

/** A fault of the exchange itself: too slow, too big, or not a well-formed answer. */
class ExchangeFault extends Error {
	constructor(
		readonly kind: ProviderFault,
		message: string
	) {
		super(message);
		this.name = 'ExchangeFault';
	}
}

// The exchange of the attempt in progress, for the guarded fetch the SDK calls: requests in
// flight at once share one client, and each finds its own exchange here.
const exchanges = new AsyncLocalStorage<Exchange>();

/** the `openai` SDK, loaded by the first request (see `OpenAIProvider.#sdkClient`) */
let sdk: typeof OpenAI | undefined;

function newExchange(maxBytes: number, expected: string, limitSetting?: string): Exchange {
	return { maxBytes, expected, limitSetting, bytes: 0, head: [], headBytes: 0 };
}

function keepHead(ex: Exchange, chunk: Uint8Array): void {
	if (ex.headBytes >= HEAD_BYTES) return;
	const part = chunk.subarray(0, HEAD_BYTES - ex.headBytes);
	ex.head.push(part.slice());
	ex.headBytes += part.byteLength;
}

/** The start of the body, whitespace collapsed, at most 80 characters. */
function headText(ex: Exchange): string {
	const bytes = new Uint8Array(ex.headBytes);
	let at = 0;
	for (const part of ex.head) {
		bytes.set(part, at);
		at += part.byteLength;
	}
	const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\s+/g, ' ').trim();
	return text.length > 80 || ex.bytes > ex.headBytes ? `${text.slice(0, 80)}…` : text;
}

const isHtml = (ex: Exchange) => /html/i.test(ex.contentType ?? '') || /^\s*</.test(headText(ex));

/** What came back instead of a well-formed answer; `problem` says what is wrong with a JSON body. */
function describeAnswer(ex: Exchange, how: 'not_json' | 'text' | 'shape', problem = ''): string {
	const status = `HTTP ${ex.status ?? '?'}`;
	if (ex.bytes === 0) return `the endpoint answered ${status} with an empty body instead of ${ex.expected}`;
	const type = ex.contentType?.split(';')[0].trim() || 'no content type';
	const proxy = isHtml(ex) ? '; is a proxy in the way?' : '';
	if (how === 'shape') return `the endpoint answered ${status} with JSON that is not ${ex.expected} (${problem}): ${headText(ex)}`;
	if (how === 'not_json') return `the endpoint answered ${status} with ${type} that is not valid JSON (${headText(ex)}) instead of ${ex.expected}${proxy}`;
	return `the endpoint answered ${status} with ${type} (${headText(ex)}) instead of ${ex.expected}${proxy}`;
}

function tooLarge(ex: Exchange, declared?: number): ExchangeFault {
	const setting = ex.limitSetting ? ` (if answers this big are expected, raise ${ex.limitSetting})` : '';
	const said = declared !== undefined ? `, it said Content-Length ${declared}` : '';
	return new ExchangeFault('too_large', `the answer was larger than ${ex.maxBytes} bytes${said}${setting}`);
}

function deadlineMessage(ms: number): string {
	return `timed out: the whole request took longer than ${ms} ms (headers and body)`;
}

/**
 * A fetch for the SDK that gives each call one deadline for headers and body together, and
 * reads the body through a stream that counts bytes and fails past the exchange's limit, so a
 * body that drips, never ends or runs to megabytes costs at most the deadline and the limit.
 */
function guardedFetch(deadlineMs: number, fallback: () => Exchange): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
	return async (input, init) => {
		const ex = exchanges.getStore() ?? fallback();
		const abort = new AbortController();
		const outer = init?.signal ?? undefined;
		let body: ReadableStreamDefaultController<Uint8Array> | undefined;
		let settled = false;
		const onOuterAbort = () => abort.abort(outer?.reason);
		const finish = () => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			outer?.removeEventListener('abort', onOuterAbort);
		};
		const fail = (fault: ExchangeFault) => {
			if (settled) return;
			ex.fault ??= fault;
			finish();
			abort.abort(fault);
			try {
				body?.error(fault);
			} catch {
				// already closed or errored
			}
		};
		const timer = setTimeout(() => fail(new ExchangeFault('deadline', deadlineMessage(deadlineMs))), deadlineMs);
		// The SDK leaves some bodies unread (JSON with Content-Length 0): the attempt's end releases them.
		ex.release = () => {
			if (settled) return;
			finish();
			abort.abort();
		};
		if (outer?.aborted) abort.abort(outer.reason);
		else outer?.addEventListener('abort', onOuterAbort, { once: true });

		let res: Response;
		try {
			res = await fetch(input, { ...init, signal: abort.signal });
		} catch (e) {
			finish();
			throw ex.fault ?? e;
		}
		ex.status = res.status;
		ex.contentType = res.headers.get('content-type') ?? undefined;
		if (!res.body) {
			finish();
			return res;
		}
		const upstream = res.body.getReader();
		const guarded = new ReadableStream<Uint8Array>({
			start(c) {
				body = c;
			},
			async pull(c) {
				try {
					const { done, value } = await upstream.read();
					if (ex.fault) return;
					if (done) {
						finish();
						c.close();
						return;
					}
					ex.bytes += value.byteLength;
					keepHead(ex, value);
					if (ex.bytes > ex.maxBytes) return fail(tooLarge(ex));
					c.enqueue(value);
				} catch (e) {
					finish();
					c.error(ex.fault ?? e);
				}
			},
			cancel(reason) {
				finish();
				abort.abort();
				return upstream.cancel(reason).catch(() => undefined);
			}
		});
		const declared = Number(res.headers.get('content-length') ?? NaN);
		if (Number.isFinite(declared) && declared > ex.maxBytes) fail(tooLarge(ex, declared));
		return new Response(guarded, { status: res.status, statusText: res.statusText, headers: res.headers });
	};
}

/** The JSON value of a body (a server that sends JSON as text/plain still sent JSON); no body or no JSON is an ExchangeFault. */
function jsonBody(data: unknown, ex: Exchange): unknown {
	let value = data;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			throw new ExchangeFault('not_a_completion', describeAnswer(ex, 'text'));
		}
	}
	if (value === undefined || value === null || ex.bytes === 0) throw new ExchangeFault('not_a_completion', describeAnswer(ex, 'text'));
	return value;
}

/** The text and usage of a well-formed chat completion; anything else is an ExchangeFault. */
function readCompletion(data: unknown, ex: Exchange): OpenAI.Chat.ChatCompletion {
	const value = jsonBody(data, ex);
	const problem = completionProblem(value);
	if (problem) throw new ExchangeFault('not_a_completion', describeAnswer(ex, 'shape', problem));
	return value as OpenAI.Chat.ChatCompletion;
}

function completionProblem(value: unknown): string | undefined {
	if (typeof value !== 'object' || Array.isArray(value)) return `a JSON ${Array.isArray(value) ? 'array' : typeof value}, not an object`;
	const choices = (value as { choices?: unknown }).choices;
	if (!Array.isArray(choices) || choices.length === 0) {
		const error = (value as { error?: { message?: unknown } }).error;
		if (error && typeof error === 'object') return `an error: ${clip(String(error.message ?? JSON.stringify(error)), 120)}`;
		return 'no choices';
	}
	const message = (choices[0] as { message?: unknown } | null)?.message;
	if (typeof message !== 'object' || message === null) return 'choices[0] has no message';
	const { content, refusal, tool_calls } = message as { content?: unknown; refusal?: unknown; tool_calls?: unknown };
	if (typeof content === 'string') return undefined;
	if (typeof refusal === 'string' && refusal) return `no text: the model refused: "${clip(refusal, 80)}"`;
	if (Array.isArray(tool_calls) && tool_calls.length) return 'no text: the model called a tool';
	return `choices[0].message.content is ${content === undefined ? 'missing' : content === null ? 'null' : `a ${Array.isArray(content) ? 'list' : typeof content}`}`;
}

function readEmbeddings(data: unknown, ex: Exchange): OpenAI.CreateEmbeddingResponse {
	const value = jsonBody(data, ex);
	if (typeof value !== 'object' || !Array.isArray((value as { data?: unknown }).data)) {
		throw new ExchangeFault('not_a_completion', describeAnswer(ex, 'shape', 'no "data" list'));
	}
	return value as OpenAI.CreateEmbeddingResponse;
}

/** Whitespace collapsed, at most `n` characters. */
function clip(text: string, n: number): string {
	const t = text.replace(/\s+/g, ' ').trim();
	return t.length > n ? `${t.slice(0, n)}…` : t;
}

/** A request parameter a model refuses, named in its 400 answer (see `OpenAIProvider.refused`). */
type Refusal = 'max_tokens' | 'temperature';

/** The parameter a 400 answer says the model does not take, when the request sent it. */
function refusalIn(message: string, body: { max_tokens?: number | null; temperature?: number | null }): Refusal | undefined {
	if (body.max_tokens !== undefined && /max_tokens/.test(message) && /max_completion_tokens/.test(message)) return 'max_tokens';
	if (body.temperature !== undefined && /unsupported (value|parameter)/i.test(message) && /'?temperature'?/.test(message)) return 'temperature';
	return undefined;
}

const retryableStatus = (status: number | undefined) => status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;

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
	#client: Promise<OpenAI> | undefined;
	readonly #secret: string;
	readonly #baseURL: string;
	private readonly sem: Semaphore;
	private readonly timeoutMs: number;
	private readonly maxAnswerBytes: number;
	private readonly maxTokens: number;
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
	/**
	 * What a model refused and how it is asked since, learned from its 400 answers: OpenAI's
	 * reasoning models take `max_completion_tokens` instead of `max_tokens` and only the default
	 * sampling temperature.
	 */
	private readonly refused = new Map<string, Set<Refusal>>();

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
		this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
		this.maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
		this.maxRetries = options.maxRetries ?? 4;
		this.baseDelayMs = options.baseDelayMs ?? 500;
		this.maxDelayMs = options.maxDelayMs ?? 20_000;
		this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
		this.jitter = options.jitter ?? seededJitter();
		this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
		this.structured = options.structured ?? 'json_schema';
		this.batchSize = Math.max(1, options.embedBatchSize ?? 128);
		this.#baseURL = baseURL ?? OPENAI_BASE_URL;
	}

	/** The SDK's client, made for the first request: a process that asks no endpoint never loads the SDK. */
	#sdkClient(): Promise<OpenAI> {
		this.#client ??= import('openai').then(({ default: SDK }) => {
			sdk = SDK;
			return new SDK({
				apiKey: this.#secret || 'no-key',
				// Explicit, so the SDK does not pick up a different OPENAI_BASE_URL from the environment.
				baseURL: this.#baseURL,
				maxRetries: 0,
				// The guard's deadline covers headers and body; the SDK's (headers only) is a backstop.
				timeout: this.sdkTimeoutMs,
				fetch: guardedFetch(this.timeoutMs, () => this.chatExchange())
			});
		});
		return this.#client;
	}

	/** The SDK's own timeout: a backstop behind the guard's deadline. */
	private get sdkTimeoutMs(): number {
		return this.timeoutMs + 1000;
	}

	private chatExchange(): Exchange {
		return newExchange(this.maxAnswerBytes, 'a chat completion', "SIMULACRA_MODEL_MAX_ANSWER_BYTES or the endpoint's maxAnswerBytes");
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
		const bodyFor = (refused: ReadonlySet<Refusal>): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming => {
			// Every call is bounded: the template's max_tokens, else the endpoint's default.
			const limit = max_tokens ?? this.maxTokens;
			return {
				model,
				messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
				...(temperature !== undefined && !refused.has('temperature') && { temperature }),
				...(refused.has('max_tokens') ? { max_completion_tokens: limit } : { max_tokens: limit }),
				...(top_p !== undefined && !refused.has('temperature') && { top_p }),
				...(presence_penalty !== undefined && { presence_penalty }),
				...(frequency_penalty !== undefined && { frequency_penalty }),
				...(seed !== undefined && { seed }),
				...(stop !== undefined && { stop }),
				...(responseFormat && { response_format: responseFormat })
			};
		};
		let res: OpenAI.Chat.ChatCompletion;
		for (;;) {
			const refused = this.refused.get(model) ?? new Set<Refusal>();
			const body = bodyFor(refused);
			try {
				res = await this.withRetries(
					`chat (${model})`,
					() => this.chatExchange(),
					async (ex) => readCompletion((await (await this.#sdkClient()).chat.completions.create(body, { timeout: this.sdkTimeoutMs }).withResponse()).data, ex),
					responseFormat !== undefined
				);
				break;
			} catch (e) {
				// a parameter this model refuses (and names): asked again without it, and so from now on
				const what = e instanceof ProviderError && e.status === 400 ? refusalIn(e.message, body) : undefined;
				if (!what || refused.has(what)) throw e;
				this.refused.set(model, new Set([...refused, what]));
			}
		}
		return {
			text: res.choices[0].message.content ?? '',
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
				const res = await this.withRetries(
					`embeddings (${this.embedModel})`,
					() => newExchange(Math.max(EMBED_MAX_BYTES, input.length * EMBED_BYTES_PER_TEXT), 'an embeddings list'),
					async (ex) =>
						readEmbeddings((await (await this.#sdkClient()).embeddings.create({ model: this.embedModel, input, encoding_format: 'float' }, { timeout: this.sdkTimeoutMs }).withResponse()).data, ex)
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

	private classify(e: unknown, ex: Exchange): Failure {
		// What the guard or the shape check found comes first: the SDK wraps it in its own errors.
		const fault = ex.fault ?? (e instanceof ExchangeFault ? e : undefined);
		if (fault) {
			const status = ex.status !== undefined && (ex.status < 200 || ex.status >= 300) ? ex.status : undefined;
			return { retryable: retryableStatus(status), status, message: fault.message, fault: fault.kind };
		}
		// the SDK's errors (it is loaded: the request that failed made its client)
		if (sdk && e instanceof sdk.APIConnectionTimeoutError) return { retryable: true, message: deadlineMessage(this.timeoutMs), fault: 'deadline' };
		if (sdk && e instanceof sdk.APIUserAbortError) return { retryable: false, message: 'aborted' };
		if (sdk && e instanceof sdk.APIConnectionError) return { retryable: true, message: `connection failed (${e.message})` };
		if (sdk && e instanceof sdk.APIError) {
			const status = e.status;
			// A proxy's error page would otherwise be quoted whole.
			return { retryable: retryableStatus(status), status, retryAfterMs: this.retryAfter(e.headers), message: `HTTP ${status ?? '?'}: ${clip(e.message, 300)}` };
		}
		// A body sent as JSON that is not: a proxy's page, a cut-off answer, nothing at all.
		if (e instanceof SyntaxError) return { retryable: true, message: describeAnswer(ex, 'not_json'), fault: 'not_a_completion' };
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

	private async withRetries<T>(what: string, exchange: () => Exchange, call: (ex: Exchange) => Promise<T>, structured = false): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			const ex = exchange();
			try {
				// The slot is held only while the request is in flight, not while backing off.
				return await this.sem.run(() => exchanges.run(ex, () => call(ex)).finally(() => ex.release?.()));
			} catch (e) {
				const f = this.classify(e, ex);
				if (!f.retryable || attempt > this.maxRetries) {
					const tries = attempt === 1 ? '1 attempt' : `${attempt} attempts`;
					// A server that does not understand `response_format` refuses the request.
					const hint =
						structured && (f.status === 400 || f.status === 422)
							? ` (if this server does not accept response_format, set this endpoint's "structured" to ${this.structured === 'json_schema' ? '"json_object" or ' : ''}"off")`
							: '';
					throw new ProviderError(this.scrub(`${what} at ${this.url} failed after ${tries}: ${f.message}${hint}`), attempt, f.status, f.fault);
				}
				await this.sleep(f.retryAfterMs ?? this.backoff(attempt));
			}
		}
	}
}
