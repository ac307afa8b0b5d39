import { describe, expect, it } from 'vitest';
import type { ZoneView } from '$lib/world/types';
import { defaultForkSteps, objectAtTile, objectChoices, splitObjectAddress, stateOrigin } from './fork';

describe('a fork’s default length', () => {
	it('is the rest of the parent, up to its target', () => {
		expect(defaultForkSteps({ target: 1500, firstStep: 0 }, 300).steps).toBe(1200);
		expect(defaultForkSteps({ target: 400, firstStep: 0 }, 0).steps).toBe(400);
		expect(defaultForkSteps({ target: 400, firstStep: 0 }, 399)).toEqual({ steps: 1, why: 'the rest of this run (it runs to step 400)' });
	});

	it('is what the parent computed itself when forked at its end', () => {
		expect(defaultForkSteps({ target: 400, firstStep: 0 }, 400)).toEqual({ steps: 400, why: 'as many as this run computed (it ended at step 400)' });
		// a fork of a fork: only its own steps count
		expect(defaultForkSteps({ target: 260, firstStep: 200 }, 260).steps).toBe(60);
		expect(defaultForkSteps({ target: 0, firstStep: 0 }, 0).steps).toBe(1);
	});
});

describe('objects as a user picks them', () => {
	const zones: ZoneView[] = [
		{ kind: 'sector', name: 'Hobbs Cafe', address: 'Hobbs Cafe', rects: [{ x: 0, y: 0, w: 10, h: 10 }], ids: [] },
		{ kind: 'arena', name: 'kitchen', address: 'Hobbs Cafe:kitchen', rects: [{ x: 4, y: 2, w: 4, h: 4 }], ids: [] },
		{ kind: 'object', name: 'counter', address: 'Hobbs Cafe:kitchen:counter', rects: [{ x: 4, y: 2, w: 4, h: 2 }], ids: [] },
		{ kind: 'object', name: 'stove', address: 'Hobbs Cafe:kitchen:stove', rects: [{ x: 5, y: 3, w: 2, h: 1 }], ids: [] }
	];

	it('finds the smallest object zone under a tile, never an arena or sector', () => {
		expect(objectAtTile(zones, 6, 3)).toBe('Hobbs Cafe:kitchen:stove');
		expect(objectAtTile(zones, 4, 2)).toBe('Hobbs Cafe:kitchen:counter');
		expect(objectAtTile(zones, 7, 3)).toBe('Hobbs Cafe:kitchen:counter');
		expect(objectAtTile(zones, 1, 1)).toBeNull();
		expect(objectAtTile(zones, 7, 4)).toBeNull();
	});

	it('groups the world’s objects by sector and splits addresses', () => {
		const groups = objectChoices([
			{ name: 'Hobbs Cafe', kind: 'cafe', arenas: [{ name: 'kitchen', address: 'Hobbs Cafe:kitchen', objects: [{ name: 'stove', address: 'Hobbs Cafe:kitchen:stove', state: 'idle' }] }] },
			{ name: 'Park', kind: 'park', arenas: [{ name: 'lawn', address: 'Park:lawn', objects: [] }] }
		]);
		expect(groups).toEqual([{ sector: 'Hobbs Cafe', objects: [{ address: 'Hobbs Cafe:kitchen:stove', name: 'stove', sector: 'Hobbs Cafe', arena: 'kitchen' }] }]);
		expect(splitObjectAddress("Isabella's Apartment:kitchen:stove")).toEqual({ sector: "Isabella's Apartment", arena: 'kitchen', name: 'stove' });
	});

	it('says where a state comes from', () => {
		const base = { address: 'a:b:stove', name: 'stove', base: 'idle', default: 'idle' };
		const nameOf = (id: string) => (id === 'klaus' ? 'Klaus Mueller' : id);
		expect(stateOrigin({ ...base, state: 'on fire', base: 'on fire', setByUser: true }, nameOf)).toMatch(/set by a user/);
		expect(stateOrigin({ ...base, state: 'cooking', usedBy: 'klaus' }, nameOf)).toBe('Klaus Mueller is using it');
		expect(stateOrigin({ ...base, state: 'idle' }, nameOf)).toBe('its default state');
	});
});
