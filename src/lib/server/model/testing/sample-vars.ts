// Realistic variables for every template, for tests and for previewing prompts. The persona
// and town are invented for these samples.

import type { TemplateId, TemplateVars } from '../../../engine/model';

const summary =
	'Nora Vance is 41 years old and is warm, talkative, organised. Nora Vance runs the Lantern Bakery and knows most of the regulars by name. ' +
	'Nora Vance is planning a harvest supper at the Lantern Bakery on March 3, 6 to 8 pm. ' +
	'Nora Vance wakes up around 5am and goes to bed around 9pm.';

const memories = [
	'Nora Vance is planning a harvest supper at the Lantern Bakery on March 3, 6 to 8 pm',
	'Owen Brook is running for town council',
	'Nora Vance talked with Priya Sen. Priya Sen is writing a thesis on river ecology.',
	'the oven is idle',
	'Priya Sen is reading at the corner table',
	'Nora Vance is kneading dough for the morning bread'
];

export const SAMPLE_VARS: Record<TemplateId, TemplateVars> = {
	importance: { name: 'Nora Vance', memories: ['the oven is idle', 'Owen Brook is running for town council', 'Priya Sen asked Nora Vance out on a date'] },
	agent_summary: {
		name: 'Nora Vance',
		age: 41,
		innate: 'warm, talkative, organised',
		learned: 'Nora Vance runs the Lantern Bakery and knows most of the regulars by name.',
		currently: 'Nora Vance is planning a harvest supper at the Lantern Bakery on March 3, 6 to 8 pm.',
		lifestyle: 'Nora Vance wakes up around 5am and goes to bed around 9pm.',
		memories
	},
	daily_plan: {
		name: 'Nora Vance',
		summary,
		date: 'Friday March 3, 2023',
		yesterday: 'Nora Vance baked bread, served customers and told Priya Sen about the harvest supper.',
		requirement: 'Nora Vance opens the Lantern Bakery at 6am every day, and works at the counter until 2pm.'
	},
	hourly_schedule: {
		name: 'Nora Vance',
		summary,
		date: 'Friday March 3, 2023',
		wake_hour: 5,
		agenda: [
			'wake up and complete the morning routine at 5:00 am',
			'have breakfast at 5:30 am',
			'open the Lantern Bakery and work at the counter from 6:00 am to 2:00 pm',
			'take a lunch break at 12:00 pm',
			'spend some time planning a harvest supper from 2:30 pm to 4:30 pm',
			'go to bed at 9:00 pm'
		],
		memories
	},
	decompose_task: {
		name: 'Nora Vance',
		summary,
		activity: 'open the Lantern Bakery and work at the counter',
		start: '06:00',
		minutes: 60,
		previous: '5:30 am to 6:00 am: waking up and getting ready',
		next: '7:00 am to 8:00 am: open the Lantern Bakery and work at the counter'
	},
	choose_sector: {
		name: 'Nora Vance',
		activity: 'open the Lantern Bakery and work at the counter',
		current: "Nora Vance's house",
		home: "Nora Vance's house:bedroom",
		options: ["Nora Vance's house", 'Lantern Bakery', 'Millbrook Library', 'Riverside Park']
	},
	choose_arena: {
		name: 'Nora Vance',
		activity: 'have breakfast',
		sector: "Nora Vance's house",
		current: 'bedroom',
		options: ['bedroom', 'kitchen', 'bathroom']
	},
	choose_object: {
		name: 'Nora Vance',
		activity: 'sleep',
		arena: "Nora Vance's house:bedroom",
		options: ['desk', 'bed', 'closet'],
		states: ['desk: covered in papers']
	},
	action_emoji: { activity: 'writing in her journal' },
	object_state: { name: 'Nora Vance', activity: 'Nora Vance is brewing coffee', object: 'coffee machine' },
	react: {
		name: 'Nora Vance',
		summary,
		time: '10:30 am, Friday March 3, 2023',
		status: 'working at the counter',
		observation: 'Priya Sen is buying bread',
		other: 'Priya Sen',
		other_status: 'buying bread',
		context: 'Nora Vance knows Priya Sen. Priya Sen is writing a thesis on river ecology.',
		hours_since_chat: 20
	},
	context_summary: { name: 'Nora Vance', other: 'Priya Sen', memories },
	dialogue_turn: {
		name: 'Nora Vance',
		summary,
		other: 'Owen Brook',
		relationship: 'Nora Vance knows Owen Brook from the bakery.',
		place: 'Lantern Bakery',
		time: '10:30 am, Friday March 3, 2023',
		memories,
		history: []
	},
	conversation_memo: {
		name: 'Priya Sen',
		other: 'Nora Vance',
		transcript: [
			'Nora Vance: Hi Priya! I\'m planning a harvest supper at the Lantern Bakery on March 3, 6 to 8 pm. Would you like to come?',
			"Priya Sen: I'd love to come!",
			'Nora Vance: Anyway, I should get going. See you later, Priya!'
		]
	},
	reflection_questions: { name: 'Nora Vance', memories },
	reflection_insights: {
		name: 'Nora Vance',
		question: 'What is Nora Vance planning for the harvest supper?',
		memories
	},
	interview: {
		name: 'Nora Vance',
		summary,
		interviewer: 'a reporter from the town paper',
		question: 'Who is running for town council?',
		time: '4:00 pm, Friday March 3, 2023',
		memories
	},
	inner_voice: { name: 'Nora Vance', summary, directive: 'You are going to enter the baking contest next week' },
	day_summary: { name: 'Nora Vance', date: 'Thursday March 2, 2023', memories },
	replan: {
		name: 'Nora Vance',
		summary,
		time: '14:00, Friday March 3, 2023',
		reaction: 'talk with Priya Sen about the supper',
		remaining: ['14:30 (120 min) spend some time planning a harvest supper', '16:30 (60 min) relax at home', '21:00 (480 min) sleep']
	},
	next_action: {
		name: 'Nora Vance',
		summary,
		time: 'Friday March 3, 2023, 14:00',
		place: 'Lantern Bakery (kitchen)',
		previous: 'baking bread for the afternoon',
		perceived: ['Priya Sen is buying a loaf of bread', 'oven is baking bread'],
		intention: ''
	}
};
