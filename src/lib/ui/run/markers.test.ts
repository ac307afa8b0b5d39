import { describe, expect, it } from 'vitest';
import type { Marker } from '$lib/api/types';
import { adjacentMarker, bucketMarkers, mergeMarkers } from './markers';

const m = (step: number, kind: Marker['kind'], label: string = kind): Marker => ({ step, kind, agents: [], label });

describe('timeline markers', () => {
	const markers = [m(0, 'plan'), m(10, 'conversation', 'A and B talk'), m(12, 'conversation'), m(55, 'reflection'), m(99, 'failsafe')];

	it('groups markers of the chosen kinds into columns', () => {
		const buckets = bucketMarkers(markers, 0, 100, 10, ['conversation', 'reflection', 'failsafe']);
		expect(buckets.map((b) => [b.kind, b.column, b.step, b.count])).toEqual([
			['conversation', 1, 10, 2],
			['reflection', 5, 55, 1],
			['failsafe', 9, 99, 1]
		]);
		expect(buckets[0].title).toContain('step 10: A and B talk');
	});

	it('leaves out kinds not asked for and markers outside the range', () => {
		expect(bucketMarkers(markers, 20, 100, 10, ['conversation'])).toEqual([]);
	});

	it('finds the next and previous event', () => {
		const kinds = ['conversation', 'reflection'] as const;
		expect(adjacentMarker(markers, 10, 1, kinds)?.step).toBe(12);
		expect(adjacentMarker(markers, 12, -1, kinds)?.step).toBe(10);
		expect(adjacentMarker(markers, 55, 1, kinds)).toBeNull();
	});

	it('adds live markers once', () => {
		const merged = mergeMarkers(markers, [m(99, 'failsafe'), m(120, 'input', 'inner voice')]);
		expect(merged.map((x) => x.step)).toEqual([0, 10, 12, 55, 99, 120]);
	});
});
