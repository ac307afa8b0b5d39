// Test helper: a small made-up checkout of the reference implementation, written in its formats
// (never its data): a 6 x 5 town of two sectors with its Tiled map, mazes and special blocks, a
// starting simulation of two personas (storage/base_two), and the same two recorded over 10 steps
// in both forms (storage/rec_two, expanded, and compressed_storage/rec_two).
//
//   x   0 1 2 3 4 5
//   y0  # # # # # #     # wall (collision id 5)
//   y1  # b . . c .     house "Ann Lee's house" (x1..2): main room (y1..2, bed b at (1,1)),
//   y2  # A . . c .       bathroom (y3, toilet t at (1,3)); cafe "Hobbs Cafe" (x3..5, y1..2
//   y3  # t . . B #       and x3..4, y3): arena cafe, cafe counter c at (4,1) and (4,2)
//   y4  # # # # # #     A, B: Ann's and Bob's tiles at step 0; spawning locations at (2,1), (3,3)

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { placeholderPng } from './placeholder';

export const W = 6;
export const H = 5;

const WALL = 5;
const grid = (f: (x: number, y: number) => number) => Array.from({ length: W * H }, (_, t) => f(t % W, Math.floor(t / W)));
const isWall = (x: number, y: number) => x === 0 || y === 0 || y === H - 1 || (x === W - 1 && y !== 1 && y !== 2);

export const MAZES: Record<string, number[]> = {
	collision: grid((x, y) => (isWall(x, y) ? WALL : 0)),
	sector: grid((x, y) => (isWall(x, y) ? 0 : x <= 2 ? 101 : 102)),
	arena: grid((x, y) => (isWall(x, y) ? 0 : x <= 2 ? (y === 3 ? 112 : 111) : 113)),
	object: grid((x, y) => (x === 1 && y === 1 ? 121 : x === 1 && y === 3 ? 122 : x === 4 && (y === 1 || y === 2) ? 123 : 0)),
	spawn: grid((x, y) => (x === 2 && y === 1 ? 131 : x === 3 && y === 3 ? 132 : 0))
};

export const BLOCKS: Record<string, string> = {
	world_blocks: '100, the Ville',
	sector_blocks: "101, the Ville, Ann Lee's house\n102, the Ville, Hobbs Cafe \n",
	arena_blocks: "111, the Ville, Ann Lee's house, main room\n112, the Ville, Ann Lee's house, bathroom\n113, the Ville, Hobbs Cafe, cafe\n",
	game_object_blocks: '121, the Ville, <all>, bed\n122, the Ville, <all>, toilet\n123, the Ville, <all>, cafe counter\n',
	spawning_location_blocks: "131, the Ville, Ann Lee's house, main room, sp-A\n132, the Ville, Hobbs Cafe, cafe, sp-A\n"
};

const MAZE_FILES: Record<string, string> = {
	collision: 'collision_maze.csv',
	sector: 'sector_maze.csv',
	arena: 'arena_maze.csv',
	object: 'game_object_maze.csv',
	spawn: 'spawning_location_maze.csv'
};

function tiledMap(): object {
	const layer = (id: number, name: string, data: number[], visible = true) => ({ data, height: H, id, name, opacity: 1, type: 'tilelayer', visible, width: W, x: 0, y: 0 });
	const tileset = (firstgid: number, name: string, image: string) => ({ columns: 2, firstgid, image, imageheight: 64, imagewidth: 64, margin: 0, name, spacing: 0, tilecount: 4, tileheight: 32, tilewidth: 32, transparentcolor: '#ff00ff' });
	return {
		compressionlevel: -1,
		height: H,
		infinite: false,
		layers: [
			layer(1, 'Bottom Ground', grid(() => 1)),
			layer(2, 'Wall', grid((x, y) => (isWall(x, y) ? 2 : 0))),
			layer(3, 'Interior Furniture L1', grid((x, y) => (MAZES.object[y * W + x] ? 3 : 0))),
			layer(4, 'Collisions', MAZES.collision),
			layer(5, 'Arena Blocks', grid((x, y) => (MAZES.arena[y * W + x] ? 6 : 0)), false)
		],
		nextlayerid: 6,
		nextobjectid: 1,
		orientation: 'orthogonal',
		renderorder: 'right-down',
		tiledversion: '1.8.6',
		tileheight: 32,
		tilesets: [tileset(1, 'field', 'map_assets/field/field.png'), tileset(5, 'blocks', 'map_assets/blocks/blocks.png')],
		tilewidth: 32,
		type: 'map',
		version: '1.8',
		width: W
	};
}

export interface FixturePersona {
	name: string;
	scratch: Record<string, unknown>;
	spatial: object;
	nodes: Record<string, object>;
}

function scratch(name: string, living: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	const [first, last] = name.split(' ');
	return {
		vision_r: 4,
		att_bandwidth: 3,
		retention: 5,
		curr_time: null,
		curr_tile: null,
		daily_plan_req: `${first} works at Hobbs Cafe`,
		name,
		first_name: first,
		last_name: last,
		age: 30,
		innate: 'kind, curious',
		learned: `${name} is a barista.`,
		currently: `${name} is planning a party.`,
		lifestyle: `${name} goes to bed around 11pm.`,
		living_area: living,
		concept_forget: 100,
		recency_w: 1,
		relevance_w: 1,
		importance_w: 1,
		recency_decay: 0.99,
		importance_trigger_max: 150,
		importance_trigger_curr: 150,
		importance_ele_n: 0,
		daily_req: [],
		...extra
	};
}

const spatial = { 'the Ville': { "Ann Lee's house": { 'main room': ['bed'] }, 'Hobbs Cafe': { cafe: ['cafe counter'] } } };

const node = (n: number, type: string, created: string, description: string, extra: Record<string, unknown> = {}) => ({
	node_count: n,
	type_count: n,
	type,
	depth: type === 'event' ? 0 : 1,
	created,
	expiration: null,
	subject: 'Ann Lee',
	predicate: 'is',
	object: 'idle',
	description,
	embedding_key: description,
	poignancy: 3,
	keywords: ['idle'],
	filling: [],
	...extra
});

/** Ann's memories of the recording: an event, a chat, a note on it, a plan and a reflection. */
export function annNodes(): Record<string, object> {
	const lines = [
		['Ann Lee', 'Hi Bob, come to my party!'],
		['Bob Ray', 'I will, Ann.']
	];
	const nodes = [
		node(1, 'event', '2023-02-13 00:00:00', 'Ann Lee is idle'),
		node(2, 'event', '2023-02-13 00:00:30', 'bed is being used', { subject: "the Ville:Ann Lee's house:main room:bed", poignancy: 1 }),
		node(3, 'chat', '2023-02-13 00:01:00', 'conversing about the party', { predicate: 'chat with', object: 'Bob Ray', poignancy: 6, filling: lines }),
		node(4, 'thought', '2023-02-13 00:01:00', "For Ann Lee's planning: remember Bob is coming", { predicate: 'plan', filling: ['node_3'], poignancy: 5 }),
		node(5, 'thought', '2023-02-13 00:01:10', "This is Ann Lee's plan for Monday February 13: open the cafe", { predicate: 'plan', filling: null }),
		node(6, 'thought', '2023-02-13 00:01:20', 'Ann Lee cares about her friends', { depth: 2, predicate: 'care', filling: ['node_1', 'node_3'], poignancy: 7 })
	];
	return Object.fromEntries(nodes.reverse().map((x) => [`node_${x.node_count}`, x]));
}

export function bobNodes(): Record<string, object> {
	return { node_1: node(1, 'event', '2023-02-13 00:00:00', 'Bob Ray is idle', { subject: 'Bob Ray' }) };
}

/** What each persona shows at each of the recording's 10 steps. */
export function movements(): Record<string, { movement: [number, number]; pronunciatio: string; description: string; chat: [string, string][] | null }>[] {
	const lines: [string, string][] = [
		['Ann Lee', 'Hi Bob, come to my party!'],
		['Bob Ray', 'I will, Ann.']
	];
	const steps = [];
	for (let s = 0; s < 10; s++) {
		const ann =
			s < 2
				? { movement: [1, 2] as [number, number], pronunciatio: '💤', description: "sleeping @ the Ville:Ann Lee's house:main room:bed", chat: null }
				: s < 4
					? { movement: [2, 2] as [number, number], pronunciatio: '🚶', description: 'walking to the cafe @ the Ville:Hobbs Cafe:cafe', chat: null }
					: s < 7
						? { movement: [3, 2] as [number, number], pronunciatio: '💬', description: 'conversing about the party @ <persona> Bob Ray', chat: lines }
						: { movement: [3, 1] as [number, number], pronunciatio: '☕', description: 'serving coffee @ the Ville:Hobbs Cafe:cafe:cafe counter', chat: null };
		const bob =
			s < 4
				? { movement: [4, 3] as [number, number], pronunciatio: '📖', description: 'reading @ the Ville:Hobbs Cafe:cafe', chat: null }
				: s < 7
					? { movement: [4, 2] as [number, number], pronunciatio: '💬', description: 'conversing about the party @ <persona> Ann Lee', chat: lines }
					: { movement: [4, 3] as [number, number], pronunciatio: '📖', description: 'reading @ the Ville:Hobbs Cafe:cafe', chat: null };
		steps.push({ 'Ann Lee': ann, 'Bob Ray': bob });
	}
	return steps;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

function writePersonas(dir: string, personas: { name: string; scratch: object; nodes: object; embeddings?: object }[]): void {
	for (const p of personas) {
		const b = path.join(dir, 'personas', p.name, 'bootstrap_memory');
		mkdirSync(path.join(b, 'associative_memory'), { recursive: true });
		writeFileSync(path.join(b, 'scratch.json'), json(p.scratch));
		writeFileSync(path.join(b, 'spatial_memory.json'), json(spatial));
		writeFileSync(path.join(b, 'associative_memory', 'nodes.json'), json(p.nodes));
		writeFileSync(path.join(b, 'associative_memory', 'embeddings.json'), json(p.embeddings ?? {}));
		writeFileSync(path.join(b, 'associative_memory', 'kw_strength.json'), json({ kw_strength_event: {}, kw_strength_thought: {} }));
	}
}

/**
 * Writes the checkout under `root` (its `environment/frontend_server/`); answers the folders of
 * the simulations. `embeddings` (dimension) gives the recording's memories vectors of that size.
 */
export function writeFixtureCheckout(root: string, opts: { embeddings?: number } = {}): { checkout: string; frontend: string; expanded: string; compressed: string } {
	const frontend = path.join(root, 'environment', 'frontend_server');
	const town = path.join(frontend, 'static_dirs', 'assets', 'the_ville');
	const matrix = path.join(town, 'matrix');
	mkdirSync(path.join(matrix, 'maze'), { recursive: true });
	mkdirSync(path.join(matrix, 'special_blocks'), { recursive: true });
	writeFileSync(path.join(matrix, 'maze_meta_info.json'), json({ world_name: 'the ville', maze_width: W, maze_height: H, sq_tile_size: 32, special_constraint: '' }));
	for (const [k, ids] of Object.entries(MAZES)) writeFileSync(path.join(matrix, 'maze', MAZE_FILES[k]), ids.join(', '));
	for (const [k, text] of Object.entries(BLOCKS)) writeFileSync(path.join(matrix, 'special_blocks', `${k}.csv`), text);
	const visuals = path.join(town, 'visuals');
	mkdirSync(path.join(visuals, 'map_assets', 'blocks'), { recursive: true });
	writeFileSync(path.join(visuals, 'the_ville_jan7.json'), json(tiledMap()));
	// the blocks' image is there; the field's (the "paid" art) is not
	writeFileSync(path.join(visuals, 'map_assets', 'blocks', 'blocks.png'), placeholderPng({ width: 64, height: 64, tileWidth: 32, tileHeight: 32, seed: 'real blocks' }));

	const meta = (step: number, now: string) => ({
		fork_sim_code: 'base_two',
		start_date: 'February 13, 2023',
		curr_time: now,
		sec_per_step: 10,
		maze_name: 'the_ville',
		persona_names: ['Ann Lee', 'Bob Ray'],
		step
	});
	// the starting simulation
	const base = path.join(frontend, 'storage', 'base_two');
	mkdirSync(path.join(base, 'reverie'), { recursive: true });
	mkdirSync(path.join(base, 'environment'), { recursive: true });
	writeFileSync(path.join(base, 'reverie', 'meta.json'), json(meta(0, 'February 13, 2023, 00:00:00')));
	writeFileSync(path.join(base, 'environment', '0.json'), json({ 'Ann Lee': { maze: 'the_ville', x: 1, y: 2 }, 'Bob Ray': { maze: 'the_ville', x: 4, y: 3 } }));
	writePersonas(base, [
		{ name: 'Ann Lee', scratch: scratch('Ann Lee', "the Ville:Ann Lee's house:main room"), nodes: {} },
		{ name: 'Bob Ray', scratch: scratch('Bob Ray', 'the Ville:Hobbs Cafe:cafe'), nodes: {} }
	]);

	// the recording, expanded and compressed
	const moves = movements();
	const vec = (text: string) => Array.from({ length: opts.embeddings ?? 0 }, (_, k) => ((text.length * (k + 1)) % 7) / 7 - 0.5);
	const embeddingsOf = (nodes: Record<string, object>) => Object.fromEntries(Object.values(nodes).map((n) => [(n as { embedding_key: string }).embedding_key, vec((n as { embedding_key: string }).embedding_key)]));
	const recPersonas = [
		{ name: 'Ann Lee', scratch: scratch('Ann Lee', "the Ville:Ann Lee's house:main room", { importance_trigger_curr: 120, curr_tile: [3, 1] }), nodes: annNodes() },
		{ name: 'Bob Ray', scratch: scratch('Bob Ray', 'the Ville:Hobbs Cafe:cafe'), nodes: bobNodes() }
	].map((p) => ({ ...p, ...(opts.embeddings ? { embeddings: embeddingsOf(p.nodes) } : {}) }));
	const expanded = path.join(frontend, 'storage', 'rec_two');
	mkdirSync(path.join(expanded, 'reverie'), { recursive: true });
	mkdirSync(path.join(expanded, 'movement'), { recursive: true });
	mkdirSync(path.join(expanded, 'environment'), { recursive: true });
	writeFileSync(path.join(expanded, 'reverie', 'meta.json'), json(meta(10, 'February 13, 2023, 00:01:40')));
	const clock = (s: number) => `February 13, 2023, 00:0${Math.floor((s * 10) / 60)}:${String((s * 10) % 60).padStart(2, '0')}`;
	moves.forEach((m, s) => writeFileSync(path.join(expanded, 'movement', `${s}.json`), json({ persona: m, meta: { curr_time: clock(s) } })));
	// where each stands at the start of each step (the reference writes one per step), so that the
	// recording's end is also a starting simulation of its own (world import --storage rec_two)
	const at = (s: number) => (s === 0 ? { 'Ann Lee': [1, 2], 'Bob Ray': [4, 3] } : { 'Ann Lee': moves[s - 1]['Ann Lee'].movement, 'Bob Ray': moves[s - 1]['Bob Ray'].movement });
	for (let s = 0; s <= 10; s++)
		writeFileSync(path.join(expanded, 'environment', `${s}.json`), json(Object.fromEntries(Object.entries(at(s)).map(([n, [x, y]]) => [n, { maze: 'the_ville', x, y }]))));
	writePersonas(expanded, recPersonas);
	const compressed = path.join(frontend, 'compressed_storage', 'rec_two');
	mkdirSync(compressed, { recursive: true });
	writeFileSync(path.join(compressed, 'meta.json'), json(meta(10, 'February 13, 2023, 00:01:40')));
	// as compress_sim_storage.py writes it: a persona only at the steps where it changed
	const master: Record<string, Record<string, object>> = {};
	moves.forEach((m, s) => {
		master[s] = {};
		for (const [name, v] of Object.entries(m)) if (s === 0 || JSON.stringify(moves[s - 1][name]) !== JSON.stringify(v)) master[s][name] = v;
	});
	writeFileSync(path.join(compressed, 'master_movement.json'), json(master));
	writePersonas(compressed, recPersonas);
	return { checkout: root, frontend, expanded, compressed };
}
