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

/** An object's state written beside it on the map. */
export interface ObjectBadge {
	/** `Sector:Arena:Object` (a zone of the map) */
	address: string;
	text: string;
	/** a state a user set (drawn in the colour of user inputs) */
	user: boolean;
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
	/** objects whose state the map writes beside them */
	readonly objectBadges?: readonly ObjectBadge[];
	/** a click on the map selected `id` (or nothing) */
	select(id: string | null): void;
	/** a click on a game object (no agent there): hosts that can change objects take it */
	pickObject?(address: string): void;
	fitMap(): void;
}

/** "Isabella Rodriguez" -> "Isabella" */
export function firstNameOf(name: string): string {
	return name.trim().split(/\s+/)[0] ?? name;
}
