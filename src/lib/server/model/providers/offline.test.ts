import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS, type ModelPort, type TemplateId, type TemplateVars } from '../../../engine/model';
import { extractJson } from '../../../prompts/json';
import type { PromptSet } from '../../../prompts/promptset';
import { validateOutput } from '../../../prompts/schema';
import { renderTemplate } from '../../../prompts/template';
import { loadPromptSet } from '../load';
import { SAMPLE_VARS } from '../testing/sample-vars';
import { Simulation } from '../../../engine/sim';
import { loadWorld } from '../../world/load';
import { hashEmbed, OFFLINE_DIMENSIONS } from './embed';
import { OFFLINE_LABEL, OfflineProvider, importanceOf, offlineAnswer, speakAsSelf } from './offline';

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
		// The planner of the supper hosts it; a guest who was invited attends it.
		const plan = (await ask('daily_plan', SAMPLE_VARS.daily_plan)) as { agenda: string[] };
		expect(plan.agenda.join('\n')).toMatch(/host the harvest supper at the Lantern Bakery from 6:00 pm to 8:00 pm/);
		expect(plan.agenda.join('\n')).not.toMatch(/have dinner/);
		const other = (await ask('daily_plan', { ...SAMPLE_VARS.daily_plan, date: 'Saturday March 4, 2023' })) as { agenda: string[] };
		expect(other.agenda.join('\n')).not.toMatch(/attend|host/);

		const { blocks } = (await ask('hourly_schedule', SAMPLE_VARS.hourly_schedule)) as { blocks: { start: string; activity: string }[] };
		expect(blocks.find((b) => b.start === '18:00')?.activity).toBe('hosting the harvest supper at the Lantern Bakery');
		const guest = (await ask('hourly_schedule', {
			...SAMPLE_VARS.hourly_schedule,
			name: 'Priya Sen',
			agenda: [],
			memories: ['Priya Sen plans to go to the harvest supper at the Lantern Bakery on March 3 from 6 to 8 pm.']
		})) as { blocks: { start: string; activity: string }[] };
		expect(guest.blocks.find((b) => b.start === '18:00')?.activity).toBe('attending the harvest supper at the Lantern Bakery');
	});

	it('schedules contiguous blocks from waking to sleep, keeping the agenda times', async () => {
		const { blocks } = (await ask('hourly_schedule', SAMPLE_VARS.hourly_schedule)) as { blocks: { start: string; minutes: number; activity: string }[] };
		const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
		expect(blocks[0].start).toBe('05:00');
		for (let i = 1; i < blocks.length; i++) expect(toMin(blocks[i].start)).toBe(toMin(blocks[i - 1].start) + blocks[i - 1].minutes);
		const last = blocks[blocks.length - 1];
		expect(last.activity).toBe('sleeping');
		expect(last.start).toBe('21:00');
		expect(toMin(last.start) + last.minutes).toBe(24 * 60);
		expect(blocks.filter((b) => b.activity !== 'sleeping').every((b) => b.minutes <= 60)).toBe(true);
		expect(blocks.find((b) => b.start === '06:00')?.activity).toBe('opening the Lantern Bakery and working at the counter');
		expect(blocks.find((b) => b.start === '12:00')?.activity).toBe('taking a lunch break');
		expect(blocks.find((b) => b.start === '13:00')?.activity).toBe('opening the Lantern Bakery and working at the counter');
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

	it('talks to someone awake and free now and then, more with news to share, not otherwise', async () => {
		const v = SAMPLE_VARS.react;
		// Over a day of encounters some lead to a conversation and most do not.
		const times = Array.from({ length: 40 }, (_, i) => `${8 + Math.floor(i / 4)}:${String((i % 4) * 15).padStart(2, '0')} am, Friday March 3, 2023`);
		const talks = async (vars: TemplateVars) => (await Promise.all(times.map((time) => ask('react', { ...vars, time })))).filter((a) => a.talk).length;
		const quiet = await talks(v);
		const withNews = await talks({ ...v, summary: `${v.summary} Lately: Owen Brook is running for mayor in the spring election.` });
		expect(quiet).toBeGreaterThan(0);
		expect(quiet).toBeLessThan(times.length / 2);
		expect(withNews).toBeGreaterThan(quiet);
		const talking = times.map((time) => offlineAnswer('react', { ...v, time })).find((a) => a.talk === true);
		expect(talking).toEqual({ react: true, talk: true, reaction: 'start a conversation with Priya Sen' });
		// Strangers talk less than acquaintances.
		expect(await talks({ ...v, context: 'Nora Vance does not know Priya Sen yet.' })).toBeLessThan(withNews);
		expect((await ask('react', { ...v, other_status: 'sleeping' })).talk).toBe(false);
		expect((await ask('react', { ...v, other_status: 'in a conversation with Owen Brook' })).talk).toBe(false);
		expect((await ask('react', { ...v, hours_since_chat: 0 })).talk).toBe(false);
		expect((await ask('react', { ...v, other: '', other_status: '', observation: 'the stove is burning' })).react).toBe(true);
	});

	it('reacts to an object in an emergency and not to a mundane state, and re-plans around it', async () => {
		const seen = (observation: string) => ask('react', { ...SAMPLE_VARS.react, other: '', other_status: '', hours_since_chat: 999, observation });
		for (const observation of ['stove is burning', 'toaster is on fire', 'bathroom sink is flooding', 'oven is smoking', 'fridge is broken', 'kettle is overheating']) {
			const answer = await seen(observation);
			expect(answer, observation).toMatchObject({ react: true, talk: false });
			expect(answer.reaction, observation).toMatch(/take care of it/);
		}
		for (const observation of ['stove is in use', 'stove is heating up', 'coffee machine is brewing coffee', 'bed is being slept in', 'piano is being played', 'shelf is being browsed']) {
			expect(await seen(observation), observation).toEqual({ react: false, talk: false, reaction: '' });
		}
		// Asleep, nothing is noticed.
		expect((await ask('react', { ...SAMPLE_VARS.react, other: '', other_status: '', observation: 'stove is burning', status: 'sleeping' })).react).toBe(false);
		const { reaction } = await seen('stove is burning');
		const { blocks } = (await ask('replan', { name: 'X', summary: '', time: '12:05 pm', reaction: reaction as string, remaining: ['12:00 pm (60 min): eating lunch', '10:00 pm (120 min): sleeping (asleep)'] })) as {
			blocks: { start: string; activity: string; sleep: boolean }[];
		};
		expect(blocks[0]).toMatchObject({ start: '12:05', activity: 'taking care of the stove', sleep: false });
		expect(blocks.at(-1)).toMatchObject({ start: '22:00', activity: 'sleeping', sleep: true });
	});

	it('marks the night and naps as sleep in a schedule, and nothing else', async () => {
		const { blocks } = (await ask('hourly_schedule', {
			...SAMPLE_VARS.hourly_schedule,
			wake_hour: 7,
			agenda: ['wake up at 7:00 am', 'work from 8:00 am to 12:00 pm', 'take a nap at 1:00 pm', 'go to bed at 11:00 pm']
		})) as { blocks: { start: string; minutes: number; activity: string; sleep: boolean }[] };
		const asleep = blocks.filter((b) => b.sleep);
		expect(asleep.at(-1)).toMatchObject({ start: '23:00', minutes: 60, sleep: true });
		expect(asleep.some((b) => b.start === '13:00' && /nap/.test(b.activity))).toBe(true);
		expect(blocks.filter((b) => !b.sleep).some((b) => b.start === '14:00')).toBe(true);
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
		expect(memo.plan_note).toBe('Omar Hale plans to go to the lantern festival at Elm Square on June 9 from 7 to 9 pm.');

		// Omar passes it on now and then: to some of the people he talks with, not to all.
		const listeners = ['Ivy Chen', 'Jun Park', 'Kai Moss', 'Lea Roth', 'Max Hill', 'Nia Cole', 'Oli Reed', 'Pia Lund'];
		const seconds = await Promise.all(listeners.map(async (l) => ({ l, lines: await converse('Omar Hale', [memo.summary], l, []) })));
		const told = seconds.filter((c) => /Lena Ford is planning a lantern festival/.test(c.lines.join('\n')));
		expect(told.length).toBeGreaterThan(0);
		expect(told.length).toBeLessThan(listeners.length);
		for (const c of seconds) expect(c.lines.length).toBeLessThanOrEqual(8);
		const { l: third, lines: second } = told[0];
		const memo2 = (await ask('conversation_memo', { name: third, other: 'Omar Hale', transcript: second })) as { summary: string };
		expect(memo2.summary).toMatch(/lantern festival at Elm Square/);
		// No retelling of the retelling: the fact is stored once, as said by its source.
		expect(memo2.summary.match(/talked with/g)).toHaveLength(1);
		// And the listener can now answer an interview question about it, without inventing anything.
		const answer = (await ask('interview', { ...SAMPLE_VARS.interview, name: third, question: 'Do you know about a lantern festival?', memories: [memo2.summary] })).answer;
		expect(answer).toMatch(/lantern festival/);
	});

	it('answers interviews from memory and says it does not know otherwise', async () => {
		expect((await ask('interview', SAMPLE_VARS.interview)).answer).toMatch(/Owen Brook is running for town council/);
		expect((await ask('interview', { ...SAMPLE_VARS.interview, question: 'Who is running for mayor of the county?' })).answer).toMatch(/I don't know/);
		expect((await ask('interview', { ...SAMPLE_VARS.interview, question: 'Give an introduction of yourself.' })).answer).toMatch(/^Hi, I'm Nora Vance\. I'm 41 years old/);
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
		expect(blocks[0]).toEqual({ start: '14:00', minutes: 20, activity: 'talking with Priya Sen about the supper', sleep: false });
		expect(blocks.map((b) => b.activity)).toContain('relaxing at home');
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

/** Invented personas with the kinds of routine sentences towns are written with. */
const TOWN: { name: string; lifestyle: string; requirement: string; summary: string }[] = [
	{
		name: 'Lena Ford',
		lifestyle: 'goes to bed around 10pm, wakes up around 5am',
		requirement: 'Lena opens the Corner Cafe at 7am and works the counter until 6pm',
		summary: 'Lena Ford runs the Corner Cafe. Lena Ford is planning a lantern festival at Elm Square on June 9 from 7pm to 9pm.'
	},
	{
		name: 'Omar Hale',
		lifestyle: 'goes to bed around 11pm, wakes up around 7am, eats dinner around 5pm',
		requirement: 'Omar goes to classes or reads in the Millbrook College library in the morning and works on his essay in the afternoon',
		summary: 'Omar Hale is a history student at Millbrook College. Omar Hale is writing an essay on old bridges.'
	},
	{
		name: 'Ivy Chen',
		lifestyle: 'goes to bed around 10pm, wakes up around 6am',
		requirement: 'Ivy writes and illustrates at home from 8am to 3pm and sketches outdoors afterwards',
		summary: 'Ivy Chen writes picture books.'
	},
	{
		name: 'Jun Park',
		lifestyle: 'goes to bed around 11pm, wakes up around 7am',
		requirement: 'Jun has a coffee at the Corner Cafe at 8am, then works on his research at home until evening',
		summary: 'Jun Park is a chemist. Jun Park is writing a paper about river water.'
	},
	{
		name: 'Kai Moss',
		lifestyle: 'goes to bed around 1am, wakes up around 10am',
		requirement: 'Kai opens the Blue Anchor Pub at 3pm and tends the bar until midnight',
		summary: 'Kai Moss owns the Blue Anchor Pub.'
	},
	{
		name: 'Pia Lund',
		lifestyle: 'goes to bed around 11pm, wakes up around 7am',
		requirement: 'Pia works at her home office from 9am to 5pm with a break for lunch',
		summary: 'Pia Lund is an accountant who works from home.'
	}
];

function dayOf(p: (typeof TOWN)[number]) {
	const date = 'Friday June 9, 2023';
	const plan = offlineAnswer('daily_plan', { name: p.name, summary: p.summary, date, yesterday: '', requirement: `${p.lifestyle}. ${p.requirement}` }) as { wake_hour: number; agenda: string[] };
	const { blocks } = offlineAnswer('hourly_schedule', { name: p.name, summary: p.summary, date, wake_hour: plan.wake_hour, agenda: plan.agenda, memories: [] }) as {
		blocks: { start: string; minutes: number; activity: string }[];
	};
	return { plan, blocks, at: (hhmm: string) => blocks.find((b) => b.start === hhmm)?.activity };
}

describe('offline day-long behaviour', () => {
	it('rates importance like the paper: routine low, work middling, news and life events high', () => {
		const rate = (s: string) => importanceOf(s);
		const mundane = [
			'Ana Quill is eating lunch',
			'Ana Quill is sleeping',
			'Ana Quill is brushing her teeth',
			'Bo Li is walking along the path in the park',
			'Bo Li is chatting with Cy Dunn',
			'Bo Li is chatting with Ana Quill',
			'Bo Li is settling onto the couch at home',
			'the coffee machine is in use',
			'the dining table is occupied',
			'television is off',
			'Ana Quill talked with Bo Li. They made small talk.'
		];
		for (const s of mundane) expect(rate(s), s).toBeLessThanOrEqual(3);
		const work = ['Bo Li is serving customers at the Corner Cafe', 'Ana Quill is attending a lecture in class', 'Bo Li is writing code', 'Ana Quill is writing an essay on old bridges'];
		for (const s of work) {
			expect(rate(s), s).toBeGreaterThanOrEqual(3);
			expect(rate(s), s).toBeLessThanOrEqual(4);
		}
		const social = ['Bo Li is married to Cy Li', 'Bo Li is planning a spring sale at the store', 'Ana Quill talked with Bo Li. Bo Li is worried about the exam.'];
		for (const s of social) {
			expect(rate(s), s).toBeGreaterThanOrEqual(5);
			expect(rate(s), s).toBeLessThanOrEqual(7);
		}
		const big = ['Bo Li invited Ana Quill to a birthday party on May 2', 'Cy Dunn is running for mayor in the upcoming election', 'Ana Quill has a crush on Bo Li', 'Ana Quill and Bo Li broke up'];
		for (const s of big) expect(rate(s), s).toBeGreaterThanOrEqual(8);
		// Schedule items rate as what they plan, not as "plans".
		expect(rate("Ana's plan: eating breakfast at 7:30 am on Friday June 9, 2023")).toBeLessThanOrEqual(2);
		expect(rate("Ana's plan: attending the birthday party from 5:00 pm to 7:00 pm on Friday June 9, 2023")).toBeGreaterThanOrEqual(8);
	});

	it('plans days from routine sentences as short -ing activities at the right hours', () => {
		for (const p of TOWN) {
			const { plan, blocks } = dayOf(p);
			expect(plan.agenda.length, p.name).toBeGreaterThanOrEqual(5);
			for (const b of blocks) {
				expect(b.activity, `${p.name} ${b.start}`).toMatch(/^[a-z]+ing\b/);
				const n = b.activity.split(/\s+/).length;
				expect(n, b.activity).toBeLessThanOrEqual(10);
				expect(n === 1 ? b.activity : 'ok', b.activity).toMatch(/^(?:ok|sleeping)$/);
				// never a copy of the persona's sentences
				expect(p.requirement.toLowerCase().includes(b.activity.toLowerCase()) && n > 6, b.activity).toBe(false);
			}
		}
		const lena = dayOf(TOWN[0]);
		expect(lena.at('05:00')).toBe('waking up and getting ready');
		expect(lena.at('07:00')).toBe('opening the Corner Cafe');
		expect(lena.at('09:00')).toBe('working the counter at the Corner Cafe');
		expect(lena.at('12:00')).toBe('taking a lunch break');
		expect(lena.blocks.at(-1)).toMatchObject({ start: '22:00', activity: 'sleeping' });
		const omar = dayOf(TOWN[1]);
		expect(omar.at('09:00')).toBe('attending classes');
		expect(omar.at('10:30')).toBe('reading in the Millbrook College library');
		expect(omar.at('13:00')).toBe('working on his essay');
		expect(omar.at('17:00')).toBe('having dinner');
		expect(dayOf(TOWN[2]).at('08:00')).toBe('writing and illustrating at home');
		expect(dayOf(TOWN[2]).at('15:00')).toBe('sketching outdoors');
		const jun = dayOf(TOWN[3]);
		expect(jun.at('08:00')).toBe('having a coffee at the Corner Cafe');
		expect(jun.at('09:00')).toBe('working on his research at home');
		// Up past midnight: the bar until the day ends, no sleep block today.
		const kai = dayOf(TOWN[4]);
		expect(kai.at('15:00')).toBe('opening the Blue Anchor Pub');
		expect(kai.at('23:00')).toBe('tending the bar at the Blue Anchor Pub');
		expect(kai.blocks.at(-1)?.activity).toBe('tending the bar at the Blue Anchor Pub');
		// Working at home all day, she goes out for lunch.
		expect(dayOf(TOWN[5]).at('12:00')).toBe('having lunch at a cafe');
	});

	it('breaks blocks into distinct -ing steps that fit the activity and carry its place', () => {
		for (const p of TOWN) {
			for (const b of dayOf(p).blocks) {
				if (b.activity === 'sleeping' || b.minutes < 60) continue;
				const { subtasks } = offlineAnswer('decompose_task', { name: p.name, summary: p.summary, activity: b.activity, start: b.start, minutes: b.minutes }) as {
					subtasks: { activity: string; minutes: number }[];
				};
				const distinct = new Set(subtasks.map((s) => s.activity));
				expect(distinct.size, b.activity).toBeGreaterThanOrEqual(3);
				expect(distinct.size, b.activity).toBeLessThanOrEqual(6);
				for (const s of subtasks) {
					expect(s.activity, b.activity).toMatch(/^[a-z]+ing\b/);
					expect(s.minutes).toBeGreaterThanOrEqual(5);
					expect(s.minutes).toBeLessThanOrEqual(15);
					expect(s.activity).not.toMatch(/\(/);
				}
			}
		}
		const steps = (activity: string) =>
			(offlineAnswer('decompose_task', { name: 'X', summary: '', activity, start: '09:00', minutes: 60 }) as { subtasks: { activity: string }[] }).subtasks.map((s) => s.activity);
		expect(steps('working the counter at the Corner Cafe').every((s) => s.endsWith(' at the Corner Cafe'))).toBe(true);
		expect(steps('opening the Blue Anchor Pub').every((s) => s.endsWith(' at the Blue Anchor Pub'))).toBe(true);
		expect(steps('having breakfast')).toEqual(['getting breakfast ready', 'eating breakfast', 'finishing breakfast', 'cleaning up after breakfast']);
		expect(steps('having lunch at a cafe')[0]).toBe('ordering lunch at a cafe');
		// Steps of errands and walks say where they happen, so each finds the place on its own.
		expect(steps('running errands').slice(1).every((s) => / at the store$/.test(s))).toBe(true);
		expect(steps('taking a walk').some((s) => / in the park$/.test(s))).toBe(true);
		expect(steps('working on his essay').some((s) => /his essay/.test(s))).toBe(true);
	});

	it('does not begin a block again that goes on from the one before, nor wrap up one the next block goes on with', () => {
		const party = 'attending the Valentine\'s Day party at Hobbs Cafe';
		const steps = (previous: string, next: string) =>
			(offlineAnswer('decompose_task', { name: 'X', summary: '', activity: party, start: '5:00 pm', minutes: 60, previous, next }) as { subtasks: { activity: string }[] }).subtasks.map((s) => s.activity);
		const alone = steps('4:00 pm to 5:00 pm: relaxing at home', '7:00 pm to 8:00 pm: having dinner at home');
		expect(alone[0]).toMatch(/^arriving at /);
		expect(alone.at(-1)).toMatch(/^saying goodbye at /);
		const first = steps('4:00 pm to 5:00 pm: relaxing at home', `6:00 pm to 7:00 pm: ${party}`);
		const second = steps(`5:00 pm to 6:00 pm: ${party}`, '7:00 pm to 8:00 pm: having dinner at home');
		expect(first[0]).toMatch(/^arriving at /);
		expect(first.some((s) => /^saying goodbye/.test(s))).toBe(false);
		expect(second.some((s) => /^arriving/.test(s))).toBe(false);
		expect(second.at(-1)).toMatch(/^saying goodbye at /);
		const middle = steps(`4:00 pm to 5:00 pm: ${party}`, `6:00 pm to 7:00 pm: ${party}`);
		expect(middle.some((s) => /^(arriving|saying goodbye)/.test(s))).toBe(false);
		// every step of the party says where it is, so that each finds its way there
		for (const s of [...first, ...second]) expect(s).toMatch(/ at Hobbs Cafe$/);
		// work goes on hour after hour, each hour beginning one step further along
		const work = (start: string) =>
			(offlineAnswer('decompose_task', { name: 'X', summary: '', activity: 'working the counter at the Corner Cafe', start, minutes: 60, previous: '', next: '' }) as { subtasks: { activity: string }[] }).subtasks.map((s) => s.activity);
		const openings = ['9:00 am', '10:00 am', '11:00 am'].map((t) => work(t)[0]);
		expect(new Set(openings).size).toBe(3);
		// a meal after the night is begun as usual
		const breakfast = (offlineAnswer('decompose_task', { name: 'X', summary: '', activity: 'having breakfast', start: '7:00 am', minutes: 60, previous: '12:00 am to 7:00 am: sleeping (asleep)', next: '8:00 am to 9:00 am: having breakfast' }) as { subtasks: { activity: string }[] }).subtasks.map((s) => s.activity);
		expect(breakfast[0]).toBe('getting breakfast ready');
		expect(breakfast).not.toContain('cleaning up after breakfast');
	});

	it('keeps away from an object last seen burning or broken, unless the activity sees to it', () => {
		const kitchen = { name: 'X', arena: "X's house:kitchen", options: ['stove', 'oven', 'kitchen sink'] };
		const pick = (activity: string, states: string[]) => offlineAnswer('choose_object', { ...kitchen, activity, states }).choice;
		expect(pick('cooking dinner on the stove', [])).toBe('stove');
		expect(pick('cooking dinner on the stove', ['stove: burning'])).not.toBe('stove');
		expect(pick('cooking dinner on the stove', ['stove: in use'])).toBe('stove');
		expect(pick('putting out the fire on the stove', ['stove: burning'])).toBe('stove');
	});

	it('chooses the workplace for work, home for home things, and never someone else’s room', () => {
		const sectors = { name: 'Omar Hale', current: "Omar Hale's house", home: "Omar Hale's house:bedroom", options: ["Omar Hale's house", 'Corner Cafe', 'Millbrook College', 'Millbrook College Dorm', 'Riverside Park', 'Town Market'] };
		const sector = (activity: string, current = sectors.current) => offlineAnswer('choose_sector', { ...sectors, activity, current }).choice;
		expect(sector('serving customers at the Corner Cafe')).toBe('Corner Cafe');
		expect(sector('taking notes in class')).toBe('Millbrook College');
		expect(sector('eating breakfast', 'Corner Cafe')).toBe("Omar Hale's house");
		expect(sector('eating lunch', 'Millbrook College')).toBe('Millbrook College');
		expect(sector('comparing prices at the store')).toBe('Town Market');
		expect(sector('walking along the path in the park')).toBe('Riverside Park');
		expect(sector('greeting neighbours around town')).not.toBe("Omar Hale's house");
		const house = { name: 'Omar Hale', sector: 'Shared House', current: 'kitchen', options: ["Ivy Chen's room", "Omar Hale's room", 'bathroom', 'kitchen', 'common room'] };
		const arena = (activity: string) => offlineAnswer('choose_arena', { ...house, activity }).choice;
		expect(arena('reading a book at home')).toBe("Omar Hale's room");
		expect(arena('drafting his essay at home')).toBe("Omar Hale's room");
		expect(arena('eating dinner')).toBe('kitchen');
		expect(arena('brushing teeth')).toBe('bathroom');
		for (const a of ['sleeping', 'getting dressed', 'relaxing at home', 'watching TV at home']) expect(arena(a), a).not.toBe("Ivy Chen's room");
	});

	it('talks about real news, keeps secrets, does not retell retellings or repeat what was discussed', () => {
		const turn = (memories: string[], history: string[] = [], relationship = '', other = 'Bo Li') =>
			(offlineAnswer('dialogue_turn', { name: 'Ana Quill', summary: '', other, relationship, place: 'the square', time: '10:00 am', memories, history }) as { utterance: string }).utterance;
		const mind = ['Ana Quill has a secret crush on Bo Li', 'Ana Quill keeps thinking about the news that Cy Dunn is running for mayor in the upcoming election', "Ana's plan: eating lunch at 12:00 pm on Friday June 9, 2023"];
		// Someone else's news is passed on to some listeners, not all; secrets, reflections and schedules to none.
		const openers = ['Bo Li', 'Di Ross', 'Ed Fox', 'Flo Grant', 'Gus Hart', 'Hal Moss', 'Ida Wren', 'Jo Kent'].map((other) => turn(mind, [], '', other));
		for (const o of openers) expect(o).not.toMatch(/secret|crush|keeps thinking|plan:|lunch/);
		const told = openers.filter((o) => /mayor/.test(o));
		expect(told.length).toBeGreaterThan(0);
		expect(told.length).toBeLessThan(openers.length);
		for (const o of told) expect(o).toMatch(/(?:Did you hear\?|Have you heard\?|By the way,) Cy Dunn is running for mayor in the upcoming election\.$/);
		// The same news is not told again to someone it was discussed with.
		const own = ['Ana Quill is running for mayor in the upcoming election'];
		expect(turn(own)).toMatch(/I am running for mayor in the upcoming election\./);
		expect(turn(own, [], 'Ana Quill knows Bo Li. Ana Quill talked with Bo Li about the upcoming election.')).not.toMatch(/mayor/);
		// Own plans are told in the first person, whole.
		expect(turn(['Ana Quill is planning a picnic at Riverside Park on June 10 from 1pm to 3pm, and she wants to invite her friends'])).toMatch(
			/I am planning a picnic at Riverside Park on June 10 from 1pm to 3pm, and I want to invite my friends\. Would you like to come\?/
		);
		// A memo is one bookkeeping sentence and the facts heard, never a memo of a memo.
		const memo = offlineAnswer('conversation_memo', {
			name: 'Bo Li',
			other: 'Ana Quill',
			transcript: [
				'Ana Quill: Hi Bo! Did you hear? Cy Dunn is running for mayor in the upcoming election.',
				'Bo Li: Wow, I didn\'t know that. What about you?',
				'Ana Quill: Busy, but good. I am writing my thesis on river birds.',
				'Bo Li: Good for you! Bye!'
			]
		}) as { summary: string; plan_note: string };
		expect(memo.summary).toBe('Bo Li talked with Ana Quill about the upcoming election. Cy Dunn is running for mayor in the upcoming election. Ana Quill is writing their thesis on river birds.');
		expect(memo.plan_note).toBe('');
	});

	it('reflects in its own words without nesting earlier reflections', () => {
		const memories = [
			'Bo Li keeps thinking about the news that Cy Dunn is running for mayor in the upcoming election.',
			'Bo Li talked with Ana Quill about the upcoming election. Cy Dunn is running for mayor in the upcoming election.',
			'Ana Quill is eating lunch',
			'Bo Li talked with Ana Quill. They made small talk.'
		];
		const { insights } = offlineAnswer('reflection_insights', { name: 'Bo Li', question: 'What is Bo Li\'s relationship with Ana Quill?', memories }) as { insights: { insight: string; evidence: number[] }[] };
		expect(insights.length).toBeGreaterThan(0);
		for (const i of insights) {
			expect(i.insight).not.toMatch(/news that .*news that|thinking about this: .*thinking about/);
			expect(memories.map((m) => m.replace(/\.$/, ''))).not.toContain(i.insight.replace(/\.$/, ''));
		}
		expect(insights.some((i) => i.insight === 'Bo Li and Ana Quill have been talking about the upcoming election.' && i.evidence.includes(2))).toBe(true);
	});
});

/** What the stand-in must never write when it speaks as the agent. */
function expectGrammaticalFirstPerson(answer: string, who: string): void {
	expect(answer, who).not.toMatch(/\bme (?:is|am|are|was|has|have|goes|does|will)\b/i);
	expect(answer, who).not.toMatch(/\bI (?:is|are|has|does|goes|wants|runs|takes|wakes|eats|lives|loves|works|plans|needs)\b/);
	expect(answer, who).not.toMatch(/\bgoe\b|\bName: me\b|\(age: \d+\)|Innate traits:/);
	expect(answer, who).not.toMatch(/\bam \d+ years old and is\b|\band is\b(?=[^.]*\bI\b)/);
	// no "I <verb>s" left: every verb right after "I" agrees with it
	for (const m of answer.matchAll(/\bI (?:often |always |usually |also |never |still |just )?([a-z]+s)\b/g)) {
		expect(['was', 'always', 'sometimes', 'perhaps', 'discuss', 'miss', 'guess', 'pass', 'dress', 'focus', 'access'], `${who}: "${m[0]}" in ${answer}`).toContain(m[1]);
	}
}

describe('speaking as oneself', () => {
	const cases: [string, string, 'she' | 'he' | undefined, string][] = [
		['Ana goes to bed around 11pm, wakes up around 6am', 'Ana Quill', undefined, 'I go to bed around 11pm, wake up around 6am'],
		['Ana Quill is 34 years old and is friendly, outgoing, hospitable.', 'Ana Quill', 'she', 'I am 34 years old and am friendly, outgoing, hospitable.'],
		['Ana Quill runs the Corner Cafe and takes pride in her coffee', 'Ana Quill', 'she', 'I run the Corner Cafe and take pride in my coffee'],
		['Lately: Ana Quill is planning a picnic, and she wants to invite her friends', 'Ana Quill', 'she', 'Lately, I am planning a picnic, and I want to invite my friends'],
		['Cy Dunn runs the pub; he and Ana Quill trade tips on running a small business', 'Ana Quill', 'she', 'Cy Dunn runs the pub; he and I trade tips on running a small business'],
		['Bo Li said that Ana is planning a party', 'Ana Quill', 'she', 'Bo Li said that I am planning a party'],
		['Bo Li invited Ana Quill to the party', 'Ana Quill', 'she', 'Bo Li invited me to the party'],
		['Bo Quill is married to Ana Quill, a painter', 'Ana Quill', undefined, 'Bo Quill is married to me, a painter'],
		["Ana Quill's garden is blooming", 'Ana Quill', undefined, 'My garden is blooming'],
		['Ana Quill lives alone and bakes the bread herself', 'Ana Quill', 'she', 'I live alone and bake the bread myself'],
		['Ana Quill and Bo Li are friends', 'Ana Quill', 'she', 'Bo Li and I are friends'],
		['Ana Quill often watches the river and misses her sister', 'Ana Quill', 'she', 'I often watch the river and miss my sister'],
		['Ana Quill met Bo Li and he likes her cafe', 'Ana Quill', 'she', 'I met Bo Li and he likes her cafe'],
		['Ana Quill does the accounts, has a cat and studies at night', 'Ana Quill', 'she', 'I do the accounts, have a cat and study at night'],
		['Ana Quill is a retired nurse who has lived here all her life', 'Ana Quill', 'she', 'I am a retired nurse who has lived here all my life'],
		['Ana Quill thinks Bo works hard and studies a lot', 'Ana Quill', 'she', 'I think Bo works hard and studies a lot'],
		['Ana Quill loves the people she knows', 'Ana Quill', 'she', 'I love the people I know']
	];
	it.each(cases)('%s', (text, name, pronoun, expected) => {
		expect(speakAsSelf(text, name, pronoun)).toBe(expected);
	});
});

describe('interviews of Smallville residents', () => {
	/** The offline stand-in as the engine's model, without the gateway. */
	const standIn: ModelPort = {
		dimensions: OFFLINE_DIMENSIONS,
		complete: async (req) => ({ value: offlineAnswer(req.template, req.vars) as never, failsafe: false }),
		embed: async (texts) => texts.map((t) => hashEmbed(t))
	};
	const workplaces: Record<string, RegExp> = {
		'isabella-rodriguez': /Hobbs Cafe/,
		'john-lin': /The Willows Market and Pharmacy/,
		'tom-moreno': /The Willows Market and Pharmacy/,
		'carmen-ortiz': /Harvey Oak Supply Store/,
		'arthur-burton': /The Rose and Crown Pub/,
		'klaus-mueller': /Oak Hill College/,
		'mei-lin': /Oak Hill College/,
		'ryan-park': /\bhome\b/,
		'yuriko-yamamoto': /\bhome office\b|\bhome\b/
	};
	const questions = [
		'Give an introduction of yourself.',
		"What's your name?",
		'How old are you?',
		"What's your occupation?",
		'What do you do for work?',
		'What are your plans for today?',
		'What do you do in the evening?',
		'Describe your typical weekday schedule in broad strokes.',
		'What will you be doing at 6 pm today?',
		'What is your interest?',
		'You need to cook dinner but your refrigerator is empty. What would you do?'
	];

	it('answer in grammatical first person from the persona: name, age, occupation with the workplace, plans, evenings', async () => {
		const { def } = await loadWorld('smallville');
		const { sim } = await Simulation.create(def, { seed: 1 }, standIn);
		const check = async () => {
			for (const id of Object.keys(workplaces)) {
				const persona = def.personas.find((p) => p.id === id)!;
				const answers: Record<string, string> = {};
				for (const q of questions) {
					answers[q] = (await sim.interview(id, 'an interviewer', q, standIn)).answer;
					expectGrammaticalFirstPerson(answers[q], `${id} at step ${sim.state.step}: ${q}`);
				}
				expect(answers["What's your name?"]).toContain(persona.name);
				expect(answers['How old are you?']).toContain(String(persona.age));
				expect(answers['Give an introduction of yourself.']).toMatch(new RegExp(`^Hi, I'm ${persona.name}\\. I'm ${persona.age} years old`));
				for (const q of ["What's your occupation?", 'What do you do for work?']) {
					expect(answers[q], `${id}: ${q}`).toMatch(workplaces[id]);
					expect(answers[q], `${id}: ${q}`).not.toMatch(/I don't know/);
				}
				expect(answers['What do you do in the evening?'], id).toMatch(/^(?:In the evening, )?I\b/);
				// a reaction question is not a question about one's evenings
				expect(answers['You need to cook dinner but your refrigerator is empty. What would you do?'], id).not.toMatch(/^In the evening/);
			}
		};
		await check();
		// later in the day, with plans made and places seen
		for (let i = 0; i < 700; i++) await sim.step([], standIn);
		await check();
		const plans = (await sim.interview('isabella-rodriguez', 'an interviewer', 'What will you be doing at 6 pm today?', standIn)).answer;
		expect(plans).toMatch(/^At 6 pm, I'll be working the counter at Hobbs Cafe/);
	}, 120_000);
});
