// The reference town's matrix: `matrix/maze_meta_info.json` (size), `matrix/maze/*.csv` (one id
// per tile, row by row, on one line) and `matrix/special_blocks/*.csv` (rows `id, world, sector[,
// arena[, game object]]` naming the ids). As in the reference (maze.py), a tile's address is
// made of the names its own ids give: its sector from the sector maze, its arena's name from the
// arena maze, its object's name from the game-object maze.

import { whereIn, type RefFiles } from './files';
import { isRecord } from '../../../shared/guards';

export interface RefMaze {
	/** the world's name from world_blocks.csv ("the Ville"), else maze_meta_info's world_name */
	worldName: string;
	width: number;
	height: number;
	tileSize: number;
	/** the collision maze's ids (0 = walkable) */
	collision: Int32Array;
	/** per tile: index into `sectors`, -1 for none */
	sector: Int32Array;
	sectors: string[];
	/** per tile: index into `arenas` (names only), -1 for none */
	arena: Int32Array;
	arenas: string[];
	object: Int32Array;
	objects: string[];
	spawn: Int32Array;
	/** spawning locations: "Sector:Arena:sp-A" as the CSV names them (the name is the last column) */
	spawns: { sector: string; arena: string; name: string }[];
}

export const MAZES = {
	collision: 'collision_maze.csv',
	sector: 'sector_maze.csv',
	arena: 'arena_maze.csv',
	object: 'game_object_maze.csv',
	spawn: 'spawning_location_maze.csv'
} as const;

export const BLOCKS = {
	world: 'world_blocks.csv',
	sector: 'sector_blocks.csv',
	arena: 'arena_blocks.csv',
	object: 'game_object_blocks.csv',
	spawn: 'spawning_location_blocks.csv'
} as const;

/** Columns of each special-block file: id, world, then the names. */
const COLUMNS: Record<keyof typeof BLOCKS, { n: number; shape: string }> = {
	world: { n: 2, shape: 'id, world' },
	sector: { n: 3, shape: 'id, world, sector' },
	arena: { n: 4, shape: 'id, world, sector, arena' },
	object: { n: 4, shape: 'id, world, arena (or <all>), game object' },
	spawn: { n: 5, shape: 'id, world, sector, arena, spawning location' }
};

/** At most this many unnamed ids are listed per maze (each with its first tile). */
const MAX_LISTED = 10;

/** Rows of a reference CSV as the reference reads them (csv.reader, each cell stripped). */
export function csvRows(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (c === '"') quoted = false;
			else cell += c;
		} else if (c === '"' && cell.trim() === '') {
			cell = '';
			quoted = true;
		} else if (c === ',') {
			row.push(cell.trim());
			cell = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			row.push(cell.trim());
			rows.push(row);
			row = [];
			cell = '';
		} else cell += c;
	}
	if (cell !== '' || row.length) {
		row.push(cell.trim());
		rows.push(row);
	}
	return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Reads the matrix folder (`files` is rooted at it). Problems go to `files.problems`. */
export async function readMaze(files: RefFiles): Promise<RefMaze | undefined> {
	const meta = await files.json('maze_meta_info.json', 'not found: a reference town has matrix/maze_meta_info.json');
	if (!meta) return undefined;
	const m = meta.value;
	if (!isRecord(m)) {
		files.error('maze_meta_info.json', undefined, 'must be a JSON object with maze_width, maze_height and sq_tile_size');
		return undefined;
	}
	const dim = (key: string): number | undefined => {
		const v = m[key];
		if (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 10_000) return v;
		files.error('maze_meta_info.json', whereIn(meta, [key]), `"${key}" must be a positive whole number (got ${JSON.stringify(v)})`);
		return undefined;
	};
	const width = dim('maze_width');
	const height = dim('maze_height');
	const tileSize = m.sq_tile_size === undefined ? 32 : dim('sq_tile_size');
	if (width === undefined || height === undefined || tileSize === undefined) return undefined;

	// ---- special blocks: id -> names --------------------------------------------------------
	const blocks = {} as Record<keyof typeof BLOCKS, Map<number, string[]>>;
	let worldName = typeof m.world_name === 'string' ? m.world_name : '';
	for (const kind of Object.keys(BLOCKS) as (keyof typeof BLOCKS)[]) {
		const rel = `special_blocks/${BLOCKS[kind]}`;
		const map = new Map<number, string[]>();
		blocks[kind] = map;
		const text = await files.text(rel, `not found: it names the ids of maze/${kind === 'world' ? '' : MAZES[kind]}`.replace(/maze\/$/, 'the world'));
		if (text === undefined) continue;
		const { n, shape } = COLUMNS[kind];
		csvRows(text).forEach((row, k) => {
			const where = `row ${k + 1}`;
			if (row.length !== n) {
				files.error(rel, where, `expected ${n} columns (${shape}), got ${row.length}: "${row.join(', ')}"`);
				return;
			}
			const id = Number(row[0]);
			if (!/^\d+$/.test(row[0]) || !Number.isSafeInteger(id) || id <= 0) {
				files.error(rel, where, `"${row[0]}" is not a block id (a positive whole number)`);
				return;
			}
			const names = row.slice(1);
			const blank = names.findIndex((x) => x === '');
			if (blank >= 0) {
				files.error(rel, where, `column ${blank + 2} is empty (${shape})`);
				return;
			}
			const before = map.get(id);
			if (before && before.join('\u0000') !== names.join('\u0000')) {
				files.error(rel, where, `id ${id} is named twice, as "${before.join(', ')}" and as "${names.join(', ')}"`);
				return;
			}
			map.set(id, names);
		});
	}
	const firstWorld = [...blocks.world.values()][0];
	if (firstWorld) worldName = firstWorld[0];
	if (!worldName) worldName = 'the Ville';

	// ---- mazes --------------------------------------------------------------------------------
	const N = width * height;
	const readIds = async (kind: keyof typeof MAZES): Promise<Int32Array | undefined> => {
		const rel = `maze/${MAZES[kind]}`;
		const text = await files.text(rel, `not found: a reference town has maze/${MAZES[kind]} (${width} x ${height} ids)`);
		if (text === undefined) return undefined;
		// one line of width x height ids (the reference reads the first line only); a file written
		// a row per line is read the same way
		const cells = text
			.split(/\r?\n/)
			.filter((l) => l.trim() !== '')
			.flatMap((l) => l.split(','));
		if (cells.length !== N) {
			files.error(
				rel,
				undefined,
				`holds ${cells.length.toLocaleString('en')} ids, but maze_meta_info.json says the maze is ${width} x ${height} = ${N.toLocaleString('en')} tiles (one id per tile, row by row)`
			);
			return undefined;
		}
		const ids = new Int32Array(N);
		let bad = 0;
		for (let t = 0; t < N; t++) {
			const c = cells[t].trim();
			const v = Number(c);
			if (!/^\d+$/.test(c) || !(v <= 0x7fffffff)) {
				if (bad++ < MAX_LISTED) files.error(rel, `row ${Math.floor(t / width)}, column ${t % width} (value ${t + 1})`, `"${c}" is not a block id (a whole number, 0 for none)`);
				continue;
			}
			ids[t] = v;
		}
		return bad ? undefined : ids;
	};
	const collision = await readIds('collision');
	const named = async (kind: 'sector' | 'arena' | 'object' | 'spawn') => {
		const ids = await readIds(kind);
		if (!ids) return undefined;
		const map = blocks[kind];
		const names: string[] = [];
		const index = new Map<string, number>();
		const at = new Int32Array(N).fill(-1);
		const unnamed = new Map<number, number>();
		for (let t = 0; t < N; t++) {
			const id = ids[t];
			if (id === 0) continue;
			const row = map.get(id);
			if (!row) {
				if (!unnamed.has(id)) unnamed.set(id, t);
				continue;
			}
			// the reference names a tile by the last column only
			const name = row[row.length - 1];
			const key = kind === 'spawn' ? row.slice(1).join('\u0000') : name;
			let k = index.get(key);
			if (k === undefined) {
				k = names.length;
				index.set(key, k);
				names.push(kind === 'spawn' ? row.slice(1).join('\u0000') : name);
			}
			at[t] = k;
		}
		let listed = 0;
		for (const [id, t] of unnamed) {
			if (listed++ === MAX_LISTED) {
				files.error(`maze/${MAZES[kind]}`, undefined, `and ${unnamed.size - MAX_LISTED} more ids that special_blocks/${BLOCKS[kind]} does not name`);
				break;
			}
			files.error(
				`maze/${MAZES[kind]}`,
				`row ${Math.floor(t / width)}, column ${t % width}`,
				`id ${id} is not named in special_blocks/${BLOCKS[kind]} (its first tile is (${t % width}, ${Math.floor(t / width)}))`
			);
		}
		return unnamed.size ? undefined : { at, names };
	};
	const sector = await named('sector');
	const arena = await named('arena');
	const object = await named('object');
	const spawn = await named('spawn');
	if (!collision || !sector || !arena || !object || !spawn) return undefined;
	return {
		worldName,
		width,
		height,
		tileSize,
		collision,
		sector: sector.at,
		sectors: sector.names,
		arena: arena.at,
		arenas: arena.names,
		object: object.at,
		objects: object.names,
		spawn: spawn.at,
		spawns: spawn.names.map((k) => {
			const [s, a, name] = k.split('\u0000');
			return { sector: s, arena: a, name };
		})
	};
}
