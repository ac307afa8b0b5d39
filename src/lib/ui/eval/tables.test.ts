import { describe, expect, it } from 'vitest';
import type { EventReport, FactDiffusion, InterviewAnswerRecord, InterviewSet, KnowsAnswer } from '$lib/api/eval';
import { answersAt, attendanceRows, diffusionTable, filterInterviewRows, interviewRows, knowsMatrix, knowsState, neighbours } from './tables';

const answer = (agent: string, over: Partial<KnowsAnswer> = {}): KnowsAnswer => ({
	agent,
	answer: 'No.',
	verdict: 'negative',
	reason: 'opens with no',
	knows: false,
	hallucinated: false,
	partial: false,
	seedHolder: false,
	supportCount: 0,
	support: [],
	...over
});

const agents = [
	{ id: 'a', name: 'Ann' },
	{ id: 'b', name: 'Bob' },
	{ id: 'c', name: 'Cy' }
];

describe('knows answers', () => {
	it('tells how each answer counts', () => {
		expect(knowsState(answer('a', { knows: true, verdict: 'affirmative' }))).toBe('knows');
		expect(knowsState(answer('a', { hallucinated: true, verdict: 'affirmative' }))).toBe('hallucinated');
		expect(knowsState(answer('a', { partial: true, verdict: 'affirmative' }))).toBe('partial');
		expect(knowsState(answer('a', { supportCount: 2 }))).toBe('memory-only');
		expect(knowsState(answer('a'))).toBe('no');
		expect(knowsState(answer('a', { verdict: 'unclear', supportCount: 0 }))).toBe('unclear');
	});

	const d: FactDiffusion = {
		fact: { id: 'f', label: 'f', keywords: ['f'] },
		question: 'Did you know about f?',
		seedHolders: ['a'],
		start: { step: 0, knowers: 1, share: 1 / 3 },
		end: { step: 60, knowers: 2, share: 2 / 3 },
		series: [],
		answers: [
			{ step: 0, answers: [answer('a', { knows: true }), answer('c')] },
			{ step: 60, answers: [answer('c', { knows: true }), answer('a', { knows: true }), answer('b')] }
		]
	};

	it('lines the answers up as agents x sampled steps, gaps where an agent was not asked', () => {
		const rows = knowsMatrix(d, agents);
		expect(rows.map((r) => r.agent)).toEqual(['a', 'b', 'c']);
		expect(rows.map((r) => r.cells.map((c) => (c ? knowsState(c) : null)))).toEqual([
			['knows', 'knows'],
			[null, 'no'],
			['no', 'knows']
		]);
	});

	it('finds the answers of a sampled step, the last for a step not sampled', () => {
		expect(answersAt(d, 0).answers).toHaveLength(2);
		expect(answersAt(d, 33).step).toBe(60);
	});

	it('makes the diffusion data table: a row per sample, a column per fact', () => {
		const p = (step: number, knowers: number) => ({ step, time: `t${step}`, knowers, share: knowers / 3, affirmative: knowers, hallucinated: 0, partial: 0, memoryOnly: 0, unclear: 0 });
		const rows = diffusionTable({
			samples: [
				{ step: 0, time: 't0' },
				{ step: 60, time: 't60' }
			],
			diffusion: [
				{ ...d, series: [p(0, 1), p(60, 2)] },
				{ ...d, series: [p(60, 3)] }
			]
		});
		expect(rows.map((r) => [r.step, r.time, r.facts.map((f) => f?.knowers ?? null)])).toEqual([
			[0, 't0', [1, null]],
			[60, 't60', [2, 3]]
		]);
	});
});

describe('networks and events', () => {
	it('lists each agent\'s neighbours, agents without edges included', () => {
		const n = neighbours({ edges: [['a', 'c'], ['a', 'b']] }, ['a', 'b', 'c', 'd']);
		expect(Object.fromEntries(n)).toEqual({ a: ['b', 'c'], b: ['a'], c: ['a'], d: [] });
	});

	it('joins the invited, planning and attending agents of an event', () => {
		const memory = { id: 'm', kind: 'conversation' as const, step: 3, description: 'party' };
		const e = {
			invited: [{ agent: 'c', from: 'a', step: 3, time: 't', beforeStart: true, memory }],
			planned: [{ agent: 'b', memory, rightTimeAndPlace: true }],
			attended: [{ agent: 'c', arrived: 't2', minutes: 30, knew: true, invited: true, planned: false }]
		} as unknown as EventReport;
		const rows = attendanceRows(e);
		expect(rows.map((r) => [r.agent, !!r.invited, !!r.planned, !!r.attended])).toEqual([
			['b', false, true, false],
			['c', true, false, true]
		]);
	});
});

describe('interview answers', () => {
	const rec = (agent: string, question: string, condition: InterviewAnswerRecord['condition']): InterviewAnswerRecord => ({
		agent,
		question,
		condition,
		text: `${question}?`,
		answer: `${agent} ${question} ${condition}`,
		memories: []
	});
	const set: Pick<InterviewSet, 'agents' | 'questions' | 'answers'> = {
		agents: agents.slice(0, 2),
		questions: [
			{ id: 'occupation', category: 'self-knowledge', text: 'occupation?' },
			{ id: 'who-is-name', category: 'memory', text: 'Who is [name]?' }
		],
		answers: [
			rec('a', 'occupation', 'full'),
			rec('a', 'occupation', 'no-reflection'),
			rec('a', 'who-is-name', 'full'),
			rec('b', 'occupation', 'full'),
			rec('b', 'occupation', 'no-reflection')
		]
	};

	it('puts the conditions side by side per agent and question, in the set\'s order', () => {
		const rows = interviewRows(set);
		expect(rows.map((r) => [r.agent, r.question, Object.keys(r.answers)])).toEqual([
			['a', 'occupation', ['full', 'no-reflection']],
			['a', 'who-is-name', ['full']],
			['b', 'occupation', ['full', 'no-reflection']]
		]);
		expect(rows[2].answers['no-reflection']?.answer).toBe('b occupation no-reflection');
		expect(rows[1].category).toBe('memory');
	});

	it('puts a human-written answer beside the model\'s, where a person wrote one', () => {
		const human = { agent: 'b', question: 'occupation', condition: 'human' as const, text: 'occupation?', answer: 'I bake bread.', updated: '2024-01-01T00:00:00.000Z' };
		const rows = interviewRows({ ...set, human: [human] });
		expect(rows.map((r) => r.human?.answer)).toEqual([undefined, undefined, 'I bake bread.']);
		expect('human' in interviewRows(set)[0]).toBe(false);
	});

	it('filters rows by agent and category', () => {
		const rows = interviewRows(set);
		expect(filterInterviewRows(rows, 'a', '').length).toBe(2);
		expect(filterInterviewRows(rows, '', 'self-knowledge').map((r) => r.agent)).toEqual(['a', 'b']);
		expect(filterInterviewRows(rows, 'b', 'memory')).toEqual([]);
	});
});
