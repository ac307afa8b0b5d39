import { describe, expect, it } from 'vitest';
import { clampBox, inside, intersects, placeLabels, type LabelRequest } from './labels';

const label = (id: string, ax: number, ay: number, w = 60, h = 14, priority = false): LabelRequest => ({ id, ax, ay, r: 6, w, h, priority });

function noOverlaps(boxes: { box: { x: number; y: number; w: number; h: number } }[]): boolean {
	for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (intersects(boxes[i].box, boxes[j].box)) return false;
	return true;
}

describe('placeLabels', () => {
	it('puts a lone label under its anchor', () => {
		const [p] = placeLabels([label('a', 100, 100)]);
		expect(p.box.x).toBe(70);
		expect(p.box.y).toBeGreaterThan(100);
	});

	it('keeps labels of agents side by side in one home apart (they stack or go beside)', () => {
		const placed = placeLabels([label('carlos', 100, 100), label('tamara', 113, 100), label('carmen', 126, 100)], { gap: 1 });
		expect(placed).toHaveLength(3);
		expect(noOverlaps(placed)).toBe(true);
	});

	it('counts the labels it cannot place on the nearest drawn one', () => {
		const crowd = Array.from({ length: 12 }, (_, i) => label(`a${i}`, 100, 100));
		const placed = placeLabels(crowd, { gap: 1, view: { x: 0, y: 0, w: 200, h: 200 } });
		expect(noOverlaps(placed)).toBe(true);
		const hidden = placed.reduce((n, p) => n + p.hidden, 0);
		expect(placed.length + hidden).toBe(12);
		expect(hidden).toBeGreaterThan(0);
	});

	it('places the priority label first, where it wants to be', () => {
		const placed = placeLabels([label('a', 100, 100), label('sel', 100, 100, 60, 14, true)]);
		expect(placed[0].id).toBe('sel');
		expect(placed[0].box.x).toBe(70);
	});

	it('keeps labels inside the view and leaves out those whose anchor is outside it', () => {
		const view = { x: 0, y: 0, w: 300, h: 200 };
		const placed = placeLabels([label('edge', 295, 100), label('out', 400, 100), label('bottom', 150, 195)], { view });
		expect(placed.map((p) => p.id).sort()).toEqual(['bottom', 'edge']);
		for (const p of placed) expect(inside(p.box, view)).toBe(true);
	});

	it('many random crowds: never an overlap', () => {
		let seed = 7;
		const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let t = 0; t < 50; t++) {
			const ls = Array.from({ length: 25 }, (_, i) => label(`a${i}`, Math.floor(rnd() * 20) * 16, Math.floor(rnd() * 12) * 16, 30 + rnd() * 50));
			const placed = placeLabels(ls, { gap: 1 });
			expect(noOverlaps(placed)).toBe(true);
			expect(placed.length + placed.reduce((n, p) => n + p.hidden, 0)).toBe(25);
		}
	});
});

describe('clampBox', () => {
	it('moves a box the least needed to be inside the view', () => {
		expect(clampBox(-10, 5, 50, 20, { x: 0, y: 0, w: 100, h: 100 })).toEqual({ x: 0, y: 5, w: 50, h: 20 });
		expect(clampBox(90, 95, 50, 20, { x: 0, y: 0, w: 100, h: 100 })).toEqual({ x: 50, y: 80, w: 50, h: 20 });
	});
});
