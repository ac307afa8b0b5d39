// The commit line's one reader: what is cut out of a line is what parsing it gives.

import { describe, expect, it } from 'vitest';
import type { AgentView } from '../../engine/sim';
import {
	AgentCuts,
	agentsRange,
	commitFrameText,
	commitHasConversations,
	commitHeadIsEmpty,
	commitLineMemories,
	commitLineStep,
	commitLineText,
	commitParts,
	conversationsRange,
	cutCommitLine,
	headRange,
	parseCommitHead,
	parseCommitLine,
	type StepLine
} from './commit-line';

const agent = (id: string, x: number, y: number, activity: string): AgentView => ({
	id,
	name: id.toUpperCase(),
	x,
	y,
	activity,
	emoji: '☕',
	address: 'town:cafe',
	chatWith: '',
	path: [
		[x, y],
		[x + 1, y]
	]
});

const quiet: StepLine = { step: 7, time: 70_000, inputs: [], events: [], conversations: [], agents: [agent('a', 1, 2, 'sipping "tea"'), agent('b', 30, 4, 'reading')], calls: 3, memories: 2 };
const talk: StepLine = {
	...quiet,
	step: 8,
	events: [{ kind: 'conversation', agents: ['a', 'b'], id: 'c8-a-b' }],
	conversations: [{ id: 'c8-a-b', step: 8, agents: ['a', 'b'], lines: [{ speaker: 'a', text: 'hi, "b"' }] } as unknown as StepLine['conversations'][number]]
};

describe('the commit line', () => {
	it('is written with its members in one order and parses back', () => {
		const { step, ...rest } = quiet;
		const text = commitLineText({ ...rest, step });
		expect(text.startsWith('{"step":7,"time":70000,"inputs":[],"events":[],"conversations":[],"agents":[{')).toBe(true);
		expect(text.endsWith(',"calls":3,"memories":2}')).toBe(true);
		expect(parseCommitLine(text)).toEqual(quiet);
	});

	it('is cut where parsing it would find the same values', () => {
		for (const line of [quiet, talk]) {
			const text = commitLineText(line);
			// the line inside a longer text, as the diff holds a log
			const t = `{"step":1}\n${text}\n{"step":99}`;
			const start = t.indexOf('\n') + 1;
			const end = start + text.length;
			const c = cutCommitLine(t, start, end)!;
			expect(c).not.toBeNull();
			expect(commitLineStep(t, start)).toBe(line.step);
			expect(commitLineMemories(t, start, end)).toBe(line.memories);
			expect(JSON.parse(t.slice(...agentsRange(c)))).toEqual(line.agents);
			expect(JSON.parse(t.slice(...conversationsRange(c)))).toEqual(line.conversations);
			expect(parseCommitHead(t.slice(...headRange(c)) + '}')).toEqual({ step: line.step, time: line.time, inputs: line.inputs, events: line.events, conversations: line.conversations });
			expect(commitHeadIsEmpty(t, c)).toBe(line === quiet);
			expect(commitHasConversations(text)).toBe(line === talk);
			const parts = commitParts(t, c);
			expect(parts.time).toBe(',"time":70000');
			expect(parts.counts).toBe(`,"calls":3,"memories":2}`);
			const cuts = new AgentCuts(2);
			cuts.read(t, c, 'test');
			expect([...cuts.x, ...cuts.y]).toEqual([1, 30, 2, 4]);
			expect(JSON.parse(`{${cuts.action[0]}}`)).toEqual({ activity: 'sipping "tea"', emoji: '☕', address: 'town:cafe' });
		}
	});

	it('gives the frame after its step, cut or parsed', () => {
		const text = commitLineText(talk);
		const frame = { step: 9, time: 80_000, agents: talk.agents, conversations: talk.conversations };
		expect(JSON.parse(commitFrameText(text, talk, 10))).toEqual(frame);
		expect(JSON.parse(commitFrameText(text, undefined, 10))).toEqual(frame);
	});

	it('refuses a line that is not one', () => {
		expect(cutCommitLine('{"step":1,"time":0}')).toBeNull();
		expect(commitLineStep('{"s":1}')).toBeNaN();
		expect(() => new AgentCuts(3).read(commitLineText(quiet), cutCommitLine(commitLineText(quiet))!, 'three agents')).toThrow(/not as written by the engine/);
	});
});
