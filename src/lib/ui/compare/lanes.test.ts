// Lane layout of the compare view: pixels of frames, segments folded into pixel-wide
// rectangles, colours by address, hit-testing, and the agents' order.

import { describe, expect, it } from 'vitest';
import type { Segment } from '$lib/api/diff';
import { addressColor, describeSegment, frameAtX, laneRects, placeLegend, rangeRects, segmentAt, sortAgents, xOfFrame } from './lanes';

const seg = (from: number, to: number, address: string, activity = 'working'): Segment => ({ from, to, activity, address, emoji: '' });

describe('lane layout', () => {
	it('maps frames to pixels and back', () => {
		// frames 1..100 on 200 px: each frame 2 px
		expect(xOfFrame(1, 1, 100, 200)).toBe(0);
		expect(xOfFrame(51, 1, 100, 200)).toBe(100);
		expect(xOfFrame(101, 1, 100, 200)).toBe(200);
		expect(frameAtX(0, 1, 100, 200)).toBe(1);
		expect(frameAtX(101, 1, 100, 200)).toBe(51);
		expect(frameAtX(199.9, 1, 100, 200)).toBe(100);
		expect(frameAtX(500, 1, 100, 200)).toBe(100);
		expect(frameAtX(-3, 1, 100, 200)).toBe(1);
	});

	it('draws each wide segment as one rectangle, edge to edge', () => {
		const segments = [seg(1, 50, 'Cafe:counter'), seg(51, 100, 'Park:lawn')];
		const rects = laneRects(segments, 1, 100, 200);
		expect(rects.map((r) => [r.x, r.w])).toEqual([
			[0, 100],
			[100, 100]
		]);
		expect(rects[0].color).toBe(addressColor('Cafe:counter'));
		expect(rects[1].segment).toBe(segments[1]);
	});

	it('folds segments narrower than a pixel into their neighbour', () => {
		// 1000 one-frame segments on 100 px: never more rectangles than pixels
		const segments = Array.from({ length: 1000 }, (_, i) => seg(i, i, `S${i % 7}:a`));
		const rects = laneRects(segments, 0, 999, 100);
		expect(rects.length).toBeLessThanOrEqual(100);
		expect(rects[0].x).toBe(0);
		const last = rects[rects.length - 1];
		expect(last.x + last.w).toBe(100);
		for (let i = 1; i < rects.length; i++) expect(rects[i].x).toBe(rects[i - 1].x + rects[i - 1].w);
	});

	it('clips segments to the shown frames', () => {
		const rects = laneRects([seg(0, 9, 'A:x'), seg(10, 19, 'B:y'), seg(20, 29, 'C:z')], 10, 19, 50);
		expect(rects.map((r) => [r.x, r.w, r.segment.address])).toEqual([[0, 50, 'B:y']]);
		expect(laneRects([seg(0, 9, 'A:x')], 0, 9, 0)).toEqual([]);
	});

	it('colours places of one sector alike and no place grey', () => {
		const hue = (c: string) => c.match(/^hsl\((\d+) /)?.[1];
		expect(hue(addressColor('Hobbs Cafe:cafe:counter'))).toBe(hue(addressColor('Hobbs Cafe:cafe:coffee machine')));
		expect(addressColor('Hobbs Cafe:cafe:counter')).toBe(addressColor('Hobbs Cafe:cafe:counter'));
		expect(addressColor('')).toBe('hsl(215 16% 62%)');
		// red is kept for differences
		for (let i = 0; i < 200; i++) {
			const h = Number(hue(addressColor(`Sector ${i}:arena`)));
			expect(h).toBeGreaterThanOrEqual(25);
			expect(h).toBeLessThanOrEqual(335);
		}
	});

	it('has a legend of the places the lanes show, in their colours, most frames first', () => {
		const seg = (from: number, to: number, address: string) => ({ from, to, address, activity: 'x', emoji: '' });
		const legend = placeLegend([
			{ a: [seg(0, 9, 'Hobbs Cafe:cafe:counter'), seg(10, 12, '')], b: null },
			{ a: [seg(0, 4, 'Oak Hill College:library')], b: [seg(0, 30, 'Oak Hill College:classroom')] }
		]);
		expect(legend.map((l) => l.sector)).toEqual(['Oak Hill College', 'Hobbs Cafe', 'no place']);
		const hueOf = (c: string) => c.match(/^hsl\((\d+)/)?.[1];
		expect(hueOf(legend[1].color)).toBe(hueOf(addressColor('Hobbs Cafe:cafe:counter')));
		expect(legend[2].color).toBe(addressColor(''));
	});

	it('finds the segment under a frame', () => {
		const segments = [seg(1, 5, 'A:x'), seg(6, 6, 'B:y'), seg(7, 40, 'C:z')];
		expect(segmentAt(segments, 1)?.address).toBe('A:x');
		expect(segmentAt(segments, 6)?.address).toBe('B:y');
		expect(segmentAt(segments, 40)?.address).toBe('C:z');
		expect(segmentAt(segments, 41)).toBeNull();
		expect(segmentAt([], 3)).toBeNull();
	});

	it('marks differing ranges at least one pixel wide, merged when they meet', () => {
		// frames 0..999 on 100 px
		expect(
			rangeRects(
				[
					[0, 0],
					[5, 5],
					[500, 549],
					[2000, 2100]
				],
				0,
				999,
				100
			)
		).toEqual([
			[0, 1],
			[50, 5]
		]);
	});

	it('lists the agents that differ most first', () => {
		const agents = [
			{ name: 'Ann', differingSteps: 0, firstDifferentStep: null },
			{ name: 'Bob', differingSteps: 10, firstDifferentStep: 30 },
			{ name: 'Cid', differingSteps: 10, firstDifferentStep: 12 },
			{ name: 'Abe', differingSteps: 0, firstDifferentStep: null }
		];
		expect(sortAgents(agents).map((a) => a.name)).toEqual(['Cid', 'Bob', 'Abe', 'Ann']);
	});

	it('lists agents that move the same but differ otherwise before those the same in both runs', () => {
		const agents = [
			{ name: 'Ann', differingSteps: 0, firstDifferentStep: null, differences: [] },
			{ name: 'Bob', differingSteps: 0, firstDifferentStep: null, differences: [{ kind: 'calls' as const, count: 3, first: 400 }] },
			{ name: 'Cid', differingSteps: 0, firstDifferentStep: null, differences: [{ kind: 'reflections' as const, count: 2, first: 291 }] },
			{ name: 'Dee', differingSteps: 4, firstDifferentStep: 500, differences: [{ kind: 'moves' as const, count: 4, first: 500 }] }
		];
		expect(sortAgents(agents).map((a) => a.name)).toEqual(['Dee', 'Cid', 'Bob', 'Ann']);
	});

	it('describes a segment for its tooltip', () => {
		expect(describeSegment({ from: 3, to: 9, activity: 'brewing coffee', emoji: '☕', address: 'Hobbs Cafe:cafe' })).toBe(
			'frames 3–9: ☕ brewing coffee @ Hobbs Cafe:cafe'
		);
		expect(describeSegment({ from: 4, to: 4, activity: '', emoji: '', address: '' })).toBe('frame 4: idle');
	});
});
