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

import type { Budget, InputResult, RunEvent, RunInfo, StartRunRequest } from '../../api/types';
import type { SimInput } from '../../engine/sim';
import { updateRunMeta, type RunMeta } from '../journal/journal';
import { liveWriter, RunLockedError, type LockInfo } from '../store/store';
import { MAX_STEPS, RunQueries, runQueries, type LiveRuns, type LiveView } from '../read/queries';
import { LiveRun, RunPausedError } from '../run/runner';
import { checkBudget } from '../run/cost';
import { ModelChangeError } from '../run/identity';
import { RequestError, badRequest } from '../errors';
import { markersOf, type RunData } from '../read/run-data';
import { bodyBool, bodyInt, bodyNumber, bodyString } from '../validate';
import { isRecord } from '../../shared/guards';

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
	async start(body: unknown): Promise<{ id: string }> {
		if (!isRecord(body)) throw badRequest('the body must be a JSON object (see StartRunRequest)');
		const req = body as Partial<StartRunRequest> & Record<string, unknown>;
		const steps = bodyInt(req.steps, 'steps', { min: 0, max: MAX_STEPS });
		if (steps === undefined) throw badRequest('steps is required');
		const { seed, model, profile, set, from, world, promptsDir } = this.queries.runRequest(req);
		const paused = bodyBool(req.paused, 'paused') ?? false;
		const inputs = await this.parseInputs(req.inputs, from ? this.run(from.run) : null, true);
		if (inputs.length > 0 && steps < 1) throw badRequest('inputs are applied at the first step: run at least one step');
		const budget = this.parseBudget(req.budget);
		const allowModelChange = bodyBool(req.allowModelChange, 'allowModelChange') ?? false;
		let run: LiveRun;
		try {
			run = await LiveRun.start({ world, steps, seed, model, from, profile, set, inputs, promptsDir, home: this.home, budget, allowModelChange, writer: 'IDE' });
		} catch (e) {
			if (e instanceof ModelChangeError) throw new RequestError(409, e.message);
			throw e instanceof RequestError ? e : badRequest(e instanceof Error ? e.message : String(e));
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
		if (!isRecord(raw)) throw badRequest('budget must be { tokens?, usd? }');
		try {
			return checkBudget(raw);
		} catch (e) {
			throw badRequest(e instanceof Error ? e.message : String(e));
		}
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
		if (holder) throw new RequestError(409, new RunLockedError(id, holder).message);
		const p = (async () => {
			try {
				let run: LiveRun;
				try {
					run = await LiveRun.resume(id, { home: this.home, allowModelChange, writer: 'IDE' });
				} catch (e) {
					if (e instanceof ModelChangeError || e instanceof RunLockedError) throw new RequestError(409, e.message);
					throw e;
				}
				this.queries.forget(id);
				return this.adopt(run);
			} finally {
				this.opening.delete(id);
			}
		})();
		this.opening.set(id, p);
		return p;
	}

	async control(id: string, body: unknown): Promise<RunInfo> {
		if (!isRecord(body) || typeof body.action !== 'string') throw badRequest('the body must be { action: play | pause | step | run | speed | budget }');
		const data = this.run(id);
		switch (body.action) {
			case 'speed': {
				const speed = bodyNumber(body.stepsPerSecond, 'stepsPerSecond', 0, 10_000);
				this.speeds.set(id, speed);
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
				const budget = this.parseBudget(body.budget);
				const e = this.lives.get(id);
				if (e) e.run.setBudget(budget);
				else {
					try {
						updateRunMeta(data.dir, { budget }, 'IDE');
					} catch (e) {
						if (e instanceof RunLockedError) throw new RequestError(409, e.message);
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
	async input(id: string, body: unknown): Promise<InputResult> {
		if (!isRecord(body)) throw badRequest('the body must be { step?, inputs, steps?, paused? }');
		const data = this.run(id);
		const step = body.step === undefined ? undefined : this.queries.checkStep(data, bodyInt(body.step, 'step') as number);
		const steps = bodyInt(body.steps, 'steps', { min: 1, max: MAX_STEPS });
		const paused = bodyBool(body.paused, 'paused');
		const inputs = await this.parseInputs(body.inputs, data, false);
		if (inputs.length === 0) throw badRequest('inputs is empty');
		let e = this.lives.get(id);
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
			if (!isRecord(item)) throw badRequest(`inputs[${i}] must be an object`);
			if (item.type === 'whisper') {
				const agent = bodyString(item.agent, `inputs[${i}].agent`, { max: 100 }) as string;
				const text = bodyString(item.text, `inputs[${i}].text`, { max: 2000 }) as string;
				out.push({ type: 'whisper', agent: data ? await this.queries.agentId(data, agent) : agent, text });
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
