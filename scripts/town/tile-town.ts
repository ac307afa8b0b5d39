// Larger towns at Smallville's density: Smallville tiled n x n, each copy with its own 25
// residents, its own places (sector names get the copy's number: "Hobbs Cafe 2") and its own
// scenario seeds, the copies joined by their streets through the wooded border.
//
//   npx tsx scripts/town/tile-town.ts N [worldsDir]   (writes <worldsDir>/smallville-NxN/)
//
// Generated on demand (the scale bench writes them into a temporary data home); not committed.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { grassTile } from './landscape';
import { MAYOR_FACT, MAYOR_SEED, PARTY_FACT, PARTY_SEED, writeWorld } from './make-town';
import { PERSONAS, type PersonaSource } from './personas';
import { buildSmallville, SMALLVILLE_SIZE } from './smallville';
import { TILE_LAYERS, TownMap, type Rect } from './town-map';

/** Smallville's street grid (rows of the horizontal roads, columns of the vertical ones). */
const STREETS = { horizontal: [25, 51, 76], vertical: [46, 93] };
/** depth of the wooded border, in tiles */
const BORDER = 2;
export const MAX_TILES = 8;

/** The n of an "n x n" tiling, checked. */
export function tilesOf(n: unknown): number {
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TILES) {
		throw new Error(`tiled town: tiles per side must be a whole number from 1 to ${MAX_TILES}, got ${JSON.stringify(n)}`);
	}
	return n;
}

/** The world id of Smallville tiled n x n. */
export function tiledWorldId(n: number): string {
	return `smallville-${n}x${n}`;
}

/** Copy k's version of a name: the first copy keeps Smallville's names. */
function suffix(name: string, k: number): string {
	return k === 0 ? name : `${name} ${k + 1}`;
}

/** Replaces every resident's full name and every sector name in a text by copy k's. */
function renamer(k: number, sectors: string[]): (text: string) => string {
	if (k === 0) return (t) => t;
	const words = [...new Set([...PERSONAS.map((p) => p.name), ...sectors])].sort((a, b) => b.length - a.length);
	const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
	return (t) => t.replace(pattern, (w) => suffix(w, k));
}

/** Copy k's residents: ids, names, homes, known places and memories renamed. */
export function tiledPersonas(k: number, sectors: string[]): PersonaSource[] {
	const rename = renamer(k, sectors);
	return PERSONAS.map((p) => ({
		...p,
		id: k === 0 ? p.id : `${p.id}-${k + 1}`,
		name: suffix(p.name, k),
		lastName: suffix(p.lastName, k),
		innate: p.innate,
		learned: rename(p.learned),
		currently: rename(p.currently),
		lifestyle: rename(p.lifestyle),
		dailyPlanRequirement: rename(p.dailyPlanRequirement),
		// arenas keep their names (a room may be named after its first copy's resident)
		home: ((sector, arena) => `${suffix(sector, k)}:${arena}`)(...(p.home.split(':') as [string, string])),
		knownPlaces: p.knownPlaces.map((s) => suffix(s, k)),
		seedMemories: p.seedMemories.map(rename)
	}));
}

const offset = (r: Rect, dx: number, dy: number): Rect => [r[0] + dx, r[1] + dy, r[2], r[3]];

/** Clears the border trees over a rectangle (widened to the trees' 2 x 2 grid) back to grass. */
function clearBorder(m: TownMap, x0: number, y0: number, x1: number, y1: number): void {
	const ax = x0 - (x0 % 2);
	const ay = y0 - (y0 % 2);
	const bx = x1 + ((x1 + 1) % 2);
	const by = y1 + ((y1 + 1) % 2);
	for (let y = ay; y <= by; y++) {
		for (let x = ax; x <= bx; x++) {
			if (m.getTerrain(x, y) !== 'border') continue;
			const i = m.idx(x, y);
			m.layers.decor[i] = 0;
			m.collision[i] = 0;
			m.set('ground', x, y, grassTile(x, y));
			m.setTerrain(x, y, 'grass');
		}
	}
}

/** A street through the border: two road lanes with a sidewalk on each side. */
function street(m: TownMap, dir: 'h' | 'v', at: number, from: number, to: number): void {
	for (let s = from; s <= to; s++) {
		for (let d = -1; d <= 2; d++) {
			const [x, y] = dir === 'h' ? [s, at + d] : [at + d, s];
			if (d === -1 || d === 2) {
				m.set('ground', x, y, 'sidewalk');
				m.setTerrain(x, y, 'sidewalk');
			} else {
				m.set('ground', x, y, d === 0 ? (dir === 'h' ? 'road line bottom' : 'road line right') : 'road');
				m.setTerrain(x, y, 'road');
			}
		}
	}
}

/** Smallville tiled n x n, with every copy's residents spawned at home. */
export function buildTiledSmallville(n: number): { map: TownMap; personas: PersonaSource[]; copies: number } {
	tilesOf(n);
	const base = buildSmallville(PERSONAS);
	const [W, H] = SMALLVILLE_SIZE;
	const m = new TownMap(tiledWorldId(n), W * n, H * n);
	const sectorNames = base.sectors.map((s) => s.name);
	const personas: PersonaSource[] = [];
	for (let ty = 0; ty < n; ty++) {
		for (let tx = 0; tx < n; tx++) {
			const k = ty * n + tx;
			const dx = tx * W;
			const dy = ty * H;
			for (let y = 0; y < H; y++) {
				const from = y * W;
				const to = m.idx(dx, dy + y);
				for (const layer of TILE_LAYERS) m.layers[layer].set(base.layers[layer].subarray(from, from + W), to);
				m.collision.set(base.collision.subarray(from, from + W), to);
				m.keepClear.set(base.keepClear.subarray(from, from + W), to);
				for (let x = 0; x < W; x++) m.terrain[to + x] = base.terrain[from + x];
			}
			for (const s of base.sectors) m.sectors.push({ name: suffix(s.name, k), kind: s.kind, rects: s.rects.map((r) => offset(r, dx, dy)) });
			for (const a of base.arenas) m.arenas.push({ sector: suffix(a.sector, k), name: a.name, rects: a.rects.map((r) => offset(r, dx, dy)) });
			for (const o of base.objects) {
				m.objects.push({ sector: suffix(o.sector, k), arena: o.arena, name: o.name, rects: o.rects.map((r) => offset(r, dx, dy)), state: o.state });
			}
			const residents = tiledPersonas(k, sectorNames);
			PERSONAS.forEach((p, i) => {
				const spawn = base.spawns.find((s) => s.name === p.id);
				if (!spawn) throw new Error(`${m.name}: Smallville has no spawn for ${p.id}`);
				m.spawns.push({ name: residents[i].id, x: spawn.x + dx, y: spawn.y + dy, home: residents[i].home });
			});
			personas.push(...residents);
		}
	}
	// join neighbouring copies: each street runs on through the two borders it meets
	for (let t = 1; t < n; t++) {
		const X = t * W;
		const Y = t * H;
		for (let row = 0; row < n; row++) {
			for (const r of STREETS.horizontal) {
				const y = row * H + r;
				clearBorder(m, X - BORDER, y - 1, X + BORDER - 1, y + 2);
				street(m, 'h', y, X - BORDER, X + BORDER - 1);
			}
		}
		for (let col = 0; col < n; col++) {
			for (const c of STREETS.vertical) {
				const x = col * W + c;
				clearBorder(m, x - 1, Y - BORDER, x + 2, Y + BORDER - 1);
				street(m, 'v', x, Y - BORDER, Y + BORDER - 1);
			}
		}
	}
	m.validate();
	return { map: m, personas, copies: n * n };
}

/** Writes Smallville tiled n x n into `outDir/<id>/`; returns the world id. */
export function writeTiledSmallville(outDir: string, n: number): string {
	const { map, personas, copies } = buildTiledSmallville(n);
	const seeds = [];
	for (let k = 0; k < copies; k++) {
		const rename = renamer(
			k,
			map.sectors.slice(0, map.sectors.length / copies).map((s) => s.name)
		);
		for (const seed of [PARTY_SEED, MAYOR_SEED]) {
			seeds.push({ id: k === 0 ? seed.id : `${seed.id}-${k + 1}`, agent: k === 0 ? seed.agent : `${seed.agent}-${k + 1}`, memory: rename(seed.memory) });
		}
	}
	// the evaluation's facts are the first copy's (the others' parties have the same keywords)
	writeWorld(outDir, { id: map.name, name: `Smallville ${n}x${n}`, map, personas, scenario: { seeds, facts: [PARTY_FACT, MAYOR_FACT] } });
	return map.name;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	try {
		const n = tilesOf(Number(process.argv[2]));
		const out = path.resolve(process.argv[3] ?? 'worlds');
		console.log(`wrote ${path.join(out, writeTiledSmallville(out, n))}`);
	} catch (err) {
		console.error(err instanceof Error ? err.message : String(err));
		process.exit(1);
	}
}
