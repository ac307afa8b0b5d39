import { describe, expect, it } from 'vitest';
import { PathFinder } from './path';

function grid(rows: string[]) {
	const width = rows[0].length;
	const blocked = new Uint8Array(width * rows.length);
	rows.forEach((row, y) => [...row].forEach((c, x) => (blocked[y * width + x] = c === '#' ? 1 : 0)));
	return new PathFinder(width, rows.length, blocked);
}

describe('PathFinder', () => {
	it('walks around a wall on a shortest path', () => {
		const pf = grid(['.....', '.###.', '.....']);
		const path = pf.find(5, 9)!; // (0,1) -> (4,1)
		expect(path).not.toBeNull();
		expect(path.length).toBe(6);
		expect(path.at(-1)).toBe(9);
		for (const t of path) expect(pf.isWalkable(t)).toBe(true);
		// every step moves to a 4-neighbour
		let prev = 5;
		for (const t of path) {
			expect(Math.abs(t - prev) === 1 || Math.abs(t - prev) === 5).toBe(true);
			prev = t;
		}
	});

	it('returns null for an unreachable goal and [] when already there', () => {
		const pf = grid(['..#..', '..#..', '..#..']);
		expect(pf.find(0, 4)).toBeNull();
		expect(pf.find(0, 0)).toEqual([]);
		expect(pf.find(0, 2)).toBeNull();
	});

	it('does not wrap around the row edge', () => {
		const pf = grid(['....#', '#....']);
		const path = pf.find(3, 5 + 1)!;
		expect(path).not.toContain(4);
		expect(path.length).toBe(3);
	});
});
