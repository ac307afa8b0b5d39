// A headless harness for engine tests: a small world built in code and a scripted model.

import { hash32 } from './rng';
import type { ModelAnswer, ModelPort, ModelRequest, TemplateId } from './model';
import { DEFAULT_SETTINGS, type ArenaDef, type PersonaDef, type WorldDef } from './types';

/**
 * A 24 x 14 world: a house (kitchen, bedroom) on the left, a cafe (counter, seating) on the
 * right, a street between them. Walls are blocked except for doors.
 */
export function createTestWorld(): WorldDef {
	const width = 24;
	const height = 14;
	const collision = new Uint8Array(width * height);
	const t = (x: number, y: number) => y * width + x;
	const rect = (x0: number, y0: number, x1: number, y1: number) => {
		const out: number[] = [];
		for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) out.push(t(x, y));
		return out;
	};
	// outer walls of two buildings with a door each
	const wall = (x0: number, y0: number, x1: number, y1: number, door: [number, number]) => {
		for (let x = x0; x <= x1; x++) {
			collision[t(x, y0)] = 1;
			collision[t(x, y1)] = 1;
		}
		for (let y = y0; y <= y1; y++) {
			collision[t(x0, y)] = 1;
			collision[t(x1, y)] = 1;
		}
		collision[t(door[0], door[1])] = 0;
	};
	wall(0, 0, 9, 13, [9, 6]);
	wall(14, 0, 23, 13, [14, 6]);
	// an inner wall splits the house, with a gap
	for (let x = 1; x <= 8; x++) if (x !== 4) collision[t(x, 7)] = 1;
	const walkable = (tiles: number[]) => tiles.filter((i) => collision[i] === 0);
	const arena = (sector: string, name: string, tiles: number[], objects: [string, number, string?][]): ArenaDef => ({
		name,
		address: `${sector}:${name}`,
		tiles,
		walkable: walkable(tiles),
		objects: objects.map(([oname, tile, state]) => ({
			name: oname,
			address: `${sector}:${name}:${oname}`,
			defaultState: state ?? 'idle',
			tiles: [tile],
			access: [tile + 1, tile - 1, tile + width, tile - width].filter((n) => collision[n] === 0 && tiles.includes(n))
		}))
	});
	const kitchen = arena('House', 'kitchen', rect(1, 1, 8, 6), [['stove', t(2, 2)], ['table', t(5, 4)]]);
	const bedroom = arena('House', 'bedroom', rect(1, 8, 8, 12), [['bed', t(2, 10)], ['desk', t(7, 10)]]);
	const counter = arena('Cafe', 'counter', rect(15, 1, 22, 5), [['coffee machine', t(20, 2)], ['counter', t(17, 3)]]);
	const seating = arena('Cafe', 'seating', rect(15, 6, 22, 12), [['cafe table', t(18, 9)]]);
	const street = arena('Street', 'sidewalk', rect(10, 0, 13, 13), [['bench', t(12, 10)]]);
	for (const a of [kitchen, bedroom, counter, seating, street]) for (const o of a.objects) collision[o.tiles[0]] = 1;
	for (const a of [kitchen, bedroom, counter, seating, street]) {
		a.walkable = walkable(a.tiles);
		for (const o of a.objects) {
			const tile = o.tiles[0];
			o.access = [tile + 1, tile - 1, tile + width, tile - width].filter((n) => collision[n] === 0 && a.tiles.includes(n));
		}
	}
	const persona = (id: string, name: string, home: string, spawn: string, extra: Partial<PersonaDef>): PersonaDef => ({
		id,
		name,
		firstName: name.split(' ')[0],
		lastName: name.split(' ')[1],
		age: 30,
		innate: 'kind, curious',
		learned: `${name} works at the cafe.`,
		currently: `${name} is settling into a new routine.`,
		lifestyle: 'goes to bed around 10pm, wakes up around 7am',
		dailyPlanRequirement: 'works at the cafe counter from 9am to 5pm',
		home,
		spawn,
		knownPlaces: ['Cafe', 'Street'],
		seedMemories: [`${name} lives in the house`, `${name} works at the cafe`],
		...extra
	});
	return {
		id: 'test-town',
		name: 'Test Town',
		width,
		height,
		tileWidth: 32,
		tileHeight: 32,
		collision,
		sectors: [
			{ name: 'House', kind: 'house', tiles: rect(0, 0, 9, 13), arenas: [kitchen, bedroom] },
			{ name: 'Street', kind: 'street', tiles: rect(10, 0, 13, 13), arenas: [street] },
			{ name: 'Cafe', kind: 'cafe', tiles: rect(14, 0, 23, 13), arenas: [counter, seating] }
		],
		spawns: { ana: { x: 3, y: 10 }, ben: { x: 6, y: 11 }, cleo: { x: 17, y: 8 } },
		personas: [
			persona('ana-alder', 'Ana Alder', 'House:bedroom', 'ana', {}),
			persona('ben-brook', 'Ben Brook', 'House:bedroom', 'ben', { seedMemories: ['Ben Brook is Ana Alder\'s brother'] }),
			persona('cleo-cole', 'Cleo Cole', 'House:kitchen', 'cleo', {})
		],
		seeds: [{ id: 'news', agent: 'ana-alder', memory: 'Ana Alder is organising a picnic in the park on Sunday' }],
		facts: [{ id: 'news', label: 'picnic', keywords: ['picnic'] }],
		start: Date.UTC(2023, 1, 13, 7, 0, 0),
		secondsPerStep: 60,
		settings: structuredClone(DEFAULT_SETTINGS)
	};
}

export type Script = Partial<Record<TemplateId, (req: ModelRequest) => unknown>>;

/** Bag-of-words embedding over 64 hashed dimensions: enough for relevance in tests. */
export function tinyEmbed(text: string, dims = 64): Float32Array {
	const v = new Float32Array(dims);
	for (const w of text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) v[hash32(w) % dims] += 1;
	let norm = 0;
	for (const x of v) norm += x * x;
	norm = Math.sqrt(norm) || 1;
	for (let i = 0; i < dims; i++) v[i] /= norm;
	return v;
}

const DEFAULTS: Script = {
	importance: (r) => ({ ratings: (r.vars.memories as string[]).map((m) => (/picnic|party|love/.test(m) ? 8 : 3)) }),
	agent_summary: (r) => ({ summary: `${r.vars.name} is a cafe worker.` }),
	daily_plan: () => ({ wake_hour: 7, agenda: ['wake up', 'work at the cafe', 'lunch', 'work', 'dinner', 'sleep'] }),
	hourly_schedule: () => ({
		blocks: [
			{ start: '07:00', minutes: 60, activity: 'having breakfast in the kitchen' },
			{ start: '08:00', minutes: 240, activity: 'working at the cafe counter' },
			{ start: '12:00', minutes: 60, activity: 'eating lunch at the cafe' },
			{ start: '13:00', minutes: 240, activity: 'working at the cafe counter' },
			{ start: '17:00', minutes: 300, activity: 'relaxing at home' },
			{ start: '22:00', minutes: 120, activity: 'sleeping' }
		]
	}),
	// 5-15 minute steps that add up to the block: 10 to start, 15s, the rest to wrap up
	decompose_task: (r) => {
		const total = Number(r.vars.minutes);
		const steps = [{ activity: `${r.vars.activity} (getting started)`, minutes: 10 }];
		let left = total - 10;
		while (left > 20) {
			steps.push({ activity: `${r.vars.activity}`, minutes: 15 });
			left -= 15;
		}
		if (left > 15) {
			steps.push({ activity: `${r.vars.activity}`, minutes: left - 10 });
			left = 10;
		}
		if (left > 0) steps.push({ activity: `${r.vars.activity} (wrapping up)`, minutes: left });
		return { subtasks: steps };
	},
	choose_sector: (r) => ({ choice: pick(r, /cafe|counter|coffee|lunch/.test(String(r.vars.activity)) ? 'Cafe' : 'House') }),
	choose_arena: (r) => ({ choice: pick(r, /counter|coffee/.test(String(r.vars.activity)) ? 'counter' : /breakfast/.test(String(r.vars.activity)) ? 'kitchen' : '') }),
	choose_object: (r) => ({ choice: (r.vars.options as string[])[0] }),
	action_emoji: () => ({ emoji: '☕' }),
	object_state: (r) => ({ state: `being used for ${r.vars.activity}` }),
	react: (r) => ({ react: false, talk: Number(r.vars.hours_since_chat) > 2, reaction: '' }),
	context_summary: (r) => ({ summary: `${r.vars.name} knows ${r.vars.other}.` }),
	dialogue_turn: (r) => {
		const history = r.vars.history as string[];
		const memories = r.vars.memories as string[];
		const fresh = memories.find((m) => !history.some((h) => h.includes(m)));
		return { utterance: fresh ? `Did you hear? ${fresh}` : 'Nice to see you.', end: history.length >= 3 };
	},
	conversation_memo: (r) => ({ summary: `${r.vars.name} talked with ${r.vars.other}: ${(r.vars.transcript as string[]).join(' | ')}`, plan_note: '' }),
	reflection_questions: () => ({ questions: ['What does the agent care about?', 'Who does the agent know?', 'What is planned?'] }),
	reflection_insights: (r) => ({ insights: [{ insight: `${r.vars.name} cares about their work`, evidence: [1, 2] }] }),
	interview: (r) => ({ answer: (r.vars.memories as string[])[0] ?? "I don't know" }),
	inner_voice: (r) => ({ thought: `I should ${r.vars.directive}` }),
	day_summary: (r) => ({ summary: `${r.vars.name} had an ordinary day.` }),
	replan: () => ({ blocks: [{ start: '12:00', minutes: 120, activity: 'taking a walk on the street' }] }),
	// without a plan: what was just decided, else work at the cafe counter
	next_action: (r) => ({ activity: String(r.vars.intention) || 'working at the cafe counter', minutes: 30, sleep: false })
};

function pick(r: ModelRequest, want: string): string {
	const options = r.vars.options as string[];
	return options.find((o) => want && o.toLowerCase().includes(want.toLowerCase())) ?? options[0];
}

export interface ScriptedModel extends ModelPort {
	calls: ModelRequest[];
}

/** A model whose answers come from small functions; `script` overrides per template. */
export function scriptedModel(script: Script = {}, opts: { failsafe?: Set<TemplateId> } = {}): ScriptedModel {
	const calls: ModelRequest[] = [];
	return {
		dimensions: 64,
		calls,
		async complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
			calls.push(req);
			const fn = script[req.template] ?? DEFAULTS[req.template];
			if (!fn) throw new Error(`no scripted answer for ${req.template}`);
			return { value: fn(req) as T, failsafe: opts.failsafe?.has(req.template) ?? false };
		},
		async embed(texts: string[]): Promise<Float32Array[]> {
			return texts.map((t) => tinyEmbed(t));
		}
	};
}

/** A short digest of a simulation's full state (its state, every memory and its vector), for comparing runs in tests. */
export function digestOf(sim: { digest(update: (chunk: string | Uint8Array) => void): void }): string {
	let h = 0;
	let n = 0;
	sim.digest((chunk) => {
		const text = typeof chunk === 'string' ? chunk : Array.from(chunk).join(',');
		h = hash32(text, h);
		n += text.length;
	});
	return `${h.toString(16)}:${n}`;
}
