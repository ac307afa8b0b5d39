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
}

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
	/** embedding dimension */
	readonly dimensions: number;
	/** how the UI names this provider */
	readonly label: string;
	chat(req: ChatRequest): Promise<ChatResult>;
	/** one unit-length vector per text */
	embed(texts: string[]): Promise<Float32Array[]>;
}

/** A provider failure after the provider's own retries; the message never holds secrets. */
export class ProviderError extends Error {
	readonly status?: number;
	readonly attempts: number;

	constructor(message: string, attempts: number, status?: number) {
		super(message);
		this.name = 'ProviderError';
		this.attempts = attempts;
		this.status = status;
	}
}
