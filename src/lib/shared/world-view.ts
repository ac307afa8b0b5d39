// What the browser receives about a world: the map to draw, the cast, and the environment
// tree. A plain, serialisable digest of the loaded world (no typed arrays, no server paths).

import type { WorldDef } from '$lib/engine/types';
import type { LoadedWorld, MapView } from '$lib/world/types';

export interface AgentView {
	id: string;
	name: string;
	firstName: string;
	/** spawn tile (column, row) */
	x: number;
	y: number;
	spawn: string;
	home: string;
	currently: string;
}

export interface ObjectView {
	name: string;
	address: string;
	state: string;
}

export interface ArenaView {
	name: string;
	address: string;
	objects: ObjectView[];
}

export interface SectorView {
	name: string;
	kind: string;
	arenas: ArenaView[];
}

export interface WorldView {
	id: string;
	name: string;
	map: MapView;
	agents: AgentView[];
	sectors: SectorView[];
	/** problems that do not stop the world from running */
	warnings: ProblemView[];
}

/** A problem found while loading a world, shown as a list instead of a crash. */
export interface ProblemView {
	file: string;
	where?: string;
	message: string;
}

export function agentViews(def: WorldDef): AgentView[] {
	return def.personas.map((p) => {
		const spawn = def.spawns[p.spawn];
		return {
			id: p.id,
			name: p.name,
			firstName: p.firstName,
			x: spawn?.x ?? 0,
			y: spawn?.y ?? 0,
			spawn: p.spawn,
			home: p.home,
			currently: p.currently
		};
	});
}

export function sectorViews(def: Pick<WorldDef, 'sectors'>): SectorView[] {
	return def.sectors.map((s) => ({
		name: s.name,
		kind: s.kind,
		arenas: s.arenas.map((a) => ({
			name: a.name,
			address: a.address,
			objects: a.objects.map((o) => ({ name: o.name, address: o.address, state: o.defaultState }))
		}))
	}));
}

export function worldView(id: string, loaded: LoadedWorld): WorldView {
	return {
		id,
		name: loaded.def.name,
		map: loaded.map,
		agents: agentViews(loaded.def),
		sectors: sectorViews(loaded.def),
		warnings: loaded.warnings ?? []
	};
}
