import { describe, expect, it } from 'vitest';
import type { EventReport, FactDiffusion, NetworkReport } from '$lib/api/eval';
import { attendanceFigures, conditionLabel, debuggerQuery, densityText, diffusionFigures, duration, frameOf, hallucinationText, knowersText, percent } from './format';

const point = (step: number, knowers: number, share: number, hallucinated = 0) => ({
	step,
	time: '2023-02-13T07:00:00',
	knowers,
	share,
	affirmative: knowers + hallucinated,
	hallucinated,
	partial: 1,
	memoryOnly: 2,
	unclear: 0
});

describe('figures', () => {
	it('writes shares as percentages with at most one decimal', () => {
		expect(percent(0.04)).toBe('4%');
		expect(percent(0.52)).toBe('52%');
		expect(percent(0.3333)).toBe('33.3%');
		expect(percent(0.6667)).toBe('66.7%');
		expect(percent(0)).toBe('0%');
		expect(percent(1)).toBe('100%');
		expect(percent(NaN)).toBe('–');
	});

	it('gives a fact\'s diffusion from start to end, and the last sample\'s hallucinated answers', () => {
		const d: FactDiffusion = {
			fact: { id: 'party', label: 'the party', keywords: ['party'] },
			question: 'Did you know about the party?',
			seedHolders: ['a'],
			start: { step: 0, knowers: 1, share: 0.04 },
			end: { step: 100, knowers: 13, share: 0.52 },
			series: [point(0, 1, 0.04), point(100, 13, 0.52, 3)],
			answers: []
		};
		expect(knowersText(d.end)).toBe('13 (52%)');
		expect(diffusionFigures(d)).toEqual({ start: '1 (4%)', end: '13 (52%)', hallucinated: 3, partial: 1, memoryOnly: 2 });
	});

	it('gives densities with three decimals and hallucination rates', () => {
		expect(densityText(0.12666)).toBe('0.127');
		expect(densityText(1)).toBe('1.000');
		const n = { hallucinated: 3, affirmative: 40, hallucinationRate: 0.075 } as NetworkReport;
		expect(hallucinationText(n)).toBe('3 of 40 (7.5%)');
	});

	it('says "not reached" for attendance before an event\'s window, counts after', () => {
		const e: EventReport = {
			fact: 'party',
			label: 'the party',
			event: { place: 'Hobbs Cafe', start: '2023-02-14T17:00:00', end: '2023-02-14T19:00:00', host: 'isabella' },
			status: 'not-reached',
			invited: [],
			planned: [],
			attended: [],
			hostPresent: null,
			counts: { invited: 4, invitedBeforeStart: 4, planned: 2, plannedRightTimeAndPlace: 1, attended: 0, attendedRightTimeAndPlace: 0 }
		};
		expect(attendanceFigures(e)).toEqual({
			status: 'not reached',
			invited: '4',
			invitedBeforeStart: '4',
			planned: '2',
			plannedRightTimeAndPlace: '1',
			attended: 'not reached',
			onTime: 'not reached',
			host: 'not reached'
		});
		const done = attendanceFigures({ ...e, status: 'complete', hostPresent: true, counts: { ...e.counts, attended: 5, attendedRightTimeAndPlace: 3 } });
		expect([done.status, done.attended, done.onTime, done.host]).toEqual(['complete', '5', '3', 'present']);
	});
});

describe('links and names', () => {
	it('shows what step s did on frame s + 1, never past the evaluated state', () => {
		expect(frameOf(0, 500)).toBe(1);
		expect(frameOf(41, 500)).toBe(42);
		expect(frameOf(500, 500)).toBe(500);
		expect(frameOf(0, 0)).toBe(0);
	});

	it('builds the debugger query for an agent at a frame', () => {
		expect(debuggerQuery(42, 'klaus-mueller')).toBe('?step=42&agent=klaus-mueller');
		expect(debuggerQuery(7, 'a b', 'chats')).toBe('?step=7&agent=a+b&tab=chats');
	});

	it('names the paper\'s conditions and keeps other ids', () => {
		expect(conditionLabel('no-reflection')).toBe('no reflection');
		expect(conditionLabel('crowdworker')).toBe('crowdworker');
		expect(conditionLabel('human')).toBe('human-written (crowdworker)');
	});

	it('writes durations', () => {
		expect(duration(1234)).toBe('1.2 s');
		expect(duration(42_000)).toBe('42 s');
		expect(duration(125_000)).toBe('2 min 05 s');
	});
});
