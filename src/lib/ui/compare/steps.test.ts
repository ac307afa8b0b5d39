// Step <-> frame mapping of the compare view, the frame it opens at, and the strip of
// differing frames over the shared timeline.

import { describe, expect, it } from 'vitest';
import type { Divergence } from '$lib/api/diff';
import {
	adjacentRangeStart,
	clampFrame,
	differenceColumns,
	divergenceFrame,
	frameCaption,
	frameOfStep,
	initialFrame,
	shareOf,
	stepOfFrame
} from './steps';
import { mergeRanges } from '$lib/shared/ranges';

const divergence = (step: number, frame = step + 1): Divergence => ({
	step,
	frame,
	reason: 'answer',
	agent: 'klaus-mueller',
	template: 'react',
	callId: `${step}/klaus-mueller/3`
});

describe('steps and frames', () => {
	it('shows what step s did on frame s + 1', () => {
		expect(frameOfStep(41)).toBe(42);
		expect(stepOfFrame(42)).toBe(41);
		expect(stepOfFrame(frameOfStep(0))).toBe(0);
		expect(frameCaption(7)).toBe('after step 6');
		expect(frameCaption(0)).toBe('before any step');
	});

	it('keeps frames inside the compared range, rounded', () => {
		const range = { start: 4320, end: 8640 };
		expect(clampFrame(10, range)).toBe(4320);
		expect(clampFrame(9000, range)).toBe(8640);
		expect(clampFrame(5000.6, range)).toBe(5001);
		expect(clampFrame(Number.NaN, range)).toBe(4320);
	});

	it('goes to the frame that first shows the divergence', () => {
		expect(divergenceFrame(divergence(41), { start: 0, end: 100 })).toBe(42);
		// a fork compared with its parent parts at its creation: step forkStep - 1, frame forkStep
		expect(divergenceFrame(divergence(4319), { start: 4320, end: 8640 })).toBe(4320);
		// a divergence at the creation of unrelated runs (step -1) shows on frame 0
		expect(divergenceFrame(divergence(-1), { start: 0, end: 100 })).toBe(0);
		// a divergence on the last step is on the last frame
		expect(divergenceFrame(divergence(99), { start: 0, end: 100 })).toBe(100);
	});

	it('opens at ?step=N, else at the divergence, else at the start', () => {
		const diff = { steps: { start: 10, end: 200 }, firstDivergence: divergence(50) };
		expect(initialFrame('120', diff)).toBe(120);
		expect(initialFrame('5', diff)).toBe(10);
		expect(initialFrame('999', diff)).toBe(200);
		expect(initialFrame('abc', diff)).toBe(51);
		expect(initialFrame('', diff)).toBe(51);
		expect(initialFrame(null, diff)).toBe(51);
		expect(initialFrame(null, { ...diff, firstDivergence: null })).toBe(10);
	});
});

describe('differing frames on the timeline', () => {
	it('merges ranges that overlap or touch, in order', () => {
		expect(
			mergeRanges([
				[30, 40],
				[1, 5],
				[6, 8],
				[35, 50],
				[60, 60]
			])
		).toEqual([
			[1, 8],
			[30, 50],
			[60, 60]
		]);
		expect(mergeRanges([])).toEqual([]);
	});

	it('counts agents per column and keeps the first differing frame of each', () => {
		// frames 0..99 in 10 columns of 10 frames
		const agents = [
			{
				differs: [
					[5, 14],
					[16, 18]
				] as [number, number][]
			},
			{ differs: [[12, 12]] as [number, number][] },
			{ differs: [] as [number, number][] },
			{ differs: [[95, 200]] as [number, number][] }
		];
		const cols = differenceColumns(agents, 0, 99, 10);
		expect(cols).toEqual([
			{ column: 0, frame: 5, agents: 1 },
			// the first agent touches column 1 twice but counts once
			{ column: 1, frame: 10, agents: 2 },
			{ column: 9, frame: 95, agents: 1 }
		]);
	});

	it('leaves out ranges outside the timeline', () => {
		expect(differenceColumns([{ differs: [[0, 9]] }], 10, 19, 5)).toEqual([]);
		// frames 10..19 in columns of two: [0, 12] covers columns 0 (10-11) and 1 (12)
		expect(differenceColumns([{ differs: [[0, 12]] }], 10, 19, 5)).toEqual([
			{ column: 0, frame: 10, agents: 1 },
			{ column: 1, frame: 12, agents: 1 }
		]);
	});

	it('finds the next and previous differing range', () => {
		const ranges: [number, number][] = [
			[10, 20],
			[40, 45],
			[90, 90]
		];
		expect(adjacentRangeStart(ranges, 0, 1)).toBe(10);
		expect(adjacentRangeStart(ranges, 10, 1)).toBe(40);
		expect(adjacentRangeStart(ranges, 15, 1)).toBe(40);
		expect(adjacentRangeStart(ranges, 90, 1)).toBeNull();
		expect(adjacentRangeStart(ranges, 15, -1)).toBe(10);
		expect(adjacentRangeStart(ranges, 40, -1)).toBe(10);
		expect(adjacentRangeStart(ranges, 100, -1)).toBe(90);
		expect(adjacentRangeStart(ranges, 10, -1)).toBeNull();
	});

	it('places a frame along the timeline', () => {
		expect(shareOf(50, 0, 100)).toBe(0.5);
		expect(shareOf(-5, 0, 100)).toBe(0);
		expect(shareOf(7, 7, 7)).toBe(0);
	});
});
