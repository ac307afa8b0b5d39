// The IDE's run manager: one per server process. It starts runs and forks and steps them in
// the background (play, pause, step, run N, speed), tells subscribers about every committed
// step, and answers the debugger's questions about any step of any run from the journal:
// frames and markers straight from the commit lines, exact states by restore and replay.
//
// A live run is one open for stepping in this process. Pausing keeps it open for a while (so
// inputs can be queued for its next step) and records `paused` in run.json; it is closed when
// it reaches its target, when it stays paused and idle, or when the process exits.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type {
	AgentDetail,
	Budget,
	CallView,
	Frame,
	InputResult,
	InterviewAnswer,
	Marker,
	MemoryView,
	RunEvent,
	RunInfo,
	RunEstimate,
	RunListing,
	RunStatus,
	RunUsage,
	StartRunRequest,
	Timeline
} from '../../api/types';
import { timeAtStep } from '../../engine/clock';
import type { SimInput, Simulation } from '../../engine/sim';
import type { ConversationRecord } from '../../engine/state';
import { readRunMeta, updateRunMeta, type RunMeta } from '../journal/journal';
import { lineageSpans, liveStatus, liveWriter, RunLockedError, spanOfState, type LockInfo, type Span } from '../store/store';
import { dataHome } from '../paths';
import { PromptStore, PromptStoreError } from '../prompts/store';
import { defaultWorldsDir } from '../world/analyse';
import { createModel, type LiveModel, type ModelChoice } from '../run/models';
import { LiveRun, RunPausedError, runsDir } from '../run/runner';
import { checkBudget } from '../run/cost';
import { estimateRun } from '../run/estimate';
import { ModelChangeError } from '../run/identity';
import { listRetrievals, retrievalTable, type RetrievalTable, type TraceSummary } from '../run/traces';
import { ApiError, badRequest, notFound } from './errors';
import { committedSteps, markersOf, RunData, runDir, validRunId, viewOf } from './run-data';
import { StateCache } from './states';
import {
	AGENT_NAME,
	bodyBool,
	bodyInt,
	bodyNumber,
	bodyString,
	isObject,
	TEMPLATE_ID,
	TRACE_ID
} from './validate';

export type RunListener = (event: RunEvent) => void;

/** A span of a lineage with the indexed journal of the run that holds it. */
type LineageSpan = Span & { data: RunData };

export interface ManagerOptions {
	/** data home (default: SIMULACRA_HOME or .simulacra/, read when needed) */
	home?: string;
	/** close a paused live run after this long without inputs waiting (ms) */
	idleCloseMs?: number;
	/** restored states kept per run */
	statesPerRun?: number;
}

interface Live {
	run: LiveRun;
	/** the stepping loop is active */
	running: boolean;
	loop: Promise<void> | null;
	/** keep stepping (cleared by pause) */
	playing: boolean;
	/** pause when the run reaches this step (run N, step) */
	stopAt: number | null;
	/** a step is being computed: the one from state `inFlight` */
	stepping: boolean;
	inFlight: number;
	/** inputs queued for the next step */
	queued: SimInput[];
	idle: ReturnType<typeof setTimeout> | null;
}

export const MAX_FRAMES = 2000;
const MAX_CALLS = 2000;
const MAX_STEPS = 10_000_000;

/** The step the live run computes next (inputs queued now apply to it). */
function nextStep(e: Live): number {
	return e.stepping ? e.inFlight + 1 : e.run.step;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const yieldToEvents = () => new Promise<void>((r) => setImmediate(r));

export class RunManager {
	private readonly live = new Map<string, Live>();
	private readonly opening = new Map<string, Promise<Live>>();
	private readonly listeners = new Map<string, Set<RunListener>>();
	private readonly speeds = new Map<string, number>();
	private readonly data = new Map<string, RunData>();
	private readonly embedders = new Map<string, Promise<LiveModel>>();
	private readonly initialFrames = new Map<string, Frame>();
	readonly states: StateCache;

	constructor(private readonly opts: ManagerOptions = {}) {
		this.states = new StateCache((run) => this.embedder(run), opts.statesPerRun ?? 4);
	}

	get home(): string {
		return this.opts.home ?? dataHome();
	}

	private get runs(): string {
		return runsDir(this.home);
	}

	// -----------------------------------------------------------------------
	// runs on disk

	/** The indexed journal of a run (404 when there is none). */
	run(id: string): RunData {
		const dir = runDir(this.runs, id);
		let d = this.data.get(id);
		if (d && d.dir === dir) {
			this.data.delete(id);
		} else {
			d = new RunData(id, dir);
		}
		this.data.set(id, d);
		// the memory index of a long run is large: keep a few runs' indexes
		while (this.data.size > 8) this.data.delete(this.data.keys().next().value as string);
		return d;
	}

	/** The spans of a run's lineage (the store's walk), root first, each with its indexed journal. */
	private spans(data: RunData): LineageSpan[] {
		const node = (id: string) => {
			const d = id === data.id ? data : this.tryRun(id);
			return d && { firstStep: d.firstStep, parent: d.parent, committed: d.committed() };
		};
		let spans: Span[];
		try {
			spans = lineageSpans(data.id, node);
		} catch (e) {
			throw new ApiError(409, e instanceof Error ? e.message : String(e));
		}
		return spans.map((s) => ({ ...s, data: s.run === data.id ? data : this.run(s.run) }));
	}

	private tryRun(id: string): RunData | null {
		try {
			return this.run(id);
		} catch {
			return null;
		}
	}

	/** The run of the lineage whose own journal holds the state after `step` steps. */
	private owner(data: RunData, step: number): RunData {
		if (step >= data.firstStep) return data;
		return spanOfState(this.spans(data), step)?.data ?? data;
	}

	/** Another process writes the run (the CLI, or another server). */
	private busyElsewhere(dir: string, meta: RunMeta): LockInfo | null {
		if (this.live.has(meta.id)) return null;
		const writer = liveWriter(dir);
		return writer && (writer.pid !== process.pid || writer.holder !== 'IDE') ? writer : null;
	}

	private status(id: string, dir: string, meta: RunMeta): RunStatus {
		const e = this.live.get(id);
		if (e) return e.running ? 'running' : 'paused';
		// a run left `running` by a writer that is gone was interrupted
		return liveStatus(dir, meta) as RunStatus;
	}

	private listing(id: string, dir: string, meta: RunMeta, committed: number): RunListing {
		const e = this.live.get(id);
		return {
			id,
			world: meta.world,
			steps: committed,
			target: e ? e.run.meta.target : meta.target,
			model: meta.model.label,
			created: meta.created,
			status: this.status(id, dir, meta),
			parent: meta.parent,
			promptSet: meta.promptSet.version,
			live: e !== undefined,
			...(e ? { usage: { ...e.run.usage.total } } : meta.usage ? { usage: meta.usage } : {}),
			budget: (e ? e.run.meta.budget : meta.budget) ?? null,
			pause: (e ? e.run.meta.pause : meta.pause) ?? null
		};
	}

	/** Every run in the data home, newest first. */
	list(): RunListing[] {
		const dir = this.runs;
		if (!existsSync(dir)) return [];
		const out: RunListing[] = [];
		for (const id of readdirSync(dir)) {
			if (!validRunId(id)) continue;
			const runDirPath = path.join(dir, id);
			try {
				const meta = readRunMeta(runDirPath);
				out.push(this.listing(id, runDirPath, meta, this.data.get(id)?.committed() ?? committedSteps(runDirPath, meta)));
			} catch {
				// a folder without a readable run.json is not a run
			}
		}
		return out.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
	}

	async info(id: string): Promise<RunInfo> {
		const data = this.run(id);
		const meta = data.meta;
		const world = await data.world();
		return {
			...this.listing(id, data.dir, meta, data.committed()),
			worldName: meta.worldName,
			seed: meta.seed,
			settings: meta.settings,
			overrides: meta.overrides,
			firstStep: meta.firstStep,
			start: world.start,
			secondsPerStep: world.secondsPerStep,
			agents: [...world.personas].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((p) => ({ id: p.id, name: p.name })),
			...(meta.identity && { identity: meta.identity }),
			modelChanges: meta.modelChanges ?? []
		};
	}

	/** Tokens and dollars of a run's own calls, per agent, template and model. */
	usage(id: string): RunUsage {
		const data = this.run(id);
		const e = this.live.get(id);
		return e ? e.run.usage.usage(e.run.meta.budget ?? null) : data.usage();
	}

	private readonly estimates = new Map<string, Promise<RunEstimate>>();

	/** What a start or an estimate request names: seed, model, overrides, the world or the fork point, a prompt-set version. */
	private runRequest(req: Partial<StartRunRequest> & Record<string, unknown>): {
		seed?: number;
		model?: ModelChoice;
		set?: string[];
		from?: { run: string; step: number };
		world?: string;
		promptsDir?: string;
	} {
		const seed = bodyInt(req.seed, 'seed', { min: 0, max: 2 ** 31 - 1 });
		let model: ModelChoice | undefined;
		if (req.model !== undefined) {
			if (req.model !== 'offline' && req.model !== 'openai') throw badRequest('model must be "offline" or "openai"');
			model = req.model;
		}
		let set: string[] | undefined;
		if (req.set !== undefined) {
			if (!Array.isArray(req.set) || req.set.length > 100) throw badRequest('set must be a list of KEY=VALUE strings');
			set = req.set.map((s, i) => bodyString(s, `set[${i}]`, { max: 200 }) as string);
		}
		let from: { run: string; step: number } | undefined;
		let world: string | undefined;
		if (req.from !== undefined) {
			if (!isObject(req.from)) throw badRequest('from must be { run, step }');
			const parent = this.run(bodyString(req.from.run, 'from.run', { max: 200 }) as string);
			const step = bodyInt(req.from.step, 'from.step');
			if (step === undefined) throw badRequest('from.step is required');
			this.checkStep(parent, step);
			from = { run: parent.id, step };
			if (req.world !== undefined && req.world !== parent.meta.world) throw badRequest(`a fork keeps its parent's world (${parent.meta.world})`);
		} else {
			world = bodyString(req.world ?? 'smallville', 'world', { max: 100 }) as string;
			if (!validRunId(world) || !existsSync(path.join(defaultWorldsDir(), world, 'world.json'))) throw notFound(`no world "${world}"`);
		}
		// a stored prompt-set version (id, prefix or label); without one a new run uses the working copy, a fork its parent's prompts
		let promptsDir: string | undefined;
		if (req.prompts !== undefined && req.prompts !== null) {
			const ref = bodyString(req.prompts, 'prompts', { max: 100 }) as string;
			try {
				promptsDir = new PromptStore({ home: this.home }).materialise(ref);
			} catch (e) {
				throw e instanceof PromptStoreError ? new ApiError(e.status, e.message) : e;
			}
		}
		return { seed, model, set, from, world, promptsDir };
	}

	/** What a run (or a fork) of the body's steps is expected to cost (StartRunRequest -> RunEstimate). */
	async estimate(body: unknown): Promise<RunEstimate> {
		if (!isObject(body)) throw badRequest('the body must be a JSON object (see StartRunRequest)');
		const req = body as Partial<StartRunRequest> & Record<string, unknown>;
		const steps = bodyInt(req.steps, 'steps', { min: 1, max: MAX_STEPS });
		if (steps === undefined) throw badRequest('steps is required');
		const { seed, model, set, from, world, promptsDir } = this.runRequest(req);
		const opts = { world, steps, seed, model, from, set, promptsDir, home: this.home };
		const key = JSON.stringify(opts);
		let p = this.estimates.get(key);
		if (!p) {
			p = estimateRun(opts).catch((e: unknown) => {
				this.estimates.delete(key);
				throw e instanceof ApiError ? e : badRequest(e instanceof Error ? e.message : String(e));
			});
			this.estimates.set(key, p);
			while (this.estimates.size > 32) this.estimates.delete(this.estimates.keys().next().value as string);
		}
		return p;
	}

	/** An agent id from an id or a full name (any case); 404 when the run has no such agent. */
	async agentId(data: RunData, agent: string): Promise<string> {
		if (!AGENT_NAME.test(agent)) throw badRequest(`"${agent.slice(0, 80)}" is not an agent name`);
		const names = await data.agentNames();
		const wanted = agent.toLowerCase();
		for (const [id, name] of names) if (id === wanted || name.toLowerCase() === wanted) return id;
		throw notFound(`run ${data.id} has no agent "${agent}"`);
	}

	private checkStep(data: RunData, step: number): number {
		const committed = data.committed();
		if (!Number.isInteger(step) || step < 0) throw badRequest(`step must be a whole number, not ${step}`);
		if (step > committed) throw notFound(`run ${data.id} has steps 0..${committed}; step ${step} is not among them`);
		return step;
	}

	// -----------------------------------------------------------------------
	// frames and timeline (from the journal, no restore)

	/** Frames from..to inclusive (the state after each of those steps) as one JSON array text. */
	async framesJson(id: string, from: number, to: number): Promise<string> {
		const data = this.run(id);
		this.checkStep(data, from);
		this.checkStep(data, to);
		if (to < from) throw badRequest(`from (${from}) is after to (${to})`);
		if (to - from + 1 > MAX_FRAMES) throw badRequest(`at most ${MAX_FRAMES} frames per request (asked for ${to - from + 1})`);
		return `[${(await this.frameTexts(data, from, to)).join(',')}]`;
	}

	async frames(id: string, from: number, to: number): Promise<Frame[]> {
		return JSON.parse(await this.framesJson(id, from, to)) as Frame[];
	}

	async frame(id: string, step: number): Promise<Frame> {
		const [f] = await this.frames(id, step, step);
		return f;
	}

	private async frameTexts(data: RunData, from: number, to: number): Promise<string[]> {
		const out: string[] = [];
		const spans = this.spans(data);
		// the first state of the lineage is its root's first snapshot; every later one a commit line
		const root = spans[0];
		if (root && from <= root.from && root.from <= to) out.push(JSON.stringify(await this.initialFrame(root.data)));
		for (const s of spans) {
			const a = Math.max(from, s.from + 1);
			const b = s.data === data ? to : Math.min(to, s.to);
			if (a > b) continue;
			const world = await s.data.world();
			s.data.steps.refresh();
			out.push(...s.data.frameTextsFromLines(a, b, world.secondsPerStep));
		}
		return out;
	}

	/** The state before the run's first step, from its first snapshot. */
	private async initialFrame(data: RunData): Promise<Frame> {
		const key = `${data.dir}@${data.firstStep}`;
		const cached = this.initialFrames.get(key);
		if (cached) return cached;
		const world = await data.world();
		const snap = data.snapshot(data.firstStep);
		const frame: Frame = {
			step: data.firstStep,
			time: timeAtStep(world.start, world.secondsPerStep, data.firstStep),
			agents: viewOf(snap.state, world.width),
			conversations: []
		};
		this.initialFrames.set(key, frame);
		return frame;
	}

	/** Markers of the lineage: a fork's parent's up to the fork step, then its own. */
	private async markersOf(data: RunData): Promise<Marker[]> {
		const out: Marker[] = [];
		for (const s of this.spans(data)) {
			const markers = await s.data.ownMarkers();
			out.push(...(s.data === data ? markers : markers.filter((m) => m.step <= s.to)));
		}
		return out;
	}

	async timeline(id: string): Promise<Timeline> {
		const data = this.run(id);
		const markers = await this.markersOf(data);
		return { firstStep: data.firstStep, steps: data.committed(), markers };
	}

	/** Conversations of the lineage held before `step` (step < N), oldest first. */
	private conversationsBefore(data: RunData, step: number, agent?: string): ConversationRecord[] {
		const out: ConversationRecord[] = [];
		this.spans(data).forEach(({ data: d, to }) => {
			// an ancestor counts up to the fork step of its child
			const limit = Math.min(step, to);
			d.steps.refresh();
			for (const s of d.steps.summaries) {
				if (s.step >= limit) break;
				for (const c of s.conversations) if (agent === undefined || c.agents.includes(agent)) out.push(c);
			}
		});
		return out;
	}

	// -----------------------------------------------------------------------
	// exact states (restore + replay)

	private embedder(run: RunData): Promise<LiveModel> {
		const provider = run.meta.model.provider as ModelChoice;
		let m = this.embedders.get(provider);
		if (!m) {
			m = createModel(provider, { home: this.home });
			m.catch(() => this.embedders.delete(provider));
			this.embedders.set(provider, m);
		}
		return m;
	}

	/** One agent as it was after `step` steps (default: the latest). */
	async agent(id: string, agent: string, step?: number): Promise<AgentDetail> {
		const data = this.run(id);
		const n = this.checkStep(data, step ?? data.committed());
		const agentId = await this.agentId(data, agent);
		const owner = this.owner(data, n);
		const world = await owner.world();
		const persona = world.personas.find((p) => p.id === agentId);
		const conversations = this.conversationsBefore(data, n, agentId);
		return this.states.with(owner, n, (sim) => {
			const a = sim.agent(agentId);
			const stream = sim.stream(agentId);
			const view = sim.view().find((v) => v.id === agentId);
			if (!view) throw notFound(`run ${id} has no agent "${agent}" at step ${n}`);
			const memories: MemoryView[] = stream.records.map((r) => ({
				id: r.id,
				index: r.index,
				kind: r.kind,
				source: r.source,
				description: r.description,
				created: r.created,
				step: r.step,
				importance: r.importance,
				lastAccess: stream.lastAccess(r.index),
				...(r.evidence ? { evidence: [...r.evidence] } : {}),
				...(r.with ? { with: r.with } : {})
			}));
			return {
				step: n,
				time: sim.time,
				persona: structuredClone(persona ?? {}) as unknown as Record<string, unknown>,
				view,
				plan: structuredClone(a.plan),
				planRef: a.action.planRef,
				summary: a.summary?.text ?? '',
				spatial: structuredClone(a.spatial),
				memories,
				pending: a.pending.length,
				importanceSinceReflection: a.importanceSinceReflection,
				conversations
			};
		});
	}

	/** Runs `use` on the restored state of run `id` after `step` steps (read-only use only). */
	async withState<T>(id: string, step: number, use: (sim: Simulation) => T | Promise<T>): Promise<T> {
		const data = this.run(id);
		this.checkStep(data, step);
		return this.states.with(this.owner(data, step), step, use);
	}

	/** A question put to an agent at a step; the run is not changed. */
	async interview(id: string, body: unknown): Promise<InterviewAnswer> {
		if (!isObject(body)) throw badRequest('the body must be a JSON object { agent, step?, question, as? }');
		const data = this.run(id);
		const question = bodyString(body.question, 'question') as string;
		const as = bodyString(body.as, 'as', { optional: true, max: 200 });
		const agentName = bodyString(body.agent, 'agent', { max: 100 }) as string;
		const step = this.checkStep(data, bodyInt(body.step, 'step') ?? data.committed());
		const agentId = await this.agentId(data, agentName);
		const owner = this.owner(data, step);
		const model = await createModel(owner.meta.model.provider as ModelChoice, { home: this.home, promptsDir: path.join(owner.dir, 'prompts') });
		try {
			return await this.states.with(owner, step, async (sim) => {
				const r = await sim.interview(agentId, as?.trim() || 'an interviewer', question, model);
				return { agent: agentId, step, question, answer: r.answer, memories: r.memories.map((m) => ({ id: m.id, description: m.description })) };
			});
		} finally {
			model.close();
		}
	}

	// -----------------------------------------------------------------------
	// retrievals and calls

	async retrievals(id: string, opts: { agent?: string; step?: number } = {}): Promise<TraceSummary[]> {
		const data = this.run(id);
		const agent = opts.agent === undefined ? undefined : await this.agentId(data, opts.agent);
		if (opts.step !== undefined) this.checkStep(data, opts.step);
		return listRetrievals(id, { agent, step: opts.step, home: this.home });
	}

	async retrieval(id: string, trace: string, weights?: RetrievalTable['weights']): Promise<RetrievalTable> {
		this.run(id);
		if (!TRACE_ID.test(trace)) throw badRequest(`"${trace.slice(0, 80)}" is not a retrieval id (agent/rN)`);
		try {
			return await retrievalTable(id, trace, { home: this.home, weights });
		} catch (err) {
			// a live run stores its memories with each snapshot: store the latest ones and retry
			const owner = /^run (\S+) has not stored the memories/.exec(err instanceof Error ? err.message : '')?.[1];
			const e = owner ? this.live.get(owner) : undefined;
			if (!owner || !e) throw err;
			await e.run.storeMemories();
			return retrievalTable(id, trace, { home: this.home, weights });
		}
	}

	/** Model calls of the lineage, filtered, newest last, the last `limit`. */
	async calls(id: string, opts: { agent?: string; template?: string; from?: number; to?: number; limit?: number } = {}): Promise<CallView[]> {
		const data = this.run(id);
		const agent = opts.agent === undefined ? undefined : await this.agentId(data, opts.agent);
		if (opts.template !== undefined && !TEMPLATE_ID.test(opts.template)) throw badRequest(`"${opts.template.slice(0, 60)}" is not a template id`);
		const limit = opts.limit ?? 200;
		if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CALLS) throw badRequest(`limit must be between 1 and ${MAX_CALLS}`);
		const from = opts.from ?? -Infinity;
		const to = opts.to ?? Infinity;
		// newest first: walk the lineage back, each run's calls from the end
		const picked: { run: RunData; index: number }[] = [];
		for (const { data: d, to: held } of this.spans(data).reverse()) {
			// an ancestor's calls count up to the fork step; the run's own, all of them
			const upTo = d === data ? Infinity : held;
			d.calls.refresh();
			const sums = d.calls.summaries;
			for (let i = sums.length - 1; i >= 0 && picked.length < limit; i--) {
				const c = sums[i];
				if (c.s >= upTo || c.s < from || c.s > to) continue;
				if (agent !== undefined && c.agent !== agent) continue;
				if (opts.template !== undefined && c.template !== opts.template) continue;
				picked.push({ run: d, index: i });
			}
			if (picked.length >= limit) break;
		}
		return picked.reverse().map(({ run, index }) => {
			const { s, ...call } = JSON.parse(run.calls.line(index)) as CallView & { s: number };
			return { ...call, step: s };
		});
	}

	// -----------------------------------------------------------------------
	// live runs

	/** Starts a new run, or a fork with `from`; answers once it is created. */
	async start(body: unknown): Promise<{ id: string }> {
		if (!isObject(body)) throw badRequest('the body must be a JSON object (see StartRunRequest)');
		const req = body as Partial<StartRunRequest> & Record<string, unknown>;
		const steps = bodyInt(req.steps, 'steps', { min: 0, max: MAX_STEPS });
		if (steps === undefined) throw badRequest('steps is required');
		const { seed, model, set, from, world, promptsDir } = this.runRequest(req);
		const paused = bodyBool(req.paused, 'paused') ?? false;
		const inputs = await this.parseInputs(req.inputs, from ? this.run(from.run) : null, true);
		if (inputs.length > 0 && steps < 1) throw badRequest('inputs are applied at the first step: run at least one step');
		const budget = this.parseBudget(req.budget);
		const allowModelChange = bodyBool(req.allowModelChange, 'allowModelChange') ?? false;
		let run: LiveRun;
		try {
			run = await LiveRun.start({ world, steps, seed, model, from, set, inputs, promptsDir, home: this.home, budget, allowModelChange, writer: 'IDE' });
		} catch (e) {
			if (e instanceof ModelChangeError) throw new ApiError(409, e.message);
			throw e instanceof ApiError ? e : badRequest(e instanceof Error ? e.message : String(e));
		}
		const id = run.meta.id;
		const e = this.adopt(run, inputs);
		if (run.done) {
			await this.closeLive(id, 'done');
		} else if (paused) {
			run.setStatus('paused');
			this.scheduleIdle(id, e);
		} else {
			e.playing = true;
			this.ensureLoop(id, e);
		}
		this.publishStatus(id);
		return { id };
	}

	private parseBudget(raw: unknown): Budget | null {
		if (raw === undefined || raw === null) return null;
		if (!isObject(raw)) throw badRequest('budget must be { tokens?, usd? }');
		try {
			return checkBudget(raw);
		} catch (e) {
			throw badRequest(e instanceof Error ? e.message : String(e));
		}
	}

	private adopt(run: LiveRun, queued: SimInput[] = []): Live {
		const e: Live = { run, running: false, loop: null, playing: false, stopAt: null, stepping: false, inFlight: run.step, queued: [...queued], idle: null };
		this.live.set(run.meta.id, e);
		return e;
	}

	/**
	 * The live run, reopening a stopped one (its journal is cut back to the last commit). Reopening
	 * under another model identity than the run recorded answers 409 unless `allowModelChange`.
	 */
	private async open(id: string, allowModelChange = false): Promise<Live> {
		const e = this.live.get(id);
		if (e) return e;
		const pending = this.opening.get(id);
		if (pending) return pending;
		const data = this.run(id);
		const meta = data.meta;
		const holder = this.busyElsewhere(data.dir, meta);
		if (holder) throw new ApiError(409, new RunLockedError(id, holder).message);
		const p = (async () => {
			try {
				let run: LiveRun;
				try {
					run = await LiveRun.resume(id, { home: this.home, allowModelChange, writer: 'IDE' });
				} catch (e) {
					if (e instanceof ModelChangeError || e instanceof RunLockedError) throw new ApiError(409, e.message);
					throw e;
				}
				data.invalidate();
				this.states.forget(id);
				return this.adopt(run);
			} finally {
				this.opening.delete(id);
			}
		})();
		this.opening.set(id, p);
		return p;
	}

	async control(id: string, body: unknown): Promise<RunInfo> {
		if (!isObject(body) || typeof body.action !== 'string') throw badRequest('the body must be { action: play | pause | step | run | speed | budget }');
		const data = this.run(id);
		switch (body.action) {
			case 'speed': {
				const speed = bodyNumber(body.stepsPerSecond, 'stepsPerSecond', 0, 10_000);
				this.speeds.set(id, speed);
				this.publishStatus(id);
				break;
			}
			case 'pause': {
				const e = this.live.get(id);
				if (e) {
					e.playing = false;
					// answer once the step in flight is committed, or soon after
					if (e.loop) await Promise.race([e.loop, sleep(1000)]);
				}
				break;
			}
			case 'budget': {
				const budget = this.parseBudget(body.budget);
				const e = this.live.get(id);
				if (e) e.run.setBudget(budget);
				else {
					try {
						updateRunMeta(data.dir, { budget }, 'IDE');
					} catch (e) {
						if (e instanceof RunLockedError) throw new ApiError(409, e.message);
						throw e;
					}
				}
				this.publishStatus(id);
				break;
			}
			case 'play': {
				const extra = bodyInt(body.steps, 'steps', { min: 1, max: MAX_STEPS });
				const e = await this.open(id, bodyBool(body.allowModelChange, 'allowModelChange') ?? false);
				if (e.run.done) e.run.extend(extra ?? Math.round(86_400 / (await data.world()).secondsPerStep));
				e.stopAt = null;
				e.playing = true;
				this.ensureLoop(id, e);
				break;
			}
			case 'step':
			case 'run': {
				const n = body.action === 'step' ? 1 : bodyInt(body.steps, 'steps', { min: 1, max: MAX_STEPS });
				if (n === undefined) throw badRequest('run needs steps');
				const e = await this.open(id, bodyBool(body.allowModelChange, 'allowModelChange') ?? false);
				e.stopAt = nextStep(e) + n;
				e.run.extend(e.stopAt - e.run.step);
				e.playing = true;
				this.ensureLoop(id, e);
				if (body.action === 'step' && e.loop) await e.loop;
				break;
			}
			default:
				throw badRequest(`unknown action "${String(body.action).slice(0, 40)}" (play, pause, step, run, speed, budget)`);
		}
		return this.info(id);
	}

	private ensureLoop(id: string, e: Live): void {
		if (e.idle) clearTimeout(e.idle);
		e.idle = null;
		if (e.running) return;
		e.running = true;
		e.loop = this.loop(id, e);
	}

	private async loop(id: string, e: Live): Promise<void> {
		this.publishStatus(id);
		let failure: unknown = null;
		try {
			while (e.playing && !e.run.done && (e.stopAt === null || e.run.step < e.stopAt)) {
				const t0 = performance.now();
				e.queued = [];
				e.inFlight = e.run.step;
				e.stepping = true;
				try {
					await e.run.advance();
				} finally {
					e.stepping = false;
				}
				await this.publishStep(id, e.run.step);
				await this.pace(id, e, t0);
			}
		} catch (err) {
			failure = err;
		}
		e.running = false;
		e.loop = null;
		e.playing = false;
		e.stopAt = null;
		if (failure instanceof RunPausedError) {
			// paused by itself between steps: at its budget the run stays open (a higher budget
			// lets it go on); after a model fault it closed at its last commit and is reopened on play
			if (failure.pause.reason === 'fault') {
				this.live.delete(id);
				if (e.idle) clearTimeout(e.idle);
				this.data.get(id)?.invalidate();
				this.states.forget(id);
			} else {
				await this.storeMemories(id, e);
				this.scheduleIdle(id, e);
			}
			this.publish(id, { type: 'error', message: `run ${id} paused: ${failure.message}` });
		} else if (failure) {
			// the run closed itself as failed; its last commit stays the truth
			this.live.delete(id);
			const message = failure instanceof Error ? failure.message : String(failure);
			console.error(`run ${id} failed: ${message}`);
			this.publish(id, { type: 'error', message });
		} else if (e.run.done) {
			await this.closeLive(id, 'done');
		} else {
			e.run.setStatus('paused');
			await this.storeMemories(id, e);
			this.scheduleIdle(id, e);
		}
		this.publishStatus(id);
	}

	/** Makes the memories of a paused run's latest steps available to retrieval tables. */
	private async storeMemories(id: string, e: Live): Promise<void> {
		try {
			await e.run.storeMemories();
		} catch (err) {
			console.error(`run ${id}: storing memories failed: ${err instanceof Error ? err.message : String(err)}`);
		}
	}

	/** Waits out the step's share of a second at the run's speed (0: just yields). */
	private async pace(id: string, e: Live, t0: number): Promise<void> {
		for (;;) {
			const speed = this.speeds.get(id) ?? 0;
			if (speed <= 0 || !e.playing) return yieldToEvents();
			const left = t0 + 1000 / speed - performance.now();
			if (left <= 0) return yieldToEvents();
			// short naps, so pause and speed changes take effect at once
			await sleep(Math.min(left, 50));
		}
	}

	private scheduleIdle(id: string, e: Live): void {
		if (e.idle) clearTimeout(e.idle);
		e.idle = null;
		if (e.queued.length > 0) return;
		e.idle = setTimeout(() => {
			e.idle = null;
			if (this.live.get(id) !== e || e.running || e.queued.length > 0) return;
			this.closeLive(id, 'paused').then(
				() => this.publishStatus(id),
				(err) => console.error(`closing run ${id}: ${err instanceof Error ? err.message : String(err)}`)
			);
		}, this.opts.idleCloseMs ?? 120_000);
		e.idle.unref?.();
	}

	private async closeLive(id: string, status: RunMeta['status']): Promise<void> {
		const e = this.live.get(id);
		if (!e) return;
		if (e.idle) clearTimeout(e.idle);
		this.live.delete(id);
		await e.run.close(status);
	}

	/** Inner voices and object edits: queued on the live run at that step, else a fork. */
	async input(id: string, body: unknown): Promise<InputResult> {
		if (!isObject(body)) throw badRequest('the body must be { step?, inputs, steps?, paused? }');
		const data = this.run(id);
		const step = body.step === undefined ? undefined : this.checkStep(data, bodyInt(body.step, 'step') as number);
		const steps = bodyInt(body.steps, 'steps', { min: 1, max: MAX_STEPS });
		const paused = bodyBool(body.paused, 'paused');
		const inputs = await this.parseInputs(body.inputs, data, false);
		if (inputs.length === 0) throw badRequest('inputs is empty');
		let e = this.live.get(id);
		if (!e && (step === undefined || step === data.committed()) && data.meta.status === 'paused') e = await this.open(id);
		if (e && (step === undefined || step === nextStep(e) || step === data.committed())) {
			for (const input of inputs) {
				try {
					e.run.queue(input);
				} catch (err) {
					throw badRequest(err instanceof Error ? err.message : String(err));
				}
				e.queued.push(input);
			}
			if (e.idle) clearTimeout(e.idle);
			e.idle = null;
			return { run: id, queued: true, step: nextStep(e) };
		}
		const at = step ?? data.committed();
		const fork = await this.start({ from: { run: id, step: at }, steps: steps ?? 1, inputs, paused });
		return { run: fork.id, queued: false, step: at };
	}

	private async parseInputs(raw: unknown, data: RunData | null, optional: boolean): Promise<SimInput[]> {
		if (raw === undefined && optional) return [];
		if (!Array.isArray(raw) || raw.length > 50) throw badRequest('inputs must be a list of { type: whisper, agent, text } or { type: set-object, address, state }');
		const out: SimInput[] = [];
		for (const [i, item] of raw.entries()) {
			if (!isObject(item)) throw badRequest(`inputs[${i}] must be an object`);
			if (item.type === 'whisper') {
				const agent = bodyString(item.agent, `inputs[${i}].agent`, { max: 100 }) as string;
				const text = bodyString(item.text, `inputs[${i}].text`, { max: 2000 }) as string;
				out.push({ type: 'whisper', agent: data ? await this.agentId(data, agent) : agent, text });
			} else if (item.type === 'set-object') {
				const address = bodyString(item.address, `inputs[${i}].address`, { max: 300 }) as string;
				const state = bodyString(item.state, `inputs[${i}].state`, { max: 300 }) as string;
				out.push({ type: 'set-object', address, state });
			} else {
				throw badRequest(`inputs[${i}].type must be "whisper" or "set-object"`);
			}
		}
		return out;
	}

	// -----------------------------------------------------------------------
	// events

	subscribe(id: string, listener: RunListener): () => void {
		this.run(id);
		let set = this.listeners.get(id);
		if (!set) this.listeners.set(id, (set = new Set()));
		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0 && this.listeners.get(id) === set) this.listeners.delete(id);
		};
	}

	private publish(id: string, event: RunEvent): void {
		for (const l of this.listeners.get(id) ?? []) {
			try {
				l(event);
			} catch {
				// a listener that fails (a closed stream) must not stop the run
			}
		}
	}

	statusEvent(id: string): RunEvent {
		const data = this.run(id);
		const meta = data.meta;
		const e = this.live.get(id);
		return {
			type: 'status',
			status: this.status(id, data.dir, meta),
			steps: data.committed(),
			target: e ? e.run.meta.target : meta.target,
			live: e !== undefined,
			speed: this.speeds.get(id) ?? 0,
			...((e ? e.run.usage.total : meta.usage) && { usage: { ...(e ? e.run.usage.total : meta.usage)! } }),
			budget: (e ? e.run.meta.budget : meta.budget) ?? null,
			pause: (e ? e.run.meta.pause : meta.pause) ?? null
		};
	}

	private publishStatus(id: string): void {
		if (!this.listeners.get(id)?.size) return;
		try {
			this.publish(id, this.statusEvent(id));
		} catch {
			// the run's folder went away
		}
	}

	private async publishStep(id: string, step: number): Promise<void> {
		if (!this.listeners.get(id)?.size) return;
		const data = this.run(id);
		const frame = await this.frame(id, step);
		const line = data.stepLine(step - 1);
		const markers = line ? markersOf(line, await data.agentNames()) : [];
		const e = this.live.get(id);
		this.publish(id, { type: 'step', step, frame, markers, ...(e && { usage: { ...e.run.usage.total } }) });
	}

	// -----------------------------------------------------------------------
	// lifetime

	isLive(id: string): boolean {
		return this.live.has(id);
	}

	/** Resolves when the run's stepping loop has stopped (at once when it is not stepping). */
	async settled(id: string): Promise<void> {
		await this.live.get(id)?.loop;
	}

	/** Pauses and closes every live run and frees the models (tests, shutdown). */
	async shutdown(): Promise<void> {
		for (const e of this.live.values()) e.playing = false;
		await Promise.all([...this.live.values()].map((e) => e.loop));
		for (const [id, e] of [...this.live]) await this.closeLive(id, e.run.done ? 'done' : 'paused');
		for (const m of this.embedders.values()) m.then((x) => x.close(), () => undefined);
		this.embedders.clear();
		this.states.clear();
	}

}

const KEY = Symbol.for('simulacra.runManager');

/** The process-wide manager (kept across hot reloads in development). */
export function runManager(): RunManager {
	const g = globalThis as unknown as Record<symbol, RunManager | undefined>;
	let m = g[KEY];
	if (!m) {
		// Nothing to do at exit: every step is committed as it is made, a paused run has its
		// status written, and a run left `running` is listed as interrupted and resumes.
		m = new RunManager();
		g[KEY] = m;
	}
	return m;
}
