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
import { AnswerCache, chatCacheKey, embedCacheKey, samplingIndex, type CachedAnswer } from './cache';
import { LOCAL_ENDPOINT, type ChatMessage, type ModelProvider, type ModelRoute, type TokenCounts } from './providers/types';
import { Semaphore, type SlotOptions, type Ticket } from './semaphore';
import type { ModelActivity } from '../../api/types';

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
	/** an experiment replicate's sampling index, part of every chat answer's cache key (default 0) */
	samplingIndex?: number;
}

/** What the gateway is doing at a moment (progress lines; the debugger is shown the `ModelActivity` part). */
export interface GatewayActivity extends ModelActivity {
	/** the calls a step is waiting for, with their keys */
	waitingFor: { template: string; agent: string; key: string }[];
	/** calls made ahead of need so far, and how many of them a step used */
	aheadStarted: number;
	aheadUsed: number;
}

/** How many calls made ahead of need are kept unclaimed at most. */
const MAX_AHEAD = 4096;

type CallResult = Pick<RecordedCall, 'answer' | 'value' | 'failsafe' | 'tokens' | 'cacheHit' | 'attempts' | 'error'>;

interface CallOutcome {
	call: CallResult;
	/** why the provider gave no well-formed answer (not an answer: not cached, asked again when needed) */
	providerError?: string;
}

/** A request to the provider in flight: every call with the same prompt waits for it. */
interface Flight {
	outcome: Promise<CallOutcome>;
	ticket?: Ticket;
	/** asked ahead of need: a provider failure there is asked again by the step that needs it */
	ahead: boolean;
}

interface AheadCall {
	flight: Flight;
	/** what the call cost, once answered (a provider failure costs nothing here) */
	spent?: Spend;
	/** a step took the answer */
	used?: boolean;
}

/** Tokens paid for outside the run's recorded calls: a call made ahead that no step used, an embedding request. */
export interface Spend {
	key: string;
	template: string;
	agent?: string;
	provider: string;
	model: string;
	tokens: { prompt: number; completion: number };
}

interface Prepared {
	req: ModelRequest;
	t: ReturnType<typeof getTemplate>;
	messages: ChatMessage[];
	/** the output schema bound to the call's inputs, sent as strict structured outputs */
	jsonSchema: Record<string, unknown>;
	cacheKey: string;
	base: Omit<RecordedCall, keyof CallResult | 'latencyMs'>;
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

/**
 * A chat request that got no well-formed answer from its provider past the provider's retries
 * (an outage, an error page, a body too large or too slow). Nothing built on it is committed:
 * a run pauses at its last commit and resumes once the endpoint answers.
 */
export class ChatFault extends Error {
	readonly template: string;
	readonly endpoint: string;

	constructor(message: string, details: { template: string; endpoint: string }) {
		super(message);
		this.name = 'ChatFault';
		this.template = details.template;
		this.endpoint = details.endpoint;
	}
}

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
	private readonly samplingIndex: number;
	/** the embedding dimension, once stated by the provider or learned from an embedding */
	private learned: number | undefined;
	/** calls made ahead of need, by prompt (answer-cache key) */
	private readonly ahead = new Map<string, AheadCall>();
	/** requests to the provider in flight, by prompt (answer-cache key): one per prompt */
	private readonly flights = new Map<string, Flight>();
	/**
	 * The offline stand-in's answers to the latest calls, by prompt (it has no answer cache: its
	 * answers are computed faster than read back): a later call or call made ahead with the same
	 * prompt shares the answer, as a cache would give it (at most MAX_AHEAD, oldest forgotten first).
	 */
	private readonly answered = new Map<string, Flight>();
	/** calls a step is waiting for */
	private readonly waiting = new Map<number, { template: string; agent: string; key: string }>();
	private waitIds = 0;
	private readonly counts = { aheadStarted: 0, aheadUsed: 0 };
	/** calls made ahead of need, answered, and forgotten unused (see drainUnusedAhead) */
	private readonly unused: Spend[] = [];
	/** embedding requests sent to an endpoint (see drainEmbeddings) */
	private readonly embedded: Spend[] = [];

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
		this.samplingIndex = samplingIndex(options.samplingIndex);
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
		const prepared = this.prepare(req);
		const { cacheKey, base } = prepared;
		const started = this.now();
		// a step's keys start with its number: calls made ahead for soon after it come first
		const step = Number(req.key.split('/')[0]);
		if (Number.isFinite(step)) this.sem.at(step);

		// A call made ahead of need with the same prompt: its answer is this call's answer.
		const ahead = this.ahead.get(cacheKey);
		if (ahead) {
			this.ahead.delete(cacheKey);
			ahead.used = true;
		}
		let flight = ahead?.flight ?? this.flights.get(cacheKey) ?? this.answered.get(cacheKey);
		if (!flight) {
			const cached = this.fromCache(prepared);
			if (cached) {
				this.record({ ...base, ...cached, latencyMs: this.now() - started });
				return { value: cached.value as T, failsafe: cached.failsafe };
			}
		}
		// The same prompt asked by another call still in flight: one request, one answer, paid once.
		const shared = flight !== undefined && !ahead;
		flight ??= this.call(prepared, { priority: 'now', owner: req.agent ?? '' });
		if (flight.ticket) this.sem.promote(flight.ticket);
		this.remember(cacheKey, flight);
		let outcome = await this.waitFor(req, flight.outcome);
		// a provider failure ahead of need is not an answer: the call is made again, now
		if (outcome.providerError && flight.ahead) outcome = await this.waitFor(req, this.call(prepared, { priority: 'now', owner: req.agent ?? '' }).outcome);
		if (outcome.providerError) {
			throw new ChatFault(`${req.template} for ${req.agent ?? 'the run'} (call ${req.key}): ${outcome.providerError}`, { template: req.template, endpoint: base.endpoint });
		}
		if (ahead) this.counts.aheadUsed++;
		const call = shared ? { ...outcome.call, tokens: { prompt: 0, completion: 0 }, cacheHit: true } : outcome.call;
		this.record({ ...base, ...call, latencyMs: this.now() - started });
		return { value: call.value as T, failsafe: call.failsafe };
	}

	/**
	 * Starts a call a later step is expected to make, at low priority and without recording it.
	 * When a step then asks for the same prompt (whatever its key), it gets this answer; the
	 * answer depends only on the prompt, so asking early changes nothing but the waiting.
	 * Resolves with the answer, for chains of calls made ahead.
	 */
	prefetch<T = unknown>(req: ModelRequest): Promise<ModelAnswer<T>> {
		if (this.replay) return Promise.resolve(this.fromReplay<T>(req));
		const prepared = this.prepare(req);
		const { cacheKey } = prepared;
		const cached = this.fromCache(prepared);
		if (cached) return Promise.resolve({ value: cached.value as T, failsafe: cached.failsafe });
		const known = this.answered.get(cacheKey);
		if (known) return known.outcome.then((o) => ({ value: o.call.value as T, failsafe: o.call.failsafe }));
		let entry = this.ahead.get(cacheKey);
		if (!entry) {
			// a key made ahead starts with the step that will need it: sooner steps go first
			const rank = Number(req.key.split('/')[0]);
			const made: AheadCall = { flight: this.call(prepared, { priority: 'ahead', rank: Number.isFinite(rank) ? rank : 0, owner: req.agent ?? '' }) };
			const forget = () => {
				if (this.ahead.get(cacheKey) === made) this.ahead.delete(cacheKey);
			};
			const { base } = prepared;
			made.flight.outcome.then((o) => {
				if (o.providerError) return forget();
				made.spent = { key: base.key, template: base.template, agent: base.agent, provider: base.provider, model: base.model, tokens: { ...o.call.tokens } };
				// forgotten before it was answered: nothing will use it
				if (!made.used && this.ahead.get(cacheKey) !== made) this.unused.push(made.spent);
			}, forget);
			this.ahead.set(cacheKey, (entry = made));
			this.counts.aheadStarted++;
			// Calls asked ahead and never needed (the state went another way) are forgotten, oldest first.
			if (this.ahead.size > MAX_AHEAD) {
				const oldest = this.ahead.keys().next().value;
				if (oldest !== undefined) this.forgetAhead(oldest);
			}
		}
		return entry.flight.outcome.then((o) => ({ value: o.call.value as T, failsafe: o.call.failsafe }));
	}

	/** Keeps the offline stand-in's answer for later calls with its prompt. */
	private remember(cacheKey: string, flight: Flight): void {
		if (this.cache || this.provider.name !== 'offline') return;
		this.answered.delete(cacheKey);
		this.answered.set(cacheKey, flight);
		if (this.answered.size > MAX_AHEAD) this.answered.delete(this.answered.keys().next().value as string);
		// a provider failure is not an answer: asked again next time
		flight.outcome.then((o) => {
			if (o.providerError && this.answered.get(cacheKey) === flight) this.answered.delete(cacheKey);
		});
	}

	private forgetAhead(cacheKey: string): void {
		const entry = this.ahead.get(cacheKey);
		this.ahead.delete(cacheKey);
		// answered already: its tokens are spent for nothing (else counted when it is answered)
		if (entry?.spent && !entry.used) this.unused.push(entry.spent);
	}

	/**
	 * Calls made ahead of need that no step used, since the last drain: forgotten ones and, with
	 * `all` (the run is closing), every answer still unclaimed. Their tokens were spent all the same.
	 */
	drainUnusedAhead(all = false): Spend[] {
		if (all) for (const k of [...this.ahead.keys()]) this.forgetAhead(k);
		return this.unused.splice(0);
	}

	/** Embedding requests sent to an endpoint since the last drain, with their estimated tokens. */
	drainEmbeddings(): Spend[] {
		return this.embedded.splice(0);
	}

	/**
	 * Embeddings for work done ahead of need: an in-process embedder is asked; a remote one only
	 * through the cache (work ahead never sends embedding requests: they cost, and a failing
	 * endpoint must fail the step that needs it). Throws when a vector is not at hand.
	 */
	async embedAhead(texts: string[]): Promise<Float32Array[]> {
		if (!this.provider.endpoint && !this.provider.embedEndpoint) return this.embed(texts);
		const p = this.provider;
		const out = texts.map((text) => this.cache?.getEmbedding(embedCacheKey({ provider: p.name, endpoint: this.embedEndpoint, model: p.embedModel, text })));
		if (out.some((v) => !v || v.length !== this.learned)) throw new Error('an embedding is not cached');
		return out as Float32Array[];
	}

	/** What the gateway is doing: calls in flight (and how many of them ahead of need), queued, and what the step waits for. */
	activity(): GatewayActivity {
		const queued = this.sem.queued;
		return {
			inFlight: this.sem.inFlight,
			inFlightAhead: this.sem.inFlightAhead,
			queued: queued.now + queued.ahead,
			waitingFor: [...this.waiting.values()].map((w) => ({ ...w })),
			aheadStarted: this.counts.aheadStarted,
			aheadUsed: this.counts.aheadUsed
		};
	}

	private async waitFor(req: ModelRequest, outcome: Promise<CallOutcome>): Promise<CallOutcome> {
		const id = this.waitIds++;
		this.waiting.set(id, { template: req.template, agent: req.agent ?? '', key: req.key });
		try {
			return await outcome;
		} finally {
			this.waiting.delete(id);
		}
	}

	private prepare(req: ModelRequest): Prepared {
		const t = getTemplate(this.templates, req.template);
		const prompt = renderTemplate(t, req.vars);
		const messages: ChatMessage[] = [
			{ role: 'system', content: SYSTEM_PROMPT },
			{ role: 'user', content: prompt }
		];
		const route = this.routeOf(t.id);
		const jsonSchema = outputJsonSchema(t.output, req.vars, { strict: true });
		const cacheKey = chatCacheKey({ ...route, sampling: t.sampling, messages, schema: jsonSchema, sample: this.samplingIndex });
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
		return { req, t, messages, jsonSchema, cacheKey, base };
	}

	private fromCache({ t, req, cacheKey }: Prepared): CallResult | null {
		const cached = this.cache?.getAnswer(cacheKey);
		if (!cached) return null;
		const value = cached.failsafe ? failsafeFor(t, req.vars) : cached.value;
		// A schema edit does not change the prompt; an answer that no longer fits is asked again.
		if (!cached.failsafe && !validateOutput(t.output, value, req.vars).ok) return null;
		return {
			answer: cached.text,
			value,
			failsafe: cached.failsafe,
			tokens: { prompt: 0, completion: 0 },
			cacheHit: true,
			attempts: cached.attempts,
			...(cached.failsafe && { error: 'cached fail-safe: the model gave no valid answer' })
		};
	}

	/** The request for a prompt: the one in flight, or a new one (see `ask`). */
	private call(prepared: Prepared, slot: SlotOptions): Flight {
		const key = prepared.cacheKey;
		const running = this.flights.get(key);
		if (running) return running;
		const flight: Flight = { outcome: Promise.resolve({ call: null as unknown as CallResult }), ahead: slot.priority === 'ahead' };
		flight.outcome = this.ask(prepared, { ...slot, ticket: (tk) => (flight.ticket = tk) });
		this.flights.set(key, flight);
		const landed = () => {
			if (this.flights.get(key) === flight) this.flights.delete(key);
		};
		flight.outcome.then(landed, landed);
		return flight;
	}

	/**
	 * Asks the provider (with repair rounds) and caches a usable answer; never throws. A provider
	 * failure is reported, not answered. The answer kept is the cache's: the first one recorded
	 * for this prompt by any process sharing the cache, which may be another's earlier draw.
	 */
	private ask({ t, req, messages, jsonSchema, cacheKey }: Prepared, slot: SlotOptions): Promise<CallOutcome> {
		return this.sem.run(async () => {
			const tokens = { prompt: 0, completion: 0 };
			const conversation = [...messages];
			let answer = '';
			let problems: string[] = [];
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
					return { call: { answer, value: null, failsafe: true, tokens, cacheHit: false, attempts }, providerError: e instanceof Error ? e.message : String(e) };
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
				if (check.ok) return { call: this.keep({ t, req, cacheKey }, { text, value: parsed, failsafe: false, attempts, tokens }) };
				problems = check.errors;
				conversation.push({ role: 'assistant', content: text }, { role: 'user', content: repairMessage(problems) });
			}
			// Repeated invalid answers are the model's answer to this prompt and are kept, so a
			// re-run is identical.
			const error = `no valid answer after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${problems.join('; ')}`;
			return { call: { ...this.keep({ t, req, cacheKey }, { text: answer, value: failsafeFor(t, req.vars), failsafe: true, attempts, tokens }), error } };
		}, slot);
	}

	/** Records an answer in the cache and gives the one to use: the cache's first for the prompt when it still fits. */
	private keep({ t, req, cacheKey }: Pick<Prepared, 't' | 'req' | 'cacheKey'>, got: CachedAnswer): CallResult {
		const own: CallResult = { answer: got.text, value: got.value, failsafe: got.failsafe, tokens: got.tokens, cacheHit: false, attempts: got.attempts };
		const kept = this.cache?.putAnswer(cacheKey, { ...got, tokens: { ...got.tokens } });
		if (!kept || kept.text === got.text) return own;
		const value = kept.failsafe ? failsafeFor(t, req.vars) : kept.value;
		// an earlier draw that no longer fits the schema is not used (the cache keeps it all the same)
		if (!kept.failsafe && !validateOutput(t.output, value, req.vars).ok) return own;
		return { ...own, answer: kept.text, value, failsafe: kept.failsafe, attempts: kept.attempts, ...(kept.failsafe && { error: 'another run recorded a fail-safe for this prompt first' }) };
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
				// an embeddings endpoint is paid by the token (4 characters a token, as estimated
				// for the offline stand-in's chat); the in-process embedder costs nothing
				if (p.endpoint || p.embedEndpoint) {
					const prompt = asked.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
					this.embedded.push({ key: 'embeddings', template: 'embeddings', provider: p.name, model: p.embedModel, tokens: { prompt, completion: 0 } });
				}
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
