// The model gateway: the engine's ModelPort. For each request it renders the template, asks
// the provider, finds and validates the JSON answer, asks again with the validation errors when
// the answer is unusable, and falls back to the template's fail-safe, so the engine always gets
// a valid value. Every call is reported to a recorder (the run journal, traces); in replay mode
// the recorded answers are served and no provider is called.
//
// Each call carries its JSON Schema (the template's output schema bound to the call's inputs),
// so servers that support structured outputs answer in shape; the answer is checked all the same.
// Embeddings are checked too: a failed request, or a vector of the wrong size, is asked again a
// few times and then reported as an EmbeddingFault, which pauses a run instead of corrupting it.

import type { ModelAnswer, ModelPort, ModelRequest, TemplateVars } from '../../engine/model';
import { outputJsonSchema, readAnswer } from '../../prompts/json-schema';
import { getTemplate, type PromptSet } from '../../prompts/promptset';
import { validateOutput } from '../../prompts/schema';
import { failsafeFor, renderTemplate } from '../../prompts/template';
import { AnswerCache, chatCacheKey, embedCacheKey } from './cache';
import { LOCAL_ENDPOINT, type ChatMessage, type ModelProvider, type ModelRoute, type TokenCounts } from './providers/types';
import { Semaphore } from './semaphore';

/** One model call as the journal and the trace views see it. */
export interface RecordedCall {
	key: string;
	template: string;
	templateVersion: string;
	agent?: string;
	purpose?: string;
	provider: string;
	/** host (and port) of the endpoint that answered, e.g. "127.0.0.1:11434"; "local" for in-process providers */
	endpoint: string;
	/** the model that answered (the template's routed model) */
	model: string;
	/** the rendered prompt (the user message) */
	prompt: string;
	/** the template variables the prompt was rendered from (when the gateway records them) */
	vars?: TemplateVars;
	/** the raw answer text of the last attempt ('' when none arrived) */
	answer: string;
	/** the value handed to the engine */
	value: unknown;
	failsafe: boolean;
	latencyMs: number;
	/** tokens spent by this call (0 for cache hits and replays) */
	tokens: TokenCounts;
	cacheHit: boolean;
	attempts: number;
	/** why the fail-safe was used */
	error?: string;
	/** true when the value came from a replay source */
	replayed?: boolean;
}

export type Recorder = (call: RecordedCall) => void;

/** Recorded calls by key; a Map<string, RecordedCall> will do. */
export interface ReplaySource {
	get(key: string): RecordedCall | undefined;
}

export interface GatewayOptions {
	provider: ModelProvider;
	templates: PromptSet;
	/** answers and embeddings cache; none = every call goes to the provider */
	cache?: AnswerCache;
	recorder?: Recorder;
	/** calls in flight at once (default 8) */
	concurrency?: number;
	/** serve recorded answers instead of calling the provider */
	replay?: ReplaySource;
	/** repair rounds after the first answer (default 2) */
	retries?: number;
	/** monotonic milliseconds, for latencies */
	now?: () => number;
	/** keep each call's template variables in its record, so it can be rendered again with another template text */
	recordVars?: boolean;
	/** further embedding requests after a failed or wrong-size one (default 2) */
	embedRetries?: number;
}

export const SYSTEM_PROMPT =
	'You simulate believable human behaviour for characters in a small-town sandbox simulation. ' +
	'Follow the instructions exactly and answer with a single JSON object and nothing else.';

/** Why embeddings could not be had: the request kept failing, or the vectors kept coming back wrong. */
export type EmbeddingFaultKind = 'failed' | 'dimensions' | 'malformed';

/**
 * Embeddings that keep failing or keep coming back with the wrong size after the gateway's
 * retries. The message says what happened, where (endpoint host, model) and how to fix it; a
 * run pauses on it and can be resumed once the endpoint is fixed.
 */
export class EmbeddingFault extends Error {
	readonly kind: EmbeddingFaultKind;
	readonly endpoint: string;
	readonly model: string;
	readonly attempts: number;
	/** the dimension expected and the one received, for `dimensions` */
	readonly expected?: number;
	readonly got?: number;

	constructor(
		message: string,
		details: { kind: EmbeddingFaultKind; endpoint: string; model: string; attempts: number; expected?: number; got?: number }
	) {
		super(message);
		this.name = 'EmbeddingFault';
		this.kind = details.kind;
		this.endpoint = details.endpoint;
		this.model = details.model;
		this.attempts = details.attempts;
		this.expected = details.expected;
		this.got = details.got;
	}
}

/** The text embedded to learn an embedding model's dimension. */
export const DIMENSION_PROBE = 'dimension probe';

/** A replay journal that lacks an answer the engine now asks for. */
export class ReplayMissError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ReplayMissError';
	}
}

function repairMessage(problems: string[]): string {
	return [
		'Your answer could not be used:',
		...problems.map((p) => `- ${p}`),
		'Answer again with only the corrected JSON object, following the requested form.'
	].join('\n');
}

export class ModelGateway implements ModelPort {
	readonly provider: ModelProvider;
	readonly templates: PromptSet;
	private readonly cache?: AnswerCache;
	private readonly recorder?: Recorder;
	private readonly replay?: ReplaySource;
	private readonly retries: number;
	private readonly sem: Semaphore;
	private readonly now: () => number;
	private readonly recordVars: boolean;
	private readonly embedRetries: number;
	/** the embedding dimension, once stated by the provider or learned from an embedding */
	private learned: number | undefined;

	constructor(options: GatewayOptions) {
		this.provider = options.provider;
		this.templates = options.templates;
		this.cache = options.cache;
		this.recorder = options.recorder;
		this.replay = options.replay;
		this.retries = Math.max(0, options.retries ?? 2);
		this.sem = new Semaphore(options.concurrency ?? 8);
		this.now = options.now ?? (() => performance.now());
		this.recordVars = options.recordVars ?? false;
		this.embedRetries = Math.max(0, options.embedRetries ?? 2);
		if (!options.provider.learnDimensions) this.learned = options.provider.dimensions;
	}

	/**
	 * The embedding dimension: the configured one, or the one learned from the first embedding.
	 * Before anything is learned, a well-known model's usual dimension stands in; for an unknown
	 * model, call `resolveDimensions()` first.
	 */
	get dimensions(): number {
		if (this.learned !== undefined) return this.learned;
		if (this.provider.dimensions > 0) return this.provider.dimensions;
		throw new Error(
			`the embedding dimension of ${this.provider.embedModel} at ${this.embedEndpoint} is not known until its first embedding; ` +
				'state it (embed.dimensions in models.json, or SIMULACRA_EMBED_DIMENSIONS)'
		);
	}

	/** The embedding dimension, asking the embedding model once when it is neither configured nor learned yet. */
	async resolveDimensions(): Promise<number> {
		if (this.learned === undefined) await this.embed([DIMENSION_PROBE]);
		return this.learned as number;
	}

	/** Who answers `template`: provider, endpoint host and model. */
	routeOf(template: string): ModelRoute {
		const p = this.provider;
		return p.route?.(template) ?? { provider: p.name, endpoint: p.endpoint ?? LOCAL_ENDPOINT, model: p.model };
	}

	/** Host of the embeddings endpoint. */
	get embedEndpoint(): string {
		return this.provider.embedEndpoint ?? this.provider.endpoint ?? LOCAL_ENDPOINT;
	}

	/** Version of the prompt set in use, for run manifests. */
	get promptSetVersion(): string {
		return this.templates.version;
	}

	async complete<T = unknown>(req: ModelRequest): Promise<ModelAnswer<T>> {
		if (this.replay) return this.fromReplay<T>(req);
		const t = getTemplate(this.templates, req.template);
		const prompt = renderTemplate(t, req.vars);
		const messages: ChatMessage[] = [
			{ role: 'system', content: SYSTEM_PROMPT },
			{ role: 'user', content: prompt }
		];
		const route = this.routeOf(t.id);
		const cacheKey = chatCacheKey({ ...route, sampling: t.sampling, messages });
		const started = this.now();
		const base = {
			key: req.key,
			template: t.id,
			templateVersion: this.templates.versions[t.id],
			agent: req.agent,
			purpose: req.purpose,
			provider: route.provider,
			endpoint: route.endpoint,
			model: route.model,
			prompt,
			...(this.recordVars && { vars: req.vars })
		};

		const cached = this.cache?.getAnswer(cacheKey);
		if (cached) {
			const value = cached.failsafe ? failsafeFor(t, req.vars) : cached.value;
			// A schema edit does not change the prompt; an answer that no longer fits is asked again.
			if (cached.failsafe || validateOutput(t.output, value, req.vars).ok) {
				this.record({
					...base,
					answer: cached.text,
					value,
					failsafe: cached.failsafe,
					latencyMs: this.now() - started,
					tokens: { prompt: 0, completion: 0 },
					cacheHit: true,
					attempts: cached.attempts,
					...(cached.failsafe && { error: 'cached fail-safe: the model gave no valid answer' })
				});
				return { value: value as T, failsafe: cached.failsafe };
			}
		}

		const jsonSchema = outputJsonSchema(t.output, req.vars, { strict: true });
		return this.sem.run(async () => {
			const tokens = { prompt: 0, completion: 0 };
			const conversation = [...messages];
			let answer = '';
			let problems: string[] = [];
			let providerError: string | undefined;
			let attempts = 0;
			for (let round = 0; round <= this.retries; round++) {
				attempts++;
				let text: string;
				try {
					const result = await this.provider.chat({ template: t.id, vars: req.vars, messages: conversation, sampling: t.sampling, jsonSchema });
					text = result.text;
					tokens.prompt += result.tokens.prompt;
					tokens.completion += result.tokens.completion;
				} catch (e) {
					providerError = e instanceof Error ? e.message : String(e);
					break;
				}
				answer = text;
				let parsed: unknown;
				try {
					parsed = readAnswer(t.output, text, req.vars);
				} catch (e) {
					problems = [(e as Error).message];
					conversation.push({ role: 'assistant', content: text }, { role: 'user', content: repairMessage(problems) });
					continue;
				}
				const check = validateOutput(t.output, parsed, req.vars);
				if (check.ok) {
					this.cache?.putAnswer(cacheKey, { text, value: parsed, failsafe: false, attempts, tokens: { ...tokens } });
					this.record({ ...base, answer, value: parsed, failsafe: false, latencyMs: this.now() - started, tokens, cacheHit: false, attempts });
					return { value: parsed as T, failsafe: false };
				}
				problems = check.errors;
				conversation.push({ role: 'assistant', content: text }, { role: 'user', content: repairMessage(problems) });
			}

			const value = failsafeFor(t, req.vars);
			const error = providerError
				? `provider error: ${providerError}`
				: `no valid answer after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${problems.join('; ')}`;
			// Repeated invalid answers are the model's answer to this prompt and are kept, so a
			// re-run is identical; a provider failure (network, quota) is not, so it is retried.
			if (!providerError) this.cache?.putAnswer(cacheKey, { text: answer, value, failsafe: true, attempts, tokens: { ...tokens } });
			this.record({ ...base, answer, value, failsafe: true, latencyMs: this.now() - started, tokens, cacheHit: false, attempts, error });
			return { value: value as T, failsafe: true };
		});
	}

	async embed(texts: string[]): Promise<Float32Array[]> {
		if (!texts.length) return [];
		const p = this.provider;
		const endpoint = this.embedEndpoint;
		const keys = texts.map((text) => embedCacheKey({ provider: p.name, endpoint, model: p.embedModel, text }));
		const out: (Float32Array | undefined)[] = keys.map((k) => {
			const v = this.cache?.getEmbedding(k);
			// A cached vector of another size than the one in use is asked for again.
			if (v && this.learned === undefined) this.learned = v.length;
			return v && v.length === this.learned ? v : undefined;
		});
		let pending = [...new Set(texts.filter((_, i) => !out[i]))];
		let fault: { kind: EmbeddingFaultKind; problem: string; expected?: number; got?: number } | undefined;
		let attempts = 0;
		while (pending.length && attempts <= this.embedRetries) {
			attempts++;
			const asked = pending;
			let vectors: Float32Array[];
			try {
				vectors = await this.sem.run(() => p.embed(asked));
			} catch (e) {
				fault = { kind: 'failed', problem: e instanceof Error ? e.message : String(e) };
				continue;
			}
			if (!Array.isArray(vectors) || vectors.length !== asked.length) {
				const n = Array.isArray(vectors) ? vectors.length : 0;
				fault = { kind: 'malformed', problem: `the endpoint returned ${n} vector${n === 1 ? '' : 's'} for ${asked.length} text${asked.length === 1 ? '' : 's'}` };
				continue;
			}
			const fresh = new Map<string, Float32Array>();
			pending = [];
			asked.forEach((text, j) => {
				const v = vectors[j];
				if (!(v instanceof Float32Array) || v.length === 0 || !v.every(Number.isFinite)) {
					fault = { kind: 'malformed', problem: 'an embedding is not a list of numbers' };
					pending.push(text);
					return;
				}
				if (this.learned === undefined) this.learned = v.length;
				if (v.length !== this.learned) {
					fault = { kind: 'dimensions', problem: '', expected: this.learned, got: v.length };
					pending.push(text);
					return;
				}
				fresh.set(text, v);
			});
			out.forEach((v, i) => {
				if (!v && fresh.has(texts[i])) out[i] = fresh.get(texts[i]);
			});
			this.cache?.putEmbeddings([...fresh].map(([text, v]) => [keys[texts.indexOf(text)], v]));
		}
		if (pending.length) throw this.embeddingFault(fault ?? { kind: 'failed', problem: 'no answer' }, attempts);
		return out as Float32Array[];
	}

	private embeddingFault(f: { kind: EmbeddingFaultKind; problem: string; expected?: number; got?: number }, attempts: number): EmbeddingFault {
		const p = this.provider;
		const where = `${p.embedModel} at ${this.embedEndpoint}`;
		const times = attempts === 1 ? 'once' : `${attempts} times in a row`;
		let message: string;
		if (f.kind === 'dimensions') {
			const stated = !p.learnDimensions;
			message =
				`embeddings from ${where} came back with ${f.got} dimensions instead of ${f.expected}, ${times}. ` +
				`Check that the embedding model named in the configuration is the one this endpoint serves` +
				(stated ? `; if the model really has ${f.got} dimensions, set embed.dimensions (or SIMULACRA_EMBED_DIMENSIONS) to ${f.got}` : '') +
				'. A run keeps the dimension it started with: a run started with another embedding model resumes only with that model.';
		} else if (f.kind === 'malformed') {
			message = `embeddings from ${where} were unusable, ${times}: ${f.problem}. Check that the embedding model named in the configuration is an embedding model this endpoint serves.`;
		} else {
			message = `embeddings from ${where} failed, ${times}: ${f.problem}. Check that the endpoint is running and serves ${p.embedModel}, then resume.`;
		}
		return new EmbeddingFault(message, { kind: f.kind, endpoint: this.embedEndpoint, model: p.embedModel, attempts, expected: f.expected, got: f.got });
	}

	private fromReplay<T>(req: ModelRequest): ModelAnswer<T> {
		const rec = this.replay?.get(req.key);
		if (!rec) throw new ReplayMissError(`replay: no recorded model call for key "${req.key}" (template ${req.template})`);
		if (rec.template !== req.template) {
			throw new ReplayMissError(`replay: the call recorded under key "${req.key}" is for template ${rec.template}, but ${req.template} was asked`);
		}
		this.record({ ...rec, latencyMs: 0, tokens: { prompt: 0, completion: 0 }, cacheHit: false, replayed: true });
		return { value: rec.value as T, failsafe: rec.failsafe };
	}

	private record(call: RecordedCall): void {
		this.recorder?.(call);
	}
}
