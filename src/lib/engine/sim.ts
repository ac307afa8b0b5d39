// The simulation: state + memory streams + one `step`. Time moves only by `step`; everything
// that changes the world from outside is a named input; the model is passed in. The same world,
// seed, inputs and model answers give the same state, bit for bit.

import {
	adoptDecomposition,
	blockDue,
	chatAction,
	decompose,
	decomposition,
	eventOf,
	interview,
	isSleeping,
	nextAction,
	planDay,
	decideReaction,
	foreseeAction,
	noticeReaction,
	reflect,
	rememberTalk,
	replan,
	shown,
	talk,
	type PerceivedEvent,
	type Resolved
} from './agent';
import { canonicalJson } from './canonical';
import { applyInput, checkInput, type SimInput } from './inputs';
import { MINUTE, dayIndex, dayStart, minuteOfDay, timeAtStep } from './clock';
import { EARLIER_IMPORTANCE } from './profiles';
import { AgentContext, StepPassed, dueAhead, dueBatch, emptyOutput, type NewMemory, type RecallScope, type StepOutput } from './context';
import { MemoryStream, SOURCE_OF_KIND, type MemoryRecord } from './memory';
import type { ModelPort } from './model';
import { PathFinder } from './path';
import {
	NO_ABLATION,
	STATE_SCHEMA,
	type Ablation,
	type ActionState,
	type AgentState,
	type DayPlan,
	type PlanBlock,
	type ReactingState,
	type Subtask,
	type SimState,
	type TalkState
} from './state';
import { DEFAULT_SETTINGS, type PerceptionSettings, type PersonaDef, type SeedMemoryDef, type Settings, type WorldDef } from './types';
import { WorldIndex, splitAddress } from './world-index';

export type { StepOutput } from './context';

export interface Snapshot {
	schema: number;
	state: SimState;
	/** per agent: how many memories the stream held, and their last-access times */
	memory: Record<string, { size: number; lastAccess: number[] }>;
}

export interface AgentView {
	id: string;
	name: string;
	x: number;
	y: number;
	activity: string;
	emoji: string;
	address: string;
	chatWith: string;
	path: [number, number][];
}

/** How many steps ahead `lookahead` foresees who will meet whom. */
const REACT_AHEAD_STEPS = 60;
/** How many reactions in a row `lookahead` foresees for one agent (each as if the one before went on). */
const MAX_REACTIONS_AHEAD = 3;

/**
 * A memory an agent is foreseen to make at a later step (an observation), with its fixed rating
 * if any; memories of one `group` are stored together, so rated by one call.
 */
interface ForeseenMemory {
	description: string;
	step: number;
	group: number;
	importance?: number;
}

/** The key of `x`'s foreseen decision about `y` at `step` (see `talksForeseen`), and back. */
const talkKey = (x: string, y: string, step: number) => `${x}>${y}@${step}`;
function ofTalkKey(key: string): { x: string; y: string; step: number } {
	const [x, rest] = key.split('>');
	const [y, at] = rest.split('@');
	return { x, y, step: Number(at) };
}

/** Foreseen memories by group, in order. */
function groupsOf(memories: readonly ForeseenMemory[]): ForeseenMemory[][] {
	const groups: ForeseenMemory[][] = [];
	for (const m of memories) {
		const last = groups.at(-1);
		if (last && last[0].group === m.group) last.push(m);
		else groups.push([m]);
	}
	return groups;
}

/** An hour block of an agent's plan: the agent, the day, the block. */
function blockKey(a: AgentState, bi: number): string {
	const b = (a.plan as DayPlan).blocks[bi];
	return `block:${a.id}:${a.plan?.day}:${bi}:${b.start}:${b.activity}`;
}

/** The object states an agent has seen in these arenas (`Sector:Arena`): it chooses objects by them. */
function statesSeenIn(seen: Record<string, string> | undefined, arenas: readonly string[]): string {
	return JSON.stringify(Object.entries(seen ?? {}).filter(([o]) => arenas.some((arena) => o.startsWith(`${arena}:`))));
}

/** An hour block decomposed ahead: its steps, and the states seen in their arenas it was decomposed with. */
interface BlockAhead {
	subtasks: Subtask[];
	arenas: string[];
	states: string;
}

/** Where an agent is foreseen at the start of a step, and what it is seen doing. */
interface Foreseen {
	tile: number;
	action: ActionState;
	/** the action comes from an hour block decomposed ahead, not yet in the agent's plan */
	guessed?: boolean;
}

interface Course {
	/** at the start of step n + k; null when not foreseen */
	at(k: number): Foreseen | null;
}

/** A conversation made ahead: per speaker, what its retrievals recalled (touched at the commit) and what it remembers. */
interface TalkAhead {
	touched: Record<string, number[]>;
	remembered: Record<string, NewMemory[]>;
}

/** Foreseeing never asks the model: `foreseeAction` returns before any call. */
const NO_MODEL: ModelPort = {
	complete: () => Promise.reject(new Error('foreseeing asks no model')),
	embed: () => Promise.reject(new Error('foreseeing asks no model')),
	dimensions: 0
};

/**
 * A persona's structured seed memories as memories to store from stream index `base` on: kind,
 * time made and importance as given (no rating call when it is), evidence as the ids the cited
 * memories get, the source `seed` (an ablation hides what a run makes, not what its world gives).
 */
function givenMemories(agent: string, base: number, list: readonly SeedMemoryDef[]): NewMemory[] {
	const ids = new Map<string, string>();
	return list.map((m, i) => {
		if (m.id !== undefined) ids.set(m.id, `${agent}/m${base + i}`);
		const evidence = (m.evidence ?? []).flatMap((e) => ids.get(e) ?? []);
		return {
			kind: m.kind,
			source: 'seed',
			description: m.description,
			...(m.created !== undefined ? { created: m.created } : {}),
			...(m.importance !== undefined ? { importance: m.importance } : {}),
			...(evidence.length ? { evidence } : {}),
			...(m.with !== undefined ? { with: m.with } : {})
		};
	});
}

export interface CreateOptions {
	seed: number;
	settings?: Settings;
	ablate?: Ablation;
}

export class Simulation {
	readonly index: WorldIndex;
	readonly pathfinder: PathFinder;
	readonly streams = new Map<string, MemoryStream>();
	/** per agent: its foreseen next action, and what it was foreseen from (see `course`) */
	private readonly foreseen = new Map<string, { key: string; action: ActionState | null; guessed: boolean }>();
	/** conversations under way made ahead, by id: what they leave the speakers with (see `reactionsAhead`) */
	private readonly talksAhead = new Map<string, Promise<TalkAhead>>();
	/** per agent: hour blocks decomposed ahead (`lookahead`), by `blockKey` */
	private readonly blocksAhead = new Map<string, Map<string, BlockAhead>>();
	/** per agent: the emoji and object state of planned steps about to begin, asked ahead (by activity and place) */
	private readonly shownAhead = new Map<string, Map<string, Resolved>>();
	/**
	 * Per model work ahead is asked on: the foreseen decisions about another agent, by
	 * `x>y@step`: whether x begins a conversation with y then (made ahead)
	 */
	private readonly talksForeseen = new WeakMap<ModelPort, Map<string, Promise<boolean>>>();
	/** per model: the keys of `talksForeseen` decided to begin a conversation */
	private readonly talksBegun = new WeakMap<ModelPort, Set<string>>();

	private constructor(
		readonly world: WorldDef,
		public state: SimState,
		readonly dimensions: number
	) {
		this.index = new WorldIndex(world);
		this.pathfinder = new PathFinder(world.width, world.height, world.collision);
		for (const a of state.agents) this.streams.set(a.id, new MemoryStream(a.id, dimensions));
	}

	/** A fresh run at step 0: agents at their spawns, seed memories stored. */
	static async create(world: WorldDef, opts: CreateOptions, model: ModelPort): Promise<{ sim: Simulation; output: StepOutput }> {
		const settings = structuredClone(opts.settings ?? world.settings);
		const personas = [...world.personas].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		const state: SimState = {
			schema: STATE_SCHEMA,
			world: world.id,
			seed: opts.seed,
			step: 0,
			settings,
			ablate: { ...NO_ABLATION, ...opts.ablate },
			objects: {},
			agents: []
		};
		const sim = new Simulation(world, state, model.dimensions);
		for (const sector of world.sectors) {
			for (const arena of sector.arenas) for (const o of arena.objects) state.objects[o.address] = o.defaultState;
		}
		for (const p of personas) {
			state.agents.push(sim.newAgent(p));
			sim.streams.set(p.id, new MemoryStream(p.id, model.dimensions));
		}
		const now = sim.time;
		const output = emptyOutput(-1, now);
		await Promise.all(
			state.agents.map(async (a) => {
				const ctx = sim.context(a, model, 'init', output);
				const p = personas.find((x) => x.id === a.id) as PersonaDef;
				const seeds = world.seeds.filter((s) => s.agent === a.id).map((s) => s.memory);
				const given = givenMemories(a.id, sim.stream(a.id).size, p.memories ?? []);
				// the world's stored vectors of these memories, those of the embedder's dimension
				const stored = given.length && world.seedVectors ? await world.seedVectors.read(p.id, model.dimensions) : undefined;
				await ctx.memorize(
					[...given, ...[...p.seedMemories, ...seeds].map((description) => ({ kind: 'thought' as const, source: 'seed' as const, description }))],
					{ vectors: stored && given.map((_, i) => (stored[i]?.length === model.dimensions ? stored[i] : undefined)) }
				);
				a.importanceSinceReflection = 0;
			})
		);
		sim.sortOutput(output);
		return { sim, output };
	}

	/** Rebuilds a simulation from a snapshot and the run's memory log (records in any order). */
	static restore(world: WorldDef, snap: Snapshot, memories: Iterable<MemoryRecord>, dimensions: number): Simulation {
		if (snap.schema !== STATE_SCHEMA || snap.state.schema !== STATE_SCHEMA) {
			throw new Error(`snapshot schema ${snap.schema} is not supported (expected ${STATE_SCHEMA}): the run was recorded by an earlier version of the engine and cannot be replayed by this one; start a new run`);
		}
		const sim = new Simulation(world, structuredClone(snap.state), dimensions);
		// Settings added since a snapshot was written take their defaults (importance: how it was rated then).
		sim.state.settings.importance ??= { ...EARLIER_IMPORTANCE };
		const retrieval = sim.state.settings.retrieval;
		retrieval.k = { ...DEFAULT_SETTINGS.retrieval.k, ...retrieval.k };
		for (const a of sim.state.agents) if (a.settings?.retrieval) a.settings.retrieval.k = { ...retrieval.k, ...a.settings.retrieval.k };
		const byAgent = new Map<string, MemoryRecord[]>();
		for (const m of memories) {
			const size = snap.memory[m.agent]?.size ?? 0;
			if (m.index >= size) continue;
			let list = byAgent.get(m.agent);
			if (!list) byAgent.set(m.agent, (list = []));
			list[m.index] = m;
		}
		for (const a of sim.state.agents) {
			const stream = sim.streams.get(a.id) as MemoryStream;
			const info = snap.memory[a.id] ?? { size: 0, lastAccess: [] };
			const list = byAgent.get(a.id) ?? [];
			for (let i = 0; i < info.size; i++) {
				const m = list[i];
				if (!m) throw new Error(`memory log lacks memory ${i} of ${a.id}`);
				stream.add({ ...m, embedding: m.embedding });
			}
			stream.setLastAccess(info.lastAccess);
		}
		return sim;
	}

	private newAgent(p: PersonaDef): AgentState {
		const spawn = this.world.spawns[p.spawn];
		if (!spawn) throw new Error(`persona ${p.id}: spawn "${p.spawn}" does not exist`);
		const agent: AgentState = {
			id: p.id,
			name: p.name,
			tile: this.index.tile(spawn.x, spawn.y),
			action: {
				activity: 'idle',
				emoji: '',
				address: '',
				object: '',
				objectState: '',
				start: this.time,
				end: this.time,
				path: [],
				chatWith: '',
				planRef: '',
				sleeping: false
			},
			plan: null,
			summary: null,
			yesterday: '',
			spatial: {},
			spatialVersion: 0,
			importanceSinceReflection: 0,
			lastChat: {},
			lastReact: {},
			recentEvents: [],
			retrievals: 0,
			memo: { importance: {}, place: {}, emoji: {}, objectState: {} },
			pending: [],
			replan: ''
		};
		// its home sector and the places it knows: a sector (every arena of it) or one arena (`Sector:Arena`)
		const [homeSector] = splitAddress(p.home);
		for (const place of [homeSector, ...p.knownPlaces]) {
			const [name, only] = splitAddress(place);
			const sector = this.index.sector(name);
			if (!sector) continue;
			for (const arena of sector.arenas) if (only === undefined || arena.name === only) this.learnArena(agent, sector.name, arena.name, arena.objects.map((o) => o.name));
		}
		return agent;
	}

	private learnArena(agent: AgentState, sector: string, arena: string, objects: string[]): void {
		const arenas = (agent.spatial[sector] ??= {});
		if (!arenas[arena]) {
			arenas[arena] = [...objects];
			agent.spatialVersion++;
		}
	}

	get time(): number {
		return timeAtStep(this.world.start, this.world.secondsPerStep, this.state.step);
	}

	get stepMs(): number {
		return this.world.secondsPerStep * 1000;
	}

	stream(agent: string): MemoryStream {
		const s = this.streams.get(agent);
		if (!s) throw new Error(`unknown agent "${agent}"`);
		return s;
	}

	agent(id: string): AgentState {
		const a = this.state.agents.find((x) => x.id === id || x.name.toLowerCase() === id.toLowerCase());
		if (!a) throw new Error(`unknown agent "${id}"`);
		return a;
	}

	private context(a: AgentState, model: ModelPort, prefix: string, out: StepOutput, recordAccess = true, condition?: Ablation): AgentContext {
		return new AgentContext(a, this.stream(a.id), this, model, prefix, this.time, out, recordAccess, condition);
	}

	/** Checks an input against the world before it enters the log (./inputs.ts). Returns an error or null. */
	validateInput(input: SimInput): string | null {
		return checkInput(input, this.state);
	}

	perceptionOf(agent: AgentState): PerceptionSettings {
		const persona = this.world.personas.find((p) => p.id === agent.id);
		return { ...this.state.settings.perception, ...persona?.perception };
	}

	/**
	 * Objects whose state an agent's current action sets (first agent in id order wins). A state a
	 * user set wins over actions that began at or before the step it was set (see `objectsSetAt`).
	 */
	objectsInUse(): Map<string, string> {
		return new Map([...this.objectUsers()].map(([o, u]) => [o, u.state]));
	}

	/** `objectsInUse` with the agent whose action sets each state (of `agents`, in state order). */
	private objectUsers(agents: readonly AgentState[] = this.state.agents): Map<string, { agent: string; state: string }> {
		const inUse = new Map<string, { agent: string; state: string }>();
		const setAt = this.state.objectsSetAt ?? {};
		for (const a of agents) {
			const o = a.action.object;
			if (!o || a.action.chatWith || !a.action.objectState || inUse.has(o)) continue;
			if (setAt[o] !== undefined && a.action.start <= setAt[o]) continue;
			inUse.set(o, { agent: a.id, state: a.action.objectState });
		}
		return inUse;
	}

	/** An object's state as agents see it: the state set by its user, or its base state. */
	objectState(address: string, inUse = this.objectsInUse()): string | undefined {
		return inUse.get(address) ?? this.state.objects[address];
	}

	/**
	 * A user's object state lasts until an agent begins an action on that object at a later
	 * step: from then on the object is the agent's to change, and its base state returns to the
	 * world's default. Run after the agents have acted, in agent order.
	 */
	private releaseUserStates(): void {
		const setAt = this.state.objectsSetAt;
		if (!setAt) return;
		for (const a of this.state.agents) {
			const o = a.action.object;
			if (!o || setAt[o] === undefined || a.action.chatWith || a.action.start <= setAt[o]) continue;
			delete setAt[o];
			const def = this.index.objects.get(o)?.object.defaultState;
			if (def !== undefined) this.state.objects[o] = def;
		}
	}

	/**
	 * What an agent perceives: agents and non-idle objects in its arena within its vision (not
	 * the object its own action uses), nearest first, up to its attention bandwidth.
	 */
	private perceive(a: AgentState, inUse: Map<string, { agent: string; state: string }>, byArena = this.agentsByArena(), learn = true): PerceivedEvent[] {
		if (isSleeping(a)) return [];
		const { visionRadius, attentionBandwidth } = this.perceptionOf(a);
		const [ax, ay] = this.index.xy(a.tile);
		// Spatial memory grows with every arena in sight (looked up near the agent, in index order).
		for (const ai of learn ? this.index.arenasNear(ax, ay, visionRadius) : []) {
			const entry = this.index.arenas[ai];
			if (!a.spatial[entry.sector.name]?.[entry.arena.name]) {
				this.learnArena(a, entry.sector.name, entry.arena.name, entry.arena.objects.map((o) => o.name));
			}
		}
		const myArena = this.index.arenaAt[a.tile];
		const events: PerceivedEvent[] = [];
		for (const b of byArena.get(myArena) ?? []) {
			if (b.id === a.id) continue;
			const [bx, by] = this.index.xy(b.tile);
			const d = Math.max(Math.abs(bx - ax), Math.abs(by - ay));
			if (d > visionRadius) continue;
			events.push({
				description: eventOf(b),
				distance: d,
				agent: b.id,
				agentName: b.name,
				activity: b.action.activity,
				chatting: b.action.chatWith !== '',
				sleeping: isSleeping(b)
			});
		}
		if (myArena >= 0) {
			for (const o of this.index.arenas[myArena].arena.objects) {
				const user = inUse.get(o.address);
				const state = user?.state ?? this.state.objects[o.address];
				let d = Infinity;
				for (const t of o.tiles) {
					const [ox, oy] = this.index.xy(t);
					d = Math.min(d, Math.max(Math.abs(ox - ax), Math.abs(oy - ay)));
				}
				// what the agent's own use does to it is not a state it finds the object in
				if (learn && d <= visionRadius) rememberState(a, o.address, user?.agent === a.id ? this.state.objects[o.address] : state, o.defaultState);
				if (user?.agent === a.id) continue;
				if (!state || state === 'idle') {
					// Seen at rest: its next state is news again.
					if (learn && d <= visionRadius && a.judged?.[o.address] !== undefined) delete a.judged[o.address];
					continue;
				}
				if (d <= visionRadius) events.push({ description: `${o.name} is ${state}`, distance: d, object: o.address, objectName: o.name, objectState: state });
			}
		}
		events.sort((p, q) => p.distance - q.distance || (p.description < q.description ? -1 : 1));
		return events.slice(0, attentionBandwidth);
	}

	/** One agent's decisions for this step; returns the agent it wants to talk to, if any. */
	private async think(ctx: AgentContext, events: PerceivedEvent[]): Promise<string | null> {
		const a = ctx.agent;
		const s = this.state;
		await ctx.flushDue();
		let fresh: PerceivedEvent[] = [];
		if (!s.ablate.observation && events.length > 0) {
			const retention = this.perceptionOf(a).retention;
			fresh = events.filter((e) => !a.recentEvents.includes(e.description));
			if (fresh.length > 0) {
				a.recentEvents = [...a.recentEvents, ...fresh.map((e) => e.description)].slice(-Math.max(retention, 1));
				const mundane = s.settings.importance.mundane || undefined;
				await ctx.memorize(
					fresh.map((e) => ({
						kind: 'observation' as const,
						description: e.description,
						// idle objects and sleepers get the fixed rating, when there is one, without a call
						importance: e.sleeping || /is (idle|sleeping)$/.test(e.description) ? mundane : undefined
					})),
					{ defer: true }
				);
			}
		}
		if (!s.ablate.reflection && a.importanceSinceReflection >= s.settings.reflection.threshold) await reflect(ctx);
		if (!a.plan || a.plan.day !== dayIndex(ctx.now)) await planDay(ctx);
		if (a.replan) {
			const reason = a.replan;
			a.replan = '';
			await replan(ctx, reason);
		}
		const chatting = a.action.chatWith !== '' && ctx.now < a.action.end;
		let talkTo: string | null = null;
		// A reaction noticed earlier is decided when its game time is over (dropped when the
		// agent has fallen asleep meanwhile); one reaction a step.
		const due = a.reacting && a.reacting.commitStep <= s.step ? a.reacting : null;
		if (due) delete a.reacting;
		const awake = !chatting && !isSleeping(a) && !s.ablate.observation;
		let deciding: ReactingState | null = awake ? due : null;
		if (awake && !due && !a.reacting) {
			// Something to decide about: a newly seen agent, or an object whose state the agent
			// has not judged yet (the user's edit, someone else's action), nearest first.
			const judged = a.judged ?? {};
			const candidates = events.filter((e) => (e.agent ? fresh.includes(e) : e.object !== undefined && judged[e.object] !== e.objectState));
			for (const e of candidates) {
				const r = noticeReaction(ctx, e, s.step + this.reactionSteps(a));
				if (!r) continue;
				if (r.commitStep > s.step) a.reacting = r;
				else deciding = r;
				break;
			}
		}
		const acting = !chatting && ctx.now >= a.action.end;
		if (deciding) talkTo = await this.reactBeside(ctx, deciding, acting && !s.ablate.planning ? blockDue(a, ctx.now) : null);
		if (!chatting && ctx.now >= a.action.end) await nextAction(ctx, this.stepMs);
		return talkTo;
	}

	/**
	 * Decides reaction `r`; the hour block the agent's next action begins (`block`, when one is
	 * due) is decomposed meanwhile, on a branch of its own, and put in the plan unless the
	 * reaction has re-planned: what the agent does is as if it had been decomposed after.
	 */
	private async reactBeside(ctx: AgentContext, r: ReactingState, block: PlanBlock | null): Promise<string | null> {
		if (!block) return this.reactNow(ctx, r);
		const side = ctx.aside('d');
		const made = decomposition(side.ctx, structuredClone(block));
		let talkTo: string | null;
		try {
			talkTo = await this.reactNow(ctx, r);
		} finally {
			// no call of the step goes on after it
			await made.catch(() => undefined);
		}
		if (ctx.agent.plan?.blocks.includes(block) && !block.subtasks) {
			side.keep();
			await adoptDecomposition(ctx, block, await made);
		}
		return talkTo;
	}

	/** Steps between noticing something and deciding whether to react (`perception.reactionMinutes`). */
	private reactionSteps(a: AgentState): number {
		const minutes = this.perceptionOf(a).reactionMinutes ?? DEFAULT_SETTINGS.perception.reactionMinutes;
		return Math.max(0, Math.ceil((minutes * MINUTE) / this.stepMs));
	}

	/** Decides a reaction and carries it out: a re-plan from now, or the agent to talk to. */
	private async reactNow(ctx: AgentContext, r: ReactingState): Promise<string | null> {
		const decision = await decideReaction(ctx, r);
		if (!decision) return null;
		if (decision.talk) return r.agent ?? null;
		if (decision.reaction) {
			ctx.out.events.push({ kind: 'reaction', agent: ctx.agent.id, reaction: decision.reaction, ...(r.object !== undefined && { object: r.object }) });
			await replan(ctx, decision.reaction);
		}
		return null;
	}

	/**
	 * Advances the world by one step. With `ahead` (the port and the started jobs of `lookahead`),
	 * a conversation two agents are about to begin is made ahead as soon as both have thought.
	 */
	async step(inputs: readonly SimInput[], model: ModelPort, ahead?: { model: ModelPort; started: Set<string> }): Promise<StepOutput> {
		const s = this.state;
		const out = emptyOutput(s.step, this.time);
		const prefix = String(s.step);
		const ctxs = new Map(s.agents.map((a) => [a.id, this.context(a, model, prefix, out)]));
		for (const c of ctxs.values()) c.ahead = ahead?.model;
		const step = { state: s, time: this.time, out, agent: (id: string) => ctxs.get(id) as AgentContext };
		for (const input of inputs) {
			const error = this.validateInput(input);
			if (error) throw new Error(`input rejected at step ${s.step}: ${error}`);
			await applyInput(input, step);
		}
		// Conversations whose game time is over take effect now, in the order they began.
		const talks = s.talks ?? [];
		for (const t of talks.filter((x) => x.commitStep <= s.step)) await this.commitTalk(t, ctxs, out);
		if (s.talks) s.talks = talks.filter((x) => x.commitStep > s.step);
		// Agents in a conversation under way think again when it is committed.
		const talking = new Set((s.talks ?? []).flatMap((t) => t.agents));

		const inUse = this.objectUsers();
		const byArena = this.agentsByArena();
		const perceived = s.agents.map((a) => this.perceive(a, inUse, byArena));
		// who has thought (and stored what it made), with whom it would talk
		const thought = new Map<string, string | null>();
		const wishes = await Promise.all(
			s.agents.map((a, i) => {
				if (talking.has(a.id)) return null;
				const ctx = ctxs.get(a.id) as AgentContext;
				const wish = this.think(ctx, perceived[i]);
				if (ahead) {
					void wish
						.then(async (w) => {
							await ctx.settled();
							thought.set(a.id, w);
							this.talkEarly(a.id, thought, ahead);
						})
						.catch(() => undefined);
				}
				return wish;
			})
		);
		// memories made while the agents went on (plans, actions begun) are stored by now
		await Promise.all([...ctxs.values()].map((c) => c.settled()));
		this.releaseUserStates();

		const wishOf = new Map(s.agents.map((a, i) => [a.id, wishes[i]]));
		const pairs = this.pairUp(wishOf);
		// A conversation takes one game minute a turn (its most turns); it is made meanwhile.
		const commitStep = s.step + this.talkSteps();
		for (const [x, y] of pairs) {
			const A = this.agent(x);
			const B = this.agent(y);
			const t = this.talkBegun(x, y);
			const end = timeAtStep(this.world.start, this.world.secondsPerStep, commitStep);
			A.action = chatAction(A, B, t.id, this.time, end);
			B.action = chatAction(B, A, t.id, this.time, end);
			// what either was about to react to is dropped: the conversation has its attention
			delete A.reacting;
			delete B.reacting;
			(s.talks ??= []).push(t);
		}

		for (const a of s.agents) {
			const next = a.action.path.shift();
			if (next !== undefined) a.tile = next;
		}
		s.step++;
		this.sortOutput(out);
		return out;
	}

	/** The conversation `x` begins with `y` in this step, as the two are once they have thought. */
	private talkBegun(x: string, y: string): TalkState {
		const s = this.state;
		return {
			id: `c${s.step}-${x}-${y}`,
			agents: [x, y],
			address: this.index.addressOf(this.agent(x).tile),
			step: s.step,
			time: this.time,
			commitStep: s.step + this.talkSteps(),
			recall: { [x]: this.stream(x).size, [y]: this.stream(y).size },
			doing: { [x]: this.agent(x).action.activity, [y]: this.agent(y).action.activity }
		};
	}

	/**
	 * While a step runs: `id` has thought (`thought` holds who has, with whom each would talk).
	 * The conversation it would begin, or be asked to, with an agent that has thought too is
	 * made ahead now rather than after the step: nothing either does in this step changes it.
	 * Agents are paired as the step pairs them, among those that have thought; a pair the step
	 * does not make (one that had not thought claimed one of them) leaves its calls unused.
	 */
	private talkEarly(id: string, thought: ReadonlyMap<string, string | null>, ahead: { model: ModelPort; started: Set<string> }): void {
		const ctxOf = this.aheadContexts(ahead.model);
		for (const [x, y] of this.pairUp(thought)) {
			if (x !== id && y !== id) continue;
			const t = this.talkBegun(x, y);
			this.makeTalkAhead(t, ahead.started, (who) => ctxOf(who, t.time, this.state.step + 1));
		}
	}

	/**
	 * Conversations as a step begins them from `wishes` (with whom each agent would talk; only
	 * the agents it holds take part): each agent in at most one, initiators in id order, none
	 * with an agent chatting or asleep.
	 */
	private pairUp(wishes: ReadonlyMap<string, string | null>): [string, string][] {
		const s = this.state;
		const busy = new Set(s.agents.filter((a) => a.action.chatWith !== '' && this.time < a.action.end).map((a) => a.id));
		const pairs: [string, string][] = [];
		for (const a of s.agents) {
			const other = wishes.get(a.id);
			if (!other || !wishes.has(other) || busy.has(a.id) || busy.has(other)) continue;
			const b = s.agents.find((x) => x.id === other);
			if (!b || isSleeping(b)) continue;
			pairs.push([a.id, other]);
			busy.add(a.id).add(other);
		}
		return pairs;
	}

	/**
	 * Contexts for work ahead on `model`: each on a copy of its agent as it is now (one copy per
	 * agent), the stream itself, keyed by the step that will need its calls.
	 */
	private aheadContexts(model: ModelPort): (id: string, now: number, needed: number) => AgentContext {
		const copies = new Map<string, AgentState>();
		const step = this.state.step;
		return (id, now, needed) => {
			let c = copies.get(id);
			if (!c) copies.set(id, (c = structuredClone(this.agent(id))));
			const ctx = new AgentContext(c, this.stream(id), this, model, String(needed), now, emptyOutput(step, now), false);
			ctx.speculative = true;
			return ctx;
		};
	}

	/**
	 * Makes conversation `t` ahead (its lines and what each remembers of it) on contexts from
	 * `ctxOf`, unless `started` has it; kept in `talksAhead` for the reactions after it.
	 */
	private makeTalkAhead(t: TalkState, started: Set<string>, ctxOf: (id: string) => AgentContext): Promise<TalkAhead> | undefined {
		const job = `talk:${t.id}`;
		if (started.has(job)) return undefined;
		started.add(job);
		const [ctxA, ctxB, scopeA, scopeB] = this.talkContexts(t, ctxOf);
		// its retrievals are kept in the scopes (as the commit will touch them), not in the streams
		ctxA.foreseen = ctxB.foreseen = true;
		// one made while its step runs goes on only if the step begins it
		const goOn = () => this.state.step <= t.step || (this.state.talks ?? []).some((x) => x.id === t.id);
		const made = talk(ctxA, ctxB, t, goOn).then(async ({ history }) => {
			const [x, y] = t.agents;
			if (!goOn()) return { touched: {}, remembered: {} };
			const [mx, my] = await rememberTalk(ctxOf(x), ctxOf(y), history);
			return { touched: { [x]: [...new Set(scopeA.touched)], [y]: [...new Set(scopeB.touched)] }, remembered: { [x]: mx, [y]: my } };
		});
		made.catch(() => undefined);
		this.talksAhead.set(t.id, made);
		return made;
	}

	/** A conversation's recall contexts: each speaker as it was when the conversation began. */
	private talkContexts(t: TalkState, ctxOf: (id: string) => AgentContext): [AgentContext, AgentContext, RecallScope, RecallScope] {
		const scopes = t.agents.map((id) => ({ size: t.recall[id] ?? 0, at: t.time, touched: [] as number[] }));
		return [ctxOf(t.agents[0]).recalling(scopes[0], 'c'), ctxOf(t.agents[1]).recalling(scopes[1], 'c'), scopes[0], scopes[1]];
	}

	/** Makes a conversation's lines (answers asked ahead are ready by now) and lets it take effect. */
	private async commitTalk(t: TalkState, ctxs: Map<string, AgentContext>, out: StepOutput): Promise<void> {
		const [ctxA, ctxB, scopeA, scopeB] = this.talkContexts(t, (id) => ctxs.get(id) as AgentContext);
		const { lines, history } = await talk(ctxA, ctxB, t);
		for (const [ctx, scope] of [[ctxA, scopeA], [ctxB, scopeB]] as const) ctx.stream.touch([...new Set(scope.touched)], this.time);
		// the memories are stored as of now: the conversation is over
		await rememberTalk(ctxs.get(t.agents[0]) as AgentContext, ctxs.get(t.agents[1]) as AgentContext, history);
		for (const [me, other] of [t.agents, [t.agents[1], t.agents[0]]]) {
			const a = this.agent(me);
			a.lastChat[other] = this.time;
			// the chat's action ends now; the plan takes over in this step's thinking
			if (a.action.planRef === `chat:${t.id}`) a.action.end = Math.min(a.action.end, this.time);
		}
		out.conversations.push({ id: t.id, step: t.step, time: t.time, endStep: this.state.step, agents: t.agents, address: t.address, lines });
		out.events.push({ kind: 'conversation', agents: t.agents, id: t.id });
	}

	/**
	 * Work a later step will need, done now on copies of the agents so that its model calls are
	 * asked early: the conversations under way (all their lines and what each remembers), the
	 * hour blocks of every agent that begin within `blockSteps` (default `horizonSteps`), the
	 * ratings due and the reactions foreseen within `horizonSteps`. Nothing in
	 * the state changes; `model` is expected to answer from calls made ahead (the gateway's
	 * `prefetch`). `started` holds the ids of work already begun (kept by the caller between steps).
	 * Reactions are decided ahead only for steps within `decideSteps` (default REACT_AHEAD_STEPS);
	 * the conversations foreseen decisions begin are made ahead unless `talks` is false.
	 */
	async lookahead(model: ModelPort, opts: { horizonSteps: number; blockSteps?: number; decideSteps?: number; talks?: boolean; started: Set<string> }): Promise<void> {
		const s = this.state;
		const jobs: Promise<unknown>[] = [];
		// keyed by the step that will need the call: the gateway serves the soonest first
		const ctxOf = this.aheadContexts(model);
		const last = s.step + opts.horizonSteps;
		// the streams as they are now: work ahead that waits for answers must not see what the
		// steps made meanwhile (foreseen memories would be there twice)
		const sizes = new Map(s.agents.map((a) => [a.id, this.stream(a.id).size]));
		const bases = new Map<string, MemoryStream>();
		const baseOf = (id: string) => {
			let b = bases.get(id);
			if (!b) bases.set(id, (b = this.stream(id).copy(sizes.get(id))));
			return b;
		};
		const talks = s.talks ?? [];
		for (const id of this.talksAhead.keys()) if (!talks.some((t) => t.id === id)) this.talksAhead.delete(id);
		// foreseen decisions for steps run by now
		const foreseen = this.talksForeseen.get(model);
		for (const key of foreseen?.keys() ?? []) if (ofTalkKey(key).step < s.step) foreseen?.delete(key);
		const begun = this.talksBegun.get(model);
		for (const key of begun ?? []) if (!foreseen?.has(key)) begun?.delete(key);
		// conversations made ahead by an earlier call: their speakers' reactions after them are foreseen
		const talksMade = new Set(this.talksAhead.keys());
		for (const t of talks) {
			if (t.commitStep > last) continue;
			// a conversation is the longest chain of calls: ranked as needed now, it goes first
			const made = this.makeTalkAhead(t, opts.started, (id) => ctxOf(id, t.time, s.step));
			if (made) jobs.push(made);
		}
		const horizon = this.time + (opts.blockSteps ?? opts.horizonSteps) * this.stepMs;
		const talking = new Set((s.talks ?? []).flatMap((t) => t.agents));
		for (const a of s.agents) {
			const plan = a.plan;
			if (!plan || talking.has(a.id) || s.ablate.planning || dayIndex(horizon) !== plan.day) continue;
			const minute = minuteOfDay(this.time);
			const ahead = minuteOfDay(horizon);
			const redoBy = minute + (REACT_AHEAD_STEPS * this.stepMs) / MINUTE;
			for (let bi = 0; bi < plan.blocks.length; bi++) {
				const b = plan.blocks[bi];
				if (b.sleep || b.subtasks || b.start <= minute || b.start > ahead) continue;
				// decomposed again when the agent has seen objects change since in the arenas its steps use
				const key = blockKey(a, bi);
				const made = this.blocksAhead.get(a.id)?.get(key);
				const states = made ? statesSeenIn(a.seenStates, made.arenas) : '';
				if (made?.states === states) continue;
				// and only once the block is near (within the steps foreseen): far from it, the states
				// it would be decomposed with are likely to change again before it begins
				if (made && b.start > redoBy) continue;
				const job = `${key}:${states}`;
				if (opts.started.has(job)) continue;
				// places are chosen from where the agent will be: where the block before ends (as
				// decomposed ahead, when it is not yet); not before that is known
				const before = plan.blocks[bi - 1];
				const beforeSteps = before?.subtasks ?? (before ? this.blockAhead(a, bi - 1) : undefined);
				if (before && !before.sleep && !beforeSteps) continue;
				opts.started.add(job);
				const at = dayStart(this.time) + b.start * MINUTE;
				const ctx = ctxOf(a.id, at, Math.ceil((at - this.world.start) / this.stepMs));
				// the states the decomposition chooses by: the copy's, which later steps do not change
				const seen = ctx.agent.seenStates;
				const last = beforeSteps?.at(-1)?.address;
				const tile = last ? this.index.arena(splitAddress(last).slice(0, 2).join(':'))?.arena.walkable[0] : undefined;
				const standing = tile === undefined ? ctx : new AgentContext({ ...ctx.agent, tile }, ctx.stream, this, model, ctx.keyPrefix, at, ctx.out, false);
				standing.speculative = true;
				jobs.push(
					decompose(standing, structuredClone(b)).then((subtasks) => {
						let mine = this.blocksAhead.get(a.id);
						if (!mine) this.blocksAhead.set(a.id, (mine = new Map()));
						const arenas = [...new Set(subtasks.map((t) => splitAddress(t.address ?? '').slice(0, 2).join(':')))];
						mine.delete(key);
						mine.set(key, { subtasks, arenas, states: statesSeenIn(seen, arenas) });
						// a few blocks ahead at most: older ones were for blocks now decomposed or replanned
						if (mine.size > 4) mine.delete(mine.keys().next().value as string);
					})
				);
			}
		}
		// The emoji and object state of each planned step that begins within the horizon.
		const until = this.time + opts.horizonSteps * this.stepMs;
		for (const a of s.agents) {
			const plan = a.plan;
			if (!plan || talking.has(a.id) || s.ablate.planning || dayIndex(this.time) !== plan.day) continue;
			const base = dayStart(this.time);
			plan.blocks.forEach((b, bi) => {
				let start = base + b.start * MINUTE;
				// only blocks under way or beginning within the horizon
				if (start > until || start + b.minutes * MINUTE <= this.time) return;
				const steps = b.subtasks ?? this.blockAhead(a, bi);
				for (const t of steps ?? []) {
					const at = start;
					start += t.minutes * MINUTE;
					if (at <= this.time || at > until || t.address === undefined || t.emoji !== undefined) continue;
					const key = `${t.activity}|${t.address}`;
					const job = `shown:${a.id}:${key}`;
					if (opts.started.has(job)) continue;
					opts.started.add(job);
					const step = Math.ceil((at - this.world.start) / this.stepMs);
					jobs.push(
						shown(ctxOf(a.id, at, step), t.activity, t.address).then((r) => {
							let mine = this.shownAhead.get(a.id);
							if (!mine) this.shownAhead.set(a.id, (mine = new Map()));
							mine.set(key, r);
							// the latest few: older ones were for steps begun by now
							if (mine.size > 16) mine.delete(mine.keys().next().value as string);
						})
					);
				}
			});
		}
		// Importance ratings due within the horizon whose memories are all known already.
		const waitMs = s.settings.importance.waitMinutes * MINUTE;
		for (const a of s.agents) {
			if (a.pending.length === 0) continue;
			const due = a.pending[0].created + waitMs;
			const step = Math.max(s.step, Math.ceil((due - this.world.start) / this.stepMs));
			if (step > s.step + opts.horizonSteps) continue;
			const n = dueAhead(a.pending, timeAtStep(this.world.start, this.world.secondsPerStep, step), this.time, waitMs);
			const job = `rate:${a.id}:${a.pending[0].created}:${n}`;
			if (n === 0 || opts.started.has(job)) continue;
			opts.started.add(job);
			jobs.push(ctxOf(a.id, this.time, step).rateDueAhead(n));
		}
		// Reactions under way: the decision and what follows it, as the deciding step will ask them.
		const courses = this.courses(model);
		const talkAhead = async (x: string, y: string, step: number, streamX: MemoryStream) => {
			if (opts.talks !== false) await this.talkAhead(model, x, y, step, courses, (id) => Promise.resolve(baseOf(id)), streamX);
		};
		for (const a of s.agents) {
			const r = a.reacting;
			if (!r || talking.has(a.id) || r.commitStep > last) continue;
			const job = `reacting:${a.id}:${r.step}:${r.description}`;
			if (opts.started.has(job)) continue;
			opts.started.add(job);
			jobs.push(this.reactAhead(model, ctxOf(a.id, timeAtStep(this.world.start, this.world.secondsPerStep, r.commitStep), r.commitStep), baseOf(a.id).copy(), r, talkAhead));
		}
		jobs.push(...this.reactionsAhead(model, ctxOf, courses, talksMade, baseOf, opts));
		await Promise.all(jobs);
	}

	/**
	 * Reactions a later step is likely to decide, and the memories agents are foreseen to make.
	 * Each agent's course is foreseen a few steps ahead as its plan runs without surprises: its
	 * action to its end (a conversation to its commit), then the plan's next action when the plan
	 * already holds its place (no model call). Who will see whom, doing what, follows, and with
	 * it what each will remember: with memories rated when they are made (the paper), each
	 * observation's rating is asked ahead, and a reaction or conversation foreseen is asked from
	 * a copy of the stream holding what the agent will have remembered by then. The reaction's
	 * calls (relationship, decision, re-plan) are asked for the step that will decide it. An
	 * agent in a conversation made ahead (`talksMade`) is foreseen from its commit with what the
	 * conversation leaves it (its recall touched, its memories of it).
	 */
	private reactionsAhead(
		model: ModelPort,
		ctxOf: (id: string, now: number, needed: number) => AgentContext,
		courses: Map<string, Course>,
		talksMade: ReadonlySet<string>,
		baseOf: (id: string) => MemoryStream,
		opts: { horizonSteps: number; decideSteps?: number; talks?: boolean; started: Set<string> }
	): Promise<unknown>[] {
		const s = this.state;
		if (s.ablate.observation) return [];
		const steps = Math.min(opts.horizonSteps, REACT_AHEAD_STEPS);
		const timeAt = (k: number) => timeAtStep(this.world.start, this.world.secondsPerStep, s.step + k);
		// the town as foreseen at the start of step n + k: who is where doing what, objects in use
		const towns: { byArena: Map<number, AgentState[]>; inUse: Map<string, { agent: string; state: string }> }[] = [];
		const townAt = (k: number) => {
			if (towns[k]) return towns[k];
			const agents: AgentState[] = [];
			for (const b of s.agents) {
				const f = (courses.get(b.id) as Course).at(k);
				if (f) agents.push({ ...b, tile: f.tile, action: f.action });
			}
			return (towns[k] = { byArena: this.agentsByArena(agents), inUse: this.objectUsers(agents) });
		};
		// memories stored when they are made (else they wait for a batch, and `sizeAt` counts them)
		const atOnce = s.settings.importance.waitMinutes === 0;
		const mundane = s.settings.importance.mundane || undefined;
		const made = new Map<string, ForeseenMemory[]>();
		const noticed = new Map<AgentState, { k: number; r: ReactingState }[]>();
		for (const a of s.agents) {
			if (isSleeping(a) || a.reacting) continue;
			// an agent in a conversation thinks again at its commit: what it sees is rated ahead,
			// and its reactions are foreseen once the conversation has been made ahead
			const talk = (s.talks ?? []).find((t) => t.agents.includes(a.id));
			const first = talk ? talk.commitStep - s.step : 0;
			const talkKnown = talk !== undefined && atOnce && talksMade.has(talk.id);
			const mine = courses.get(a.id) as Course;
			const retention = this.perceptionOf(a).retention;
			let recent = [...a.recentEvents];
			const judged = { ...a.judged };
			const memories: ForeseenMemory[] = [];
			let group = 0;
			made.set(a.id, memories);
			const reactions: { k: number; r: ReactingState }[] = [];
			for (let k = first; k <= steps; k++) {
				const own = mine.at(k);
				if (!own || own.action.sleeping || (own.action.chatWith && k !== first)) break;
				// an action the step before began (after its reactions) is remembered as it begins
				const before = k > first ? mine.at(k - 1) : null;
				if (before && before.action !== own.action) memories.push({ description: `${a.name} is ${own.action.activity || 'idle'}`, step: s.step + k - 1, group: group++ });
				const town = townAt(k);
				const events = this.perceive({ ...a, tile: own.tile, action: own.action }, town.inUse, town.byArena, false);
				const fresh = events.filter((e) => !recent.includes(e.description));
				if (fresh.length > 0) recent = [...recent, ...fresh.map((e) => e.description)].slice(-Math.max(retention, 1));
				for (const e of fresh) {
					const fixed = e.sleeping || /is (idle|sleeping)$/.test(e.description) ? mundane : undefined;
					memories.push({ description: e.description, step: s.step + k, group, importance: fixed });
				}
				group++;
				// in a block decomposed ahead its stream lacks that block's plan memories: what it sees
				// is rated ahead, what it would decide is not foreseen
				const candidates = own.guessed ? [] : events.filter((e) => (e.agent ? fresh.includes(e) : e.object !== undefined && judged[e.object] !== e.objectState));
				if (candidates.length === 0) continue;
				if (talk && !talkKnown) break;
				const commitStep = s.step + k + this.reactionSteps(a);
				const noticing = ctxOf(a.id, timeAt(k), s.step + k);
				// a copy: the foreseen action may be the agent's own, which work ahead must not change
				noticing.agent.action = structuredClone(own.action);
				noticing.agent.judged = judged;
				// the conversation's commit: they have just talked
				if (talk) for (const other of talk.agents) if (other !== a.id) noticing.agent.lastChat = { ...noticing.agent.lastChat, [other]: timeAt(first) };
				let r: ReactingState | null = null;
				for (const e of candidates) if ((r = noticeReaction(noticing, e, commitStep))) break;
				// nothing it would react to (asleep, chatting, just talked): its course goes on
				if (!r) continue;
				// decided by the step about to run, which asks for it now; what follows is unforeseen
				if (k === 0) break;
				if (commitStep > s.step + opts.horizonSteps || k > (opts.decideSteps ?? REACT_AHEAD_STEPS)) break;
				reactions.push({ k, r });
				// foreseen on as if the agent goes on (the likeliest decision); a reaction that
				// decides otherwise ends the chain of decisions asked ahead (see below)
				if (reactions.length === MAX_REACTIONS_AHEAD || !atOnce) break;
			}
			if (reactions.length > 0) noticed.set(a, reactions);
		}
		// what an agent will remember by the time it thinks at `step`: a copy of its stream with
		// the memories foreseen until then, their ratings asked ahead (one promise per agent and step)
		const streams = new Map<string, Promise<MemoryStream>>();
		const afterTalks = new Map<string, Promise<MemoryStream>>();
		// an agent's stream as a conversation made ahead leaves it at its commit
		const afterTalk = (id: string, t: TalkState): Promise<MemoryStream> => {
			let p = afterTalks.get(id);
			if (!p) afterTalks.set(id, (p = this.streamAfterTalk(ctxOf(id, timeAt(t.commitStep - s.step), t.commitStep), baseOf(id), t)));
			return p;
		};
		const streamAt = (id: string, step: number): Promise<MemoryStream> => {
			const mine = atOnce ? (made.get(id) ?? []).filter((m) => m.step <= step) : [];
			const t = atOnce ? (s.talks ?? []).find((x) => x.agents.includes(id) && talksMade.has(x.id) && x.commitStep <= step) : undefined;
			if (mine.length === 0 && !t) return Promise.resolve(baseOf(id));
			const key = `${id}@${step}`;
			let p = streams.get(key);
			if (!p) {
				const ctx = ctxOf(id, timeAtStep(this.world.start, this.world.secondsPerStep, step), step);
				p = (t ? afterTalk(id, t) : Promise.resolve(baseOf(id))).then((base) => this.foreseenStream(ctx, base, mine));
				streams.set(key, p);
			}
			return p;
		};
		const jobs: Promise<unknown>[] = [];
		// each foreseen memory's rating, asked for the step that will make it
		for (const [id, memories] of atOnce ? made : []) {
			for (const group of groupsOf(memories)) {
				const step = group[0].step;
				const job = `memories:${id}:${step}:${group.map((m) => m.description).join('|')}`;
				if (step === s.step || opts.started.has(job)) continue;
				opts.started.add(job);
				jobs.push(ctxOf(id, timeAtStep(this.world.start, this.world.secondsPerStep, step), step).rateAhead(group));
			}
		}
		const talkAhead = async (x: string, y: string, step: number, streamX: MemoryStream) => {
			if (opts.talks !== false) await this.talkAhead(model, x, y, step, courses, streamAt, streamX);
		};
		// each agent's foreseen reactions, in turn: the next is asked once the one before has
		// recalled what it recalls, from its stream as the decision leaves it if the agent goes on
		// (the likeliest decision); a decision otherwise leaves the calls after it unused, never
		// changes the run
		for (const [a, reactions] of noticed) {
			const job = `react:${a.id}:${reactions.map(({ k, r }) => `${s.step + k}:${r.description}`).join('|')}`;
			if (opts.started.has(job)) continue;
			opts.started.add(job);
			// when what the agent will have remembered by a decision (rated ahead) reaches the reflection
			// threshold, the step reflects first and the decision recalls insights no foresight has:
			// it is not asked, nor the ones after it
			const sinceReflection = a.importanceSinceReflection;
			const reflects = (stream: MemoryStream) =>
				!s.ablate.reflection && stream.records.slice(baseOf(a.id).size).reduce((sum, m) => sum + m.importance, sinceReflection) >= s.settings.reflection.threshold;
			jobs.push(
				(async () => {
					let stream: MemoryStream | null = null;
					let since = s.step;
					const decisions: Promise<void>[] = [];
					// whether the decisions so far let the agent go on to the next
					let before = Promise.resolve(true);
					// the first decision in the chain that takes the agent elsewhere: the ones after it ask nothing more
					let stopped = Infinity;
					for (const { k, r } of reactions) {
						const step = s.step + k;
						const mine = (made.get(a.id) ?? []).filter((m) => m.step > since && m.step <= step);
						const deciding = ctxOf(a.id, timeAt(r.commitStep - s.step), r.commitStep);
						// the first decision's stream is shared (or the agent's own): the decision touches a copy
						const current = stream ? await this.foreseenStream(deciding, stream, mine) : (await streamAt(a.id, step)).copy();
						if (reflects(current)) break;
						since = step;
						r.recall = atOnce ? current.size : this.sizeAt(a, k);
						let goOn: (next: MemoryStream | null) => void = () => undefined;
						const recalled = new Promise<MemoryStream | null>((resolve) => (goOn = resolve));
						let wentOn: (yes: boolean) => void = () => undefined;
						const went = new Promise<boolean>((resolve) => (wentOn = resolve));
						const prior = before;
						const at = decisions.length;
						const decided = this.reactAhead(model, deciding, current, r, talkAhead, {
							recalled: () => goOn(current.copy()),
							decided: (yes) => {
								if (!yes) stopped = Math.min(stopped, at);
								wentOn(yes);
							},
							before: prior,
							live: () => at <= stopped,
							// after a decision about another agent (a conversation may take it), asked once that is decided
							ready: reactions.slice(0, at).some((x) => x.r.agent !== undefined) ? prior : undefined
						});
						before = prior.then((yes) => yes && went);
						const settled = decided.finally(() => {
							goOn(null);
							wentOn(false);
						});
						// handled now: the chain may end (failing) before it waits for them
						settled.catch(() => undefined);
						decisions.push(settled);
						stream = await recalled;
						if (!stream) break;
					}
					await Promise.all(decisions);
				})()
			);
		}
		return jobs;
	}

	/**
	 * A copy of an agent's stream as conversation `t`, made ahead, leaves it at its commit: what
	 * its retrievals recalled touched, and what it remembers of it stored (rated and embedded).
	 */
	private async streamAfterTalk(ctx: AgentContext, base: MemoryStream, t: TalkState): Promise<MemoryStream> {
		const made = await (this.talksAhead.get(t.id) as Promise<TalkAhead>);
		const id = ctx.agent.id;
		const items = made.remembered[id] ?? [];
		const [ratings, vectors] = await Promise.all([ctx.rateAhead(items), ctx.model.embed(items.map((m) => m.description))]);
		const stream = base.copy();
		stream.touch(made.touched[id] ?? [], ctx.now);
		items.forEach((m, i) =>
			stream.add({
				kind: m.kind,
				source: m.kind === 'thought' ? m.source : (m.source ?? SOURCE_OF_KIND[m.kind]),
				description: m.description,
				created: ctx.now,
				step: t.commitStep,
				importance: ratings[i],
				with: m.with,
				embedding: vectors[i]
			})
		);
		return stream;
	}

	/** A copy of an agent's stream with foreseen memories added, rated (asked ahead) and embedded. */
	private async foreseenStream(ctx: AgentContext, base: MemoryStream, memories: readonly ForeseenMemory[]): Promise<MemoryStream> {
		if (memories.length === 0) return base;
		const ratings = (await Promise.all(groupsOf(memories).map((g) => ctx.rateAhead(g)))).flat();
		const vectors = await ctx.model.embed(memories.map((m) => m.description));
		const stream = base.copy();
		memories.forEach((m, i) =>
			stream.add({
				kind: 'observation',
				source: 'observed',
				description: m.description,
				created: timeAtStep(this.world.start, this.world.secondsPerStep, m.step),
				step: m.step,
				importance: ratings[i],
				embedding: vectors[i]
			})
		);
		return stream;
	}

	/**
	 * Every agent's foreseen course (`course`), not foreseen past the step at which a foreseen
	 * decision (answered) begins a conversation for it: where it goes after is another course.
	 */
	private courses(model: ModelPort): Map<string, Course> {
		return new Map(
			this.state.agents.map((a) => {
				const course = this.course(a, REACT_AHEAD_STEPS);
				const j = this.talkBegunFor(model, a.id) - this.state.step;
				return [a.id, j === Infinity ? course : { at: (k: number) => (k <= j ? course.at(k) : null) }];
			})
		);
	}

	/** The first step at which a foreseen decision (answered) begins a conversation for agent `id`, or Infinity. */
	private talkBegunFor(model: ModelPort, id: string, after = -1): number {
		let first = Infinity;
		for (const key of this.talksBegun.get(model) ?? []) {
			const { x, y, step } = ofTalkKey(key);
			if ((x === id || y === id) && step > after) first = Math.min(first, step);
		}
		return first;
	}

	/**
	 * An agent's foreseen course over the next `steps` steps: where it is at the start of each
	 * and the action it is seen doing, while that is known without the model.
	 */
	private course(a: AgentState, steps: number): Course {
		const s = this.state;
		const talk = (s.talks ?? []).find((t) => t.agents.includes(a.id));
		// the step at which the current action gives way to the next (a conversation's commit)
		const endStep = talk ? talk.commitStep : Math.max(s.step, Math.ceil((a.action.end - this.world.start) / this.stepMs));
		const j = endStep - s.step;
		const tileNow = (k: number) => (k === 0 ? a.tile : (a.action.path[Math.min(k, a.action.path.length) - 1] ?? a.tile));
		let next: ActionState | null | undefined;
		let guessed = false;
		const nextAt = (): ActionState | null => {
			if (next !== undefined) return next;
			next = null;
			if (a.reacting || a.replan || j > steps) return next;
			const at = timeAtStep(this.world.start, this.world.secondsPerStep, endStep);
			// the next action begins an hour block not decomposed yet: as decomposed ahead, if it was
			const plan = a.plan;
			const bi = plan && dayIndex(at) === plan.day ? plan.blocks.findLastIndex((b) => b.start <= minuteOfDay(at)) : -1;
			const ahead = bi >= 0 && !(plan as DayPlan).blocks[bi].subtasks ? this.blockAhead(a, bi) : undefined;
			const shownNow = this.shownAhead.get(a.id);
			const key = `${a.id}|${endStep}|${a.action.start}|${a.action.planRef}|${plan?.day}|${plan?.blocks.length}|${tileNow(j)}|${ahead ? bi : ''}|${shownNow ? [...shownNow.keys()].at(-1) : ''}`;
			const memo = this.foreseen.get(a.id);
			if (memo?.key === key) {
				guessed = memo.guessed;
				return (next = memo.action);
			}
			// a copy standing where the next action begins; only its plan and action are read
			const standing: AgentState = {
				...a,
				tile: tileNow(j),
				action: talk ? { ...a.action, end: at } : a.action,
				plan: ahead && plan ? { ...plan, blocks: plan.blocks.map((b, i) => (i === bi ? { ...b, subtasks: ahead } : b)) } : plan
			};
			const ctx = new AgentContext(standing, this.stream(a.id), this, NO_MODEL, String(endStep), at, emptyOutput(endStep, at), false);
			ctx.speculative = true;
			next = foreseeAction(ctx, this.stepMs, (activity, address) => shownNow?.get(`${activity}|${address}`));
			guessed = ahead !== undefined;
			this.foreseen.set(a.id, { key, action: next, guessed });
			return next;
		};
		return {
			at: (k) => {
				// seen at the start of step n + k: the action is changed by that step's thinking
				if (k <= j) return { tile: tileNow(k), action: a.action };
				const n = nextAt();
				if (!n) return null;
				return { tile: n.path[Math.min(k - j, n.path.length) - 1] ?? tileNow(j), action: n, guessed };
			}
		};
	}

	/** Hour block `bi` of the agent's plan as decomposed ahead, when the object states it was decomposed with are still those seen. */
	private blockAhead(a: AgentState, bi: number): Subtask[] | undefined {
		const made = this.blocksAhead.get(a.id)?.get(blockKey(a, bi));
		return made && made.states === statesSeenIn(a.seenStates, made.arenas) ? made.subtasks : undefined;
	}

	/** How many memories the agent's stream will hold when it thinks at step n + k (its due ratings stored). */
	private sizeAt(a: AgentState, k: number): number {
		let size = this.stream(a.id).size;
		let pending = a.pending;
		for (let i = 0; i <= k; i++) {
			const n = dueBatch(pending, timeAtStep(this.world.start, this.world.secondsPerStep, this.state.step + i), this.state.settings.importance.waitMinutes * MINUTE);
			size += n;
			pending = pending.slice(n);
		}
		return size;
	}

	/**
	 * What the step deciding reaction `r` asks, on a copy of the agent and a stream of its own
	 * (which the decision's retrievals touch, as the step's would): the decision and, for a re-plan, the
	 * new plan and the action that follows it, or the conversation it begins. In a chain of
	 * foreseen decisions (`chain`), each is `recalled` when its retrievals are done (the stream is
	 * then as the decision leaves it) and tells whether the agent goes on once `decided`; the
	 * conversation or re-plan a decision begins is asked only once the decisions `before` it have
	 * all let the agent go on (else the agent never gets there: a conversation is many calls).
	 * Nothing more is asked once the chain is no longer `live` (a decision before it took the agent
	 * elsewhere), and the decision itself not before `ready` settles.
	 */
	private async reactAhead(
		model: ModelPort,
		deciding: AgentContext,
		stream: MemoryStream,
		r: ReactingState,
		talkAhead: (x: string, y: string, step: number, streamX: MemoryStream) => Promise<void>,
		chain?: { recalled: () => void; decided: (goesOn: boolean) => void; before: Promise<boolean>; live: () => boolean; ready?: Promise<unknown> }
	): Promise<void> {
		const ctx = new AgentContext(deciding.agent, stream, this, model, deciding.keyPrefix, deciding.now, deciding.out, false);
		ctx.speculative = true;
		ctx.foreseen = true;
		// whether `id` is in a conversation when the step decides: one under way, or begun before
		// then by a foreseen decision (answered)
		const chatting = (id: string) =>
			this.state.talks?.some((t) => t.agents.includes(id) && t.commitStep > r.commitStep) === true ||
			this.talkBegunFor(model, id, r.commitStep - this.talkSteps()) < r.commitStep;
		// once the deciding step has run, it decided without this; nor once a decision before it in
		// its chain has taken the agent elsewhere, or the agent or the one it sees is in a conversation then
		ctx.needed = () => this.state.step <= r.commitStep && chain?.live() !== false && !chatting(ctx.agent.id) && !(r.agent !== undefined && chatting(r.agent));
		let foreseen = this.talksForeseen.get(model);
		if (!foreseen) this.talksForeseen.set(model, (foreseen = new Map()));
		let begun = this.talksBegun.get(model);
		if (!begun) this.talksBegun.set(model, (begun = new Set()));
		let begins: (yes: boolean) => void = () => undefined;
		if (r.agent) {
			const key = talkKey(ctx.agent.id, r.agent, r.commitStep);
			foreseen.set(
				key,
				new Promise((resolve) => {
					begins = (yes) => {
						if (yes) begun.add(key);
						resolve(yes);
					};
				})
			);
		}
		try {
			const decision = await decideReaction(ctx, r, chain?.recalled, chain?.ready);
			const talks = decision?.talk === true && r.agent !== undefined;
			chain?.decided(!talks && !decision?.reaction);
			const goes = !(talks || decision?.reaction) || !chain || (await chain.before);
			begins(goes && talks);
			if (!goes) return;
			if (talks && r.agent) {
				await talkAhead(ctx.agent.id, r.agent, r.commitStep, ctx.stream);
				return;
			}
			if (!decision?.reaction) return;
			await replan(ctx, decision.reaction);
			await nextAction(ctx, this.stepMs);
		} catch (e) {
			begins(false);
			// the deciding step has run: it decided without this work, which ends here
			if (!(e instanceof StepPassed)) throw e;
		}
	}

	/**
	 * The conversation `x` would begin with `y` at `step`, made on copies of the two as that
	 * step would begin it (where `x` is foreseen then, what each will remember by then).
	 */
	private async talkAhead(
		model: ModelPort,
		x: string,
		y: string,
		step: number,
		courses: Map<string, Course>,
		streamAt: (id: string, step: number) => Promise<MemoryStream>,
		streamX: MemoryStream
	): Promise<void> {
		const s = this.state;
		const k = step - s.step;
		const here = courses.get(x)?.at(k);
		if (!here || k > REACT_AHEAD_STEPS + this.reactionSteps(this.agent(x))) return;
		// the step pairs agents in the state's order, each with the one it wants when both are
		// free: an agent before x foreseen to begin a conversation then with x or y, or y wanting
		// another (or x: that conversation, the other way round, is made by y's foresight), takes
		// one of them first
		const order = (id: string) => s.agents.findIndex((a) => a.id === id);
		for (const [key, begins] of this.talksForeseen.get(model) ?? []) {
			const { x: z, y: w, step: at } = ofTalkKey(key);
			if (at !== step || order(z) >= order(x) || (z !== y && w !== x && w !== y)) continue;
			if (await begins) return;
		}
		const time = timeAtStep(this.world.start, this.world.secondsPerStep, step);
		const commitStep = step + this.talkSteps();
		const streamY = await streamAt(y, step);
		const atOnce = s.settings.importance.waitMinutes === 0;
		const t: TalkState = {
			id: `c${step}-${x}-${y}`,
			agents: [x, y],
			address: this.index.addressOf(here.tile),
			step,
			time,
			commitStep,
			recall: atOnce ? { [x]: streamX.size, [y]: streamY.size } : { [x]: this.sizeAt(this.agent(x), k), [y]: this.sizeAt(this.agent(y), k) },
			doing: { [x]: here.action.activity, [y]: (courses.get(y)?.at(k)?.action ?? this.agent(y).action).activity }
		};
		const A = structuredClone(this.agent(x));
		const B = structuredClone(this.agent(y));
		const end = timeAtStep(this.world.start, this.world.secondsPerStep, commitStep);
		A.action = chatAction(A, B, t.id, time, end);
		B.action = chatAction(B, A, t.id, time, end);
		const ctxOf = (id: string) => {
			const ctx = new AgentContext(id === x ? A : B, id === x ? streamX : streamY, this, model, String(step), time, emptyOutput(step, time), false);
			ctx.speculative = true;
			return ctx;
		};
		const [ctxA, ctxB] = this.talkContexts(t, ctxOf);
		// made while the step that would begin it has not run: after it, the conversation is
		// under way (made by the step, from where this one got to) or it never began
		const before = () => this.state.step <= step;
		const { history } = await talk(ctxA, ctxB, t, before);
		if (before()) await rememberTalk(ctxOf(x), ctxOf(y), history);
	}

	/** Steps a conversation takes: one game minute a turn (its most turns). */
	talkSteps(): number {
		return Math.max(1, Math.ceil((this.state.settings.conversation.maxTurns * MINUTE) / this.stepMs));
	}

	/** The agents (all, or those given) by the arena index of their tile, in state order. */
	private agentsByArena(agents: readonly AgentState[] = this.state.agents): Map<number, AgentState[]> {
		const groups = new Map<number, AgentState[]>();
		for (const b of agents) {
			const arena = this.index.arenaAt[b.tile];
			const group = groups.get(arena);
			if (group) group.push(b);
			else groups.set(arena, [b]);
		}
		return groups;
	}

	/** Agents think concurrently; their outputs are put in one fixed order here. */
	private sortOutput(out: StepOutput): void {
		const order = new Map(this.state.agents.map((a, i) => [a.id, i]));
		const rank = (id: string | undefined) => (id === undefined ? -1 : (order.get(id) ?? 1e9));
		out.memories.sort((p, q) => rank(p.agent) - rank(q.agent) || p.index - q.index);
		out.traces.sort((p, q) => rank(p.agent) - rank(q.agent) || traceNo(p.id) - traceNo(q.id));
		const indexed = out.events.map((e, i) => ({ e, i }));
		indexed.sort((p, q) => rank(eventAgent(p.e)) - rank(eventAgent(q.e)) || p.i - q.i);
		out.events = indexed.map((x) => x.e);
	}

	/** A question to an agent. Read-only unless `record` (then retrieval updates last access). */
	async interview(
		agentId: string,
		interviewer: string,
		question: string,
		model: ModelPort,
		opts: { record?: boolean; keyPrefix?: string; condition?: Ablation } = {}
	): Promise<{ answer: string; memories: MemoryRecord[]; output: StepOutput }> {
		const a = this.agent(agentId);
		const out = emptyOutput(this.state.step, this.time);
		const ctx = this.context(a, model, opts.keyPrefix ?? `interview-${this.state.step}`, out, opts.record ?? false, opts.condition);
		const { answer, memories } = await interview(ctx, interviewer, question);
		return { answer, memories, output: out };
	}

	snapshot(): Snapshot {
		const memory: Snapshot['memory'] = {};
		for (const a of this.state.agents) {
			const s = this.stream(a.id);
			memory[a.id] = { size: s.size, lastAccess: s.lastAccessList() };
		}
		return { schema: STATE_SCHEMA, state: structuredClone(this.state), memory };
	}

	/** Feeds the canonical full state (world state, agents, memories) to a hash. */
	digest(update: (chunk: string | Uint8Array) => void): void {
		update(canonicalJson(this.state));
		for (const a of this.state.agents) {
			const s = this.stream(a.id);
			for (const r of s.records) {
				const { embedding, ...rest } = r;
				update(canonicalJson({ ...rest, lastAccess: s.lastAccess(r.index) }));
				update(new Uint8Array(embedding.buffer, embedding.byteOffset, embedding.byteLength));
			}
		}
	}

	view(): AgentView[] {
		return agentViews(this.state, this.world.width);
	}
}

/** What the map shows of each agent in a state (also used on stored snapshots). */
export function agentViews(state: SimState, width: number): AgentView[] {
	const xy = (t: number): [number, number] => {
		const x = t % width;
		return [x, (t - x) / width];
	};
	return state.agents.map((a) => {
		const [x, y] = xy(a.tile);
		return {
			id: a.id,
			name: a.name,
			x,
			y,
			activity: a.action.activity,
			emoji: a.action.emoji,
			address: a.action.address,
			chatWith: a.action.chatWith,
			path: a.action.path.map(xy)
		};
	});
}

/**
 * Keeps the state an agent sees an object in (`AgentState.seenStates`): only a state other than
 * the object's default is kept; seeing it in its default state again forgets the entry.
 */
function rememberState(a: AgentState, address: string, state: string | undefined, defaultState: string): void {
	const seen = a.seenStates;
	if (!state || state === defaultState) {
		if (seen && Object.hasOwn(seen, address)) delete seen[address];
	} else if (seen?.[address] !== state) (a.seenStates ??= {})[address] = state;
}

function traceNo(id: string): number {
	return Number(id.slice(id.lastIndexOf('/r') + 2));
}

function eventAgent(e: StepOutput['events'][number]): string | undefined {
	return 'agent' in e ? e.agent : 'agents' in e ? e.agents[0] : undefined;
}
