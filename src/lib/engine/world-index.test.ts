import { describe, expect, it } from 'vitest';
import { createTestWorld } from './testing';
import type { ArenaDef, WorldDef } from './types';
import { WorldIndex } from './world-index';

/** A 100 x 70 world of 3 x 2-tile arenas on a scattered grid, one sector per row. */
function scatteredWorld(): WorldDef {
	const base = createTestWorld();
	const width = 100;
	const height = 70;
	const sectors = [];
	for (let row = 0; row < 10; row++) {
		const arenas: ArenaDef[] = [];
		for (let col = 0; col < 14; col++) {
			if ((row * 7 + col * 3) % 5 === 0) continue;
			const x0 = col * 7 + (row % 3);
			const y0 = row * 7 + (col % 2);
			const tiles: number[] = [];
			for (let y = y0; y < y0 + 2; y++) for (let x = x0; x < x0 + 3 + (col % 4); x++) tiles.push(y * width + x);
			arenas.push({ name: `a${col}`, address: `s${row}:a${col}`, tiles, walkable: tiles, objects: [] });
		}
		sectors.push({ name: `s${row}`, kind: 'block', tiles: arenas.flatMap((a) => a.tiles), arenas });
	}
	return { ...base, width, height, collision: new Uint8Array(width * height), sectors };
}

describe('world index', () => {
	it('finds the arenas near a point as a scan of all of them does, in index order', () => {
		const index = new WorldIndex(scatteredWorld());
		expect(index.arenas.length).toBeGreaterThan(100);
		for (const r of [0, 1, 4, 8, 17, 200]) {
			for (let y = -3; y < 73; y += 5) {
				for (let x = -3; x < 103; x += 4) {
					const scan = index.arenas
						.map((e, ai) => ({ e, ai }))
						.filter(({ e }) => {
							const dx = x < e.minX ? e.minX - x : x > e.maxX ? x - e.maxX : 0;
							const dy = y < e.minY ? e.minY - y : y > e.maxY ? y - e.maxY : 0;
							return dx <= r && dy <= r;
						})
						.map(({ ai }) => ai);
					expect(index.arenasNear(x, y, r), `(${x}, ${y}) within ${r}`).toEqual(scan);
				}
			}
		}
	});
});
