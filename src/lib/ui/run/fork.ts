// What the debugger proposes when a user forks a run or changes it: how many steps a fork runs
// by default, and the town's objects as a user picks them (on the map, in a list).

import type { ObjectStateView } from '$lib/api/types';
import type { SectorView } from '$lib/shared/world-view';
import type { ZoneView } from '$lib/world/types';

/** A fork's default length, and why, in words for the form. */
export interface ForkSteps {
	steps: number;
	why: string;
}

/**
 * Steps a fork from step `at` runs unless the user says otherwise: the rest of the parent (up to
 * its target), so the fork covers what the parent covers and the two compare step for step. A
 * parent with nothing left (forked at its end) gives as many steps as it computed itself (a
 * fork's inherited steps are not its own), at least one.
 */
export function defaultForkSteps(parent: { target: number; firstStep: number }, at: number): ForkSteps {
	const left = parent.target - at;
	if (left > 0) return { steps: left, why: `the rest of this run (it runs to step ${parent.target})` };
	const own = Math.max(1, parent.target - parent.firstStep);
	return { steps: own, why: `as many as this run computed (it ended at step ${parent.target})` };
}

/** An object of the world to pick: its address, its name and where it is. */
export interface ObjectChoice {
	address: string;
	name: string;
	sector: string;
	arena: string;
}

/** The world's objects grouped by sector, in the world's order. */
export function objectChoices(sectors: readonly SectorView[]): { sector: string; objects: ObjectChoice[] }[] {
	return sectors
		.map((s) => ({
			sector: s.name,
			objects: s.arenas.flatMap((a) => a.objects.map((o) => ({ address: o.address, name: o.name, sector: s.name, arena: a.name })))
		}))
		.filter((g) => g.objects.length > 0);
}

/** `Sector:Arena:Object` -> its parts (an arena or object name never holds a colon). */
export function splitObjectAddress(address: string): { sector: string; arena: string; name: string } {
	const parts = address.split(':');
	const name = parts.pop() ?? '';
	const arena = parts.pop() ?? '';
	return { sector: parts.join(':'), arena, name };
}

/**
 * The game object whose zone holds tile (`tx`, `ty`); where zones overlap, the smallest. Null
 * when there is none.
 */
export function objectAtTile(zones: readonly ZoneView[], tx: number, ty: number): string | null {
	let best: string | null = null;
	let bestArea = Infinity;
	for (const z of zones) {
		if (z.kind !== 'object') continue;
		for (const r of z.rects) {
			if (tx < r.x || ty < r.y || tx >= r.x + r.w || ty >= r.y + r.h) continue;
			const area = r.w * r.h;
			if (area < bestArea) {
				best = z.address;
				bestArea = area;
			}
		}
	}
	return best;
}

/** Where an object's state comes from, in words ("" for its default state). */
export function stateOrigin(o: ObjectStateView, nameOf: (id: string) => string): string {
	if (o.setByUser) return 'set by a user; it lasts until someone begins using the object';
	if (o.usedBy) return `${nameOf(o.usedBy)} is using it`;
	if (o.state !== o.default) return `default: ${o.default}`;
	return 'its default state';
}
