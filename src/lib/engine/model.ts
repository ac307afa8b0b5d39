// The engine's only door to a language model. The engine asks by template id with structured
// variables; the gateway (src/lib/server/model) renders, calls, validates and records.
// Answers are inputs to the simulation: a replay serves them from the run's journal.

/** A template variable: text, a number, a flag, or a list (rendered one item per line). */
export type TemplateValue = string | number | boolean | string[];
export type TemplateVars = Record<string, TemplateValue>;

export const TEMPLATE_IDS = [
	'importance',
	'agent_summary',
	'daily_plan',
	'hourly_schedule',
	'decompose_task',
	'choose_sector',
	'choose_arena',
	'choose_object',
	'action_emoji',
	'object_state',
	'react',
	'context_summary',
	'dialogue_turn',
	'conversation_memo',
	'reflection_questions',
	'reflection_insights',
	'interview',
	'inner_voice',
	'day_summary',
	'replan',
	'next_action'
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export interface ModelRequest {
	template: TemplateId;
	vars: TemplateVars;
	/**
	 * Stable identity of the call within the run: `${step}/${agent}/${n}`. The same key in a
	 * replay gets the recorded answer.
	 */
	key: string;
	agent?: string;
	/** why the call is made, for traces (e.g. "plan: hourly schedule") */
	purpose?: string;
}

export interface ModelAnswer<T = unknown> {
	value: T;
	/** true when the answer is the template's declared fail-safe */
	failsafe: boolean;
}

export interface ModelPort {
	complete<T = unknown>(req: ModelRequest): Promise<ModelAnswer<T>>;
	/** One unit-length vector per text, all of the same dimension. */
	embed(texts: string[]): Promise<Float32Array[]>;
	readonly dimensions: number;
}
