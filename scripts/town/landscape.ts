// Outdoor painting shared by the town layouts: grass, a wooded border, streets, a lake, and
// scattered trees, flowers and street lamps that never cut off a walkable area.

import { tileHash, type Rect, type TownMap } from './town-map';

export function grassTile(x: number, y: number): string {
	const h = tileHash(x, y, 1);
	if (h < 0.03) return 'grass with flowers';
	if (h < 0.06) return 'grass tall';
	return ['grass', 'grass 2', 'grass 3', 'grass 4'][Math.floor(tileHash(x, y, 2) * 4)];
}

export function paintGrass(m: TownMap): void {
	m.fillGround([0, 0, m.width, m.height], grassTile, 'grass');
}

/** A ring of big trees, `thickness` (a multiple of 2) tiles deep, around the map. */
export function woodedBorder(m: TownMap, thickness = 2): void {
	const W = m.width;
	const H = m.height;
	const at = (x: number, y: number) => {
		m.drawSprite('decor', 'big tree', [x, y, 2, 2]);
		for (let j = 0; j < 2; j++) for (let i = 0; i < 2; i++) m.setTerrain(x + i, y + j, 'border');
	};
	for (let y = 0; y < H; y += 2) {
		for (let x = 0; x < W; x += 2) {
			const edge = x < thickness || y < thickness || x >= W - thickness || y >= H - thickness;
			if (edge) at(x, y);
		}
	}
}

export interface StreetPlan {
	/** rows of the two-lane horizontal roads (upper lane row); sidewalks above and below */
	horizontal: number[];
	/** columns of the vertical roads (left lane column) */
	vertical: number[];
	/** inclusive extent of the street grid */
	from: [number, number];
	to: [number, number];
}

export function paintStreets(m: TownMap, plan: StreetPlan): void {
	const [x0, y0] = plan.from;
	const [x1, y1] = plan.to;
	const sidewalk = (x: number, y: number) => {
		m.set('ground', x, y, 'sidewalk');
		m.setTerrain(x, y, 'sidewalk');
	};
	for (const r of plan.horizontal) {
		for (let x = x0; x <= x1; x++) {
			sidewalk(x, r - 1);
			sidewalk(x, r + 2);
		}
	}
	for (const c of plan.vertical) {
		for (let y = y0; y <= y1; y++) {
			sidewalk(c - 1, y);
			sidewalk(c + 2, y);
		}
	}
	const nearVertical = (x: number) => plan.vertical.some((c) => x >= c - 1 && x <= c + 2);
	const nearHorizontal = (y: number) => plan.horizontal.some((r) => y >= r - 1 && y <= r + 2);
	for (const r of plan.horizontal) {
		for (let x = x0; x <= x1; x++) {
			for (const y of [r, r + 1]) {
				const line = y === r && !nearVertical(x);
				m.set('ground', x, y, line ? 'road line bottom' : 'road');
				m.setTerrain(x, y, 'road');
			}
		}
	}
	for (const c of plan.vertical) {
		for (let y = y0; y <= y1; y++) {
			for (const x of [c, c + 1]) {
				const line = x === c && !nearHorizontal(y);
				m.set('ground', x, y, line ? 'road line right' : 'road');
				m.setTerrain(x, y, 'road');
			}
		}
	}
}

/** A dirt path (inclusive rectangle of tiles). */
export function dirtPath(m: TownMap, r: Rect): void {
	for (let y = r[1]; y < r[1] + r[3]; y++) {
		for (let x = r[0]; x < r[0] + r[2]; x++) {
			if (m.getTerrain(x, y) !== 'grass') continue;
			m.set('ground', x, y, 'dirt path');
			m.setTerrain(x, y, 'path');
		}
	}
}

/**
 * An oval lake inside `r` with a sandy shore and an optional dock running up from the south
 * shore at column `dockX`. Returns the water rectangles split around the dock.
 */
export function lake(m: TownMap, r: Rect, dockX?: number, dockLength = 2): { water: Rect[]; dock: Rect | null } {
	const cx = r[0] + r[2] / 2;
	const cy = r[1] + r[3] / 2;
	const rx = r[2] / 2 + 0.1;
	const ry = r[3] / 2 + 0.1;
	const isWater = (x: number, y: number) => ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1;
	let minX = Infinity;
	let minY = Infinity;
	let maxX = -Infinity;
	let maxY = -Infinity;
	for (let y = r[1]; y < r[1] + r[3]; y++) {
		for (let x = r[0]; x < r[0] + r[2]; x++) {
			if (!isWater(x, y)) continue;
			const lily = tileHash(x, y, 7) < 0.12;
			m.set('ground', x, y, lily ? 'water with lily pads' : 'water', true);
			m.setTerrain(x, y, 'water');
			minX = Math.min(minX, x);
			minY = Math.min(minY, y);
			maxX = Math.max(maxX, x);
			maxY = Math.max(maxY, y);
		}
	}
	for (let y = r[1] - 1; y <= r[1] + r[3]; y++) {
		for (let x = r[0] - 1; x <= r[0] + r[2]; x++) {
			if (m.getTerrain(x, y) !== 'grass') continue;
			let shore = false;
			for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) shore ||= m.getTerrain(x + i, y + j) === 'water';
			if (shore) {
				m.set('ground', x, y, 'sand');
				m.setTerrain(x, y, 'shore');
			}
		}
	}
	const bbox: Rect = [minX, minY, maxX - minX + 1, maxY - minY + 1];
	if (dockX === undefined) return { water: [bbox], dock: null };
	const dockTop = maxY - dockLength + 1;
	for (let y = dockTop; y <= maxY; y++) {
		m.set('ground', dockX, y, 'dock');
		m.collision[m.idx(dockX, y)] = 0;
		m.setTerrain(dockX, y, 'path');
	}
	const water: Rect[] = [
		[minX, minY, dockX - minX, bbox[3]],
		[dockX + 1, minY, maxX - dockX, bbox[3]],
		[dockX, minY, 1, dockTop - minY]
	];
	return { water, dock: [dockX, dockTop, 1, dockLength] };
}

function inAnyArena(m: TownMap, x: number, y: number): boolean {
	return m.arenas.some((a) => a.rects.some((r) => x >= r[0] && y >= r[1] && x < r[0] + r[2] && y < r[1] + r[3]));
}

function blockedAround(m: TownMap, r: Rect, radius: number): boolean {
	for (let y = r[1] - radius; y < r[1] + r[3] + radius; y++) {
		for (let x = r[0] - radius; x < r[0] + r[2] + radius; x++) {
			if (!m.inMap(x, y) || m.collision[m.idx(x, y)]) return true;
		}
	}
	return false;
}

function inAnyObject(m: TownMap, x: number, y: number): boolean {
	return m.objects.some((o) => o.rects.some((r) => x >= r[0] && y >= r[1] && x < r[0] + r[2] && y < r[1] + r[3]));
}

function openGrass(m: TownMap, r: Rect, inArenas: boolean): boolean {
	for (let y = r[1] - 1; y < r[1] + r[3] + 1; y++) {
		for (let x = r[0] - 1; x < r[0] + r[2] + 1; x++) {
			const t = m.getTerrain(x, y);
			if (t !== 'grass' && t !== 'border') return false;
			if (m.keepClear[m.idx(x, y)] || m.layers.furniture[m.idx(x, y)] || inAnyObject(m, x, y)) return false;
			if (!inArenas && inAnyArena(m, x, y)) return false;
		}
	}
	return true;
}

/**
 * Trees and bushes on open grass: big trees first, then single ones (outside arenas unless
 * `inArenas`, and never on or next to a game object). A tree keeps two clear
 * tiles from anything that blocks and one from streets, paths and buildings, so trees can
 * never close off a walkable pocket.
 */
export function scatterTrees(
	m: TownMap,
	region: Rect,
	density: number,
	salt: number,
	bigDensity = density / 3,
	inArenas = false
): void {
	for (let y = region[1]; y < region[1] + region[3] - 1; y++) {
		for (let x = region[0]; x < region[0] + region[2] - 1; x++) {
			const r: Rect = [x, y, 2, 2];
			if (tileHash(x, y, salt + 5) >= bigDensity || !openGrass(m, r, inArenas) || blockedAround(m, r, 2)) continue;
			m.drawSprite('decor', 'big tree', r);
		}
	}
	for (let y = region[1]; y < region[1] + region[3]; y++) {
		for (let x = region[0]; x < region[0] + region[2]; x++) {
			const r: Rect = [x, y, 1, 1];
			if (tileHash(x, y, salt) >= density || !openGrass(m, r, inArenas) || blockedAround(m, r, 2)) continue;
			const kind = tileHash(x, y, salt + 1);
			const sprite = kind < 0.55 ? 'tree' : kind < 0.8 ? 'pine tree' : 'bush';
			m.drawSprite('decor', sprite, r);
		}
	}
}

/** Flower clumps on open grass (they do not block). */
export function scatterFlowers(m: TownMap, region: Rect, density: number, salt: number): void {
	const kinds = ['red flowers', 'yellow flowers', 'purple flowers'];
	for (let y = region[1]; y < region[1] + region[3]; y++) {
		for (let x = region[0]; x < region[0] + region[2]; x++) {
			const i = m.idx(x, y);
			if (m.getTerrain(x, y) !== 'grass' || m.layers.decor[i] || m.collision[i]) continue;
			if (tileHash(x, y, salt) >= density) continue;
			m.drawSprite('decor', kinds[Math.floor(tileHash(x, y, salt + 1) * 3)], [x, y, 1, 1]);
		}
	}
}

/** Street lamps on the grass verge beside sidewalks, every `spacing` tiles. */
export function streetLamps(m: TownMap, spacing: number): void {
	for (let y = 1; y < m.height - 1; y++) {
		for (let x = 1; x < m.width - 1; x++) {
			if (m.getTerrain(x, y) !== 'grass' || m.keepClear[m.idx(x, y)]) continue;
			const besideH = m.getTerrain(x, y - 1) === 'sidewalk' || m.getTerrain(x, y + 1) === 'sidewalk';
			const besideV = m.getTerrain(x - 1, y) === 'sidewalk' || m.getTerrain(x + 1, y) === 'sidewalk';
			const onGrid = (besideH && !besideV && x % spacing === 3) || (besideV && !besideH && y % spacing === 3);
			if (!onGrid || blockedAround(m, [x, y, 1, 1], 1)) continue;
			let pathNear = false;
			for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) pathNear ||= m.getTerrain(x + i, y + j) === 'path';
			if (pathNear || inAnyArena(m, x, y)) continue;
			m.drawSprite('decor', 'street lamp', [x, y, 1, 1]);
		}
	}
}
