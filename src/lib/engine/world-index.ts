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

/** side of the squares `arenasNear` sorts arenas into, in tiles */
const NEAR_CELL = 16;

export class WorldIndex {
	/** arena index per tile, -1 outside any arena */
	readonly arenaAt: Int32Array;
	/** sector index per tile, -1 outside */
	readonly sectorAt: Int32Array;
	readonly arenas: ArenaEntry[] = [];
	readonly objects = new Map<string, { object: ObjectDef; arena: ArenaEntry }>();
	private readonly byAddress = new Map<string, ArenaEntry>();
	private readonly sectorsByName = new Map<string, SectorDef>();
	/** arena indices per square of NEAR_CELL tiles their bounding box touches (made on first use) */
	private nearCells: number[][] | null = null;

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

	/**
	 * Indices (ascending) of the arenas whose bounding box lies within `r` tiles of (x, y) in
	 * both directions: what "in sight" means for spatial memory. Looks only at the squares of
	 * the map around the point, so its cost does not grow with the size of the town.
	 */
	arenasNear(x: number, y: number, r: number): number[] {
		const cols = Math.ceil(this.world.width / NEAR_CELL);
		const rows = Math.ceil(this.world.height / NEAR_CELL);
		if (!this.nearCells) {
			const cells: number[][] = Array.from({ length: cols * rows }, () => []);
			this.arenas.forEach((e, ai) => {
				for (let cy = Math.floor(e.minY / NEAR_CELL); cy <= Math.floor(e.maxY / NEAR_CELL); cy++) {
					for (let cx = Math.floor(e.minX / NEAR_CELL); cx <= Math.floor(e.maxX / NEAR_CELL); cx++) cells[cy * cols + cx].push(ai);
				}
			});
			this.nearCells = cells;
		}
		const x0 = Math.max(0, Math.floor((x - r) / NEAR_CELL));
		const x1 = Math.min(cols - 1, Math.floor((x + r) / NEAR_CELL));
		const y0 = Math.max(0, Math.floor((y - r) / NEAR_CELL));
		const y1 = Math.min(rows - 1, Math.floor((y + r) / NEAR_CELL));
		const found = new Set<number>();
		for (let cy = y0; cy <= y1; cy++) for (let cx = x0; cx <= x1; cx++) for (const ai of this.nearCells[cy * cols + cx]) found.add(ai);
		const out: number[] = [];
		for (const ai of found) {
			const e = this.arenas[ai];
			const dx = x < e.minX ? e.minX - x : x > e.maxX ? x - e.maxX : 0;
			const dy = y < e.minY ? e.minY - y : y > e.maxY ? y - e.maxY : 0;
			if (dx <= r && dy <= r) out.push(ai);
		}
		return out.sort((a, b) => a - b);
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
