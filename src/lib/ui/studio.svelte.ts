// UI state of the studio's first screen, shared by the map and the side panel.

import { createContext } from 'svelte';
import type { MapAgent, MapHost } from './map-host';
import { MapViewport } from '$lib/shared/viewport.svelte';
import type { WorldView } from '$lib/shared/world-view';

export class StudioState implements MapHost {
	readonly world: WorldView;
	readonly viewport = new MapViewport();
	selectedAgent = $state<string | null>(null);
	/** `Sector`, `Sector:Arena` or `Sector:Arena:Object` */
	selectedZone = $state<string | null>(null);
	showCollisions = $state(false);
	showZones = $state(false);

	constructor(world: WorldView) {
		this.world = world;
	}

	/** Before a run, everyone stands at their spawn point. */
	get agents(): readonly MapAgent[] {
		return this.world.agents;
	}

	select(id: string | null): void {
		this.selectedAgent = id;
		this.selectedZone = null;
	}

	get tileWidth(): number {
		return this.world.map.tileWidth;
	}

	get tileHeight(): number {
		return this.world.map.tileHeight;
	}

	/** Selects an agent and brings it to the middle of the map, zoomed in enough to see it. */
	focusAgent(id: string): void {
		const agent = this.world.agents.find((a) => a.id === id);
		if (!agent) return;
		this.selectedAgent = id;
		this.selectedZone = null;
		const scale = Math.max(this.viewport.scale, 1.5);
		this.viewport.centerOn(
			{ wx: (agent.x + 0.5) * this.tileWidth, wy: (agent.y + 0.5) * this.tileHeight },
			scale
		);
	}

	/** Selects a zone and centres the map on its rectangles. */
	focusZone(address: string): void {
		this.selectedZone = address;
		this.selectedAgent = null;
		const zone = this.world.map.zones.find((z) => z.address === address);
		if (!zone || zone.rects.length === 0) return;
		const left = Math.min(...zone.rects.map((r) => r.x));
		const top = Math.min(...zone.rects.map((r) => r.y));
		const right = Math.max(...zone.rects.map((r) => r.x + r.w));
		const bottom = Math.max(...zone.rects.map((r) => r.y + r.h));
		// Zone rectangles are in tiles.
		this.viewport.centerOn({ wx: ((left + right) / 2) * this.tileWidth, wy: ((top + bottom) / 2) * this.tileHeight });
	}

	fitMap(): void {
		const { width, height, tileWidth, tileHeight } = this.world.map;
		this.viewport.fit(width * tileWidth, height * tileHeight);
	}
}

export const [getStudio, setStudio] = createContext<StudioState>();
