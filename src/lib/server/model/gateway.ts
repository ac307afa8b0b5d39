// The model gateway: the engine's ModelPort. For each request it renders the template, asks
// the provider, finds and validates the JSON answer, asks again with the validation errors when
// the answer is unusable, and falls back to the template's fail-safe, so the engine always gets
// a valid value. Every call is reported to a recorder (the run journal, traces); in replay mode
// the recorded answers are served and no provider is called.

import type { ModelAnswer, ModelPort, ModelRequest, TemplateVars } from '../../engine/model';
import { extractJson } from '../../prompts/json';
import { getTemplate, type PromptSet } from '../../prompts/promptset';
import { coerceOutput, validateOutput } from '../../prompts/schema';
import { failsafeFor, renderTemplate } from '../../prompts/template';
import { AnswerCache, chatCacheKey, embedCacheKey } from './cache';
import type { ChatMessage, ModelProvider, TokenCounts } from './providers/types';
import { Semaphore } from './semaphore';

/** One model call as the journal and the trace views see it. */
export interface RecordedCall {
	key: string;
	template: string;
	templateVersion: string;
	agent?: string;
	purpose?: string;
	provider: string;
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
}

export const SYSTEM_PROMPT =
	'You simulate believable human behaviour for characters in a small-town sandbox simulation. ' +
	'Follow the instructions exactly and answer with a single JSON object and nothing else.';

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
	}

	get dimensions(): number {
		return this.provider.dimensions;
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
		const cacheKey = chatCacheKey({ provider: this.provider.name, model: this.provider.model, sampling: t.sampling, messages });
		const started = this.now();
		const base = {
			key: req.key,
			template: t.id,
			templateVersion: this.templates.versions[t.id],
			agent: req.agent,
			purpose: req.purpose,
			provider: this.provider.name,
			model: this.provider.model,
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
					const result = await this.provider.chat({ template: t.id, vars: req.vars, messages: conversation, sampling: t.sampling });
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
					parsed = coerceOutput(t.output, extractJson(text), req.vars);
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
		const keys = texts.map((text) => embedCacheKey(p.name, p.embedModel, text));
		const out: (Float32Array | undefined)[] = keys.map((k) => this.cache?.getEmbedding(k));
		const missing = new Map<string, number[]>();
		out.forEach((v, i) => {
			if (!v) missing.set(texts[i], [...(missing.get(texts[i]) ?? []), i]);
		});
		if (missing.size) {
			const wanted = [...missing.keys()];
			const vectors = await this.sem.run(() => p.embed(wanted));
			if (vectors.length !== wanted.length) {
				throw new Error(`embeddings from ${p.name}/${p.embedModel}: got ${vectors.length} vectors for ${wanted.length} texts`);
			}
			const fresh: [string, Float32Array][] = [];
			wanted.forEach((text, j) => {
				const v = vectors[j];
				if (v.length !== this.dimensions) {
					throw new Error(`embeddings from ${p.name}/${p.embedModel}: got ${v.length} dimensions, expected ${this.dimensions}`);
				}
				const indexes = missing.get(text) ?? [];
				for (const i of indexes) out[i] = v;
				fresh.push([keys[indexes[0]], v]);
			});
			this.cache?.putEmbeddings(fresh);
		}
		return out as Float32Array[];
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
