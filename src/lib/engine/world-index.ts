// Lookups derived from a WorldDef once: which zone a tile belongs to, addresses to zones.

import type { ArenaDef, ObjectDef, SectorDef, WorldDef } from './types';

export interface ArenaEntry {
	sector: SectorDef;
	arena: ArenaDef;
	/** bounding box in tiles, for quick "within vision" tests */
	minX: number;
	minY: number;
	maxX: number;
	maxY: number;
}

export class WorldIndex {
	/** arena index per tile, -1 outside any arena */
	readonly arenaAt: Int32Array;
	/** sector index per tile, -1 outside */
	readonly sectorAt: Int32Array;
	readonly arenas: ArenaEntry[] = [];
	readonly objects = new Map<string, { object: ObjectDef; arena: ArenaEntry }>();
	private readonly byAddress = new Map<string, ArenaEntry>();
	private readonly sectorsByName = new Map<string, SectorDef>();

	constructor(readonly world: WorldDef) {
		const n = world.width * world.height;
		this.arenaAt = new Int32Array(n).fill(-1);
		this.sectorAt = new Int32Array(n).fill(-1);
		world.sectors.forEach((sector, si) => {
			this.sectorsByName.set(sector.name, sector);
			for (const t of sector.tiles) this.sectorAt[t] = si;
			for (const arena of sector.arenas) {
				let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
				for (const t of arena.tiles) {
					const x = t % world.width;
					const y = (t - x) / world.width;
					minX = Math.min(minX, x);
					maxX = Math.max(maxX, x);
					minY = Math.min(minY, y);
					maxY = Math.max(maxY, y);
				}
				const entry: ArenaEntry = { sector, arena, minX, minY, maxX, maxY };
				const ai = this.arenas.push(entry) - 1;
				for (const t of arena.tiles) this.arenaAt[t] = ai;
				this.byAddress.set(arena.address, entry);
				for (const object of arena.objects) this.objects.set(object.address, { object, arena: entry });
			}
		});
	}

	sector(name: string): SectorDef | undefined {
		return this.sectorsByName.get(name);
	}

	arena(address: string): ArenaEntry | undefined {
		return this.byAddress.get(address);
	}

	/** `Sector:Arena` of a tile, '' outside any arena. */
	addressOf(tile: number): string {
		const ai = this.arenaAt[tile];
		return ai < 0 ? '' : this.arenas[ai].arena.address;
	}

	xy(tile: number): [number, number] {
		const x = tile % this.world.width;
		return [x, (tile - x) / this.world.width];
	}

	tile(x: number, y: number): number {
		return y * this.world.width + x;
	}
}

/** Splits `Sector:Arena:Object` into its parts (names may not contain ':'). */
export function splitAddress(address: string): string[] {
	return address ? address.split(':') : [];
}
