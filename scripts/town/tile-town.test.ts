import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorld } from '../../src/lib/server/world/check';
import { loadWorld } from '../../src/lib/server/world/load';
import { PERSONAS } from './personas';
import { buildTiledSmallville, tilesOf, writeTiledSmallville } from './tile-town';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tile-town-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('Smallville tiled', () => {
	it('is one connected town of n x n copies, each with its own 25 residents at home', () => {
		const { map, personas, copies } = buildTiledSmallville(2);
		expect([map.width, map.height, copies]).toEqual([280, 200, 4]);
		expect(personas).toHaveLength(100);
		expect(new Set(personas.map((p) => p.id)).size).toBe(100);
		expect(new Set(personas.map((p) => p.name)).size).toBe(100);
		const sectors = new Set(map.sectors.map((s) => s.name));
		expect(sectors.size).toBe(4 * (map.sectors.length / 4));
		for (const p of personas) {
			expect(sectors.has(p.home.split(':')[0]), p.home).toBe(true);
			for (const s of p.knownPlaces) expect(sectors.has(s), `${p.id} knows ${s}`).toBe(true);
		}
		// the fourth copy's Isabella lives, works and plans her party in the fourth copy's places
		const isabella4 = personas.find((p) => p.id === 'isabella-rodriguez-4');
		expect(isabella4?.name).toBe('Isabella Rodriguez 4');
		expect(isabella4?.home).toBe("Isabella's Apartment 4:main room");
		expect(isabella4?.dailyPlanRequirement).toMatch(/Hobbs Cafe 4/);
		// same density: every copy has Smallville's residents on Smallville's area
		expect(personas.length / (map.width * map.height)).toBeCloseTo(PERSONAS.length / (140 * 100), 12);
		// the copies are joined: the street tiles at a seam between copies are walkable
		expect(map.getTerrain(139, 25)).toBe('road');
		expect(map.collision[map.idx(140, 26)]).toBe(0);
		expect(() => tilesOf(0)).toThrow(/from 1 to 8, got 0/);
		expect(() => tilesOf(2.5)).toThrow(/whole number/);
	});

	it('writes a world the studio loads without problems', async () => {
		const id = writeTiledSmallville(tmp, 2);
		const dir = path.join(tmp, id);
		const check = await checkWorld(dir);
		expect(check.errors, JSON.stringify(check.errors.slice(0, 3))).toEqual([]);
		const { def } = await loadWorld(dir);
		expect(def.personas).toHaveLength(100);
		expect(def.seeds.filter((s) => s.id.startsWith('valentines-party'))).toHaveLength(4);
	}, 120_000);
});
