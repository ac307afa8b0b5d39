// Runs simulations and brings back any step of them: the bridge between the pure engine,
// the model gateway and the journal on disk.

import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { MemoryRecord } from '../../engine/memory';
import type { ModelAnswer, ModelPort, ModelRequest } from '../../engine/model';
import { applyOverrides } from '../../engine/settings';
import { profileOverrides } from '../../engine/profiles';
import { Simulation, type StepOutput } from '../../engine/sim';
import type { SimInput } from '../../engine/inputs';
import { NO_ABLATION, type Ablation } from '../../engine/state';
import type { WorldDef } from '../../engine/types';
import { dataHome } from '../paths';
import { loadWorld } from '../world/load';
import { RunReader, RunWriter, type RunMeta } from '../journal/journal';
import type { CallRecord } from '../journal/call-line';
import { asDiskFull, DiskFullError, isDiskFull } from '../fs/disk-full';
import { copyConfined } from '../store/copy';
import { importedSnapshotAt, recordsByAgent, type ImportedJournal } from '../store/imported-states';
import { liveStatus, openRun as openStoredRun, runLineage, runsDir as storeRunsDir, spanOfState, storedRuns, type ShownStatus, type WriterKind } from '../store/store';
import { loadLance, MemoryStore, maxIndexFromSizes } from '../memory/lance-store';
import type { Budget, ModelChange, PauseInfo, Price, UsageRow } from '../../api/types';
import { budgetReached, emptyRow, sumRows, type UsageCounter } from './cost';
import { checkModelChange } from './identity';
import { createModel, type LiveModel, type ModelChoice } from './models';
import type { Spend } from '../model/gateway';
import type { GatewayActivity } from '../model/gateway';
import { journalUsage, usageCounter } from './usage';
import { stagePromptSet } from '../prompts/store';
import { InvalidError, NotFoundError, invalidFrom } from '../errors';

export interface RunOptions {
	world?: string;
	steps: number;
	seed?: number;
	model?: ModelChoice;
	from?: { run: string; step: number };
	promptsDir?: string;
	/** a named profile (`engine/profiles.ts`): its settings, before `set` */
	profile?: string;
	set?: string[];
	ablate?: (keyof Ablation)[];
	/** inputs applied at the first step of the new run (a fork's whisper or object edit) */
	inputs?: SimInput[];
	snapshotEvery?: number;
	home?: string;
	/** after each step: steps done of those asked, and the run's tokens and dollars so far */
	onProgress?: (done: number, total: number, usage?: UsageRow, activity?: GatewayActivity) => void;
	/** stop after this many steps of this call even if more were asked (tests of resume) */
	signal?: AbortSignal;
	/** pause between steps once the run's own calls reach this many tokens or dollars */
	budget?: Budget | null;
	/** a fork (or resume) may use another model identity than its run recorded; the change is recorded */
	allowModelChange?: boolean;
	/** who writes the run (named to a second writer, which is refused); default CLI */
	writer?: WriterKind;
}

export interface RunSummary {
	run: string;
	world: string;
	steps: number;
	agents: number;
	model: string;
	llmCalls: number;
	cacheHits: number;
	failsafes: number;
	tokens: { prompt: number; completion: number };
	wallMs: number;
	stateHash: string;
	/** how the run stands: done, or paused at its budget or on a model fault */
	status: RunMeta['status'];
	pause: PauseInfo | null;
	/** tokens and dollars of the run's own calls, all sessions included */
	usage: UsageRow;
	/** calls made ahead of need that no step used (paid for, not part of the run), all sessions included */
	aheadUnused: UsageRow;
	/** embedding requests sent to an endpoint (tokens estimated), all sessions included */
	embeddings: UsageRow;
	budget: Budget | null;
	modelChanges: ModelChange[];
}

/** Tokens paid for outside the run's recorded calls, with what earlier sessions spent (run.json keeps the total). */
class Spending {
	constructor(
		private readonly before: UsageRow | undefined,
		private readonly counter: UsageCounter
	) {}

	add(spends: readonly Spend[], step: number): void {
		for (const c of spends) this.counter.add({ ...c, s: step });
	}

	get total(): UsageRow {
		return sumRows(this.before ?? emptyRow(), this.counter.total);
	}
}

/**
 * A run stopped between steps by itself, every step committed: its budget is reached, or the
 * model failed (an embedding fault, a provider failing past its retries). It resumes.
 */
export class RunPausedError extends Error {
	constructor(readonly pause: PauseInfo) {
		super(pause.message);
		this.name = 'RunPausedError';
	}
}

/** A model failure that pauses a run instead of failing it. */
export function isModelFault(e: unknown): e is Error {
	return e instanceof Error && (e.name === 'EmbeddingFault' || e.name === 'ProviderError' || e.name === 'ChatFault');
}

/** The prices of the models an identity names, for run.json (the offline stand-in's are 0). */
function pricesOf(model: LiveModel, known: Record<string, Price> = {}): Record<string, Price> {
	const out = { ...known };
	const names = [model.identity.chat.model, ...Object.values(model.identity.routes ?? {}).map((r) => r.model)];
	for (const name of names) {
		const p = model.price(name);
		if (p) out[name] = p;
	}
	return out;
}

export function runsDir(home = dataHome()): string {
	return storeRunsDir(home);
}

export function stateHash(sim: Simulation): string {
	const h = createHash('sha256');
	sim.digest((chunk) => h.update(chunk));
	return h.digest('hex');
}

function newRunId(world: string): string {
	const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
	return `${world}-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** A model that answers from a run's recorded calls; embeddings come from the live model's cache. */
export class ReplayModel implements ModelPort {
	private readonly calls: Map<string, CallRecord>;

	constructor(
		calls: Iterable<CallRecord>,
		private readonly live: ModelPort
	) {
		this.calls = new Map([...calls].map((c) => [c.key, c]));
	}

	get dimensions(): number {
		return this.live.dimensions;
	}

	async complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
		const call = this.calls.get(req.key);
		if (!call) throw new Error(`the run's journal has no recorded answer for call ${req.key} (${req.template})`);
		if (call.template !== req.template) {
			throw new Error(`call ${req.key} was ${call.template} in the journal but ${req.template} in the replay`);
		}
		return { value: call.value as T, failsafe: call.failsafe };
	}

	embed(texts: string[]): Promise<Float32Array[]> {
		return this.live.embed(texts);
	}
}

export function openRun(id: string, home = dataHome()): RunReader {
	return openStoredRun(id, home);
}

/** The world as the run saw it (its own copy). */
export async function runWorld(reader: RunReader): Promise<WorldDef> {
	// the copy's folder is called `world`; the world keeps its own id
	return { ...(await loadWorld(path.join(reader.dir, 'world'))).def, id: reader.meta.world };
}

/**
 * The exact state of a run after `step` steps: the nearest snapshot, then the recorded
 * inputs and answers replayed up to the step.
 */
export async function loadState(
	id: string,
	step: number,
	opts: { home?: string; model?: LiveModel } = {}
): Promise<{ sim: Simulation; reader: RunReader; world: WorldDef }> {
	const home = opts.home ?? dataHome();
	const reader = openRun(id, home);
	const meta = reader.meta;
	if (step < meta.firstStep && meta.parent) {
		// an earlier state is held by an ancestor: the lineage says which
		const owner = spanOfState(runLineage(id, { home, until: step + 1 }), step);
		if (!owner || owner.run === id) throw new Error(`run ${id} has no state after ${step} steps in its lineage`);
		return loadState(owner.run, step, opts);
	}
	const committed = reader.committed();
	if (step > committed || step < 0) {
		throw new NotFoundError(`run ${id} has steps ${meta.firstStep}..${committed}; step ${step} is not among them`);
	}
	const world = await runWorld(reader);
	const base = reader.snapshotSteps().filter((s) => s <= step).at(-1);
	if (base === undefined) throw new Error(`run ${id} has no snapshot at or before step ${step}`);
	if (base < step && meta.imported && step <= meta.imported.steps) {
		// a recording's steps: no answers to replay, the commit lines say it all
		return { sim: await restoreImported(reader, world, step, meta.dimensions), reader, world };
	}
	const snap = reader.snapshot(base);
	const store = await MemoryStore.open(reader.dir, meta.dimensions);
	let sim: Simulation;
	try {
		sim = Simulation.restore(world, snap, await store.load({ maxIndexByAgent: maxIndexFromSizes(snap.memory) }), meta.dimensions);
	} finally {
		store.close();
	}
	if (base < step) {
		const live = opts.model ?? (await createModel(meta.model.provider as ModelChoice, { home, promptsDir: path.join(reader.dir, 'prompts') }));
		// only the blocks that hold the replayed steps are read
		const range = { from: base, to: step };
		const inputs = new Map(reader.steps(range).map((l) => [l.step, l.inputs]));
		await replayTo(sim, step, reader.calls(range).filter((c) => c.s >= base && c.s < step), (s) => inputs.get(s) ?? [], live);
	}
	return { sim, reader, world };
}

/**
 * The state after `step` steps of a run imported from a recording (`runs import`), between two
 * of its snapshots: from the one before and the commit lines (../store/imported-states.ts).
 */
export async function restoreImported(journal: ImportedJournal & { dir: string }, world: WorldDef, step: number, dimensions: number): Promise<Simulation> {
	const store = await MemoryStore.open(journal.dir, dimensions);
	try {
		const records = await store.load();
		return Simulation.restore(world, importedSnapshotAt(journal, world, step, recordsByAgent(records)), records, dimensions);
	} finally {
		store.close();
	}
}

/**
 * Steps a restored simulation forward to `step` with a run's recorded inputs and answers:
 * `calls` must hold every call of the steps in between; the model is asked only for embeddings.
 */
export async function replayTo(
	sim: Simulation,
	step: number,
	calls: Iterable<CallRecord>,
	inputsAt: (step: number) => readonly SimInput[],
	live: ModelPort
): Promise<void> {
	const replay = new ReplayModel(calls, live);
	while (sim.state.step < step) await sim.step(inputsAt(sim.state.step), replay);
}

/**
 * A run open for stepping: its simulation at the head, its model and its journal writer.
 * `startRun`/`resumeRun` drive one to its target; the IDE's run manager steps one on demand.
 */
export class LiveRun {
	private pendingInputs: SimInput[] = [];
	/** memories committed since the last snapshot, stored with the next one */
	private unstored: MemoryRecord[] = [];
	private closed = false;
	/** a step failed half-way: the simulation in memory is ahead of the journal's last commit */
	private torn = false;
	/** work begun ahead of need (see `lookAhead`) */
	private readonly aheadStarted = new Set<string>();
	/** wall milliseconds a step takes, averaged over the latest steps (0: none measured yet), and when the last one ended */
	private readonly pace = { stepMs: 0, ended: 0 };

	private constructor(
		private readonly writer: RunWriter,
		private readonly store: MemoryStore,
		readonly sim: Simulation,
		readonly model: LiveModel,
		readonly started: number,
		/** tokens and dollars of the run's own calls (earlier sessions included) */
		readonly usage: UsageCounter
	) {
		const counter = () => usageCounter(writer.meta, (m) => model.price(m));
		this.ahead = new Spending(writer.meta.aheadUnused, counter());
		this.embedding = new Spending(writer.meta.embeddings, counter());
	}

	/** calls made ahead of need that no step used, and embedding requests, earlier sessions included */
	private readonly ahead: Spending;
	private readonly embedding: Spending;

	/** tokens and dollars of calls made ahead of need that no step used: paid for, not part of the run */
	get aheadUnused(): UsageRow {
		return this.ahead.total;
	}

	/** tokens (estimated) and dollars of the embedding requests sent to an endpoint */
	get embeddings(): UsageRow {
		return this.embedding.total;
	}

	/** what the run has cost: its own calls, the unused ones made ahead of need, the embeddings */
	get spent(): UsageRow {
		return sumRows(sumRows(this.usage.total, this.aheadUnused), this.embeddings);
	}

	/** what run.json keeps of the spending outside the run's calls */
	private get spending(): { aheadUnused: UsageRow; embeddings: UsageRow } {
		return { aheadUnused: this.aheadUnused, embeddings: this.embeddings };
	}

	get meta(): RunMeta {
		return this.writer.meta;
	}

	/** the data home the run is in */
	get home(): string {
		return path.dirname(path.dirname(this.writer.dir));
	}

	get step(): number {
		return this.sim.state.step;
	}

	get done(): boolean {
		return this.step >= this.meta.target;
	}

	/** A new run (or a fork with `from`), at its first step, journaled and not yet stepped. */
	static async start(opts: Omit<RunOptions, 'onProgress' | 'signal'>): Promise<LiveRun> {
		const home = opts.home ?? dataHome();
		const t0 = performance.now();
		if (opts.inputs?.length && opts.steps < 1) throw new InvalidError('inputs are applied at the first step: run at least one step');
		const parentRun = opts.from ? openRun(opts.from.run, home) : null;
		// the prompt set is copied once, before the model loads it: the run keeps and records the same bytes
		const staged = stagePromptSet(opts.promptsDir ?? (parentRun ? path.join(parentRun.dir, 'prompts') : undefined), home);
		const promptsFrom = staged.dir;
		try {
			const provider: ModelChoice = opts.model ?? (parentRun ? (parentRun.meta.model.provider as ModelChoice) : 'offline');
			const model = await createModel(provider, { home, promptsDir: promptsFrom }).catch((e) => {
				throw staged.explain(e);
			});
			try {
				return await LiveRun.create(opts, home, t0, parentRun, promptsFrom, model);
			} catch (e) {
				model.close();
				throw e;
			}
		} finally {
			staged.remove();
		}
	}

	private static async create(
		opts: Omit<RunOptions, 'onProgress' | 'signal'>,
		home: string,
		t0: number,
		parentRun: RunReader | null,
		promptsFrom: string | undefined,
		model: LiveModel
	): Promise<LiveRun> {
		let sim: Simulation;
		let world: WorldDef;
		let worldDir: string;
		let initMemories: MemoryRecord[];
		const dimensions = await model.resolveDimensions();
		const identity = { ...model.identity, embed: { ...model.identity.embed, dimensions } };
		let modelChanges: ModelChange[] = [];
		if (opts.from && parentRun) {
			// checked before the parent's state is restored: its memories must fit the new embeddings
			const change = checkModelChange(parentRun.meta, identity, opts.from.step, opts.allowModelChange === true, 'fork');
			modelChanges = [...(parentRun.meta.modelChanges ?? []).filter((c) => c.step <= opts.from!.step), ...(change ? [change] : [])];
		}
		if (opts.from && parentRun) {
			if (opts.ablate?.length) throw new InvalidError('ablations are chosen when a run starts, not on a fork');
			({ sim, world } = await loadState(opts.from.run, opts.from.step, { home, model }));
			worldDir = path.join(parentRun.dir, 'world');
			initMemories = [...sim.streams.values()].flatMap((s) => s.records);
		} else {
			const loaded = await loadWorld(opts.world ?? 'smallville');
			world = loaded.def;
			worldDir = loaded.dir;
			const ablate: Ablation = { ...NO_ABLATION };
			for (const a of opts.ablate ?? []) ablate[a] = true;
			const creating = Simulation.create(world, { seed: opts.seed ?? 1, ablate }, model);
			// LanceDB loads while the seed memories' ratings are asked (the store opens after them)
			setImmediate(() => loadLance().catch(() => undefined));
			const created = await creating;
			sim = created.sim;
			initMemories = created.output.memories;
		}
		const overrides = [...profileOverrides(opts.profile), ...(opts.set ?? [])];
		try {
			applyOverrides(sim.state, overrides);
		} catch (e) {
			// a setting the run cannot take
			throw invalidFrom(e);
		}
		for (const input of opts.inputs ?? []) {
			const error = sim.validateInput(input);
			if (error) throw new InvalidError(error);
		}
		const firstStep = sim.state.step;
		const meta: RunMeta = {
			id: newRunId(world.id),
			world: world.id,
			worldName: world.name,
			seed: sim.state.seed,
			model: { provider: model.provider, model: model.modelName, label: model.label },
			promptSet: model.promptSet,
			settings: sim.state.settings,
			ablate: sim.state.ablate,
			overrides,
			parent: opts.from ? { ...opts.from } : null,
			firstStep,
			snapshotEvery: opts.snapshotEvery ?? SNAPSHOT_EVERY,
			created: new Date().toISOString(),
			status: 'running',
			dimensions,
			target: firstStep + opts.steps,
			identity,
			modelChanges,
			prices: pricesOf(model, parentRun?.meta.prices),
			budget: opts.budget ?? null,
			pause: null
		};
		const writer = RunWriter.create(runsDir(home), meta, opts.writer ?? 'CLI');
		let store: MemoryStore | null = null;
		try {
			copyConfined(worldDir, path.join(writer.dir, 'world'), 'world folder');
			copyConfined(promptsFrom ?? model.promptsDir, path.join(writer.dir, 'prompts'), 'prompts folder');
			// The creation's records (a fork's inherited memories) are committed by the first snapshot.
			writer.commit(
				{ step: firstStep - 1, time: sim.time, memories: initMemories, traces: [], conversations: [], events: [] },
				[],
				model.drainCalls(),
				[]
			);
			store = await MemoryStore.open(writer.dir, meta.dimensions);
			await store.append(initMemories);
			writer.snapshot(sim.snapshot());
			writer.setStatus('running');
		} catch (e) {
			// a run that could not be made is not kept (a killed process leaves it `creating`)
			store?.close();
			try {
				writer.close();
			} catch {
				// the run is removed: what its logs could not sync does not matter
			}
			rmSync(writer.dir, { recursive: true, force: true });
			// a full disk: nothing to resume, the run is gone
			if (isDiskFull(e)) throw e instanceof DiskFullError ? new DiskFullError(e.file, e.code) : asDiskFull(e, writer.dir);
			throw e;
		}
		const live = new LiveRun(writer, store, sim, model, t0, journalUsage(writer.dir, writer.meta, (m) => model.price(m)));
		live.pendingInputs = [...(opts.inputs ?? [])];
		return live;
	}

	/**
	 * Reopens a run at its last committed step (cutting a torn tail), to continue it. A model
	 * identity other than the one run.json records is refused unless `allowModelChange`, and
	 * then recorded; an embedding dimension other than the run's memories is refused always.
	 * `budget` replaces the run's budget (null removes it; undefined keeps it).
	 */
	static async resume(
		id: string,
		opts: { home?: string; steps?: number; allowModelChange?: boolean; budget?: Budget | null; writer?: WriterKind } = {}
	): Promise<LiveRun> {
		const home = opts.home ?? dataHome();
		const t0 = performance.now();
		const reader = openRun(id, home);
		// the writer lock first: a second writer is refused before anything is read or cut
		const reopened = RunWriter.reopen(reader.dir, opts.writer ?? 'CLI');
		const writer = reopened.writer;
		const committed = reopened.committed;
		let model: LiveModel | null = null;
		try {
			model = await createModel(reader.meta.model.provider as ModelChoice, { home, promptsDir: path.join(reader.dir, 'prompts') });
			const dimensions = await model.resolveDimensions();
			const identity = { ...model.identity, embed: { ...model.identity.embed, dimensions } };
			const change = checkModelChange(writer.meta, identity, committed, opts.allowModelChange === true, 'resume');
			if (change) {
				writer.update({
					identity,
					modelChanges: [...(writer.meta.modelChanges ?? []), { ...change, step: committed }],
					model: { provider: model.provider, model: model.modelName, label: model.label },
					prices: pricesOf(model, writer.meta.prices)
				});
			} else if (!writer.meta.identity) {
				writer.update({ identity, prices: pricesOf(model, writer.meta.prices) });
			}
			if (opts.budget !== undefined) writer.update({ budget: opts.budget });
			const { sim } = await loadState(id, committed, { home, model });
			if (opts.steps !== undefined) writer.meta = { ...writer.meta, target: committed + opts.steps };
			// The store may hold memories of steps after the last commit: cut them, add the replayed ones.
			const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
			await store.truncate(maxIndexFromSizes(sim.snapshot().memory));
			await store.append([...sim.streams.values()].flatMap((s) => s.records));
			const live = model;
			return new LiveRun(writer, store, sim, live, t0, journalUsage(reader.dir, writer.meta, (m) => live.price(m)));
		} catch (e) {
			writer.close();
			model?.close();
			throw e;
		}
	}

	/** Queues inputs for the next step (validated now). */
	queue(input: SimInput): void {
		const error = this.sim.validateInput(input);
		if (error) throw new InvalidError(error);
		this.pendingInputs.push(input);
	}

	/** Raises the target (to keep running past it). */
	extend(steps: number): void {
		this.writer.meta = { ...this.writer.meta, target: Math.max(this.meta.target, this.step + steps) };
	}

	/** The reason to pause before the next step when the budget is reached, else null. */
	budgetReached(): string | null {
		return budgetReached(this.spent, this.meta.budget);
	}

	/** Sets (or with null removes) the budget; a run paused at its budget may go on after a higher one. */
	setBudget(budget: Budget | null): void {
		this.writer.update({ budget });
	}

	/**
	 * One step: simulate, commit to the journal, snapshot when due. Before it, a reached budget
	 * pauses the run (RunPausedError, the run stays open); a model fault during it pauses the run
	 * at its last commit (RunPausedError, the run is closed: resume it); any other error fails it.
	 */
	async advance(): Promise<StepOutput> {
		if (this.closed) throw new Error(`run ${this.meta.id} is closed`);
		const reached = this.budgetReached();
		if (reached) {
			const pause: PauseInfo = { reason: 'budget', step: this.step, message: `${reached} (raise the budget to go on)` };
			this.writer.setStatus('paused', { pause, usage: { ...this.usage.total }, ...this.spending });
			throw new RunPausedError(pause);
		}
		const inputs = this.pendingInputs;
		this.pendingInputs = [];
		if (this.meta.status !== 'running' || this.meta.pause) this.writer.setStatus('running', { pause: null });
		const at = this.step;
		try {
			// nothing to prepare for after the run's last step, or when answers come at once
			const ahead = this.step + 1 < this.meta.target && !this.model.instant;
			if (ahead) this.lookAhead();
			const out = await this.sim.step(inputs, this.model, ahead ? { model: this.model.ahead, started: this.aheadStarted } : undefined);
			const ended = performance.now();
			if (this.pace.ended > 0) {
				const ms = ended - this.pace.ended;
				this.pace.stepMs = this.pace.stepMs > 0 ? 0.9 * this.pace.stepMs + 0.1 * ms : ms;
			}
			this.pace.ended = ended;
			const calls = this.model.drainCalls();
			this.writer.commit(out, inputs, calls, this.sim.view());
			for (const c of calls) this.usage.add({ ...c, s: out.step });
			this.ahead.add(this.model.drainUnusedAhead(), out.step);
			this.embedding.add(this.model.drainEmbeddings(), out.step);
			this.unstored.push(...out.memories);
			if (this.step % this.meta.snapshotEvery === 0 || this.step === this.meta.target) await this.snapshot();
			return out;
		} catch (e) {
			this.torn = true;
			if (isModelFault(e)) {
				const pause: PauseInfo = { reason: 'fault', step: at, message: `model fault at step ${at}: ${e.message}` };
				await this.close('paused', pause);
				throw new RunPausedError(pause);
			}
			if (!isDiskFull(e)) {
				await this.close('failed');
				throw e;
			}
			// a full disk: named with the file (the journal's, else the memory store's) and how to
			// resume; closing cannot write run.json either, and its failure says nothing more
			const full = asDiskFull(e, e instanceof DiskFullError ? e.file : this.store.dir, this.meta.id);
			await this.close('failed').catch(() => undefined);
			throw full;
		}
	}

	/**
	 * Starts the model calls later steps will need (conversations under way, next hour blocks)
	 * at low priority; the step itself waits only for what it needs. Nothing here changes the
	 * state: a step asking the same prompt gets the answer made ahead, whenever it arrives.
	 */
	private lookAhead(): void {
		if (this.aheadStarted.size > 100_000) this.aheadStarted.clear();
		// nothing past the run's last step (target - 1): no step would use it
		const left = this.meta.target - 1 - this.step;
		const horizonSteps = Math.min(LOOKAHEAD_STEPS, left);
		const blockSteps = Math.min(BLOCK_LOOKAHEAD_STEPS, left);
		// reactions are decided ahead as many steps as the run goes in DECIDE_LEAD_MS: what it takes
		// to ask them in time; further ahead a guess is likelier wrong, and its calls wasted
		const decideSteps = this.pace.stepMs > 0 ? Math.max(MIN_DECIDE_STEPS, Math.round(DECIDE_LEAD_MS / this.pace.stepMs)) : undefined;
		// the conversation a foreseen decision begins is made ahead only when the run goes through
		// the conversation's steps in less than DECIDE_LEAD_MS: else, begun by the step that decides
		// it, it is made before the step that ends it needs it, without a guess
		const talks = !(this.pace.stepMs > 0 && this.sim.talkSteps() * this.pace.stepMs >= DECIDE_LEAD_MS);
		this.sim.lookahead(this.model.ahead, { horizonSteps, blockSteps, decideSteps, talks, started: this.aheadStarted }).catch(() => {
			// work ahead that fails is done again by the step that needs it
		});
	}

	/** Steps to the target (or until aborted), reporting progress; a pause throws RunPausedError. */
	async runToTarget(onProgress?: RunOptions['onProgress'], signal?: AbortSignal): Promise<void> {
		const total = this.meta.target - this.step;
		const done = () => total - (this.meta.target - this.step);
		// the pace is of steps run one after another: not the time since the last run's
		this.pace.ended = 0;
		// while a step waits for the model: calls in flight and what the step waits for
		const tick = onProgress ? setInterval(() => onProgress(done(), total, this.usage.total, this.model.activity()), 250) : null;
		tick?.unref();
		try {
			while (!this.done && !signal?.aborted) {
				await this.advance();
				onProgress?.(done(), total, this.usage.total, this.model.activity());
			}
		} finally {
			if (tick) clearInterval(tick);
		}
	}

	setStatus(status: RunMeta['status']): void {
		this.writer.setStatus(status, { usage: { ...this.usage.total }, ...this.spending, ...(status !== 'paused' && { pause: null }) });
	}

	/**
	 * Stores the memories committed since the last snapshot without writing one, so that the
	 * retrievals of those steps can be rebuilt while the run stays open (a paused run).
	 */
	async storeMemories(): Promise<void> {
		if (this.closed || this.unstored.length === 0) return;
		const batch = this.unstored;
		this.unstored = [];
		try {
			await this.store.append(batch);
		} catch (e) {
			// kept for the next snapshot, which must not be written without them
			this.unstored = [...batch, ...this.unstored];
			throw e;
		}
	}

	/** A snapshot is written only once every memory it counts is in the store. */
	private async snapshot(): Promise<void> {
		await this.store.append(this.unstored);
		this.unstored = [];
		this.writer.snapshot(this.sim.snapshot());
	}

	/**
	 * Closes the journal; the status says how the run ended (default: done when at target).
	 * `pause` records why a run paused by itself (a paused run keeps the reason it has).
	 */
	async close(status?: RunMeta['status'], pause?: PauseInfo): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		const final = status ?? (this.done ? 'done' : 'interrupted');
		try {
			// After a failed step the state is half-changed: the journal's last commit stays the truth.
			if (final !== 'failed' && !this.torn && this.unstored.length > 0) await this.snapshot();
			if (final !== 'failed' && !this.torn) await this.store.compact();
		} catch (e) {
			// a full disk: named (the journal's file, else the memory store) with how to resume
			throw asDiskFull(e, this.store.dir, this.meta.id);
		} finally {
			this.ahead.add(this.model.drainUnusedAhead(true), this.step);
			this.embedding.add(this.model.drainEmbeddings(), this.step);
			try {
				this.writer.setStatus(final, { usage: { ...this.usage.total }, ...this.spending, ...(pause ? { pause } : final !== 'paused' && { pause: null }) });
			} finally {
				// released even when run.json cannot be written (a full disk)
				try {
					this.writer.close();
				} finally {
					this.store.close();
					this.model.close();
				}
			}
		}
	}

	summary(): RunSummary {
		const stats = this.model.stats();
		return {
			run: this.meta.id,
			world: this.meta.world,
			steps: this.step,
			agents: this.sim.state.agents.length,
			model: this.meta.model.label,
			llmCalls: stats.calls,
			cacheHits: stats.cacheHits,
			failsafes: stats.failsafes,
			tokens: stats.tokens,
			wallMs: Math.round(performance.now() - this.started),
			stateHash: stateHash(this.sim),
			status: this.meta.status,
			pause: this.meta.pause ?? null,
			usage: { ...this.usage.total },
			...this.spending,
			budget: this.meta.budget ?? null,
			modelChanges: this.meta.modelChanges ?? []
		};
	}
}

/** How far ahead (in steps) conversations, ratings and reactions are foreseen. */
export const LOOKAHEAD_STEPS = 120;
/** Wall time ahead of need a reaction is decided in (see `lookAhead`), and the fewest steps ahead it is. */
const DECIDE_LEAD_MS = 6000;
const MIN_DECIDE_STEPS = 12;
/**
 * How far ahead (in steps) the next hour blocks are decomposed before they begin: 40 game
 * minutes, as when a whole town begins new blocks on the hour the decompositions take longer
 * than the 20 minutes before them run in.
 */
export const BLOCK_LOOKAHEAD_STEPS = 240;

/** Default snapshot interval in steps (20 game minutes at 10 s a step): bounds the replay of a seek. */
export const SNAPSHOT_EVERY = 120;

/**
 * Steps a run to its target and closes it. A run that pauses by itself (budget, model fault)
 * answers its summary with `status: 'paused'` and `pause`; the state hash is then that of the
 * last committed step (after a fault, the one restored from the journal).
 */
async function drive(live: LiveRun, opts: Pick<RunOptions, 'onProgress' | 'signal'>): Promise<RunSummary> {
	let paused: RunPausedError | null = null;
	try {
		await live.runToTarget(opts.onProgress, opts.signal);
	} catch (e) {
		if (!(e instanceof RunPausedError)) throw e;
		paused = e;
	} finally {
		await live.close(paused ? 'paused' : undefined);
	}
	const summary = live.summary();
	if (paused?.pause.reason === 'fault') {
		// the simulation in memory went past the last commit: report the committed state
		const { sim } = await loadState(live.meta.id, live.meta.pause?.step ?? paused.pause.step, { home: live.home });
		summary.steps = sim.state.step;
		summary.stateHash = stateHash(sim);
	}
	return summary;
}

/** Starts a new run (or a fork with `from`), runs it for `steps` steps and returns its summary. */
export async function startRun(opts: RunOptions): Promise<RunSummary> {
	return drive(await LiveRun.start(opts), opts);
}

/** Continues an interrupted (or paused) run from its last committed step up to its target. */
export async function resumeRun(id: string, opts: Omit<RunOptions, 'steps'> & { steps?: number } = {}): Promise<RunSummary> {
	return drive(
		await LiveRun.resume(id, { home: opts.home, steps: opts.steps, allowModelChange: opts.allowModelChange, budget: opts.budget, writer: opts.writer }),
		opts
	);
}

export interface RunListing {
	id: string;
	world: string;
	steps: number;
	model: string;
	created: string;
	/** run.json's status as liveness shows it (a run whose writer died is `interrupted`) */
	status: ShownStatus;
	parent: RunMeta['parent'];
}

export function listRuns(home = dataHome()): RunListing[] {
	return storedRuns(home)
		.map(({ id, dir, meta }) => ({
			id,
			world: meta.world,
			steps: new RunReader(dir).committed(),
			model: meta.model.label,
			created: meta.created,
			status: liveStatus(dir, meta),
			parent: meta.parent
		}))
		.sort((a, b) => (a.created < b.created ? 1 : -1));
}
