// What the gateway needs from a model provider: one chat call and one embedding call.

import type { TemplateVars } from '../../../engine/model';
import type { Sampling } from '../../../prompts/template';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant';
	content: string;
}

export interface ChatRequest {
	/** template id the prompt was rendered from */
	template: string;
	/** the structured variables (a language model ignores them; the offline stand-in answers from them) */
	vars: TemplateVars;
	messages: ChatMessage[];
	sampling: Sampling;
	/**
	 * The JSON Schema the answer must follow (the template's output schema bound to this call's
	 * inputs, in the strict form; see prompts/json-schema.ts). A provider that can ask its server
	 * for structured outputs sends it; the others ignore it.
	 */
	jsonSchema?: Record<string, unknown>;
	/** a model to answer instead of the provider's own chat model (set by a routed provider) */
	model?: string;
}

/** Who answers a template: the provider, its endpoint (host only, e.g. "127.0.0.1:11434") and the model. */
export interface ModelRoute {
	provider: string;
	endpoint: string;
	model: string;
}

/** Provenance of providers that name no endpoint: they answer in the server process. */
export const LOCAL_ENDPOINT = 'local';

export interface TokenCounts {
	prompt: number;
	completion: number;
}

export interface ChatResult {
	/** the raw answer text */
	text: string;
	tokens: TokenCounts;
}

export interface ModelProvider {
	/** short provider name used in cache keys and traces: "openai", "offline" */
	readonly name: string;
	/** chat model name */
	readonly model: string;
	readonly embedModel: string;
	/**
	 * Embedding dimension. When `learnDimensions` is set it is only a hint (0 when unknown):
	 * the gateway learns the real one from the first embedding.
	 */
	readonly dimensions: number;
	/** the dimension is not configured and is learned from the first embedding */
	readonly learnDimensions?: boolean;
	/** how the UI names this provider */
	readonly label: string;
	/** host (and port) of the chat endpoint; absent for in-process providers */
	readonly endpoint?: string;
	/** host (and port) of the embeddings endpoint, when it differs from `endpoint` */
	readonly embedEndpoint?: string;
	/** who answers `template` (a routed provider picks endpoint and model per template) */
	route?(template: string): ModelRoute;
	chat(req: ChatRequest): Promise<ChatResult>;
	/** one unit-length vector per text */
	embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * What was wrong with an exchange that got an answer of sorts: `deadline` (headers and body took
 * longer than the endpoint's timeout), `too_large` (the body passed the size limit),
 * `not_a_completion` (an HTML page, an empty body, text, JSON of another shape).
 */
export type ProviderFault = 'deadline' | 'too_large' | 'not_a_completion';

/** A provider failure after the provider's own retries; the message never holds secrets. */
export class ProviderError extends Error {
	/** the HTTP status of an error answer (not set for a 2xx answer that was not usable) */
	readonly status?: number;
	readonly attempts: number;
	/** set when the last attempt failed on what came back rather than on an HTTP status or the connection */
	readonly fault?: ProviderFault;

	constructor(message: string, attempts: number, status?: number, fault?: ProviderFault) {
		super(message);
		this.name = 'ProviderError';
		this.attempts = attempts;
		this.status = status;
		if (fault !== undefined) this.fault = fault;
	}
}
