import { describe, expect, it } from 'vitest';
import { fmtNumber, fmtP, STRIP, stripLayout } from './strip';

describe('stripLayout', () => {
	it('puts each arm in its column with its box, higher values higher', () => {
		const l = stripLayout([
			{ name: 'A', runs: [1, 2, 3, 4].map((v, i) => ({ run: `a${i}`, replicate: i, value: v })) },
			{ name: 'B', runs: [5, 6, 7, 8].map((v, i) => ({ run: `b${i}`, replicate: i, value: v })) }
		]);
		expect(l.arms[0].centre).toBeLessThan(l.arms[1].centre);
		expect(l.arms[1].dots[3].y).toBeLessThan(l.arms[0].dots[0].y);
		const box = l.arms[0].box!;
		expect(box.max).toBeLessThan(box.q3);
		expect(box.q3).toBeLessThan(box.median);
		expect(box.median).toBeLessThan(box.q1);
		for (const d of l.arms.flatMap((a) => a.dots)) {
			expect(d.y).toBeGreaterThanOrEqual(STRIP.top);
			expect(d.y).toBeLessThanOrEqual(STRIP.height - STRIP.bottom);
		}
	});

	it('spreads tied values sideways within the column and keeps every run', () => {
		const l = stripLayout([{ name: 'A', runs: Array.from({ length: 8 }, (_, i) => ({ run: `r${i}`, replicate: i, value: 0.5 })) }]);
		const xs = l.arms[0].dots.map((d) => d.x);
		expect(xs).toHaveLength(8);
		expect(new Set(xs).size).toBeGreaterThan(4);
		for (const x of xs) expect(Math.abs(x - l.arms[0].centre)).toBeLessThanOrEqual(STRIP.jitter);
		// a constant metric still gets a readable axis around its value
		expect(l.ticks.length).toBeGreaterThan(1);
	});

	it('formats numbers and p-values for the table', () => {
		expect(fmtNumber(0.33333)).toBe('0.333');
		expect(fmtNumber(0.00001234)).toBe('1.23e-5');
		expect(fmtP(0.00001)).toBe('< 0.0001');
		expect(fmtP(0.04)).toBe('0.0400');
	});
});
