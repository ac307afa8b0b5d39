import { describe, expect, it } from 'vitest';
import { circleLayout, errorBarLayout, gameMs, gameTimeRange, linePath, linearScale, niceDomain, niceTicks, shortGameTime, timeTicks } from './chart';

describe('scales and ticks', () => {
	it('maps a domain onto a range, inverted ranges included', () => {
		const x = linearScale([0, 10], [40, 140]);
		expect(x(0)).toBe(40);
		expect(x(5)).toBe(90);
		expect(x(10)).toBe(140);
		const y = linearScale([0, 1], [200, 0]);
		expect(y(0.25)).toBe(150);
	});

	it('puts everything in the middle when the domain has no width', () => {
		const x = linearScale([7, 7], [0, 100]);
		expect(x(7)).toBe(50);
		expect(x(123)).toBe(50);
	});

	it('chooses round ticks without float noise', () => {
		expect(niceTicks(0, 1, 4)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
		expect(niceTicks(0, 1, 2)).toEqual([0, 0.5, 1]);
		expect(niceTicks(13.2, 31.7, 5)).toEqual([15, 20, 25, 30]);
		expect(niceTicks(0.1, 0.3, 2)).toEqual([0.1, 0.2, 0.3]);
		expect(niceTicks(5, 5)).toEqual([5]);
	});

	it('widens a domain to whole ticks', () => {
		expect(niceDomain(13.2, 31.7)).toEqual([10, 35]);
		expect(niceDomain(4, 4)).toEqual([3, 5]);
	});
});

describe('game time', () => {
	const start = gameMs('2023-02-13T07:00:00');

	it('reads game times in the game calendar (UTC)', () => {
		expect(start).toBe(Date.UTC(2023, 1, 13, 7));
		expect(gameMs('13 Feb')).toBeNaN();
		expect(shortGameTime('2023-02-14T17:30:00')).toBe('Tue 17:30');
		expect(gameTimeRange('2023-02-14T17:00:00', '2023-02-14T19:00:00')).toBe('Tue 17:00–19:00');
		expect(gameTimeRange('2023-02-14T22:00:00', '2023-02-15T02:00:00')).toBe('Tue 22:00–Wed 02:00');
	});

	it('ticks whole hours, naming the day where it changes', () => {
		const ticks = timeTicks(start + 20 * 60_000, start + 4 * 3_600_000, 6);
		expect(ticks.map((t) => t.label)).toEqual(['Mon 08:00', '09:00', '10:00', '11:00']);
		const twoDays = timeTicks(start, gameMs('2023-02-15T07:00:00'), 6);
		expect(twoDays.map((t) => t.label)).toEqual(['Mon 12:00', 'Tue 00:00', '12:00', 'Wed 00:00']);
	});

	it('has no ticks for a backwards or unreadable span', () => {
		expect(timeTicks(start, start - 1)).toEqual([]);
		expect(timeTicks(NaN, start)).toEqual([]);
	});
});

describe('paths and layouts', () => {
	it('draws a line through the points in order, rounded to hundredths', () => {
		expect(linePath([])).toBe('');
		expect(
			linePath([
				{ x: 1, y: 2 },
				{ x: 3.14159, y: 4 },
				{ x: 5, y: 0.005 }
			])
		).toBe('M1 2 L3.14 4 L5 0.01');
	});

	it('places agents on a circle, first at the top, clockwise, labels outside', () => {
		const placed = circleLayout(['a', 'b', 'c', 'd'], 100, 100, 50, 10);
		expect(placed.map(({ id, x, y }) => [id, x, y])).toEqual([
			['a', 100, 50],
			['b', 150, 100],
			['c', 100, 150],
			['d', 50, 100]
		]);
		expect(placed[1].label).toEqual({ x: 160, y: 100, anchor: 'start' });
		expect(placed[3].label).toEqual({ x: 40, y: 100, anchor: 'end' });
		expect(placed[0].label.anchor).toBe('middle');
		// every agent at the same distance from the centre
		for (const p of circleLayout(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 0, 0, 80)) expect(Math.hypot(p.x, p.y)).toBeCloseTo(80, 1);
	});

	it('puts a lone agent in the centre', () => {
		expect(circleLayout(['a'], 60, 40, 30)[0]).toMatchObject({ x: 60, y: 40 });
	});

	it('lays out TrueSkill rows best first with μ ± σ and μ − 3σ inside the axis', () => {
		const layout = errorBarLayout(
			[
				{ condition: 'b', mu: 20, sigma: 2, conservative: 14 },
				{ condition: 'a', mu: 30, sigma: 1, conservative: 27 }
			],
			100,
			300,
			10,
			20
		);
		expect(layout.domain).toEqual([10, 35]);
		expect(layout.ticks).toEqual([10, 15, 20, 25, 30, 35]);
		const [first, second] = layout.bars;
		expect(first).toEqual({ condition: 'a', low: 252, mid: 260, high: 268, conservative: 236, y: 20 });
		expect(second).toEqual({ condition: 'b', low: 164, mid: 180, high: 196, conservative: 132, y: 40 });
	});
});
