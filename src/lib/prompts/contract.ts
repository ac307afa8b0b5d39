// What the engine passes to each template and what it reads back: the input names and types
// (docs/templates.md) and the shape of the answer it relies on (the properties it reads, which
// the output must require, with their types). A template that differs cannot serve a run:
// rendering refuses missing or extra variables, and the engine would read fields the answer
// lacks. Pure, so the browser workbench can check edits as they are typed.

import type { TemplateId } from '../engine/model';
import type { InputType } from './template';

/** A scalar type, `[item]` for an array, or an object of required properties. */
export type OutputShape = 'string' | 'integer' | 'number' | 'boolean' | [OutputShape] | { [property: string]: OutputShape };

export interface TemplateContract {
	inputs: Record<string, InputType>;
	output: { [property: string]: OutputShape };
}

const block = { start: 'string', minutes: 'integer', activity: 'string' } as const;

export const TEMPLATE_CONTRACT: Record<TemplateId, TemplateContract> = {
	importance: {
		inputs: { name: 'text', memories: 'numbered' },
		output: { ratings: ['integer'] }
	},
	agent_summary: {
		inputs: { name: 'text', age: 'integer', innate: 'text', learned: 'text', currently: 'text', lifestyle: 'text', memories: 'list' },
		output: { summary: 'string' }
	},
	daily_plan: {
		inputs: { name: 'text', summary: 'text', date: 'text', yesterday: 'text', requirement: 'text' },
		output: { wake_hour: 'integer', agenda: ['string'] }
	},
	hourly_schedule: {
		inputs: { name: 'text', summary: 'text', date: 'text', wake_hour: 'integer', agenda: 'list', memories: 'list' },
		output: { blocks: [block] }
	},
	decompose_task: {
		inputs: { name: 'text', summary: 'text', activity: 'text', start: 'text', minutes: 'integer', previous: 'text', next: 'text' },
		output: { subtasks: [{ activity: 'string', minutes: 'integer' }] }
	},
	choose_sector: {
		inputs: { name: 'text', activity: 'text', current: 'text', home: 'text', options: 'list' },
		output: { choice: 'string' }
	},
	choose_arena: {
		inputs: { name: 'text', activity: 'text', sector: 'text', current: 'text', options: 'list' },
		output: { choice: 'string' }
	},
	choose_object: {
		inputs: { name: 'text', activity: 'text', arena: 'text', options: 'list', states: 'list' },
		output: { choice: 'string' }
	},
	action_emoji: {
		inputs: { activity: 'text' },
		output: { emoji: 'string' }
	},
	object_state: {
		inputs: { name: 'text', activity: 'text', object: 'text' },
		output: { state: 'string' }
	},
	react: {
		inputs: {
			name: 'text',
			summary: 'text',
			time: 'text',
			status: 'text',
			observation: 'text',
			other: 'text',
			other_status: 'text',
			context: 'text',
			hours_since_chat: 'integer'
		},
		output: { react: 'boolean', talk: 'boolean', reaction: 'string' }
	},
	context_summary: {
		inputs: { name: 'text', other: 'text', memories: 'list' },
		output: { summary: 'string' }
	},
	dialogue_turn: {
		inputs: { name: 'text', summary: 'text', other: 'text', relationship: 'text', place: 'text', time: 'text', memories: 'list', history: 'list' },
		output: { utterance: 'string', end: 'boolean' }
	},
	conversation_memo: {
		inputs: { name: 'text', other: 'text', transcript: 'list' },
		output: { summary: 'string', plan_note: 'string' }
	},
	reflection_questions: {
		inputs: { name: 'text', memories: 'numbered' },
		output: { questions: ['string'] }
	},
	reflection_insights: {
		inputs: { name: 'text', question: 'text', memories: 'numbered' },
		output: { insights: [{ insight: 'string', evidence: ['integer'] }] }
	},
	interview: {
		inputs: { name: 'text', summary: 'text', interviewer: 'text', question: 'text', time: 'text', memories: 'list' },
		output: { answer: 'string' }
	},
	inner_voice: {
		inputs: { name: 'text', summary: 'text', directive: 'text' },
		output: { thought: 'string' }
	},
	day_summary: {
		inputs: { name: 'text', date: 'text', memories: 'list' },
		output: { summary: 'string' }
	},
	replan: {
		inputs: { name: 'text', summary: 'text', time: 'text', reaction: 'text', remaining: 'list' },
		output: { blocks: [block] }
	},
	next_action: {
		inputs: { name: 'text', summary: 'text', time: 'text', place: 'text', previous: 'text', perceived: 'list', intention: 'text' },
		output: { activity: 'string', minutes: 'integer', sleep: 'boolean' }
	}
};
