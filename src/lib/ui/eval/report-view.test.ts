// The report's figures and charts as the server renders them: the text behind each test id, the
// charts' accessible names and their marks, from a small report written out here.

import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import type { DiffusionPoint, EvalReport, KnowsAnswer, NetworkReport } from '$lib/api/eval';
import AttendanceChart from './AttendanceChart.svelte';
import DiffusionChart from './DiffusionChart.svelte';
import FiguresPanel from './FiguresPanel.svelte';
import KnowsPanel from './KnowsPanel.svelte';
import NetworkChart from './NetworkChart.svelte';

const agents = ['ann', 'bob', 'cy', 'dee'].map((id) => ({ id, name: `${id[0].toUpperCase()}${id.slice(1)} Smith` }));
const samples = [
	{ step: 0, time: '2023-02-13T07:00:00' },
	{ step: 360, time: '2023-02-13T08:00:00' },
	{ step: 720, time: '2023-02-13T09:00:00' }
];

const point = (k: number, knowers: number, hallucinated = 0): DiffusionPoint => ({
	step: samples[k].step,
	time: samples[k].time,
	knowers,
	share: knowers / 4,
	affirmative: knowers + hallucinated,
	hallucinated,
	partial: 0,
	memoryOnly: 0,
	unclear: 0
});

const knows = (agent: string, step: number): KnowsAnswer => ({
	agent,
	answer: 'Yes, Ann told me about the party.',
	verdict: 'affirmative',
	reason: 'opens with yes',
	knows: true,
	hallucinated: false,
	partial: false,
	seedHolder: agent === 'ann',
	supportCount: 1,
	support: [{ id: `${agent}/m3`, kind: 'conversation', step: step - 10, description: 'Ann talked about the party' }],
	source:
		agent === 'ann'
			? { how: 'seed', memory: { id: 'ann/m1', kind: 'thought', step: 0, description: 'Ann plans a party' } }
			: {
					how: 'conversation',
					from: 'ann',
					memory: { id: `${agent}/m3`, kind: 'conversation', step: step - 10, description: 'Ann talked about the party' },
					conversation: { id: `c${step - 10}-ann-${agent}`, step: step - 10, time: '2023-02-13T07:58:20', with: 'ann' }
				}
});

const network = (step: number, edges: [string, string][], affirmative: number, hallucinated: number): NetworkReport => ({
	step,
	time: samples.find((s) => s.step === step)!.time,
	agents: 4,
	density: (2 * edges.length) / 12,
	edges,
	answers: 12,
	affirmative,
	hallucinated,
	hallucinationRate: affirmative ? hallucinated / affirmative : 0,
	memoryDensity: 0.5,
	memoryEdges: 3,
	details: []
});

const report: EvalReport = {
	schema: 1,
	run: 'town-1',
	world: 'town',
	step: 720,
	time: '2023-02-13T09:00:00',
	created: '2023-03-01T10:00:00.000Z',
	model: 'offline stand-in',
	agents,
	samples,
	everySteps: 360,
	diffusion: [
		{
			fact: { id: 'party', label: 'the party at the cafe', keywords: ['party'] },
			question: 'Did you know about the party at the cafe?',
			seedHolders: ['ann'],
			start: { step: 0, knowers: 1, share: 0.25 },
			end: { step: 720, knowers: 3, share: 0.75 },
			series: [point(0, 1), point(1, 2), point(2, 3, 1)],
			answers: [
				{ step: 0, answers: [knows('ann', 10)] },
				{ step: 360, answers: [knows('ann', 10), knows('bob', 300)] },
				{ step: 720, answers: [knows('ann', 10), knows('bob', 300), knows('cy', 700)] }
			]
		}
	],
	relationships: {
		start: network(0, [['ann', 'bob']], 3, 1),
		end: network(720, [['ann', 'bob'], ['ann', 'cy'], ['bob', 'cy']], 7, 0)
	},
	events: [
		{
			fact: 'party',
			label: 'the party at the cafe',
			event: { place: 'Cafe', start: '2023-02-14T17:00:00', end: '2023-02-14T19:00:00', host: 'ann' },
			status: 'not-reached',
			invited: [],
			planned: [],
			attended: [],
			hostPresent: null,
			counts: { invited: 2, invitedBeforeStart: 2, planned: 1, plannedRightTimeAndPlace: 1, attended: 0, attendedRightTimeAndPlace: 0 }
		}
	],
	timings: { totalMs: 1200, restoreMs: 500, interviewMs: 600, journalMs: 100, restores: 3, interviews: 24 }
};

/** The text of the element carrying `data-testid="id"` (a leaf element), whitespace collapsed. */
function textOf(html: string, id: string): string {
	const m = new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html);
	if (!m) throw new Error(`no element with test id ${id}`);
	return m[1].replace(/\s+/g, ' ').trim();
}

/** The opening tag of the element carrying `data-testid="id"`. */
function tagOf(html: string, id: string): string {
	const m = new RegExp(`<[a-z]+[^>]*data-testid="${id}"[^>]*>`).exec(html);
	if (!m) throw new Error(`no element with test id ${id}`);
	return m[0];
}

describe('figures', () => {
	const body = render(FiguresPanel, { props: { report } }).body;

	it('gives each fact\'s diffusion from start to end with the hallucinated answers', () => {
		expect(textOf(body, 'diffusion-party-start')).toBe('1 (25%)');
		expect(textOf(body, 'diffusion-party-end')).toBe('3 (75%)');
		expect(textOf(body, 'diffusion-party-hallucinated')).toBe('1');
		expect(tagOf(body, 'diffusion-party-end')).toContain('data-share="0.75"');
	});

	it('gives the network\'s density, answers and hallucination at the start and the end', () => {
		expect(textOf(body, 'density-start')).toBe('0.167');
		expect(textOf(body, 'density-end')).toBe('0.500');
		expect(textOf(body, 'edges-end')).toBe('3');
		expect(textOf(body, 'affirmative-start')).toBe('3');
		expect(textOf(body, 'answers-start')).toBe('12');
		expect(textOf(body, 'hallucinated-start')).toBe('1');
		expect(textOf(body, 'hallucination-rate-start')).toBe('33.3%');
		expect(textOf(body, 'memory-density-end')).toBe('0.500');
	});

	it('says "not reached" for attendance before the event, with the invitations so far', () => {
		expect(tagOf(body, 'attendance-party')).toContain('data-status="not-reached"');
		expect(textOf(body, 'attendance-party-status')).toBe('not reached');
		expect(textOf(body, 'attendance-party-invited')).toBe('2');
		expect(textOf(body, 'attendance-party-planned')).toBe('1');
		expect(textOf(body, 'attendance-party-attended')).toBe('not reached');
		expect(textOf(body, 'attendance-party-on-time')).toBe('not reached');
	});
});

describe('charts', () => {
	it('draws diffusion as a line per fact with a marker per sampled step, named for readers', () => {
		const body = render(DiffusionChart, { props: { report } }).body;
		const svg = tagOf(body, 'chart-diffusion');
		expect(svg).toContain('role="img"');
		expect(svg).toContain('aria-label="Diffusion over game time, Mon 07:00 to Mon 09:00: the party at the cafe known by 25% at the start and 75% at the end"');
		const markers = body.slice(body.indexOf('data-testid="diffusion-markers-party"'));
		expect(markers.match(/<circle/g)?.length).toBeGreaterThanOrEqual(3);
		expect([...markers.matchAll(/data-step="(\d+)"/g)].slice(0, 3).map((m) => Number(m[1]))).toEqual([0, 360, 720]);
		expect(tagOf(body, 'diffusion-line-party')).toMatch(/d="M\S+ \S+ L\S+ \S+ L\S+ \S+"/);
	});

	it('draws the network at the end with one line per mutual edge', () => {
		const body = render(NetworkChart, { props: { report } }).body;
		const svg = tagOf(body, 'chart-network');
		expect(svg).toContain('role="img"');
		expect(svg).toContain('aria-label="Relationship network at the end (step 720): 4 agents, 3 mutual edges, density 0.500"');
		expect(body.match(/<line[^>]*data-a=/g)).toHaveLength(3);
		// each agent's button says how many mutual edges it has
		const degree = (id: string) => Number(new RegExp(`data-testid="network-agent-${id}"[\\s\\S]*?class="deg[^"]*"[^>]*>(\\d+)<`).exec(body)?.[1]);
		expect(['ann', 'bob', 'cy', 'dee'].map(degree)).toEqual([2, 2, 2, 0]);
		expect(tagOf(body, 'network-agent-dee')).toContain('aria-pressed="false"');
	});

	it('draws attendance bars, "not reached" for attendance before the window', () => {
		const body = render(AttendanceChart, { props: { report } }).body;
		const svg = tagOf(body, 'chart-attendance-party');
		expect(svg).toContain('aria-label="Attendance at the party at the cafe (not reached), of 3 agents: invited 2, planned 1, attended not reached, on time and knowing not reached"');
		expect(body).toMatch(/data-bar="invited" data-count="2"/);
		expect(body).toMatch(/data-bar="attended">not reached</);
	});
});

describe('who knows what', () => {
	it('lists the last sample\'s answers with their source linked to the debugger', () => {
		const body = render(KnowsPanel, { props: { report } }).body;
		expect(tagOf(body, 'knows-table')).toContain('data-step="720"');
		expect(body.match(/<tr id="knows-[a-z]+"/g)).toHaveLength(3);
		// cy heard it at step 690: the conversation shows on frame 691
		expect(body).toContain('href="/runs/town-1?step=691&amp;agent=cy&amp;tab=chats"');
		expect(body).toContain('scenario seed');
	});
});
