// A reference simulation's files: `reverie/meta.json` (or `meta.json` in compressed storage),
// `environment/<step>.json` (each persona's tile), and per persona `bootstrap_memory/`:
// `scratch.json` (identity and settings), `spatial_memory.json` (the places it knows) and
// `associative_memory/` (`nodes.json`, the memory stream; `embeddings.json`, vectors by text).

import type { JsonDoc } from '../../../world/json';
import { parseRefTime, whereIn, type RefFiles } from './files';
import { isRecord } from '../../../shared/guards';

export interface RefMeta {
	/** the file it was read from, relative to the simulation folder */
	file: string;
	/** the simulation's first game time: `start_date` at midnight */
	start: number;
	/** the game time after `step` steps (`curr_time`) */
	now: number;
	secondsPerStep: number;
	/** the town's folder under static_dirs/assets/ */
	maze: string;
	personas: string[];
	step: number;
	forkedFrom?: string;
}

export async function readMeta(files: RefFiles, rel: string): Promise<RefMeta | undefined> {
	const doc = await files.json(rel);
	if (!doc) return undefined;
	const m = doc.value;
	const before = files.problems.errors.length;
	if (!isRecord(m)) {
		files.error(rel, undefined, 'must be a JSON object (start_date, curr_time, sec_per_step, maze_name, persona_names, step)');
		return undefined;
	}
	const bad = (key: string, what: string) => files.error(rel, whereIn(doc, [key]), `"${key}" must be ${what} (got ${JSON.stringify(m[key]) ?? 'nothing'})`);
	const start = parseRefTime(m.start_date);
	if (start === undefined) bad('start_date', 'a date such as "February 13, 2023"');
	const now = parseRefTime(m.curr_time);
	if (now === undefined) bad('curr_time', 'a time such as "February 13, 2023, 00:00:00"');
	const sps = m.sec_per_step;
	if (!(typeof sps === 'number' && Number.isInteger(sps) && sps > 0)) bad('sec_per_step', 'a positive whole number of seconds');
	if (typeof m.maze_name !== 'string' || !/^[\w.-]+$/.test(m.maze_name)) bad('maze_name', 'the name of a town folder such as "the_ville"');
	const names = m.persona_names;
	if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string' || n.trim() === '')) bad('persona_names', 'a list of persona names');
	const step = m.step;
	if (!(typeof step === 'number' && Number.isInteger(step) && step >= 0)) bad('step', 'a whole number of steps');
	if (files.problems.errors.length > before) return undefined;
	return {
		file: rel,
		start: start!,
		now: now!,
		secondsPerStep: sps as number,
		maze: m.maze_name as string,
		personas: (names as string[]).map((n) => n.trim()),
		step: step as number,
		...(typeof m.fork_sim_code === 'string' ? { forkedFrom: m.fork_sim_code } : {})
	};
}

/** `environment/<step>.json`: each persona's tile. */
export async function readEnvironment(files: RefFiles, rel: string, names: string[], size: { width: number; height: number }): Promise<Map<string, { x: number; y: number }> | undefined> {
	const doc = await files.json(rel, 'not found: it holds where each persona stands at the simulation\'s step');
	if (!doc) return undefined;
	const v = doc.value;
	if (!isRecord(v)) {
		files.error(rel, undefined, 'must be a JSON object: persona name -> {"maze", "x", "y"}');
		return undefined;
	}
	const out = new Map<string, { x: number; y: number }>();
	for (const name of names) {
		const p = v[name];
		if (!isRecord(p)) {
			files.error(rel, undefined, `has no tile for "${name}" (a persona of the simulation)`);
			continue;
		}
		const { x, y } = p;
		if (!(typeof x === 'number' && typeof y === 'number' && Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < size.width && y < size.height)) {
			files.error(rel, whereIn(doc, [name]), `"${name}" stands at (${String(x)}, ${String(y)}), which is not a tile of the ${size.width} x ${size.height} map`);
			continue;
		}
		out.set(name, { x, y });
	}
	return out;
}

export interface RefScratch {
	file: string;
	name: string;
	firstName: string;
	lastName: string;
	age: number;
	innate: string;
	learned: string;
	currently: string;
	lifestyle: string;
	livingArea: string;
	dailyPlanReq: string;
	visionR: number;
	attBandwidth: number;
	retention: number;
	recencyW: number;
	relevanceW: number;
	importanceW: number;
	recencyDecay: number;
	importanceTriggerMax: number;
	importanceTriggerCurr: number;
	/** the day's requirements and hourly schedule (a recording's last day) */
	dailyReq: string[];
	/** where it stood when the scratch was saved, if recorded */
	currTile: { x: number; y: number } | null;
}

/** `bootstrap_memory/scratch.json`: what a persona is. */
export async function readScratch(files: RefFiles, rel: string): Promise<RefScratch | undefined> {
	const doc = await files.json(rel, 'not found: every persona folder has bootstrap_memory/scratch.json');
	if (!doc) return undefined;
	const v = doc.value;
	if (!isRecord(v)) {
		files.error(rel, undefined, 'must be a JSON object (name, first_name, ..., living_area)');
		return undefined;
	}
	const before = files.problems.errors.length;
	const str = (key: string, required = false): string => {
		const x = v[key];
		if (typeof x === 'string') return x.trim();
		if (x === undefined || x === null) {
			if (required) files.error(rel, undefined, `has no "${key}"`);
			return '';
		}
		files.error(rel, whereIn(doc, [key]), `"${key}" must be text (got ${JSON.stringify(x)})`);
		return '';
	};
	const num = (key: string, fallback: number, rule: (n: number) => boolean, what: string): number => {
		const x = v[key];
		if (x === undefined || x === null) return fallback;
		if (typeof x !== 'number' || !rule(x)) {
			files.error(rel, whereIn(doc, [key]), `"${key}" must be ${what} (got ${JSON.stringify(x)})`);
			return fallback;
		}
		return x;
	};
	const posInt = (n: number) => Number.isInteger(n) && n > 0;
	const name = str('name', true);
	const parts = name.split(/\s+/);
	const s: RefScratch = {
		file: rel,
		name,
		firstName: str('first_name') || parts[0] || name,
		lastName: str('last_name') || parts.slice(1).join(' '),
		age: num('age', 0, (n) => Number.isInteger(n) && n >= 0, 'a whole number of years'),
		innate: str('innate'),
		learned: str('learned'),
		currently: str('currently'),
		lifestyle: str('lifestyle'),
		livingArea: str('living_area', true),
		dailyPlanReq: str('daily_plan_req'),
		visionR: num('vision_r', 8, posInt, 'a positive whole number of tiles'),
		attBandwidth: num('att_bandwidth', 8, posInt, 'a positive whole number'),
		retention: num('retention', 8, posInt, 'a positive whole number'),
		recencyW: num('recency_w', 1, (n) => n >= 0, 'a weight of 0 or more'),
		relevanceW: num('relevance_w', 1, (n) => n >= 0, 'a weight of 0 or more'),
		importanceW: num('importance_w', 1, (n) => n >= 0, 'a weight of 0 or more'),
		recencyDecay: num('recency_decay', 0.995, (n) => n > 0 && n <= 1, 'a decay between 0 and 1'),
		importanceTriggerMax: num('importance_trigger_max', 150, (n) => n > 0, 'a positive number'),
		importanceTriggerCurr: num('importance_trigger_curr', 150, Number.isFinite, 'a number'),
		dailyReq: Array.isArray(v.daily_req) ? v.daily_req.filter((x): x is string => typeof x === 'string') : [],
		currTile: Array.isArray(v.curr_tile) && v.curr_tile.length === 2 && v.curr_tile.every(Number.isInteger) ? { x: v.curr_tile[0] as number, y: v.curr_tile[1] as number } : null
	};
	if (!s.livingArea && before === files.problems.errors.length) files.error(rel, whereIn(doc, ['living_area']), '"living_area" is empty: it names the persona\'s home, "<world>:<sector>:<arena>"');
	return files.problems.errors.length > before ? undefined : s;
}

/** `spatial_memory.json` without its world level: sector -> arena -> objects. */
export async function readSpatial(files: RefFiles, rel: string): Promise<Record<string, Record<string, string[]>> | undefined> {
	if (!files.isFile(rel)) {
		files.warn(rel, undefined, 'not found: the persona knows only its home');
		return {};
	}
	const doc = await files.json(rel);
	if (!doc) return undefined;
	const v = doc.value;
	if (!isRecord(v)) {
		files.error(rel, undefined, 'must be a JSON object: world -> sector -> arena -> [game objects]');
		return undefined;
	}
	const out: Record<string, Record<string, string[]>> = {};
	for (const [world, sectors] of Object.entries(v)) {
		if (!isRecord(sectors)) {
			files.error(rel, whereIn(doc, [world]), `"${world}" must map sectors to their arenas`);
			continue;
		}
		for (const [sector, arenas] of Object.entries(sectors)) {
			if (!isRecord(arenas)) {
				files.error(rel, whereIn(doc, [world, sector]), `sector "${sector}" must map arenas to lists of game objects`);
				continue;
			}
			const s = (out[sector.trim()] ??= {});
			for (const [arena, objects] of Object.entries(arenas)) {
				if (!Array.isArray(objects) || objects.some((o) => typeof o !== 'string')) {
					files.error(rel, whereIn(doc, [world, sector, arena]), `arena "${arena}" must list its game objects by name`);
					continue;
				}
				s[arena.trim()] = [...new Set((objects as string[]).map((o) => o.trim()))];
			}
		}
	}
	return out;
}

export type NodeType = 'event' | 'thought' | 'chat';

export interface RefNode {
	/** "node_12" */
	key: string;
	count: number;
	type: NodeType;
	depth: number;
	created: number;
	subject: string;
	predicate: string;
	object: string;
	description: string;
	embeddingKey: string;
	poignancy: number;
	keywords: string[];
	/** thoughts: the node keys cited as evidence */
	evidence: string[];
	/** chats: the lines */
	lines: [string, string][];
}

/** `associative_memory/nodes.json`, oldest first (by creation time, then node number). */
export async function readNodes(files: RefFiles, rel: string): Promise<RefNode[] | undefined> {
	if (!files.isFile(rel)) {
		files.warn(rel, undefined, 'not found: the persona starts without memories');
		return [];
	}
	const doc: JsonDoc | undefined = await files.json(rel);
	if (!doc) return undefined;
	const v = doc.value;
	if (!isRecord(v)) {
		files.error(rel, undefined, 'must be a JSON object: "node_<n>" -> memory');
		return undefined;
	}
	const before = files.problems.errors.length;
	const out: RefNode[] = [];
	for (const [key, n] of Object.entries(v)) {
		const where = whereIn(doc, [key], key);
		if (!isRecord(n)) {
			files.error(rel, where, 'a memory must be a JSON object');
			continue;
		}
		const type = n.type;
		if (type !== 'event' && type !== 'thought' && type !== 'chat') {
			files.error(rel, where, `"type" must be event, thought or chat (got ${JSON.stringify(type)})`);
			continue;
		}
		const created = parseRefTime(n.created);
		if (created === undefined) {
			files.error(rel, whereIn(doc, [key, 'created'], `${key}.created`), `"created" must be a time such as "2023-02-13 07:00:00" (got ${JSON.stringify(n.created)})`);
			continue;
		}
		const description = typeof n.description === 'string' ? n.description.trim() : '';
		if (!description) {
			files.error(rel, whereIn(doc, [key, 'description'], `${key}.description`), 'the memory has no description');
			continue;
		}
		const count = typeof n.node_count === 'number' ? n.node_count : Number(/\d+$/.exec(key)?.[0] ?? NaN);
		const poignancy = typeof n.poignancy === 'number' && Number.isFinite(n.poignancy) ? n.poignancy : NaN;
		if (Number.isNaN(poignancy)) {
			files.error(rel, whereIn(doc, [key, 'poignancy'], `${key}.poignancy`), `"poignancy" must be a number (got ${JSON.stringify(n.poignancy)})`);
			continue;
		}
		const filling = n.filling;
		const evidence: string[] = [];
		const lines: [string, string][] = [];
		if (type === 'chat') {
			if (Array.isArray(filling))
				for (const l of filling) if (Array.isArray(l) && l.length >= 2 && typeof l[0] === 'string' && typeof l[1] === 'string') lines.push([l[0], l[1]]);
		} else if (typeof filling === 'string') evidence.push(filling);
		else if (Array.isArray(filling)) for (const e of filling) if (typeof e === 'string') evidence.push(e);
		out.push({
			key,
			count: Number.isFinite(count) ? count : out.length + 1,
			type,
			depth: typeof n.depth === 'number' ? n.depth : 0,
			created,
			subject: typeof n.subject === 'string' ? n.subject : '',
			predicate: typeof n.predicate === 'string' ? n.predicate : '',
			object: typeof n.object === 'string' ? n.object : '',
			description,
			embeddingKey: typeof n.embedding_key === 'string' ? n.embedding_key : description,
			poignancy,
			keywords: Array.isArray(n.keywords) ? n.keywords.filter((k): k is string => typeof k === 'string') : [],
			evidence,
			lines
		});
	}
	if (files.problems.errors.length > before) return undefined;
	out.sort((a, b) => a.created - b.created || a.count - b.count);
	const keys = new Set(out.map((n) => n.key));
	for (const n of out) {
		const missing = n.evidence.filter((e) => !keys.has(e));
		if (missing.length) {
			files.warn(rel, whereIn(doc, [n.key], n.key), `cites ${missing.map((m) => `"${m}"`).join(', ')}, which nodes.json does not hold; the evidence is left out`);
			n.evidence = n.evidence.filter((e) => keys.has(e));
		}
	}
	return out;
}

/** `associative_memory/embeddings.json`: text -> vector (absent or empty: none). */
export async function readEmbeddings(files: RefFiles, rel: string): Promise<Map<string, number[]>> {
	const out = new Map<string, number[]>();
	if (!files.isFile(rel)) return out;
	const v = await files.plainJson(rel);
	if (!isRecord(v)) return out;
	for (const [text, vec] of Object.entries(v)) if (Array.isArray(vec) && vec.every((x) => typeof x === 'number' && Number.isFinite(x))) out.set(text, vec as number[]);
	return out;
}
