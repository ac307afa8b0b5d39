import { describe, expect, it } from 'vitest';
import { placeZone } from './place';
import type { ZoneView } from '../world/types';

const zone = (kind: ZoneView['kind'], address: string, x: number, y: number, w: number, h: number): ZoneView => ({
	kind,
	name: address.split(':').at(-1)!,
	address,
	rects: [{ x, y, w, h }],
	ids: [1]
});

describe('placeZone', () => {
	const grid = { width: 20, height: 10, collision: new Uint8Array(200) };

	it('puts a new sector where no sector is', () => {
		const zones = [zone('sector', 'A', 0, 0, 8, 10)];
		expect(placeZone('sector', undefined, zones, grid)).toEqual({ x: 8, y: 0, w: 6, h: 6 });
	});

	it('puts an arena inside its sector, beside the arenas already there', () => {
		const a = zone('sector', 'A', 2, 2, 5, 3);
		const zones = [a, zone('arena', 'A:hall', 2, 2, 3, 3)];
		expect(placeZone('arena', a, zones, grid)).toEqual({ x: 5, y: 2, w: 2, h: 2 });
	});

	it('puts an object on a walkable tile of its arena', () => {
		const collision = new Uint8Array(200);
		collision[2 * 20 + 2] = 1; // (2, 2) blocked
		const arena = zone('arena', 'A:hall', 2, 2, 2, 1);
		expect(placeZone('object', arena, [arena], { ...grid, collision })).toEqual({ x: 3, y: 2, w: 1, h: 1 });
	});

	it('gives up when the parent is full', () => {
		const collision = new Uint8Array(200).fill(1);
		const arena = zone('arena', 'A:hall', 2, 2, 2, 1);
		expect(placeZone('object', arena, [arena], { ...grid, collision })).toBeUndefined();
	});
});
