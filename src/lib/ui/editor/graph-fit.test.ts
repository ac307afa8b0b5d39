import { describe, expect, it } from 'vitest';
import { FIT_MIN_ZOOM, MAX_NAME_UNITS, MIN_ZOOM, READABLE_PX, fitReadable } from './graph-fit';

describe('fitReadable', () => {
	it('centres a small tree at no more than 100%', () => {
		const v = fitReadable({ x: 0, y: 0, width: 400, height: 200 }, 800, 600);
		expect(v.zoom).toBe(1);
		expect(v.x).toBe(200);
		expect(v.y).toBe(200);
	});

	it('shrinks a tree that nearly fits, but never below the readable zoom', () => {
		expect(fitReadable({ x: 0, y: 0, width: 900, height: 300 }, 800, 600).zoom).toBeCloseTo(768 / 900);
		const big = fitReadable({ x: -50, y: -100, width: 900, height: 4000 }, 800, 400);
		expect(big.zoom).toBe(FIT_MIN_ZOOM);
		// too tall to fit: its top shows, under the padding
		expect(big.y).toBe(16 + 100 * FIT_MIN_ZOOM);
	});

	it('keeps names readable down to the smallest zoom', () => {
		expect(MAX_NAME_UNITS * MIN_ZOOM).toBeGreaterThanOrEqual(READABLE_PX);
		expect(12 * FIT_MIN_ZOOM * Math.max(1, READABLE_PX / 12 / FIT_MIN_ZOOM)).toBeGreaterThanOrEqual(10);
	});
});
