// Words and figures of the compare view.

import { describe, expect, it } from 'vitest';
import type { FailsafeRow } from '$lib/api/diff';
import { agentDifferenceText, changeValue, delta, kindList, mergeOverrides, plural, rateDiffers, rateText, REASON_TEXT } from './format';

const row = (a: [number, number], b: [number, number]): FailsafeRow => ({
	template: 'react',
	a: { calls: a[0], failsafes: a[1], rate: a[0] ? a[1] / a[0] : 0 },
	b: { calls: b[0], failsafes: b[1], rate: b[0] ? b[1] / b[0] : 0 }
});

describe('compare figures', () => {
	it('writes fail-safe rates', () => {
		expect(rateText({ calls: 0, rate: 0 })).toBe('—');
		expect(rateText({ calls: 10, rate: 0 })).toBe('0%');
		expect(rateText({ calls: 200, rate: 0.025 })).toBe('2.5%');
		expect(rateText({ calls: 8, rate: 0.125 })).toBe('13%');
	});

	it('tells templates whose fail-safe rate differs', () => {
		expect(rateDiffers(row([100, 2], [100, 2]))).toBe(false);
		expect(rateDiffers(row([100, 2], [50, 1]))).toBe(false);
		expect(rateDiffers(row([100, 2], [100, 3]))).toBe(true);
		// called by one run only: differs when that run fell back
		expect(rateDiffers(row([0, 0], [10, 0]))).toBe(false);
		expect(rateDiffers(row([0, 0], [10, 1]))).toBe(true);
	});

	it('writes deltas, counts and empty values', () => {
		expect(delta(5, 8)).toBe('+3');
		expect(delta(8, 5)).toBe('−3');
		expect(delta(4, 4)).toBe('0');
		expect(plural(1, 'frame')).toBe('1 frame');
		expect(plural(8640, 'frame')).toBe('8,640 frames');
		expect(changeValue(null)).toBe('—');
		expect(changeValue('0.5')).toBe('0.5');
	});

	it('lists a setting changed by an override once, marked as an override', () => {
		const shown = mergeOverrides([
			{ kind: 'seed', key: 'seed', a: '1', b: '2' },
			{ kind: 'setting', key: 'retrieval.weights.relevance', a: '1', b: '2' },
			{ kind: 'setting', key: 'retrieval.topK', a: '30', b: '20' },
			{ kind: 'override', key: 'retrieval.weights.relevance', a: null, b: '2' }
		]);
		expect(shown.map((c) => [c.kind, c.key, c.override ?? false])).toEqual([
			['seed', 'seed', false],
			['setting', 'retrieval.weights.relevance', true],
			['setting', 'retrieval.topK', false]
		]);
	});

	it("says 'the same in both runs' only of an agent with no difference of any kind", () => {
		expect(agentDifferenceText([])).toBeNull();
		// Klaus of the reflections pair: moves the same, reflected 7 times in A and 5 in B
		expect(agentDifferenceText([
			{ kind: 'reflections', count: 2, first: 1291 },
			{ kind: 'calls', count: 50, first: 279 }
		])).toBe('moves the same · reflections (2), model calls (50) differ');
		expect(agentDifferenceText([{ kind: 'moves', count: 60, first: 181 }])).toBe('');
		expect(agentDifferenceText([
			{ kind: 'moves', count: 60, first: 181 },
			{ kind: 'memories', count: 25, first: 181 }
		])).toBe('memories (25) differ too');
	});

	it('names kinds of difference and different calls', () => {
		expect(kindList(['moves', 'reflections', 'calls'])).toBe('moves, reflections and model calls');
		expect(kindList(['calls'])).toBe('model calls');
		expect(REASON_TEXT.call).toMatch(/different calls/);
	});
});
