// The IDE's run manager: one per server process. It starts runs and forks and steps them in
// the background (play, pause, step, run N, speed, budget), takes inputs for a live run's next
// step, and tells subscribers about every committed step and every change of status. What is
// asked about runs on disk (frames, the timeline, agents, retrievals, calls, listings) is
// answered by the run store's queries (`RunQueries`), which see this manager's live runs
// through their `LiveRuns` interface.
//
// A live run is one open for stepping in this process. Pausing keeps it open for a while (so
// inputs can be queued for its next step) and records `paused` in run.json; it is closed when
// it reaches its target, when it stays paused and idle, or when the process exits.

import { ControlRequestSchema, InputRequestSchema, StartRunRequestSchema, type InputResult, type RunEvent, type RunInfo } from '../../api/types';
import { apiInputsShape, inputFromJson, mapInputAgents, type SimInput } from '../../engine/inputs';
import { updateRunMeta, type RunMeta } from '../journal/journal';
import { liveWriter, RunLockedError, type LockInfo } from '../store/store';
import { RunQueries, runQueries, type LiveRuns, type LiveView } from '../read/queries';
import { LiveRun, RunPausedError } from '../run/runner';
import { checkBudget } from '../run/cost';
import { badRequest, invalidFrom } from '../errors';
import { markersOf, type RunData } from '../read/run-data';
import { parseWith } from '../validate';

export type RunListener = (event: RunEvent) => void;

export interface ManagerOptions {
	/** data home (default: SIMULACRA_HOME or .simulacra/, read when needed); ignored with `queries` */
	home?: string;
	/** close a paused live run after this long without inputs waiting (ms) */
	idleCloseMs?: number;
	/** restored states kept per run (for the queries the manager makes itself) */
	statesPerRun?: number;
	/** the queries that answer for this manager's runs (default: its own, on `home`) */
	queries?: RunQueries;
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

/** The step the live run computes next (inputs queued now apply to it). */
function nextStep(e: Live): number {
	return e.stepping ? e.inFlight + 1 : e.run.step;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const yieldToEvents = () => new Promise<void>((r) => setImmediate(r));
/** How often a step waiting for the model reports what it waits for. */
const ACTIVITY_MS = 400;

export class RunManager implements LiveRuns {
	private readonly lives = new Map<string, Live>();
	private readonly opening = new Map<string, Promise<Live>>();
	private readonly listeners = new Map<string, Set<RunListener>>();
	private readonly speeds = new Map<string, number>();
	/** what is asked about runs on disk, this manager's live runs included */
	readonly queries: RunQueries;

	constructor(private readonly opts: ManagerOptions = {}) {
		this.queries = opts.queries ?? new RunQueries({ home: opts.home, statesPerRun: opts.statesPerRun });
		this.queries.attach(this);
	}

	get home(): string {
		return this.queries.home;
	}

	/** The indexed journal of a run (404 when there is none), from the queries' cache. */
	run(id: string): RunData {
		return this.queries.run(id);
	}

	/** A live run as the queries see it (LiveRuns). */
	live(id: string): LiveView | undefined {
		const e = this.lives.get(id);
		if (!e) return undefined;
		return { running: e.running, meta: e.run.meta, usage: e.run.usage, aheadUnused: e.run.aheadUnused, embeddings: e.run.embeddings, storeMemories: () => e.run.storeMemories() };
	}

	/** Another process writes the run (the CLI, or another server). */
	private busyElsewhere(dir: string, meta: RunMeta): LockInfo | null {
		if (this.lives.has(meta.id)) return null;
		const writer = liveWriter(dir);
		return writer && (writer.pid !== process.pid || writer.holder !== 'IDE') ? writer : null;
	}

	// -----------------------------------------------------------------------
	// live runs

	/** Starts a new run, or a fork with `from`; answers once it is created. */
	/** Starts a new run, or a fork with `from` (a StartRunRequest body, checked by its schema); answers once it is created. */
	async start(body: unknown): Promise<{ id: string }> {
		const req = parseWith(StartRunRequestSchema, body);
		const steps = req.steps;
		const { seed, model, profile, set, from, world, promptsDir } = this.queries.runRequest(req);
		const paused = req.paused ?? false;
		const inputs = await this.parseInputs(req.inputs, from ? this.run(from.run) : null, true);
		if (inputs.length > 0 && steps < 1) throw badRequest('inputs are applied at the first step: run at least one step');
		const budget = checkBudget(req.budget);
		const allowModelChange = req.allowModelChange ?? false;
		// a refusal says its kind (a model change, a world's problems, a bad setting...); anything else is a fault
		const run = await LiveRun.start({ world, steps, seed, model, from, profile, set, inputs, promptsDir, home: this.home, budget, allowModelChange, writer: 'IDE' });
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

	private adopt(run: LiveRun, queued: SimInput[] = []): Live {
		const e: Live = { run, running: false, loop: null, playing: false, stopAt: null, stepping: false, inFlight: run.step, queued: [...queued], idle: null };
		this.lives.set(run.meta.id, e);
		return e;
	}

	/**
	 * The live run, reopening a stopped one (its journal is cut back to the last commit). Reopening
	 * under another model identity than the run recorded answers 409 unless `allowModelChange`.
	 */
	private async open(id: string, allowModelChange = false): Promise<Live> {
		const e = this.lives.get(id);
		if (e) return e;
		const pending = this.opening.get(id);
		if (pending) return pending;
		const data = this.run(id);
		const meta = data.meta;
		const holder = this.busyElsewhere(data.dir, meta);
		if (holder) throw new RunLockedError(id, holder);
		const p = (async () => {
			try {
				// another model than recorded, or another writer: a conflict the error says
				const run = await LiveRun.resume(id, { home: this.home, allowModelChange, writer: 'IDE' });
				this.queries.forget(id);
				return this.adopt(run);
			} finally {
				this.opening.delete(id);
			}
		})();
		this.opening.set(id, p);
		return p;
	}

	/** Play, pause, step, run N, speed, budget (a ControlRequest body, checked by its schema). */
	async control(id: string, raw: unknown): Promise<RunInfo> {
		const body = parseWith(ControlRequestSchema, raw);
		const data = this.run(id);
		switch (body.action) {
			case 'speed': {
				this.speeds.set(id, body.stepsPerSecond);
				this.publishStatus(id);
				break;
			}
			case 'pause': {
				const e = this.lives.get(id);
				if (e) {
					e.playing = false;
					// answer once the step in flight is committed, or soon after
					if (e.loop) await Promise.race([e.loop, sleep(1000)]);
				}
				break;
			}
			case 'budget': {
				const budget = checkBudget(body.budget);
				const e = this.lives.get(id);
				// written elsewhere: the lock's conflict
				if (e) e.run.setBudget(budget);
				else updateRunMeta(data.dir, { budget }, 'IDE');
				this.publishStatus(id);
				break;
			}
			case 'play': {
				const e = await this.open(id, body.allowModelChange ?? false);
				if (e.run.done) e.run.extend(body.steps ?? Math.round(86_400 / (await data.world()).secondsPerStep));
				e.stopAt = null;
				e.playing = true;
				this.ensureLoop(id, e);
				break;
			}
			case 'step':
			case 'run': {
				const n = body.action === 'step' ? 1 : body.steps;
				const e = await this.open(id, body.allowModelChange ?? false);
				e.stopAt = nextStep(e) + n;
				e.run.extend(e.stopAt - e.run.step);
				e.playing = true;
				this.ensureLoop(id, e);
				if (body.action === 'step' && e.loop) await e.loop;
				break;
			}
		}
		return this.queries.info(id);
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
				const watch = setInterval(() => this.publishActivity(id, e), ACTIVITY_MS);
				try {
					await e.run.advance();
				} finally {
					clearInterval(watch);
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
				this.lives.delete(id);
				if (e.idle) clearTimeout(e.idle);
				this.queries.forget(id);
			} else {
				await this.storeMemories(id, e);
				this.scheduleIdle(id, e);
			}
			this.publish(id, { type: 'error', message: `run ${id} paused: ${failure.message}` });
		} else if (failure) {
			// the run closed itself as failed; its last commit stays the truth
			this.lives.delete(id);
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
			if (this.lives.get(id) !== e || e.running || e.queued.length > 0) return;
			this.closeLive(id, 'paused').then(
				() => this.publishStatus(id),
				(err) => console.error(`closing run ${id}: ${err instanceof Error ? err.message : String(err)}`)
			);
		}, this.opts.idleCloseMs ?? 120_000);
		e.idle.unref?.();
	}

	private async closeLive(id: string, status: RunMeta['status']): Promise<void> {
		const e = this.lives.get(id);
		if (!e) return;
		if (e.idle) clearTimeout(e.idle);
		this.lives.delete(id);
		await e.run.close(status);
	}

	/** Inner voices and object edits: queued on the live run at that step, else a fork. */
	async input(id: string, raw: unknown): Promise<InputResult> {
		const body = parseWith(InputRequestSchema, raw);
		const data = this.run(id);
		const step = body.step === undefined ? undefined : this.queries.checkStep(data, body.step);
		const { steps, paused } = body;
		const inputs = await this.parseInputs(body.inputs, data, false);
		if (inputs.length === 0) throw badRequest('inputs is empty');
		let e = this.lives.get(id);
		if (!e && (step === undefined || step === data.committed()) && data.meta.status === 'paused') e = await this.open(id);
		if (e && (step === undefined || step === nextStep(e) || step === data.committed())) {
			for (const input of inputs) {
				try {
					e.run.queue(input);
				} catch (err) {
					// the engine's check of an input against the live state
					throw invalidFrom(err);
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

	/** The body's `inputs` (../../engine/inputs.ts reads each); agents named as typed become ids when the run is known. */
	private async parseInputs(raw: unknown, data: RunData | null, optional: boolean): Promise<SimInput[]> {
		if (raw === undefined && optional) return [];
		if (!Array.isArray(raw) || raw.length > 50) throw badRequest(`inputs must be a list of ${apiInputsShape()}`);
		const out: SimInput[] = [];
		for (const [i, item] of raw.entries()) {
			const input = inputFromJson(item, `inputs[${i}]`);
			if (!input.ok) throw badRequest(input.error);
			out.push(data ? await mapInputAgents(input.value, (agent) => this.queries.agentId(data, agent)) : input.value);
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
		const e = this.lives.get(id);
		return {
			type: 'status',
			status: this.queries.status(id, data.dir, meta),
			steps: data.committed(),
			target: e ? e.run.meta.target : meta.target,
			live: e !== undefined,
			speed: this.speeds.get(id) ?? 0,
			...((e ? e.run.usage.total : meta.usage) && { usage: { ...(e ? e.run.usage.total : meta.usage)! } }),
			budget: (e ? e.run.meta.budget : meta.budget) ?? null,
			pause: (e ? e.run.meta.pause : meta.pause) ?? null
		};
	}

	/** While a step waits for the model: calls in flight and what the step waits for. */
	private publishActivity(id: string, e: Live): void {
		if (!this.listeners.get(id)?.size || !e.stepping) return;
		const a = e.run.model.activity();
		this.publish(id, {
			type: 'model',
			step: e.inFlight,
			activity: { inFlight: a.inFlight, inFlightAhead: a.inFlightAhead, queued: a.queued, waitingFor: a.waitingFor.map(({ template, agent }) => ({ template, agent })) }
		});
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
		const frame = await this.queries.frame(id, step);
		const line = data.stepLine(step - 1);
		const markers = line ? markersOf(line, await data.agentNames()) : [];
		const e = this.lives.get(id);
		this.publish(id, { type: 'step', step, frame, markers, ...(e && { usage: { ...e.run.usage.total } }) });
	}

	// -----------------------------------------------------------------------
	// lifetime

	isLive(id: string): boolean {
		return this.lives.has(id);
	}

	/** Resolves when the run's stepping loop has stopped (at once when it is not stepping). */
	async settled(id: string): Promise<void> {
		await this.lives.get(id)?.loop;
	}

	/** Pauses and closes every live run and frees the models (tests, shutdown). */
	async shutdown(): Promise<void> {
		for (const e of this.lives.values()) e.playing = false;
		await Promise.all([...this.lives.values()].map((e) => e.loop));
		for (const [id, e] of [...this.lives]) await this.closeLive(id, e.run.done ? 'done' : 'paused');
		this.queries.release();
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
		m = new RunManager({ queries: runQueries() });
		g[KEY] = m;
	}
	return m;
}
