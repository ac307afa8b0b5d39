// Words and figures of the compare view.

import { describe, expect, it } from 'vitest';
import type { FailsafeRow } from '$lib/api/diff';
import { changeValue, delta, mergeOverrides, plural, rateDiffers, rateText } from './format';

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
});
