import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS, type TemplateId, type TemplateVars } from '../../../engine/model';
import { extractJson } from '../../../prompts/json';
import type { PromptSet } from '../../../prompts/promptset';
import { validateOutput } from '../../../prompts/schema';
import { renderTemplate } from '../../../prompts/template';
import { loadPromptSet } from '../load';
import { SAMPLE_VARS } from '../testing/sample-vars';
import { OFFLINE_LABEL, OfflineProvider, offlineAnswer } from './offline';

let set: PromptSet;
beforeAll(async () => {
	set = await loadPromptSet();
});

const provider = new OfflineProvider();

async function ask(template: TemplateId, vars: TemplateVars): Promise<Record<string, unknown>> {
	const t = set.templates.get(template)!;
	const prompt = renderTemplate(t, vars);
	const { text } = await provider.chat({ template, vars, messages: [{ role: 'user', content: prompt }], sampling: t.sampling });
	const value = extractJson(text);
	expect(validateOutput(t.output, value, vars).errors, `${template}: ${text}`).toEqual([]);
	return value;
}

/** A second persona with other habits, and edge cases (empty lists, odd text). */
const STUDENT = {
	name: 'Tobias Reyes',
	summary:
		'Tobias Reyes is a student at Northfield College who studies marine biology. Tobias Reyes is preparing for the final exams. Tobias Reyes wakes up at 8:30 am and goes to sleep around 12:30 am.',
	requirement: ''
};
const VARIANTS: Partial<Record<TemplateId, TemplateVars[]>> = {
	importance: [{ name: 'Tobias Reyes', memories: [] }, { name: 'T', memories: ['', '!!!', 'x'.repeat(3000)] }],
	daily_plan: [{ name: STUDENT.name, summary: STUDENT.summary, date: 'Monday May 8, 2023', yesterday: '', requirement: STUDENT.requirement }],
	hourly_schedule: [
		{ name: STUDENT.name, summary: STUDENT.summary, date: 'Monday May 8, 2023', wake_hour: 12, agenda: [], memories: [] },
		{ name: 'X', summary: '', date: '', wake_hour: 3, agenda: ['sleep at 2:00 am', 'work from 10pm to 4am'], memories: [] }
	],
	decompose_task: [
		{ name: 'X', summary: '', activity: 'sleeping', start: '23:00', minutes: 480 },
		{ name: 'X', summary: '', activity: 'read', start: '10:00', minutes: 3 },
		{ name: 'X', summary: '', activity: 'clean up', start: '10:00', minutes: 37 }
	],
	choose_sector: [{ name: 'X', activity: 'sleep', current: 'Park', home: 'Home Street 4:bedroom', options: ['Park', 'Home Street 4'] }],
	choose_object: [{ name: 'X', activity: 'anything', arena: 'a:b', options: [] }],
	react: [{ ...SAMPLE_VARS.react, other: '', other_status: '', observation: 'the stove is burning', context: '' }],
	dialogue_turn: [
		{ ...SAMPLE_VARS.dialogue_turn, memories: [], history: ['Owen Brook: Hi Nora! How is your day going?'] },
		{ ...SAMPLE_VARS.dialogue_turn, history: ['Owen Brook: See you later, bye!'] }
	],
	conversation_memo: [{ name: 'A', other: 'B', transcript: [] }],
	reflection_questions: [{ name: 'X', memories: [] }],
	reflection_insights: [{ name: 'X', question: 'anything?', memories: ['X is idle'] }],
	interview: [{ ...SAMPLE_VARS.interview, memories: [], question: 'What is your favourite colour?' }],
	inner_voice: [{ name: 'X', summary: '', directive: '' }],
	day_summary: [{ name: 'X', date: 'May 1', memories: [] }],
	replan: [{ name: 'X', summary: '', time: '11:50 pm', reaction: 'answer the door', remaining: ['23:55 (60 min) sleep'] }]
};

describe('offline stand-in', () => {
	it('is labelled as a stand-in, not a language model', () => {
		expect(OFFLINE_LABEL).toBe('offline stand-in, not a language model');
		expect(provider.label).toBe(OFFLINE_LABEL);
		expect(provider.name).toBe('offline');
		expect(provider.model).toBe('offline-standin-1');
		expect(provider.dimensions).toBe(256);
	});

	it('answers every template with a value that validates', async () => {
		for (const id of TEMPLATE_IDS) await ask(id, SAMPLE_VARS[id]);
	});

	it('answers edge cases and other personas with values that validate (or a clear refusal for none)', async () => {
		for (const [id, list] of Object.entries(VARIANTS) as [TemplateId, TemplateVars[]][]) {
			for (const vars of list) {
				const t = set.templates.get(id)!;
				const value = offlineAnswer(id, vars);
				const result = validateOutput(t.output, value, vars);
				// Without any option or memory there is nothing valid to say; the gateway's fail-safe covers it.
				const impossible = (id === 'choose_object' && !(vars.options as string[]).length) || (id === 'reflection_insights' && !(vars.memories as string[]).length);
				if (!impossible) expect(result.errors, `${id} ${JSON.stringify(vars).slice(0, 80)}`).toEqual([]);
			}
		}
	});

	it('is deterministic', async () => {
		for (const id of TEMPLATE_IDS) {
			const a = await provider.chat({ template: id, vars: SAMPLE_VARS[id], messages: [], sampling: {} });
			const b = await provider.chat({ template: id, vars: structuredClone(SAMPLE_VARS[id]), messages: [], sampling: {} });
			expect(b.text, id).toBe(a.text);
		}
	});

	it('refuses an unknown template', () => {
		expect(() => offlineAnswer('nope', {})).toThrow('the offline stand-in has no rule for template "nope"');
	});

	it('has no agent, place or scenario names in its code', () => {
		const here = fileURLToPath(new URL('.', import.meta.url));
		const code = ['offline.ts', 'text.ts', 'embed.ts'].map((f) => readFileSync(here + f, 'utf8')).join('\n');
		const names = [
			...'Isabella Rodriguez Klaus Mueller Maria Lopez Sam Moore Latoya Rajiv Abigail Francisco Hailey Arthur Burton Ryan Giorgio Carlos Ayesha Wolfgang Eddy Moreno Tamara Carmen Ortiz Jennifer Yuriko Hobbs Willows Smallville Valentine'.split(' '),
			'Mei Lin',
			'John Lin',
			'Tom Moreno',
			'Jane Moreno',
			'Adam Smith',
			'Oak Hill',
			'Johnson Park',
			'Harvey Oak',
			'Rose and Crown'
		];
		for (const n of names) expect(code, n).not.toMatch(new RegExp(`\\b${n}\\b`));
	});
});

describe('offline rules', () => {
	it('rates poignant events above mundane ones, on 1..10', async () => {
		const { ratings } = (await ask('importance', {
			name: 'X',
			memories: ['the bed is idle', 'X is brushing her teeth', 'Y asked X out on a date', 'Y died in an accident', 'Y is running for mayor', 'X is eating breakfast', 'X is planning a party']
		})) as { ratings: number[] };
		const [idle, teeth, date, died, mayor, breakfast, party] = ratings;
		expect(idle).toBe(1);
		expect(teeth).toBeLessThanOrEqual(2);
		expect(breakfast).toBeLessThanOrEqual(2);
		expect(date).toBeGreaterThanOrEqual(8);
		expect(mayor).toBeGreaterThanOrEqual(8);
		expect(party).toBeGreaterThanOrEqual(8);
		expect(died).toBeGreaterThanOrEqual(9);
	});

	it('plans the day from the persona text: wake time, work hours, bedtime', async () => {
		const plan = (await ask('daily_plan', {
			name: 'Mara Quint',
			summary: 'Mara Quint is 52 and is patient and careful. Mara Quint goes to bed around 10pm, wakes up around 6am.',
			date: 'Tuesday June 6, 2023',
			yesterday: '',
			requirement: 'Mara Quint works at the Greenway Pharmacy counter from 8am until 8pm.'
		})) as { wake_hour: number; agenda: string[] };
		expect(plan.wake_hour).toBe(6);
		expect(plan.agenda[0]).toMatch(/wake up .* at 6:00 am/);
		expect(plan.agenda).toContain('work at the Greenway Pharmacy counter from 8:00 am to 8:00 pm');
		expect(plan.agenda[plan.agenda.length - 1]).toBe('go to bed at 10:00 pm');

		const student = (await ask('daily_plan', { ...STUDENT, date: 'Monday May 8, 2023', yesterday: '' })) as { wake_hour: number; agenda: string[] };
		expect(student.wake_hour).toBe(8);
		expect(student.agenda.join('\n')).toMatch(/attend classes and study at Northfield College/);
		expect(student.agenda.join('\n')).toMatch(/preparing for the final exams/);
	});

	it('adds an event dated today, found in the persona or yesterday, to the plan and the schedule', async () => {
		const plan = (await ask('daily_plan', SAMPLE_VARS.daily_plan)) as { agenda: string[] };
		expect(plan.agenda.join('\n')).toMatch(/attend the harvest supper at the Lantern Bakery from 6:00 pm to 8:00 pm/);
		const other = (await ask('daily_plan', { ...SAMPLE_VARS.daily_plan, date: 'Saturday March 4, 2023' })) as { agenda: string[] };
		expect(other.agenda.join('\n')).not.toMatch(/attend/);

		const { blocks } = (await ask('hourly_schedule', SAMPLE_VARS.hourly_schedule)) as { blocks: { start: string; activity: string }[] };
		expect(blocks.find((b) => b.start === '18:00')?.activity).toBe('attend the harvest supper at the Lantern Bakery');
	});

	it('schedules contiguous blocks from waking to sleep, keeping the agenda times', async () => {
		const { blocks } = (await ask('hourly_schedule', SAMPLE_VARS.hourly_schedule)) as { blocks: { start: string; minutes: number; activity: string }[] };
		const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
		expect(blocks[0].start).toBe('05:00');
		for (let i = 1; i < blocks.length; i++) expect(toMin(blocks[i].start)).toBe(toMin(blocks[i - 1].start) + blocks[i - 1].minutes);
		const last = blocks[blocks.length - 1];
		expect(last.activity).toBe('sleep');
		expect(last.start).toBe('21:00');
		expect(toMin(last.start) + last.minutes).toBe(24 * 60);
		expect(blocks.filter((b) => b.activity !== 'sleep').every((b) => b.minutes <= 60)).toBe(true);
		expect(blocks.find((b) => b.start === '06:00')?.activity).toBe('open the Lantern Bakery and work at the counter');
		expect(blocks.find((b) => b.start === '12:00')?.activity).toBe('take a lunch break');
		expect(blocks.find((b) => b.start === '13:00')?.activity).toBe('open the Lantern Bakery and work at the counter');
	});

	it('decomposes a block into 5-15 minute steps that add up', async () => {
		for (const minutes of [5, 25, 37, 60, 180]) {
			const { subtasks } = (await ask('decompose_task', { ...SAMPLE_VARS.decompose_task, minutes })) as { subtasks: { minutes: number; activity: string }[] };
			expect(subtasks.reduce((n, s) => n + s.minutes, 0), `${minutes}`).toBe(minutes);
			expect(subtasks.every((s) => s.minutes >= 5 && s.minutes <= 15)).toBe(true);
			expect(new Set(subtasks.map((s) => s.activity)).size).toBeGreaterThan(minutes > 15 ? 1 : 0);
		}
	});

	it('chooses places by lexical match, preferring where the agent is, and home for home things', async () => {
		expect((await ask('choose_sector', SAMPLE_VARS.choose_sector)).choice).toBe('Lantern Bakery');
		const base = { name: 'X', current: 'Riverside Park', home: "X's house:bedroom", options: ["X's house", 'Lantern Bakery', 'Millbrook Library', 'Riverside Park'] };
		expect((await ask('choose_sector', { ...base, activity: 'sleep' })).choice).toBe("X's house");
		expect((await ask('choose_sector', { ...base, activity: 'study for the exam' })).choice).toBe('Millbrook Library');
		expect((await ask('choose_sector', { ...base, activity: 'think about the future' })).choice).toBe('Riverside Park');
		expect((await ask('choose_arena', SAMPLE_VARS.choose_arena)).choice).toBe('kitchen');
		expect((await ask('choose_arena', { ...SAMPLE_VARS.choose_arena, activity: 'think about life' })).choice).toBe('bedroom');
		expect((await ask('choose_object', SAMPLE_VARS.choose_object)).choice).toBe('bed');
	});

	it('picks emoji and object states from the activity', async () => {
		expect((await ask('action_emoji', { activity: 'sleeping' })).emoji).toBe('😴');
		expect((await ask('action_emoji', { activity: 'writing in her journal' })).emoji).toMatch(/📓|✍️/);
		expect((await ask('object_state', { name: 'X', activity: 'X is sleeping', object: 'bed' })).state).toBe('being slept in');
		expect((await ask('object_state', SAMPLE_VARS.object_state)).state).toBe('brewing coffee');
	});

	it('talks to someone awake and free after enough time, not otherwise', async () => {
		const v = SAMPLE_VARS.react;
		expect(await ask('react', v)).toEqual({ react: true, talk: true, reaction: 'start a conversation with Priya Sen' });
		expect((await ask('react', { ...v, other_status: 'sleeping' })).talk).toBe(false);
		expect((await ask('react', { ...v, other_status: 'in a conversation with Owen Brook' })).talk).toBe(false);
		expect((await ask('react', { ...v, hours_since_chat: 0 })).talk).toBe(false);
		expect((await ask('react', { ...v, other: '', other_status: '', observation: 'the stove is burning' })).react).toBe(true);
	});

	it('spreads news from one agent to a second and on to a third', async () => {
		const converse = async (a: string, aMemories: string[], b: string, bMemories: string[]) => {
			const history: string[] = [];
			const speakers = [
				{ name: a, other: b, memories: aMemories },
				{ name: b, other: a, memories: bMemories }
			];
			for (let turn = 0; turn < 10; turn++) {
				const s = speakers[turn % 2];
				const { utterance, end } = (await ask('dialogue_turn', {
					name: s.name,
					summary: '',
					other: s.other,
					relationship: '',
					place: 'the square',
					time: '10:00 am',
					memories: s.memories,
					history: [...history]
				})) as { utterance: string; end: boolean };
				history.push(`${s.name}: ${utterance}`);
				if (end) break;
			}
			return history;
		};
		const news = 'Lena Ford is planning a lantern festival at Elm Square on June 9, 7 to 9 pm';
		const first = await converse('Lena Ford', [news, 'Lena Ford is idle'], 'Omar Hale', ['Omar Hale is reading']);
		expect(first.length).toBeGreaterThanOrEqual(2);
		expect(first.length).toBeLessThanOrEqual(8);
		expect(first[0]).toMatch(/lantern festival at Elm Square/);
		const memo = (await ask('conversation_memo', { name: 'Omar Hale', other: 'Lena Ford', transcript: first })) as { summary: string; plan_note: string };
		expect(memo.summary).toMatch(/Lena Ford is planning a lantern festival at Elm Square on June 9, 7 to 9 pm/);
		expect(memo.plan_note).toMatch(/Omar Hale plans to go: .*lantern festival/);

		const second = await converse('Omar Hale', [memo.summary], 'Ivy Chen', []);
		expect(second.join('\n')).toMatch(/Lena Ford is planning a lantern festival/);
		const memo2 = (await ask('conversation_memo', { name: 'Ivy Chen', other: 'Omar Hale', transcript: second })) as { summary: string };
		expect(memo2.summary).toMatch(/lantern festival at Elm Square/);
		// And Ivy can now answer an interview question about it, without inventing anything.
		const answer = (await ask('interview', { ...SAMPLE_VARS.interview, name: 'Ivy Chen', question: 'Do you know about a lantern festival?', memories: [memo2.summary] })).answer;
		expect(answer).toMatch(/lantern festival/);
	});

	it('answers interviews from memory and says it does not know otherwise', async () => {
		expect((await ask('interview', SAMPLE_VARS.interview)).answer).toMatch(/Owen Brook is running for town council/);
		expect((await ask('interview', { ...SAMPLE_VARS.interview, question: 'Who is running for mayor of the county?' })).answer).toMatch(/I don't know/);
		expect((await ask('interview', { ...SAMPLE_VARS.interview, question: 'Give an introduction of yourself.' })).answer).toMatch(/^Hi, I'm Nora Vance\. I am 41 years old/);
	});

	it('reflects on the most frequent subjects and cites real memory numbers', async () => {
		const memories = ['Jo Park is painting', 'Jo Park said hello', 'the kettle is idle', 'Jo Park is planning an art show', 'Rick Stone is jogging'];
		const { questions } = (await ask('reflection_questions', { name: 'X', memories })) as { questions: string[] };
		expect(questions).toHaveLength(3);
		expect(questions[0]).toMatch(/Jo Park/);
		const { insights } = (await ask('reflection_insights', { name: 'X', question: questions[0], memories })) as { insights: { insight: string; evidence: number[] }[] };
		expect(insights.length).toBeGreaterThanOrEqual(1);
		for (const i of insights) for (const n of i.evidence) expect(memories[n - 1], i.insight).toBeDefined();
		expect(insights.some((i) => /art show/.test(i.insight) && i.evidence.includes(4))).toBe(true);
		expect(insights.some((i) => /Jo Park/.test(i.insight) && i.evidence.length >= 3)).toBe(true);
	});

	it('turns a directive into a first-person thought', async () => {
		expect((await ask('inner_voice', { name: 'X', summary: '', directive: 'You are going to run against Tom in the upcoming election' })).thought).toBe(
			'I am going to run against Tom in the upcoming election.'
		);
		expect((await ask('inner_voice', { name: 'X', summary: '', directive: 'Your sister needs you, call her' })).thought).toBe('My sister needs me, call her.');
	});

	it('re-plans from now without overlaps', async () => {
		const { blocks } = (await ask('replan', SAMPLE_VARS.replan)) as { blocks: { start: string; minutes: number; activity: string }[] };
		expect(blocks[0]).toEqual({ start: '14:00', minutes: 20, activity: 'talk with Priya Sen about the supper' });
		expect(blocks[1].start).toBe('14:30');
		const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
		for (let i = 1; i < blocks.length; i++) expect(toMin(blocks[i].start)).toBeGreaterThanOrEqual(toMin(blocks[i - 1].start) + blocks[i - 1].minutes);
	});

	it('embeds deterministically with unit vectors', async () => {
		const [a, b] = await provider.embed(['hello there', 'hello there']);
		expect(a).toEqual(b);
		expect(a.length).toBe(256);
	});
});
