// What the town map needs from the screen that shows it: the world, the viewport, what to draw
// and the selection. The studio's first screen and the run debugger both provide one.

import type { MapViewport } from '$lib/shared/viewport.svelte';
import type { WorldView } from '$lib/shared/world-view';

/** An agent as the map draws it. Tiles are (column, row). */
export interface MapAgent {
	id: string;
	name: string;
	firstName: string;
	x: number;
	y: number;
	/** drawn over the head */
	emoji?: string;
	/** drawn in a speech bubble while the agent talks */
	speech?: string;
	/** remaining tiles to walk, next first */
	path?: readonly (readonly [number, number])[];
}

export interface MapHost {
	readonly world: WorldView;
	readonly viewport: MapViewport;
	readonly agents: readonly MapAgent[];
	selectedAgent: string | null;
	/** `Sector`, `Sector:Arena` or `Sector:Arena:Object` */
	selectedZone: string | null;
	showCollisions: boolean;
	showZones: boolean;
	/** draw the selected agent's path */
	readonly showPath?: boolean;
	/** the step whose agents are on the map (exposed on the canvas for tests and tools) */
	readonly drawnStep?: number | null;
	/** a click on the map selected `id` (or nothing) */
	select(id: string | null): void;
	fitMap(): void;
}

/** "Isabella Rodriguez" -> "Isabella" */
export function firstNameOf(name: string): string {
	return name.trim().split(/\s+/)[0] ?? name;
}
