// A recorded simulation of the reference implementation, in either of its two forms:
//
// - expanded (`storage/<sim>/`): `reverie/meta.json`, `movement/<step>.json` for every step
//   ({"persona": {name: {movement, pronunciatio, description, chat}}, "meta": {curr_time}}),
//   `personas/<name>/bootstrap_memory/...`;
// - compressed (`compressed_storage/<sim>/`): `meta.json`, `master_movement.json` (per step, only
//   the personas whose tile, description, emoji or chat changed), `personas/...`.
//
// Both are read into the same thing: per persona, the steps at which what it shows changed.

import { readdirSync } from 'node:fs';
import type { JsonDoc } from '../../../world/json';
import { whereIn, type RefFiles } from './files';
import { readMeta, type RefMeta } from './simulation';
import { isRecord } from '../../../shared/guards';

/** What a persona shows at a step, as the recording says. */
export interface Shown {
	x: number;
	y: number;
	/** "sleeping @ the Ville:...:bed" */
	description: string;
	emoji: string;
	/** the lines of the conversation it is in, [speaker, text] */
	chat: [string, string][] | null;
}

export interface Recording {
	form: 'expanded' | 'compressed';
	meta: RefMeta;
	/** the last step recorded (steps 0..last) */
	last: number;
	/** per persona name: [step, shown] whenever it changed, from step 0 */
	changes: Map<string, [number, Shown][]>;
}

/** Which form a folder is, or undefined. */
export function recordingForm(files: RefFiles): 'expanded' | 'compressed' | undefined {
	if (files.isFile('master_movement.json') && files.isFile('meta.json')) return 'compressed';
	if (files.isFile('reverie/meta.json') && files.isDir('movement')) return 'expanded';
	return undefined;
}

const sameChat = (a: Shown['chat'], b: Shown['chat']) => JSON.stringify(a) === JSON.stringify(b);

/** One persona's entry of a step (`p` is its JSON path for problems). */
function shownOf(files: RefFiles, rel: string, doc: JsonDoc, p: (string | number)[], v: unknown, size: { width: number; height: number }, before?: Shown): Shown | undefined {
	const label = p.map(String).join(' > ');
	const where = whereIn(doc, p, label);
	if (!isRecord(v)) {
		files.error(rel, where, 'must be a JSON object (movement, pronunciatio, description, chat)');
		return undefined;
	}
	const mv = v.movement ?? (before ? [before.x, before.y] : undefined);
	if (!(Array.isArray(mv) && mv.length === 2 && mv.every((n) => Number.isInteger(n)) && mv[0] >= 0 && mv[1] >= 0 && mv[0] < size.width && mv[1] < size.height)) {
		files.error(rel, where, `"movement" must be a tile [x, y] of the ${size.width} x ${size.height} map (got ${JSON.stringify(v.movement)})`);
		return undefined;
	}
	const description = typeof v.description === 'string' ? v.description : (before?.description ?? '');
	const emoji = typeof v.pronunciatio === 'string' ? v.pronunciatio : (before?.emoji ?? '');
	let chat: Shown['chat'] = null;
	if (Array.isArray(v.chat)) {
		chat = [];
		for (const line of v.chat) {
			if (!(Array.isArray(line) && line.length >= 2 && typeof line[0] === 'string' && typeof line[1] === 'string')) {
				files.error(rel, where, `"chat" must list [speaker, line] pairs (got ${JSON.stringify(line).slice(0, 80)})`);
				return undefined;
			}
			chat.push([line[0], line[1]]);
		}
	} else if (v.chat !== null && v.chat !== undefined) {
		files.error(rel, where, `"chat" must be null or a list of [speaker, line] pairs (got ${JSON.stringify(v.chat).slice(0, 80)})`);
		return undefined;
	}
	return { x: mv[0] as number, y: mv[1] as number, description, emoji, chat };
}

/**
 * Reads a recording (`files` is rooted at its folder). `size` is the map the positions must lie
 * on. Problems go to `files.problems`; undefined when there are errors.
 */
export async function readRecording(files: RefFiles, size: { width: number; height: number }): Promise<Recording | undefined> {
	const form = recordingForm(files);
	if (!form) {
		files.error(
			'',
			undefined,
			'not a recorded simulation of the reference implementation: expected meta.json and master_movement.json (compressed_storage/<simulation>/) or reverie/meta.json and movement/<step>.json (storage/<simulation>/)'
		);
		return undefined;
	}
	const meta = await readMeta(files, form === 'compressed' ? 'meta.json' : 'reverie/meta.json');
	if (!meta) return undefined;
	const changes = new Map<string, [number, Shown][]>(meta.personas.map((n) => [n, []]));
	const current = new Map<string, Shown>();
	const see = (name: string, step: number, s: Shown) => {
		const before = current.get(name);
		if (before && before.x === s.x && before.y === s.y && before.description === s.description && before.emoji === s.emoji && sameChat(before.chat, s.chat)) return;
		current.set(name, s);
		changes.get(name)!.push([step, s]);
	};
	let last = -1;
	const errors = () => files.problems.errors.length;
	const before = errors();
	if (form === 'compressed') {
		const rel = 'master_movement.json';
		const doc = await files.json(rel);
		if (!doc) return undefined;
		const v = doc.value;
		if (!isRecord(v)) {
			files.error(rel, undefined, 'must be a JSON object: step -> {persona name -> what changed}');
			return undefined;
		}
		const steps = Object.keys(v)
			.map((k) => {
				if (!/^\d+$/.test(k)) files.error(rel, whereIn(doc, [k], k), `"${k}" is not a step number`);
				return Number(k);
			})
			.filter((n) => Number.isInteger(n))
			.sort((a, b) => a - b);
		if (steps[0] !== 0) files.error(rel, undefined, 'has no step "0" (every persona\'s first tile, description and emoji)');
		for (const step of steps) {
			const entry = v[String(step)];
			if (!isRecord(entry)) {
				files.error(rel, whereIn(doc, [String(step)], String(step)), 'a step must be a JSON object: persona name -> what changed');
				continue;
			}
			for (const [name, e] of Object.entries(entry)) {
				if (!changes.has(name)) {
					files.error(rel, whereIn(doc, [String(step), name], `${step} > ${name}`), `"${name}" is not among the persona_names of meta.json`);
					continue;
				}
				const s = shownOf(files, rel, doc, [String(step), name], e, size, current.get(name));
				if (s) see(name, step, s);
			}
			if (step === 0) for (const name of meta.personas) if (!isRecord(entry[name])) files.error(rel, whereIn(doc, ['0'], '0'), `step 0 has no entry for "${name}" (its first tile, description and emoji)`);
			if (errors() - before > 20) break;
		}
		last = steps.at(-1) ?? -1;
	} else {
		const names = readdirSync(files.abs('movement'))
			.map((f) => /^(\d+)\.json$/.exec(f))
			.filter((m): m is RegExpExecArray => m !== null)
			.map((m) => Number(m[1]))
			.sort((a, b) => a - b);
		if (names.length === 0) files.error('movement', undefined, 'holds no <step>.json files');
		names.forEach((n, k) => {
			if (n !== k && errors() === before) files.error(`movement/${k}.json`, undefined, `not found: the movement of every step from 0 to ${names.at(-1)} is needed (the folder has ${n}.json after ${k - 1}.json)`);
		});
		if (errors() > before) return undefined;
		for (const step of names) {
			const rel = `movement/${step}.json`;
			const doc = await files.json(rel);
			if (!doc) continue;
			const v = doc.value;
			const personas = isRecord(v) ? v.persona : undefined;
			if (!isRecord(personas)) {
				files.error(rel, undefined, 'must be a JSON object with "persona": {name -> movement, pronunciatio, description, chat}');
				continue;
			}
			for (const name of meta.personas) {
				if (personas[name] === undefined) {
					files.error(rel, whereIn(doc, ['persona'], 'persona'), `has no entry for "${name}"`);
					continue;
				}
				const s = shownOf(files, rel, doc, ['persona', name], personas[name], size);
				if (s) see(name, step, s);
			}
			if (errors() - before > 20) break;
		}
		last = names.at(-1) ?? -1;
	}
	if (errors() > before) return undefined;
	return { form, meta, last, changes };
}

/** "sleeping @ the Ville:Hobbs Cafe:cafe:bed" -> the activity and the address without the world. */
export function splitDescription(description: string): { activity: string; address: string } {
	const at = description.lastIndexOf(' @ ');
	if (at < 0) return { activity: description.trim(), address: '' };
	const activity = description.slice(0, at).trim();
	const place = description.slice(at + 3).trim();
	if (place.startsWith('<')) return { activity, address: place };
	const parts = place.split(':');
	return { activity, address: parts.length > 1 ? parts.slice(1).join(':') : place };
}
