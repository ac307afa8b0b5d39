// The JSON files of a world: world.json, personas/<id>.json and scenario.json. Written by hand,
// so every field is checked and every problem names the file and the line of the key.

import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
	DEFAULT_SETTINGS,
	type PersonaDef,
	type ScenarioSeed,
	type SeedMemoryDef,
	type Settings,
	type TrackedFact
} from '../../engine/types';
import { formatIso } from '../../engine/clock';
import { parseJson, JsonSyntaxError, type JsonDoc, type JsonPath } from '../../world/json';
import { lineWhere, type ProblemList, type ProblemPlace } from '../../world/problems';
import { ConfinedPathError, realInside } from '../files';
import { FileLimitError, jsonTooDeep, LIMIT_ENV, limits, readTextCapped } from '../limits';
import { isRecord } from '../../shared/guards';

export interface JsonFile {
	/** relative to the world folder */
	file: string;
	doc: JsonDoc;
}

/** What a world file is about, for an editor: world.json is the settings, personas/<id>.json a persona. */
export function placeOfFile(file: string, field?: string): ProblemPlace | undefined {
	const f = field ? { field } : {};
	if (file === 'world.json') return { kind: 'settings', ...f };
	const m = /^personas\/([^/]+)\.json$/i.exec(file);
	return m ? { kind: 'persona', id: m[1], ...f } : undefined;
}

/**
 * The text of a JSON file of a world, read the one way every reader of a world reads it
 * (`world check`, a run loading its world, the editor): links followed only inside the world
 * folder (one leading out is refused naming the link, never anything of its target), at most
 * `maxWorldJsonBytes`. Throws ConfinedPathError or FileLimitError.
 */
export async function readWorldJsonText(dir: string, file: string): Promise<string> {
	const l = limits();
	return readTextCapped(await realInside(dir, file, 'file'), l.maxWorldJsonBytes, LIMIT_ENV.maxWorldJsonBytes);
}

/** Reads and parses one JSON file of a world. undefined = missing or refused (reported unless optional and missing). */
export async function readJsonFile(
	dir: string,
	file: string,
	problems: ProblemList,
	optional = false
): Promise<JsonFile | undefined> {
	let text: string;
	try {
		text = await readWorldJsonText(dir, file);
	} catch (e) {
		if (e instanceof ConfinedPathError && e.refusal === 'missing') {
			if (!optional) problems.error(file, undefined, 'file not found', placeOfFile(file));
		} else if (e instanceof ConfinedPathError) problems.error(file, undefined, `refused: ${e.message}`, placeOfFile(file));
		else if (e instanceof FileLimitError) problems.error(file, undefined, `refused: ${e.reason}`, placeOfFile(file));
		else problems.error(file, undefined, `cannot read the file: ${(e as Error).message}`, placeOfFile(file));
		return undefined;
	}
	return parseJsonFile(file, text, problems);
}

/**
 * Parses the text of a world's JSON file (read from disk or about to be written). Lists and
 * objects nested past `maxJsonDepth` are refused before the text is parsed.
 */
export function parseJsonFile(file: string, text: string, problems: ProblemList): JsonFile | undefined {
	const deep = jsonTooDeep(text);
	if (deep) {
		problems.error(file, `line ${deep.line}, column ${deep.column}`, `refused: its ${deep.message}`, placeOfFile(file));
		return undefined;
	}
	try {
		const doc = parseJson(text);
		for (const d of doc.duplicates) {
			const key = String(d.path[d.path.length - 1]);
			problems.error(file, lineWhere(d.line), `"${key}" is written twice`, placeOfFile(file, showPath(d.path)));
		}
		return { file, doc };
	} catch (e) {
		if (e instanceof JsonSyntaxError) {
			problems.error(file, `line ${e.line}, column ${e.column}`, `invalid JSON: ${e.message}`, placeOfFile(file));
			return undefined;
		}
		throw e;
	}
}

/** The closest known name, to suggest for a likely typo. */
export function suggest(word: string, known: readonly string[]): string | undefined {
	const dist = (a: string, b: string) => {
		const row = Array.from({ length: b.length + 1 }, (_, k) => k);
		for (let i = 1; i <= a.length; i++) {
			let prev = row[0];
			row[0] = i;
			for (let j = 1; j <= b.length; j++) {
				const tmp = row[j];
				row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
				prev = tmp;
			}
		}
		return row[b.length];
	};
	let best: string | undefined;
	let bestD = Infinity;
	for (const k of known) {
		const d = k.toLowerCase() === word.toLowerCase() ? 0 : dist(word, k);
		if (d < bestD) {
			bestD = d;
			best = k;
		}
	}
	return bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

export const showPath = (p: JsonPath) =>
	p.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '');

/** Checks fields of one JSON file, reporting at the line of each key. */
export class FieldChecker {
	constructor(
		readonly problems: ProblemList,
		readonly f: JsonFile
	) {}
	where(p: JsonPath): string | undefined {
		// the nearest enclosing key that has a line
		for (let k = p.length; k > 0; k--) {
			const line = this.f.doc.lineOf(p.slice(0, k));
			if (line !== undefined) return `line ${line}`;
		}
		return undefined;
	}
	/** `field` is the field at fault when it is not `p` (a missing field is reported at its parent). */
	error(p: JsonPath, message: string, field: JsonPath = p): void {
		this.problems.error(this.f.file, this.where(p), message, placeOfFile(this.f.file, showPath(field)));
	}
	warn(p: JsonPath, message: string, field: JsonPath = p): void {
		this.problems.warn(this.f.file, this.where(p), message, placeOfFile(this.f.file, showPath(field)));
	}
	/** Reports keys not in `allowed`; returns false if `value` is not an object. */
	object(value: unknown, p: JsonPath, allowed: readonly string[], what: string): value is Record<string, unknown> {
		if (!isRecord(value)) {
			this.error(p, `${what} must be an object, not ${typeName(value)}`);
			return false;
		}
		for (const key of Object.keys(value))
			if (!allowed.includes(key)) {
				const s = suggest(key, allowed);
				this.error(
					[...p, key],
					`unknown field "${showPath([...p, key])}"${s ? `; did you mean "${s}"?` : ` (${what} fields: ${allowed.join(', ')})`}`
				);
			}
		return true;
	}
	string(obj: Record<string, unknown>, p: JsonPath, key: string, opts: { required?: boolean; nonEmpty?: boolean } = {}): string | undefined {
		const v = obj[key];
		const full = [...p, key];
		if (v === undefined) {
			if (opts.required !== false) this.error(p, `missing field "${showPath(full)}"`, full);
			return undefined;
		}
		if (typeof v !== 'string') {
			this.error(full, `"${showPath(full)}" must be text, not ${typeName(v)}`);
			return undefined;
		}
		if (opts.nonEmpty && v.trim() === '') {
			this.error(full, `"${showPath(full)}" must not be empty`);
			return undefined;
		}
		return v;
	}
	number(
		obj: Record<string, unknown>,
		p: JsonPath,
		key: string,
		rule: NumberRule,
		required = true
	): number | undefined {
		const v = obj[key];
		const full = [...p, key];
		if (v === undefined) {
			if (required) this.error(p, `missing field "${showPath(full)}"`, full);
			return undefined;
		}
		if (typeof v !== 'number' || !rule.ok(v)) {
			this.error(full, `"${showPath(full)}" must be ${rule.text}, not ${typeof v === 'number' ? v : typeName(v)}`);
			return undefined;
		}
		return v;
	}
	stringList(obj: Record<string, unknown>, p: JsonPath, key: string): string[] | undefined {
		const v = obj[key];
		const full = [...p, key];
		if (v === undefined) {
			this.error(p, `missing field "${showPath(full)}"`, full);
			return undefined;
		}
		if (!Array.isArray(v)) {
			this.error(full, `"${showPath(full)}" must be a list of texts, not ${typeName(v)}`);
			return undefined;
		}
		let ok = true;
		v.forEach((item, k) => {
			if (typeof item !== 'string') {
				this.error([...full, k], `"${showPath([...full, k])}" must be text, not ${typeName(item)}`);
				ok = false;
			}
		});
		return ok ? (v as string[]) : undefined;
	}
}

export interface NumberRule {
	ok: (v: number) => boolean;
	text: string;
}
const POSITIVE_INT: NumberRule = { ok: (v) => Number.isInteger(v) && v > 0, text: 'a positive whole number' };
const NON_NEGATIVE_INT: NumberRule = { ok: (v) => Number.isInteger(v) && v >= 0, text: 'a whole number, 0 or more' };
const NON_NEGATIVE: NumberRule = { ok: (v) => Number.isFinite(v) && v >= 0, text: 'a number, 0 or more' };
const POSITIVE: NumberRule = { ok: (v) => Number.isFinite(v) && v > 0, text: 'a positive number' };
const UNIT: NumberRule = { ok: (v) => v > 0 && v <= 1, text: 'a number above 0 and at most 1' };
const RATING_OR_NONE: NumberRule = { ok: (v) => Number.isInteger(v) && v >= 0 && v <= 10, text: 'a whole number from 0 (none) to 10' };

// ---------------------------------------------------------------------------------------------
// world.json

export interface WorldManifest {
	name: string;
	/** map file relative to the world folder */
	map: string;
	start: number;
	secondsPerStep: number;
	settings: Settings;
}

const WORLD_FIELDS = ['name', 'map', 'start', 'secondsPerStep', 'defaults'] as const;

/** Rules for the numbers under `defaults`, by dotted path. */
const SETTING_RULES: Record<string, NumberRule> = {
	'perception.visionRadius': POSITIVE_INT,
	'perception.attentionBandwidth': POSITIVE_INT,
	'perception.retention': POSITIVE_INT,
	'perception.reactionMinutes': NON_NEGATIVE,
	'retrieval.weights.recency': NON_NEGATIVE,
	'retrieval.weights.importance': NON_NEGATIVE,
	'retrieval.weights.relevance': NON_NEGATIVE,
	'retrieval.decay': UNIT,
	'retrieval.topK': POSITIVE_INT,
	'retrieval.k.summary': POSITIVE_INT,
	'retrieval.k.plan': POSITIVE_INT,
	'retrieval.k.reaction': POSITIVE_INT,
	'retrieval.k.conversation': POSITIVE_INT,
	'retrieval.k.dialogue': POSITIVE_INT,
	// an extra retrieval, not in the paper: 0 leaves it out
	'retrieval.k.onMind': NON_NEGATIVE_INT,
	'importance.waitMinutes': NON_NEGATIVE,
	'importance.perCall': NON_NEGATIVE_INT,
	'importance.mundane': RATING_OR_NONE,
	'reflection.threshold': POSITIVE,
	'conversation.maxTurns': POSITIVE_INT,
	'conversation.cooldownMinutes': NON_NEGATIVE
};

/** Parses 'YYYY-MM-DDTHH:MM:SS' (no zone) into milliseconds of the UTC calendar. */
export function parseGameTime(text: string): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
	const ms = Date.UTC(y, mo - 1, d, h, mi, s);
	const back = new Date(ms);
	// Date.UTC rolls over (Feb 30 -> Mar 2); a real calendar time reads back unchanged
	if (
		back.getUTCFullYear() !== y ||
		back.getUTCMonth() !== mo - 1 ||
		back.getUTCDate() !== d ||
		back.getUTCHours() !== h ||
		back.getUTCMinutes() !== mi ||
		back.getUTCSeconds() !== s
	)
		return undefined;
	return ms;
}

/**
 * `manifest` is set only when world.json has no errors; `map` whenever it names a map file that
 * exists, so the map can still be checked when other fields are wrong.
 */
export async function readManifest(
	dir: string,
	problems: ProblemList
): Promise<{ manifest?: WorldManifest; map?: string }> {
	const f = await readJsonFile(dir, 'world.json', problems);
	if (!f) return {};
	return checkManifest(dir, f, problems);
}

/** The checks of readManifest on a parsed world.json (read from `dir`, or about to be written there). */
export function checkManifest(
	dir: string,
	f: JsonFile,
	problems: ProblemList
): { manifest?: WorldManifest; map?: string } {
	const c = new FieldChecker(problems, f);
	const root = f.doc.value;
	const before = problems.errors.length;
	if (!c.object(root, [], WORLD_FIELDS, 'world.json')) return {};
	const name = c.string(root, [], 'name', { nonEmpty: true });
	let map = c.string(root, [], 'map', { nonEmpty: true });
	if (map !== undefined) {
		const abs = path.resolve(dir, map);
		const rel = path.relative(dir, abs);
		const problem = !/\.tmx$/i.test(map)
			? `"map" must name a Tiled .tmx file, not "${map}"`
			: rel.startsWith('..') || path.isAbsolute(rel)
				? `the map "${map}" must be inside the world folder`
				: !existsSync(abs)
					? `map file "${map}" not found`
					: undefined;
		if (problem) {
			c.error(['map'], problem);
			map = undefined;
		}
	}
	const startText = c.string(root, [], 'start', { nonEmpty: true });
	let start: number | undefined;
	if (startText !== undefined) {
		start = parseGameTime(startText);
		if (start === undefined)
			c.error(
				['start'],
				`"start" must be a calendar time written YYYY-MM-DDTHH:MM:SS without a zone, e.g. "2023-02-13T07:00:00" (got "${startText}")`
			);
	}
	const secondsPerStep = c.number(root, [], 'secondsPerStep', POSITIVE_INT);

	const settings: Settings = structuredClone(DEFAULT_SETTINGS);
	if (root.defaults !== undefined) mergeSettings(c, root.defaults, ['defaults'], DEFAULT_SETTINGS, settings);

	if (problems.errors.length > before) return { map };
	return { manifest: { name: name!, map: map!, start: start!, secondsPerStep: secondsPerStep!, settings }, map };
}

function mergeSettings(c: FieldChecker, user: unknown, p: JsonPath, defaults: object, out: object): void {
	const known = Object.keys(defaults);
	if (!c.object(user, p, known, `"${showPath(p)}"`)) return;
	const d = defaults as Record<string, unknown>;
	const o = out as Record<string, unknown>;
	for (const key of Object.keys(user)) {
		if (!known.includes(key)) continue; // reported by object()
		const def = d[key];
		if (isRecord(def)) mergeSettings(c, user[key], [...p, key], def, o[key] as object);
		else {
			const rule = SETTING_RULES[showPath([...p, key]).replace(/^defaults\./, '')] ?? POSITIVE;
			const v = c.number(user, p, key, rule);
			if (v !== undefined) o[key] = v;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// personas/<id>.json

export interface PersonaFile extends JsonFile {
	/** file name without .json */
	stem: string;
	/** set when the file itself has no errors */
	def?: PersonaDef;
	/** the place fields that are well-formed, checked against the map even when others are not */
	places: { home?: string; spawn?: string; knownPlaces?: string[] };
}

export interface Personas {
	files: PersonaFile[];
	/** every persona file name without .json, readable or not */
	stems: string[];
}

// Every PersonaDef field; `satisfies` keeps this list in step with the engine's type.
const PERSONA_FIELDS = {
	id: true,
	name: true,
	firstName: true,
	lastName: true,
	age: true,
	innate: true,
	learned: true,
	currently: true,
	lifestyle: true,
	dailyPlanRequirement: true,
	home: true,
	spawn: true,
	knownPlaces: true,
	seedMemories: true,
	memories: false,
	perception: false
} satisfies Record<keyof PersonaDef, boolean>;
const PERCEPTION_FIELDS = ['visionRadius', 'attentionBandwidth', 'retention', 'reactionMinutes'] as const;

export async function readPersonas(dir: string, problems: ProblemList): Promise<Personas> {
	let names: string[];
	try {
		// the folder is confined like the files: a link out of the world is refused, not listed
		names = (await readdir(await realInside(dir, 'personas', 'directory'))).filter((n) => n.toLowerCase().endsWith('.json')).sort();
	} catch (e) {
		if (e instanceof ConfinedPathError && (e.refusal === 'outside' || e.refusal === 'dangling')) {
			problems.error('personas', undefined, `refused: ${e.message}`);
			return { files: [], stems: [] };
		}
		problems.warn('personas', undefined, 'the world has no personas folder, so it has no agents');
		return { files: [], stems: [] };
	}
	if (names.length === 0) problems.warn('personas', undefined, 'the personas folder holds no .json files');
	const files: PersonaFile[] = [];
	const stems = names.map((n) => n.slice(0, -'.json'.length));
	for (const [k, n] of names.entries()) {
		const f = await readJsonFile(dir, `personas/${n}`, problems);
		if (!f) continue;
		files.push(checkPersonaFile(f, stems[k], problems));
	}
	return { files, stems };
}

/** The checks of readPersonas on one parsed persona file; `stem` is its file name without .json. */
export function checkPersonaFile(f: JsonFile, stem: string, problems: ProblemList): PersonaFile {
	const pf: PersonaFile = { ...f, stem, places: {} };
	pf.def = checkPersona(new FieldChecker(problems, f), f.doc.value, stem, pf.places);
	return pf;
}

function checkPersona(
	c: FieldChecker,
	v: unknown,
	stem: string,
	places: PersonaFile['places']
): PersonaDef | undefined {
	const before = c.problems.errors.length;
	if (!c.object(v, [], Object.keys(PERSONA_FIELDS), 'persona')) return undefined;
	const s = (key: keyof PersonaDef, nonEmpty = false) => c.string(v, [], key, { nonEmpty });
	const def = {
		id: s('id', true),
		name: s('name', true),
		firstName: s('firstName', true),
		lastName: s('lastName'),
		age: c.number(v, [], 'age', NON_NEGATIVE_INT),
		innate: s('innate'),
		learned: s('learned'),
		currently: s('currently'),
		lifestyle: s('lifestyle'),
		dailyPlanRequirement: s('dailyPlanRequirement'),
		home: s('home', true),
		spawn: s('spawn', true),
		knownPlaces: c.stringList(v, [], 'knownPlaces'),
		seedMemories: c.stringList(v, [], 'seedMemories')
	};
	const maxSeeds = limits().maxSeedMemories;
	const memories = v.memories === undefined ? undefined : checkSeedMemories(c, v.memories, maxSeeds);
	const plain = def.seedMemories?.length ?? 0;
	if (def.seedMemories !== undefined && plain > maxSeeds)
		c.error(
			['seedMemories'],
			`"seedMemories" holds ${plain.toLocaleString('en')} memories, more than the ${maxSeeds.toLocaleString('en')} an agent may start with (${LIMIT_ENV.maxSeedMemories})`
		);
	else if (memories && plain + memories.length > maxSeeds)
		c.error(
			['memories'],
			`"memories" and "seedMemories" hold ${(plain + memories.length).toLocaleString('en')} memories together, more than the ${maxSeeds.toLocaleString('en')} an agent may start with (${LIMIT_ENV.maxSeedMemories})`
		);
	if (def.id !== undefined && def.id !== stem)
		c.error(['id'], `"id" is "${def.id}" but the file is named ${stem}.json; they must match`);
	if (def.home !== undefined && def.home.split(':').length !== 2)
		c.error(['home'], `"home" must be a Sector:Arena address, e.g. "Hobbs Cafe:cafe" (got "${def.home}")`);
	else places.home = def.home;
	places.spawn = def.spawn;
	places.knownPlaces = def.knownPlaces;
	let perception: PersonaDef['perception'];
	if (v.perception !== undefined && c.object(v.perception, ['perception'], PERCEPTION_FIELDS, '"perception"')) {
		perception = {};
		for (const k of PERCEPTION_FIELDS) {
			const n = c.number(v.perception, ['perception'], k, SETTING_RULES[`perception.${k}`], false);
			if (n !== undefined) perception[k] = n;
		}
	}
	if (c.problems.errors.length > before) return undefined;
	return { ...(def as Omit<PersonaDef, 'perception' | 'memories'>), ...(memories ? { memories } : {}), ...(perception ? { perception } : {}) };
}

const SEED_MEMORY_FIELDS = ['id', 'kind', 'description', 'created', 'importance', 'evidence', 'with', 'keywords'] as const;
const SEED_MEMORY_KINDS: readonly SeedMemoryDef['kind'][] = ['observation', 'thought', 'reflection', 'plan', 'conversation'];
const IMPORTANCE: NumberRule = { ok: (v) => Number.isInteger(v) && v >= 1 && v <= 10, text: 'a whole number from 1 to 10' };

/**
 * A persona's `memories`: each { kind, description, created?, importance?, id?, evidence?, with?,
 * keywords? }; evidence names earlier memories of the list by id. Every problem names the entry
 * and field (`memories[3].importance`) at its line; the list is refused before its entries are
 * read when it holds more than `max`. Whether `created` is at or before the world's start and
 * `with` a persona is checked with the world (`checkSeedMemoryPlaces`).
 */
function checkSeedMemories(c: FieldChecker, v: unknown, max: number): SeedMemoryDef[] | undefined {
	if (!Array.isArray(v)) {
		c.error(['memories'], `"memories" must be a list of memories ({ "kind", "description", ... }), not ${typeName(v)}`);
		return undefined;
	}
	if (v.length > max) return v as SeedMemoryDef[]; // the count is reported by the caller, the entries are not read
	const before = c.problems.errors.length;
	const ids = new Map<string, number>();
	const out: SeedMemoryDef[] = [];
	v.forEach((item, k) => {
		const p: JsonPath = ['memories', k];
		if (!c.object(item, p, SEED_MEMORY_FIELDS, `"memories[${k}]"`)) return;
		const kind = c.string(item, p, 'kind', { nonEmpty: true });
		if (kind !== undefined && !(SEED_MEMORY_KINDS as readonly string[]).includes(kind))
			c.error([...p, 'kind'], `"memories[${k}].kind" must be one of ${SEED_MEMORY_KINDS.join(', ')} (got "${kind}")`);
		const description = c.string(item, p, 'description', { nonEmpty: true });
		const m: Partial<SeedMemoryDef> = { kind: kind as SeedMemoryDef['kind'], description };
		const id = c.string(item, p, 'id', { required: false, nonEmpty: true });
		if (id !== undefined) {
			if (ids.has(id)) c.error([...p, 'id'], `"memories[${k}].id" "${id}" is used twice (also memories[${ids.get(id)}])`);
			else ids.set(id, k);
			m.id = id;
		}
		const createdText = c.string(item, p, 'created', { required: false, nonEmpty: true });
		if (createdText !== undefined) {
			const ms = parseGameTime(createdText);
			if (ms === undefined)
				c.error([...p, 'created'], `"memories[${k}].created" must be a game time written YYYY-MM-DDTHH:MM:SS without a zone, e.g. "2023-02-13T07:00:00" (got "${createdText}")`);
			else m.created = ms;
		}
		const importance = c.number(item, p, 'importance', IMPORTANCE, false);
		if (importance !== undefined) m.importance = importance;
		if (item.evidence !== undefined) {
			const evidence = c.stringList(item, p, 'evidence');
			evidence?.forEach((e, j) => {
				const at = ids.get(e);
				if (at === undefined || at === k) {
					const later = v.findIndex((x, n) => n > k && isRecord(x) && x.id === e);
					c.error(
						[...p, 'evidence', j],
						`"memories[${k}].evidence[${j}]" cites "${e}", ${at === k ? 'the memory itself' : later >= 0 ? `memories[${later}], which comes after it: evidence cites earlier memories` : 'which is not the id of a memory of this list'}`
					);
				}
			});
			if (evidence?.length) m.evidence = evidence;
		}
		const other = c.string(item, p, 'with', { required: false, nonEmpty: true });
		if (other !== undefined) m.with = other;
		if (item.keywords !== undefined) {
			const keywords = c.stringList(item, p, 'keywords');
			if (keywords) m.keywords = keywords;
		}
		out.push(m as SeedMemoryDef);
	});
	return c.problems.errors.length > before ? undefined : out;
}

/**
 * A persona's `memories` against its world: each `created` at or before the world's start (a seed
 * is what the agent remembers when the run begins) and each `with` a persona id.
 */
export function checkSeedMemoryPlaces(pf: PersonaFile, world: { start?: number; personas: readonly string[] }, problems: ProblemList): void {
	const list = pf.def?.memories;
	if (!list) return;
	const c = new FieldChecker(problems, pf);
	list.forEach((m, k) => {
		if (world.start !== undefined && m.created !== undefined && m.created > world.start)
			c.error(
				['memories', k, 'created'],
				`"memories[${k}].created" (${formatIso(m.created)}) is after the world's start (${formatIso(world.start)}): a seed memory is one the agent has when the run begins`
			);
		if (m.with !== undefined && !world.personas.includes(m.with)) {
			const s = suggest(m.with, world.personas);
			c.error(['memories', k, 'with'], `"memories[${k}].with": there is no persona "${m.with}"${s ? `; did you mean "${s}"?` : ''}`);
		}
	});
}

// ---------------------------------------------------------------------------------------------
// scenario.json

/** A fact that is also a gathering: where and when it happens (game times), and who hosts it. */
export interface FactEvent {
	/** a sector name */
	place: string;
	/** YYYY-MM-DDTHH:MM:SS, game time */
	start: string;
	end: string;
	/** persona id */
	host?: string;
}

export interface ScenarioFact extends TrackedFact {
	event?: FactEvent;
}

export interface Scenario {
	file?: JsonFile;
	seeds: ScenarioSeed[];
	/** index of each seed in the file's "seeds" list */
	seedIndex: number[];
	facts: ScenarioFact[];
	/** index of each fact in the file's "facts" list */
	factIndex: number[];
}

export async function readScenario(dir: string, problems: ProblemList): Promise<Scenario> {
	const f = await readJsonFile(dir, 'scenario.json', problems, true);
	const out: Scenario = { file: f, seeds: [], seedIndex: [], facts: [], factIndex: [] };
	if (!f) return out;
	const c = new FieldChecker(problems, f);
	const root = f.doc.value;
	if (!c.object(root, [], ['seeds', 'facts'], 'scenario.json')) return out;
	const list = (key: 'seeds' | 'facts'): unknown[] => {
		const v = root[key];
		if (v === undefined) return [];
		if (!Array.isArray(v)) {
			c.error([key], `"${key}" must be a list, not ${typeName(v)}`);
			return [];
		}
		return v;
	};
	const ids = (kind: string) => {
		const seen = new Map<string, number>();
		return (id: string | undefined, p: JsonPath) => {
			if (id === undefined) return;
			if (seen.has(id)) c.error([...p, 'id'], `${kind} id "${id}" is used twice (also ${showPath(p.slice(0, 1))}[${seen.get(id)}])`);
			else seen.set(id, p[1] as number);
		};
	};
	const seedId = ids('seed');
	list('seeds').forEach((item, k) => {
		const p = ['seeds', k];
		if (!c.object(item, p, ['id', 'agent', 'memory'], 'seed')) return;
		const before = problems.errors.length;
		const seed = {
			id: c.string(item, p, 'id', { nonEmpty: true }),
			agent: c.string(item, p, 'agent', { nonEmpty: true }),
			memory: c.string(item, p, 'memory', { nonEmpty: true })
		};
		seedId(seed.id, p);
		if (problems.errors.length === before) {
			out.seeds.push(seed as ScenarioSeed);
			out.seedIndex.push(k);
		}
	});
	const factId = ids('fact');
	list('facts').forEach((item, k) => {
		const p = ['facts', k];
		if (!c.object(item, p, ['id', 'label', 'keywords', 'event'], 'fact')) return;
		const before = problems.errors.length;
		const fact: Partial<ScenarioFact> = {
			id: c.string(item, p, 'id', { nonEmpty: true }),
			label: c.string(item, p, 'label', { nonEmpty: true }),
			keywords: c.stringList(item, p, 'keywords')
		};
		if (item.event !== undefined) {
			const event = checkFactEvent(c, item.event, [...p, 'event']);
			if (event) fact.event = event;
		}
		factId(fact.id, p);
		if (problems.errors.length === before) {
			out.facts.push(fact as ScenarioFact);
			out.factIndex.push(k);
		}
	});
	return out;
}

/** `event` of a scenario fact: { place, start, end, host? }, end after start. */
function checkFactEvent(c: FieldChecker, v: unknown, p: JsonPath): FactEvent | undefined {
	if (!c.object(v, p, ['place', 'start', 'end', 'host'], '"event"')) return undefined;
	const before = c.problems.errors.length;
	const place = c.string(v, p, 'place', { nonEmpty: true });
	const time = (key: 'start' | 'end') => {
		const text = c.string(v, p, key, { nonEmpty: true });
		if (text === undefined) return undefined;
		const ms = parseGameTime(text);
		if (ms === undefined)
			c.error([...p, key], `"${showPath([...p, key])}" must be a calendar time written YYYY-MM-DDTHH:MM:SS without a zone, e.g. "2023-02-14T17:00:00" (got "${text}")`);
		return ms === undefined ? undefined : { text, ms };
	};
	const start = time('start');
	const end = time('end');
	const host = c.string(v, p, 'host', { required: false, nonEmpty: true });
	if (start && end && end.ms <= start.ms) c.error([...p, 'end'], `"${showPath([...p, 'end'])}" (${end.text}) must be after "start" (${start.text})`);
	if (c.problems.errors.length > before) return undefined;
	return { place: place!, start: start!.text, end: end!.text, ...(host !== undefined ? { host } : {}) };
}

/**
 * The places and hosts of the scenario's events against the world: `place` must be a sector
 * on the map, `host` a persona id. Reported at the line of the field.
 */
export function checkScenarioEvents(
	scenario: Scenario,
	world: { sectors: readonly string[]; personas: readonly string[] },
	problems: ProblemList
): void {
	if (!scenario.file) return;
	const c = new FieldChecker(problems, scenario.file);
	scenario.facts.forEach((fact, n) => {
		const e = fact.event;
		if (!e) return;
		const p = ['facts', scenario.factIndex[n], 'event'];
		if (!world.sectors.includes(e.place)) {
			const s = suggest(e.place, world.sectors);
			c.error([...p, 'place'], `fact "${fact.id}": there is no sector "${e.place}" on the map${s ? `; did you mean "${s}"?` : ''}`);
		}
		if (e.host !== undefined && !world.personas.includes(e.host)) {
			const s = suggest(e.host, world.personas);
			c.error([...p, 'host'], `fact "${fact.id}": there is no persona "${e.host}"${s ? `; did you mean "${s}"?` : ''}`);
		}
	});
}
