// The paper's end-to-end measures over a run (section 8): how far each scenario fact spread
// (asked by interview and checked against the memory stream), how dense the relationship network
// became, and who was invited to, planned for and came to an event. Cached as
// `<run dir>/evaluations/eval-<step>.json`.
//
// "Knows" at a step: the agent answers "Did you know about <fact label>?" affirmatively (see
// src/lib/eval/classify.ts) AND a memory it holds at that step mentions every keyword of the
// fact (a supporting memory); a seed holder knows its seed. An affirmative answer is
// hallucinated when no memory the agent holds mentions any keyword of the fact, and partial when
// its memories mention some keywords but none all of them (e.g. an election, but not that Sam
// runs for mayor). Every "knows" cites its supporting memories and, when it was heard in a
// conversation, the logged conversation.

import path from 'node:path';
import type {
	DiffusionPoint,
	EvalReport,
	EventReport,
	FactDiffusion,
	KnowledgeSource,
	KnowsAnswer,
	MemoryRef,
	NetworkReport,
	RelationshipAnswer
} from '../../api/eval';
import { MINUTE, formatIso, timeAtStep } from '../../engine/clock';
import type { MemoryRecord } from '../../engine/memory';
import type { AgentView, Simulation } from '../../engine/sim';
import type { ConversationRecord } from '../../engine/state';
import type { PersonaDef, SectorDef, WorldDef } from '../../engine/types';
import { classifyAnswer, mentionsAll, mentionsAny, personKeywords } from '../../eval/classify';
import { ProblemList, WorldError } from '../../world/problems';
import { dataHome } from '../paths';
import { checkScenarioEvents, parseGameTime, readScenario, type ScenarioFact } from '../world/manifest';
import { INTERVIEWER, memoryRef, pool, INTERVIEW_CONCURRENCY, runModel } from './interviews';
import { evaluationsDir, lastStep, lineageOf, readJson, scanJournal, StateSource, writeJsonFile, type JournalScan } from './sources';
import { NotFoundError } from '../errors';

/** At most this many sampling intervals: every game hour, or every few hours for long runs. */
export const MAX_INTERVALS = 48;

export function diffusionQuestion(fact: { label: string }): string {
	return `Did you know about ${fact.label}?`;
}

export function relationshipQuestion(other: { name: string }): string {
	return `Do you know ${other.name}?`;
}

/** The sampled states: the start, every `every` steps (whole game hours), the end. */
export function sampleSteps(end: number, secondsPerStep: number, maxIntervals = MAX_INTERVALS): { steps: number[]; every: number } {
	const hour = Math.max(1, Math.round(3600 / secondsPerStep));
	const hours = Math.max(1, Math.ceil(end / hour / maxIntervals));
	const every = hour * hours;
	const steps = [0];
	for (let s = every; s < end; s += every) steps.push(s);
	if (end > 0) steps.push(end);
	return { steps, every };
}

// ---------------------------------------------------------------------------
// pure measures

/** 2|E| / (|V|(|V|-1)); 0 for fewer than two agents. */
export function density(agents: number, edges: number): number {
	return agents < 2 ? 0 : (2 * edges) / (agents * (agents - 1));
}

/** Undirected edges where both directions hold, each once as [lower id, higher id]. */
export function mutualEdges(ids: readonly string[], holds: (a: string, b: string) => boolean): [string, string][] {
	const sorted = [...ids].sort();
	const out: [string, string][] = [];
	for (let i = 0; i < sorted.length; i++)
		for (let j = i + 1; j < sorted.length; j++) if (holds(sorted[i], sorted[j]) && holds(sorted[j], sorted[i])) out.push([sorted[i], sorted[j]]);
	return out;
}

export interface Presence {
	agent: string;
	/** the first state inside */
	first: number;
	/** states inside */
	count: number;
}

/**
 * Who was inside `tiles` (a sector's tiles, row-major) in the states [from, to): from the
 * positions logged after each step.
 */
export function presence(positions: Map<number, AgentView[]>, from: number, to: number, tiles: ReadonlySet<number>, width: number): Presence[] {
	const by = new Map<string, Presence>();
	for (let n = from; n < to; n++) {
		const agents = positions.get(n);
		if (!agents) continue;
		for (const a of agents) {
			if (!tiles.has(a.y * width + a.x)) continue;
			const p = by.get(a.id);
			if (p) p.count++;
			else by.set(a.id, { agent: a.id, first: n, count: 1 });
		}
	}
	return [...by.values()].sort((a, b) => (a.agent < b.agent ? -1 : 1));
}

/**
 * How long a guest must have been at an event to have attended it: 30 game minutes, or half the
 * event when it is shorter than an hour. A plan's hour block runs in 5-15 minute steps, so 30
 * minutes is at least two of them: someone who passed through the room or stopped for one
 * errand (a coffee at the counter, a few minutes) did not come to the party; someone who stayed
 * half an hour of a two-hour party did, as the paper counts those who "showed up".
 */
export const ATTEND_MIN_MINUTES = 30;

export function attendanceThreshold(eventMinutes: number): number {
	return Math.min(ATTEND_MIN_MINUTES, eventMinutes / 2);
}

/**
 * Where an event takes place, as an arena (`Sector:Arena`): the scenario names the sector (a
 * party "at Hobbs Cafe"); the party itself is in the arena of it where the host spent most of
 * the window (the cafe, not its kitchen or restroom), or, without a host there, the sector's
 * largest arena. Null when the sector is not on the map.
 */
export function eventArena(sector: SectorDef | undefined, hostTiles: readonly number[]): string | null {
	if (!sector || sector.arenas.length === 0) return null;
	let best: { arena: string; n: number } | null = null;
	for (const a of sector.arenas) {
		const tiles = new Set(a.tiles);
		const n = hostTiles.filter((t) => tiles.has(t)).length;
		if (n > 0 && (!best || n > best.n)) best = { arena: a.address, n };
	}
	if (best) return best.arena;
	const largest = [...sector.arenas].sort((x, y) => y.tiles.length - x.tiles.length || (x.name < y.name ? -1 : 1))[0];
	return largest.address;
}

/** Whether a memory is what an agent took away from a conversation with another agent (its summary or its note). */
export function fromConversation(m: MemoryRecord): boolean {
	return m.with !== undefined && m.with !== '' && (m.kind === 'conversation' || (m.kind === 'thought' && m.source === 'conversation'));
}

// ---------------------------------------------------------------------------
// memory look-ups shared across sampled steps (memory ids are stable)

export class MemoryIndex {
	private readonly factHits = new Map<string, Map<string, boolean>>();
	private readonly nameHits = new Map<string, string[]>();
	private readonly namePattern: RegExp;
	private readonly byName = new Map<string, string[]>();

	constructor(personas: readonly PersonaDef[]) {
		for (const p of personas)
			for (const k of personKeywords(p)) {
				const key = k.toLowerCase();
				this.byName.set(key, [...(this.byName.get(key) ?? []), p.id]);
			}
		const names = [...this.byName.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
		this.namePattern = new RegExp(`(?<![\\p{L}\\p{N}])(${names.join('|') || '(?!)'})(?![\\p{L}])`, 'giu');
	}

	/** Whether the memory mentions every keyword of the fact. */
	supports(fact: ScenarioFact, m: MemoryRecord): boolean {
		return this.hit(`all\n${fact.id}`, m, () => mentionsAll(m.description, fact.keywords));
	}

	/** Whether the memory mentions any keyword of the fact. */
	touches(fact: ScenarioFact, m: MemoryRecord): boolean {
		return this.hit(`any\n${fact.id}`, m, () => mentionsAny(m.description, fact.keywords));
	}

	private hit(key: string, m: MemoryRecord, test: () => boolean): boolean {
		let hits = this.factHits.get(key);
		if (!hits) this.factHits.set(key, (hits = new Map()));
		let v = hits.get(m.id);
		if (v === undefined) hits.set(m.id, (v = test()));
		return v;
	}

	/** Persona ids a memory names (first or full name) or was a conversation with. */
	names(m: MemoryRecord): string[] {
		let ids = this.nameHits.get(m.id);
		if (!ids) {
			const found = new Set<string>();
			for (const match of m.description.matchAll(this.namePattern)) for (const id of this.byName.get(match[1].toLowerCase().replace(/\s+/g, ' ')) ?? []) found.add(id);
			if (m.with) found.add(m.with);
			ids = [...found];
			this.nameHits.set(m.id, ids);
		}
		return ids;
	}
}

/** The earliest and the latest of a list (one when they are the same). */
function ends(list: MemoryRecord[]): MemoryRef[] {
	if (list.length === 0) return [];
	if (list.length === 1) return [memoryRef(list[0])];
	return [memoryRef(list[0]), memoryRef(list[list.length - 1])];
}

export function conversationKey(step: number, a: string, b: string): string {
	return a < b ? `${step}|${a}|${b}` : `${step}|${b}|${a}`;
}

// ---------------------------------------------------------------------------
// the report

export interface EvaluateOptions {
	/** default: the run's last committed step */
	step?: number;
	home?: string;
	/** compute again even when a report is stored */
	refresh?: boolean;
	/** at most this many sampling intervals (default 48) */
	maxIntervals?: number;
}

export function evalFile(runDir: string, step: number): string {
	return path.join(evaluationsDir(runDir), `eval-${step}.json`);
}

const inFlight = new Map<string, Promise<EvalReport>>();

/** The stored report for the step, or a new one (computed once even when asked twice at once). */
export function evaluateRun(runId: string, opts: EvaluateOptions = {}): Promise<EvalReport> {
	const home = opts.home ?? dataHome();
	const key = `${home}\n${runId}\n${opts.step ?? 'last'}\n${opts.maxIntervals ?? MAX_INTERVALS}`;
	const running = inFlight.get(key);
	if (running && !opts.refresh) return running;
	const p = evaluate(runId, { ...opts, home }).finally(() => {
		if (inFlight.get(key) === p) inFlight.delete(key);
	});
	inFlight.set(key, p);
	return p;
}

async function evaluate(runId: string, opts: EvaluateOptions & { home: string }): Promise<EvalReport> {
	const t0 = performance.now();
	const lineage = lineageOf(runId, opts.home, opts.step ?? Infinity);
	const reader = lineage[lineage.length - 1].reader;
	const committed = lastStep(reader);
	const step = opts.step ?? committed;
	if (!Number.isInteger(step) || step < 0 || step > committed) {
		throw new NotFoundError(`run ${runId} has steps ${reader.meta.firstStep}..${committed}; step ${step} is not among them`);
	}
	lineage[lineage.length - 1].to = step;
	// an ancestor holds its steps up to the fork, and none past the evaluated step
	for (const l of lineage) l.to = Math.min(l.to, step);
	const file = evalFile(reader.dir, step);
	const maxIntervals = opts.maxIntervals ?? MAX_INTERVALS;
	if (!opts.refresh && maxIntervals === MAX_INTERVALS) {
		const stored = readJson<EvalReport>(file);
		// a report made before attendance was judged by the party's arena and a least stay is made again
		const current = stored?.events?.every((e) => e.attendance !== undefined) === true;
		if (stored?.schema === 1 && stored.run === runId && stored.step === step && current) return stored;
	}

	const model = await runModel(reader.dir, reader.meta.model.provider, opts.home);
	try {
		const source = new StateSource(lineage, opts.home, model);
		const world = await source.world(reader);
		const facts = await scenarioFacts(path.join(reader.dir, 'world'), world);
		const { steps: samples, every } = sampleSteps(step, world.secondsPerStep, maxIntervals);
		const stepMs = world.secondsPerStep * 1000;
		const timeOf = (n: number) => timeAtStep(world.start, world.secondsPerStep, n);
		const stateAt = (ms: number) => Math.ceil((ms - world.start) / stepMs);

		// the journal: conversations, and positions during each event's window
		const tj = performance.now();
		const windows = facts.filter((f) => f.event).map((f) => [stateAt(parseGameTime(f.event!.start)!), stateAt(parseGameTime(f.event!.end)!)] as [number, number]);
		const journal = scanJournal(lineage, windows);
		const journalMs = performance.now() - tj;
		// keyed by the step its memories were made at (the commit step)
		const conversations = new Map(journal.conversations.map((c) => [conversationKey(c.endStep ?? c.step, c.agents[0], c.agents[1]), c]));

		const index = new MemoryIndex(world.personas);
		const agentIds = [...world.personas].map((p) => p.id).sort();
		const personaById = new Map(world.personas.map((p) => [p.id, p]));
		let interviewMs = 0;
		let interviews = 0;
		const ask = async (sim: Simulation, agent: string, question: string) => {
			interviews++;
			return (await sim.interview(agent, INTERVIEWER, question, model)).answer;
		};
		/** interviews run concurrently: their wall time is measured around each batch */
		const timed = async <T>(batch: () => Promise<T>): Promise<T> => {
			const ti = performance.now();
			try {
				return await batch();
			} finally {
				interviewMs += performance.now() - ti;
			}
		};

		const diffusion: FactDiffusion[] = facts.map((f) => ({
			fact: { id: f.id, label: f.label, keywords: [...f.keywords] },
			question: diffusionQuestion(f),
			seedHolders: world.seeds.filter((s) => s.id === f.id || mentionsAll(s.memory, f.keywords)).map((s) => s.agent).filter((a, i, all) => all.indexOf(a) === i).sort(),
			start: { step: 0, knowers: 0, share: 0 },
			end: { step, knowers: 0, share: 0 },
			series: [],
			answers: []
		}));
		let startNet: NetworkReport | undefined;
		let endNet: NetworkReport | undefined;
		let last: Simulation | undefined;

		for (const s of samples) {
			const sim = await source.at(s);
			last = sim;
			for (const [k, fact] of facts.entries()) {
				const d = diffusion[k];
				const seedMemories = new Set(world.seeds.filter((x) => d.seedHolders.includes(x.agent) && (x.id === fact.id || mentionsAll(x.memory, fact.keywords))).map((x) => `${x.agent}\n${x.memory}`));
				const answers = await timed(() => pool(agentIds, INTERVIEW_CONCURRENCY, async (agent): Promise<KnowsAnswer> => {
					const answer = await ask(sim, agent, d.question);
					const c = classifyAnswer(answer, fact.keywords);
					const support = sim.stream(agent).records.filter((m) => index.supports(fact, m));
					const seedHolder = d.seedHolders.includes(agent);
					const affirmative = c.verdict === 'affirmative';
					const knows = support.length > 0 && (affirmative || seedHolder);
					const topical = affirmative && support.length === 0 && sim.stream(agent).records.some((m) => index.touches(fact, m));
					const out: KnowsAnswer = {
						agent,
						answer,
						verdict: c.verdict,
						reason: c.reason,
						knows,
						hallucinated: affirmative && support.length === 0 && !topical,
						partial: topical,
						seedHolder,
						supportCount: support.length,
						support: ends(support)
					};
					if (knows) out.source = sourceOf(agent, support[0], seedMemories, conversations, timeOf, stateAt);
					return out;
				}));
				const point: DiffusionPoint = {
					step: s,
					time: formatIso(timeOf(s)),
					knowers: answers.filter((a) => a.knows).length,
					share: 0,
					affirmative: answers.filter((a) => a.verdict === 'affirmative').length,
					hallucinated: answers.filter((a) => a.hallucinated).length,
					partial: answers.filter((a) => a.partial).length,
					memoryOnly: answers.filter((a) => a.supportCount > 0 && a.verdict !== 'affirmative' && !a.knows).length,
					unclear: answers.filter((a) => a.verdict === 'unclear').length
				};
				point.share = agentIds.length ? round(point.knowers / agentIds.length) : 0;
				d.series.push(point);
				d.answers.push({ step: s, answers });
			}
			if (s === 0) startNet = await network(sim, s);
			if (s === step) endNet = s === 0 && startNet ? startNet : await network(sim, s);
			model.drainCalls();
		}
		for (const d of diffusion) {
			const first = d.series[0];
			const end = d.series[d.series.length - 1];
			d.start = { step: first.step, knowers: first.knowers, share: first.share };
			d.end = { step: end.step, knowers: end.knowers, share: end.share };
		}

		async function network(sim: Simulation, s: number): Promise<NetworkReport> {
			const pairs = agentIds.flatMap((a) => agentIds.filter((b) => b !== a).map((b) => [a, b] as const));
			const details = await timed(() => pool(pairs, INTERVIEW_CONCURRENCY, async ([a, b]): Promise<RelationshipAnswer> => {
				const other = personaById.get(b) as PersonaDef;
				const answer = await ask(sim, a, relationshipQuestion(other));
				const c = classifyAnswer(answer, personKeywords(other));
				const mems = sim.stream(a).records.filter((m) => index.names(m).includes(b));
				return {
					agent: a,
					other: b,
					answer,
					verdict: c.verdict,
					hallucinated: c.verdict === 'affirmative' && mems.length === 0,
					memoryCount: mems.length,
					...(mems.length ? { memory: memoryRef(mems[0]) } : {})
				};
			}));
			const byPair = new Map(details.map((r) => [`${r.agent}|${r.other}`, r]));
			const edges = mutualEdges(agentIds, (a, b) => byPair.get(`${a}|${b}`)?.verdict === 'affirmative');
			const memoryEdges = mutualEdges(agentIds, (a, b) => (byPair.get(`${a}|${b}`)?.memoryCount ?? 0) > 0);
			const affirmative = details.filter((r) => r.verdict === 'affirmative').length;
			const hallucinated = details.filter((r) => r.hallucinated).length;
			return {
				step: s,
				time: formatIso(timeOf(s)),
				agents: agentIds.length,
				density: round(density(agentIds.length, edges.length)),
				edges,
				answers: details.length,
				affirmative,
				hallucinated,
				hallucinationRate: affirmative ? round(hallucinated / affirmative) : 0,
				memoryDensity: round(density(agentIds.length, memoryEdges.length)),
				memoryEdges: memoryEdges.length,
				details
			};
		}

		const endSim = last as Simulation;
		const events = facts
			.filter((f) => f.event)
			.map((f) => eventReport(f, endSim, world, journal, index, { step, stateAt, timeOf, conversations }));

		const report: EvalReport = {
			schema: 1,
			run: runId,
			world: reader.meta.world,
			step,
			time: formatIso(timeOf(step)),
			created: new Date().toISOString(),
			model: reader.meta.model.label,
			agents: agentIds.map((id) => ({ id, name: (personaById.get(id) as PersonaDef).name })),
			samples: samples.map((s) => ({ step: s, time: formatIso(timeOf(s)) })),
			everySteps: every,
			diffusion,
			relationships: { start: startNet as NetworkReport, end: endNet as NetworkReport },
			events,
			timings: {
				totalMs: Math.round(performance.now() - t0),
				restoreMs: Math.round(source.stats.ms),
				interviewMs: Math.round(interviewMs),
				journalMs: Math.round(journalMs),
				restores: source.stats.restores,
				interviews
			}
		};
		if (maxIntervals === MAX_INTERVALS) writeJsonFile(file, report);
		return report;
	} finally {
		model.close();
	}
}

function round(x: number): number {
	return Math.round(x * 10000) / 10000;
}

/** The scenario's facts as the run's copy of the world has them, events checked against the world. */
async function scenarioFacts(worldDir: string, world: WorldDef): Promise<ScenarioFact[]> {
	const problems = new ProblemList();
	const scenario = await readScenario(worldDir, problems);
	checkScenarioEvents(scenario, { sectors: world.sectors.map((s) => s.name), personas: world.personas.map((p) => p.id) }, problems);
	if (problems.errors.length) throw new WorldError(problems.errors, `the run's world (${world.id})`);
	return scenario.facts;
}

function sourceOf(
	agent: string,
	first: MemoryRecord,
	seedMemories: ReadonlySet<string>,
	conversations: Map<string, ConversationRecord>,
	timeOf: (n: number) => number,
	stateAt: (ms: number) => number
): KnowledgeSource {
	const memory = memoryRef(first);
	if (first.step === 0 && first.kind === 'thought' && seedMemories.has(`${agent}\n${first.description}`)) return { how: 'seed', memory };
	const out: KnowledgeSource = { how: first.kind, memory };
	if (first.with) {
		out.from = first.with;
		// made when the talk took effect (stored once rated, maybe a few steps later)
		const c = conversations.get(conversationKey(stateAt(first.created), agent, first.with));
		// the step the talk took effect (and the journal logged it), where its memories were made
		const at = c?.endStep ?? c?.step;
		if (c && at !== undefined) out.conversation = { id: c.id, step: at, time: formatIso(timeOf(at)), with: first.with };
	}
	return out;
}

export function eventReport(
	fact: ScenarioFact,
	sim: Simulation,
	world: WorldDef,
	journal: JournalScan,
	index: MemoryIndex,
	at: { step: number; stateAt: (ms: number) => number; timeOf: (n: number) => number; conversations: Map<string, ConversationRecord> }
): EventReport {
	const event = fact.event!;
	const startMs = parseGameTime(event.start)!;
	const endMs = parseGameTime(event.end)!;
	const from = at.stateAt(startMs);
	const to = at.stateAt(endMs);
	const status: EventReport['status'] = at.step < from ? 'not-reached' : at.step < to ? 'in-progress' : 'complete';
	const host = event.host;
	const agents = sim.state.agents.map((a) => a.id).sort();
	const support = new Map(agents.map((a) => [a, sim.stream(a).records.filter((m) => index.supports(fact, m))]));

	// Invited: told of it by another agent who knew of it before they talked. A memory of a
	// conversation that mentions the event counts only when the news came from the other (its
	// first memory of the event is older than the conversation), not when the agent told it.
	const knewBefore = (other: string, time: number) => (support.get(other) ?? []).some((m) => m.created < time);
	const invited: EventReport['invited'] = [];
	const planned: EventReport['planned'] = [];
	for (const a of agents) {
		if (a === host) continue;
		const told = (support.get(a) ?? []).find((m) => {
			if (!fromConversation(m)) return false;
			const c = at.conversations.get(conversationKey(at.stateAt(m.created), a, m.with as string));
			return knewBefore(m.with as string, c ? c.time : m.created);
		});
		if (told) {
			const c = at.conversations.get(conversationKey(at.stateAt(told.created), a, told.with as string));
			invited.push({
				agent: a,
				from: told.with as string,
				step: told.step,
				time: formatIso(told.created),
				beforeStart: told.created < startMs,
				memory: memoryRef(told),
				...(c ? { conversation: c.id } : {})
			});
		}
		const plans = (support.get(a) ?? []).filter((m) => m.kind === 'plan');
		if (plans.length) {
			const right = plans.find((m) => planFits(m, event.place, startMs, endMs));
			planned.push({ agent: a, memory: memoryRef(right ?? plans[0]), rightTimeAndPlace: right !== undefined });
		}
	}

	// Attended: in the party's arena during the window for at least the threshold (see
	// `attendanceThreshold`), from the logged positions.
	let attended: EventReport['attended'] = [];
	let hostPresent: boolean | null = null;
	const minMinutes = attendanceThreshold((endMs - startMs) / MINUTE);
	const attendance: NonNullable<EventReport['attendance']> = { arena: '', minMinutes, shorter: [] };
	if (status !== 'not-reached') {
		const sector = world.sectors.find((s) => s.name === event.place);
		const until = Math.min(to, at.step + 1);
		const hostTiles: number[] = [];
		if (host) for (let n = from; n < until; n++) for (const v of journal.positions.get(n) ?? []) if (v.id === host) hostTiles.push(v.y * world.width + v.x);
		attendance.arena = eventArena(sector, hostTiles) ?? event.place;
		const arena = sector?.arenas.find((x) => x.address === attendance.arena);
		const tiles = new Set(arena?.tiles ?? sector?.tiles ?? []);
		const seen = presence(journal.positions, from, until, tiles, world.width);
		const stepMinutes = world.secondsPerStep / 60;
		const minutesOf = (p: Presence) => Math.round(p.count * stepMinutes * 10) / 10;
		hostPresent = host ? seen.some((p) => p.agent === host) : null;
		attendance.shorter = seen.filter((p) => p.agent !== host && p.count * stepMinutes < minMinutes).map((p) => ({ agent: p.agent, minutes: minutesOf(p) }));
		attended = seen
			.filter((p) => p.agent !== host && p.count * stepMinutes >= minMinutes)
			.map((p) => {
				const arrived = at.timeOf(p.first);
				return {
					agent: p.agent,
					arrived: formatIso(arrived),
					minutes: minutesOf(p),
					knew: (support.get(p.agent) ?? []).some((m) => m.created <= arrived),
					invited: invited.some((i) => i.agent === p.agent),
					planned: planned.some((x) => x.agent === p.agent)
				};
			});
	}
	return {
		fact: fact.id,
		label: fact.label,
		event: { ...event },
		status,
		invited,
		planned,
		attended,
		attendance,
		hostPresent,
		counts: {
			invited: invited.length,
			invitedBeforeStart: invited.filter((i) => i.beforeStart).length,
			planned: planned.length,
			plannedRightTimeAndPlace: planned.filter((p) => p.rightTimeAndPlace).length,
			attended: attended.length,
			attendedRightTimeAndPlace: attended.filter((x) => x.knew).length
		}
	};
}

/** A plan memory for the event's place (by its address, else its text) overlapping the window. */
function planFits(m: MemoryRecord, place: string, startMs: number, endMs: number): boolean {
	if (!m.plan) return false;
	const s = m.plan.start;
	const e = s + m.plan.minutes * MINUTE;
	if (e <= startMs || s >= endMs) return false;
	const sector = m.plan.address.split(':')[0];
	return sector ? sector === place : mentionsAny(m.description, [place]);
}

