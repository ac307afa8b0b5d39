// The controlled evaluation's interview: the paper's five categories of five questions, the
// ablation conditions the answers are compared under (and the human-written one), and how a
// question's `[name]` is filled.
// A world can replace the bank with `worlds/<id>/evaluation.json`. Pure and browser-safe.

import type { Ablation } from '../engine/state';

export const QUESTION_CATEGORIES = ['self-knowledge', 'memory', 'plans', 'reactions', 'reflections'] as const;
export type QuestionCategory = (typeof QUESTION_CATEGORIES)[number];

export interface InterviewQuestion {
	/** lowercase letters, digits and dashes; unique in a bank */
	id: string;
	category: QuestionCategory;
	/** may hold `[name]`: another resident, chosen per agent (see `namedPersona`) */
	text: string;
}

/** The one placeholder a question may hold. */
export const NAME_PLACEHOLDER = '[name]';

export const QUESTION_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The paper's interview (Park et al. 2023, section 6 and appendix): five questions in each of
 * five categories. "Kane Martinez" is nobody in town, asked to catch embellished answers.
 */
export const DEFAULT_QUESTIONS: readonly InterviewQuestion[] = [
	{ id: 'introduction', category: 'self-knowledge', text: 'Give an introduction of yourself.' },
	{ id: 'occupation', category: 'self-knowledge', text: "What's your occupation?" },
	{ id: 'interests', category: 'self-knowledge', text: 'What is your interest?' },
	{ id: 'household', category: 'self-knowledge', text: 'Who do you live with?' },
	{ id: 'weekday', category: 'self-knowledge', text: 'Describe your typical weekday schedule in broad strokes.' },
	{ id: 'who-is-name', category: 'memory', text: 'Who is [name]?' },
	{ id: 'who-is-stranger', category: 'memory', text: 'Who is Kane Martinez?' },
	{ id: 'mayor', category: 'memory', text: 'Who is running for mayor?' },
	{ id: 'valentines-party', category: 'memory', text: "Was there a Valentine's Day party?" },
	{ id: 'last-talk', category: 'memory', text: 'What did you talk about with [name] the last time you met?' },
	{ id: 'tomorrow-10am', category: 'plans', text: 'What will you be doing at 10 am tomorrow?' },
	{ id: 'today-6am', category: 'plans', text: 'What will you be doing at 6 am today?' },
	{ id: 'today-6pm', category: 'plans', text: 'What will you be doing at 6 pm today?' },
	{ id: 'finished-1pm', category: 'plans', text: 'What will you have just finished doing at 1 pm today?' },
	{ id: 'today-10pm', category: 'plans', text: 'What will you be doing at 10 pm today?' },
	{ id: 'breakfast-burning', category: 'reactions', text: 'Your breakfast is burning! What would you do?' },
	{ id: 'bathroom-occupied', category: 'reactions', text: 'The bathroom is occupied. What would you do?' },
	{ id: 'empty-fridge', category: 'reactions', text: 'You need to cook dinner but your refrigerator is empty. What would you do?' },
	{ id: 'friend-passing', category: 'reactions', text: 'You see your friend walking by the street. What would you do or say to your friend?' },
	{ id: 'street-fire', category: 'reactions', text: 'You see fire on the street. What would you do?' },
	{ id: 'inspiration', category: 'reflections', text: 'What inspires you in life the most right now, and why?' },
	{ id: 'book-for-name', category: 'reflections', text: 'If you had to guess given what you know about [name], what book do you think [name] will like and why?' },
	{ id: 'gift-for-name', category: 'reflections', text: "If you had to get something [name] likes for [name]'s birthday, what would you get them and why?" },
	{ id: 'admiration', category: 'reflections', text: 'What would you say to [name] to express your admiration of them?' },
	{ id: 'spend-time', category: 'reflections', text: 'If you were to spend time with one person you met recently, who would it be and why?' }
];

// ---------------------------------------------------------------------------
// conditions

export const CONDITION_IDS = ['full', 'no-reflection', 'no-reflection-planning', 'no-observation-reflection-planning'] as const;
export type ConditionId = (typeof CONDITION_IDS)[number];

export interface Condition {
	id: ConditionId;
	label: string;
	/** the memory the agent answers without (the engine's Ablation flags) */
	ablation: Ablation;
}

/** The paper's conditions, from the full architecture to the fully ablated one. */
export const CONDITIONS: readonly Condition[] = [
	{ id: 'full', label: 'full architecture', ablation: { reflection: false, planning: false, observation: false } },
	{ id: 'no-reflection', label: 'no reflection', ablation: { reflection: true, planning: false, observation: false } },
	{ id: 'no-reflection-planning', label: 'no reflection, no planning', ablation: { reflection: true, planning: true, observation: false } },
	{
		id: 'no-observation-reflection-planning',
		label: 'no observation, no reflection, no planning',
		ablation: { reflection: true, planning: true, observation: true }
	}
];

export function conditionOf(id: string): Condition | undefined {
	return CONDITIONS.find((c) => c.id === id);
}

/**
 * The paper's fifth condition: answers written by a person (in the paper, a crowdworker who
 * watched the agent's life) rather than by the model. Stored beside a run's interview set and
 * ranked with the model's conditions.
 */
export const HUMAN_CONDITION = 'human';
export type HumanCondition = typeof HUMAN_CONDITION;
export const HUMAN_LABEL = 'human-written (crowdworker)';

/** Every condition an answer can come from: the model's four, then the human one. */
export type AnswerCondition = ConditionId | HumanCondition;
export const ANSWER_CONDITIONS: readonly AnswerCondition[] = [...CONDITION_IDS, HUMAN_CONDITION];

/** A condition's readable name; undefined for a name no condition has. */
export function answerConditionLabel(id: string): string | undefined {
	return id === HUMAN_CONDITION ? HUMAN_LABEL : conditionOf(id)?.label;
}

/** The longest answer a person may write (the model's answers are held to 1500 characters). */
export const HUMAN_ANSWER_MAX = 4000;

// ---------------------------------------------------------------------------
// [name]

export interface PersonaRef {
	id: string;
	name: string;
	seedMemories: readonly string[];
	/** structured seed memories, before `seedMemories` in the agent's stream */
	memories?: readonly { description: string }[];
}

/**
 * The resident `[name]` stands for in `agent`'s questions: the first other resident its seed
 * memories (structured ones first, as the stream holds them) mention by full name (someone it
 * has a relationship with), else the next resident by id (wrapping round). Undefined when the
 * agent is alone.
 */
export function namedPersona(agent: string, personas: readonly PersonaRef[]): PersonaRef | undefined {
	const sorted = [...personas].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	const me = sorted.find((p) => p.id === agent);
	const others = sorted.filter((p) => p.id !== agent);
	if (!me || others.length === 0) return undefined;
	let best: { p: PersonaRef; at: number } | undefined;
	[...(me.memories ?? []).map((m) => m.description), ...me.seedMemories].forEach((memory, n) => {
		const text = memory.toLowerCase();
		for (const p of others) {
			const pos = text.indexOf(p.name.toLowerCase());
			if (pos < 0) continue;
			const at = n * 1_000_000 + pos;
			if (!best || at < best.at) best = { p, at };
		}
	});
	if (best) return best.p;
	return sorted.slice(sorted.indexOf(me) + 1).find((p) => p.id !== agent) ?? others[0];
}

/** The question's text with every `[name]` replaced. */
export function fillQuestion(text: string, name: string | undefined): string {
	return name === undefined ? text : text.split(NAME_PLACEHOLDER).join(name);
}

export function needsName(text: string): boolean {
	return text.includes(NAME_PLACEHOLDER);
}

/** Bracketed words other than `[name]`: likely typos of the placeholder. */
export function unknownPlaceholders(text: string): string[] {
	return [...text.matchAll(/\[[^\]\n]{1,40}\]/g)].map((m) => m[0]).filter((p) => p !== NAME_PLACEHOLDER);
}
