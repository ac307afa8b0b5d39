// The run store's queries: what the IDE, its API and its pages ask about runs on disk, answered
// through the store's lineage and status and each run's indexed journal (`RunData`): the list,
// a run's info and usage, estimates, frames and the timeline straight from the commit lines,
// an agent at any step and read-only interviews by restore and replay (a few restored states
// kept per run, so seeking steps a kept state on), retrieval tables and model calls.
//
// Runs open for stepping in this process (the IDE's run manager) are seen through `LiveRuns`:
// their status, target, budget and usage as they stand, and storing their latest memories when
// a retrieval table needs them. The manager says when a live run's journal was cut back
// (`forget`); growth is picked up by the indexes themselves.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
	AgentDetail,
	Budget,
	CallView,
	Frame,
	InterviewAnswer,
	Marker,
	MemoryView,
	PauseInfo,
	RunInfo,
	RunEstimate,
	RunListing,
	RunStatus,
	RunUsage,
	Timeline,
	UsageRow
} from '../../api/types';
import { InterviewRequestSchema, StartRunRequestSchema, type StartRunRequest } from '../../api/types';
import { timeAtStep } from '../../engine/clock';
import type { Simulation } from '../../engine/sim';
import type { ConversationRecord } from '../../engine/state';
import type { RunMeta } from '../journal/journal';
import { parseCallLine } from '../journal/call-line';
import { dataHome, worldsDir } from '../paths';
import { PromptStore } from '../prompts/store';
import { createModel, type LiveModel, type ModelChoice } from '../run/models';
import { estimateRun } from '../run/estimate';
import { listRetrievals, MemoriesNotStoredError, retrievalTable } from '../run/traces';
import type { RetrievalTable, TraceSummary } from '../../api/traces';
import { badRequest, notFound, UnavailableError } from '../errors';
import { ChatFault, EmbeddingFault } from '../model/gateway';
import { committedSteps, RunData, runDir, viewOf } from './run-data';
import { validFolderName } from '../../shared/ids';
import { StateCache } from './states';
import { AGENT_NAME, parseWith, TEMPLATE_ID, TRACE_ID } from '../validate';
import { lineageSpans, liveStatus, runsDir, spanOfState, storedRuns, type Span } from '../store/store';

/** A span of a lineage with the indexed journal of the run that holds it. */
type LineageSpan = Span & { data: RunData };

/** A run open for stepping in this process, as queries see it. */
export interface LiveView {
	/** its stepping loop is active (else it is open and paused) */
	running: boolean;
	/** run.json as the live run holds it (target, budget and pause change while it is open) */
	meta: { target: number; budget?: Budget | null; pause?: PauseInfo | null };
	/** tokens and dollars of its calls so far */
	usage: { total: UsageRow; usage(budget: Budget | null): RunUsage };
	/** tokens and dollars of calls made ahead of need that no step used, and of embedding requests */
	aheadUnused: UsageRow;
	embeddings: UsageRow;
	/** writes its latest memories to the memory store (retrieval tables read them from there) */
	storeMemories(): Promise<void>;
}

/** The runs open for stepping in this process. */
export interface LiveRuns {
	live(id: string): LiveView | undefined;
}

export interface QueriesOptions {
	/** data home (default: SIMULACRA_HOME or .simulacra/, read when needed) */
	home?: string;
	/** restored states kept per run */
	statesPerRun?: number;
	/** the process's live runs (also set later with `attach`) */
	live?: LiveRuns;
}

/** What a start or an estimate request names. */
export interface RunRequest {
	seed?: number;
	model?: ModelChoice;
	profile?: string;
	set?: string[];
	from?: { run: string; step: number };
	world?: string;
	promptsDir?: string;
}

export const MAX_FRAMES = 2000;
export const MAX_CALLS = 2000;
export { MAX_STEPS } from '../../api/types';

const noLiveRuns: LiveRuns = { live: () => undefined };

export class RunQueries {
	private readonly data = new Map<string, RunData>();
	private readonly embedders = new Map<string, Promise<LiveModel>>();
	private readonly initialFrames = new Map<string, Frame>();
	private readonly estimates = new Map<string, Promise<RunEstimate>>();
	private liveRuns: LiveRuns;
	readonly states: StateCache;

	constructor(private readonly opts: QueriesOptions = {}) {
		this.liveRuns = opts.live ?? noLiveRuns;
		this.states = new StateCache((run) => this.embedder(run), opts.statesPerRun ?? 4);
	}

	get home(): string {
		return this.opts.home ?? dataHome();
	}

	private get runs(): string {
		return runsDir(this.home);
	}

	/** Sees the runs `live` has open for stepping (one source at a time: the latest attached). */
	attach(live: LiveRuns): void {
		this.liveRuns = live;
	}

	private live(id: string): LiveView | undefined {
		return this.liveRuns.live(id);
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
		// a parent missing or parents forming a loop: the store's conflict
		const spans: Span[] = lineageSpans(data.id, node);
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

	/** How a run stands: a live run's own status, else the store's (`running` with no writer alive is `interrupted`). */
	status(id: string, dir: string, meta: RunMeta): RunStatus {
		const e = this.live(id);
		if (e) return e.running ? 'running' : 'paused';
		// a run left `running` by a writer that is gone was interrupted
		return liveStatus(dir, meta) as RunStatus;
	}

	private listing(id: string, dir: string, meta: RunMeta, committed: number): RunListing {
		const e = this.live(id);
		return {
			id,
			world: meta.world,
			steps: committed,
			target: e ? e.meta.target : meta.target,
			model: meta.model.label,
			created: meta.created,
			status: this.status(id, dir, meta),
			parent: meta.parent,
			promptSet: meta.promptSet.version,
			live: e !== undefined,
			...(e ? { usage: { ...e.usage.total } } : meta.usage ? { usage: meta.usage } : {}),
			budget: (e ? e.meta.budget : meta.budget) ?? null,
			pause: (e ? e.meta.pause : meta.pause) ?? null
		};
	}

	/** Every run in the data home, newest first. */
	list(): RunListing[] {
		const out: RunListing[] = [];
		for (const { id, dir, meta } of storedRuns(this.home)) {
			try {
				out.push(this.listing(id, dir, meta, this.data.get(id)?.committed() ?? committedSteps(dir, meta)));
			} catch {
				// a run whose steps cannot be read is left out
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
			modelChanges: meta.modelChanges ?? [],
			...this.importedOf(data)
		};
	}

	/** The recording of the reference implementation the lineage begins with, if any (a run's own, or an ancestor's up to the fork). */
	private importedOf(data: RunData): Pick<RunInfo, 'imported'> {
		for (const s of this.spans(data)) {
			const imported = s.data.meta.imported;
			if (imported) return { imported: { ...imported, run: s.run, until: s.run === data.id ? imported.steps : s.to } };
		}
		return {};
	}

	/** Tokens and dollars of a run's own calls, per agent, template and model. */
	usage(id: string): RunUsage {
		const data = this.run(id);
		const e = this.live(id);
		const { aheadUnused, embeddings } = e ?? data.meta;
		return { ...(e ? e.usage.usage(e.meta.budget ?? null) : data.usage()), ...(aheadUnused && { aheadUnused }), ...(embeddings?.calls && { embeddings }) };
	}

	/**
	 * What a start or an estimate request (checked by its schema) names, checked against the data
	 * home: the fork point, the world, a prompt-set version.
	 */
	runRequest(req: Omit<StartRunRequest, 'inputs'>): RunRequest {
		const { seed, model, set, profile } = req;
		let from: { run: string; step: number } | undefined;
		let world: string | undefined;
		if (req.from !== undefined) {
			const parent = this.run(req.from.run);
			const step = req.from.step;
			this.checkStep(parent, step);
			from = { run: parent.id, step };
			if (req.world !== undefined && req.world !== parent.meta.world) throw badRequest(`a fork keeps its parent's world (${parent.meta.world})`);
		} else {
			world = req.world ?? 'smallville';
			if (!validFolderName(world) || !existsSync(path.join(worldsDir(), world, 'world.json'))) throw notFound(`no world "${world}"`);
		}
		// a stored prompt-set version (id, prefix or label); without one a new run uses the working copy, a fork its parent's prompts
		let promptsDir: string | undefined;
		if (req.prompts !== undefined) promptsDir = new PromptStore({ home: this.home }).materialise(req.prompts);
		return { seed, model, profile, set, from, world, promptsDir };
	}

	/** What a run (or a fork) of the body's steps is expected to cost (StartRunRequest -> RunEstimate). */
	async estimate(body: unknown): Promise<RunEstimate> {
		const req = parseWith(StartRunRequestSchema, body);
		const steps = req.steps;
		if (steps < 1) throw badRequest(`steps must be at least 1 to estimate a run, not ${steps}`);
		const { seed, model, profile, set, from, world, promptsDir } = this.runRequest(req);
		const opts = { world, steps, seed, model, from, profile, set, promptsDir, home: this.home };
		const key = JSON.stringify(opts);
		let p = this.estimates.get(key);
		if (!p) {
			p = estimateRun(opts).catch((e: unknown) => {
				this.estimates.delete(key);
				throw e;
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

	/** `step` when the run has the state after it; 400 or 404 naming the run's steps otherwise. */
	checkStep(data: RunData, step: number): number {
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
		// the persona's fields; its structured seed memories are in the stream the detail lists
		const found = world.personas.find((p) => p.id === agentId);
		const persona = found ? { ...found, memories: undefined } : {};
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
				persona: structuredClone(persona) as unknown as Record<string, unknown>,
				view,
				plan: structuredClone(a.plan),
				planRef: a.action.planRef,
				summary: a.summary?.text ?? '',
				spatial: structuredClone(a.spatial),
				seenStates: { ...a.seenStates },
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
		const { question, as, agent: agentName, step: asked } = parseWith(InterviewRequestSchema, body);
		const data = this.run(id);
		const step = this.checkStep(data, asked ?? data.committed());
		const agentId = await this.agentId(data, agentName);
		const owner = this.owner(data, step);
		const model = await createModel(owner.meta.model.provider as ModelChoice, { home: this.home, promptsDir: path.join(owner.dir, 'prompts') });
		try {
			return await this.states.with(owner, step, async (sim) => {
				const r = await sim.interview(agentId, as?.trim() || 'an interviewer', question, model);
				return { agent: agentId, step, question, answer: r.answer, memories: r.memories.map((m) => ({ id: m.id, description: m.description })) };
			});
		} catch (e) {
			// the model's endpoint failed past its retries: nothing the request can fix
			if (e instanceof ChatFault || e instanceof EmbeddingFault) throw new UnavailableError(e.message);
			throw e;
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
			const e = err instanceof MemoriesNotStoredError ? this.live(err.run) : undefined;
			if (!e) throw err;
			await e.storeMemories();
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
			const { s, ...call } = parseCallLine(run.calls.line(index));
			return { ...call, step: s };
		});
	}

	// -----------------------------------------------------------------------
	// upkeep

	/** Forgets what was read of a run whose journal was cut back (a resume, a fault). */
	forget(id: string): void {
		this.data.get(id)?.invalidate();
		this.states.forget(id);
	}

	/** Frees the restored states and the embedding models (they come back when next needed). */
	release(): void {
		for (const m of this.embedders.values()) m.then((x) => x.close(), () => undefined);
		this.embedders.clear();
		this.states.clear();
	}
}

const KEY = Symbol.for('simulacra.runQueries');

/** The process-wide queries (kept across hot reloads in development); the run manager attaches its live runs. */
export function runQueries(): RunQueries {
	const g = globalThis as unknown as Record<symbol, RunQueries | undefined>;
	let q = g[KEY];
	if (!q) {
		q = new RunQueries();
		g[KEY] = q;
	}
	return q;
}
