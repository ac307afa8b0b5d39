// Running an experiment: its replicates go to a pool of worker processes under one shared limit
// of model calls in flight, with progress (each run and the whole, with an ETA) reported as they
// go and written to the experiment's folder. Running it again continues where it stopped:
// finished replicates are kept, started ones resumed from their last committed step.

import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadWorld } from '../world/load';
import { dataHome, projectRoot } from '../paths';
import { PromptStore } from '../prompts/store';
import { CallBroker } from './broker';
import { defaultWorkers, ExperimentDefError, experimentId, experimentJobs, parseExperiment, readExperimentJson, WORLD_ID, type SettingsTarget } from './definition';
import type { WorldDef } from '../../engine/types';
import { openRun, runWorld } from '../run/runner';
import { appendJobLine, experimentDir, experimentReport, jobStates, openExperiment, readProgress, writeProgress } from './store';
import type { ToParent, ToWorker, WorkOrder } from './protocol';
import type { ExperimentDef, ExperimentProgress, ExperimentReport, JobStatus } from '../../api/experiments';

export interface RunExperimentOptions {
	home?: string;
	/** the file it came from (kept in the report) */
	file?: string | null;
	/** worker processes (default: the definition's, else the machine's cores) */
	workers?: number;
	/** model calls in flight across all workers (default: the definition's, else 8 per worker) */
	concurrency?: number;
	onProgress?: (p: ExperimentProgress) => void;
	signal?: AbortSignal;
}

export interface ExperimentResult {
	id: string;
	report: ExperimentReport;
	/** replicates run (or resumed) in this session, and kept from an earlier one */
	ran: number;
	kept: number;
	wallMs: number;
	/** the most model calls that were in flight at once */
	peakCalls: number;
}

export const WORKER_FILE = 'src/lib/server/experiments/worker.ts';

/** A prompt reference (folder, version or label) as a folder every worker can read. */
function promptsFolder(value: string, home: string): string {
	const isDir = value.includes('/') || value.includes(path.sep) || (existsSync(value) && statSync(value).isDirectory());
	if (isDir) {
		if (!existsSync(value) || !statSync(value).isDirectory()) throw new Error(`prompts: no folder ${value}`);
		return path.resolve(value);
	}
	return new PromptStore({ home }).materialise(value);
}

/**
 * Checks a parsed definition against what its runs will start from, before anything is created:
 * the world (or the base run and its step), every arm's settings as the runs apply them (names
 * and values, with the close name for a slip) and every arm's prompt set. A span in game hours
 * or minutes becomes steps of the world's (or the base run's) step length. Every problem is
 * named in one ExperimentDefError.
 */
export async function resolveExperiment(raw: unknown, file: string, home = dataHome()): Promise<ExperimentDef> {
	const r = raw as { world?: unknown; base?: { run?: unknown; step?: unknown }; arms?: unknown } | null;
	// the world's or base run's problems come first, the arms' prompt sets after the definition's own
	const problems: string[] = [];
	const later: string[] = [];
	let world: WorldDef | undefined;
	let target: SettingsTarget | undefined;
	if (r && typeof r === 'object' && !Array.isArray(r)) {
		const base = r.base && typeof r.base === 'object' ? r.base : undefined;
		if (typeof base?.run === 'string' && base.run) {
			try {
				const reader = openRun(base.run, home);
				world = await runWorld(reader);
				target = { settings: reader.meta.settings, agents: world.personas.map((p) => p.id) };
				const committed = reader.committed();
				if (typeof base.step === 'number' && Number.isInteger(base.step) && base.step > committed) problems.push(`base.step: run ${base.run} has ${committed} committed steps, so it cannot be forked at step ${base.step}`);
			} catch (e) {
				problems.push(`base.run: cannot read run "${base.run}": ${(e as Error).message}`);
			}
		} else if (typeof r.world === 'string' && WORLD_ID.test(r.world)) {
			try {
				world = (await loadWorld(r.world)).def;
				target = { settings: world.settings, agents: world.personas.map((p) => p.id) };
			} catch (e) {
				problems.push(`world: cannot load "${r.world}": ${(e as Error).message.split('\n')[0]}`);
			}
		}
		if (Array.isArray(r.arms)) {
			r.arms.forEach((a: unknown, i) => {
				const arm = a as { name?: unknown; prompts?: unknown } | null;
				if (!arm || typeof arm !== 'object' || typeof arm.prompts !== 'string' || !arm.prompts) return;
				try {
					promptsFolder(arm.prompts, home);
				} catch (e) {
					later.push(`arms[${i}].prompts${typeof arm.name === 'string' ? ` (arm "${arm.name}")` : ''}: ${(e as Error).message}`);
				}
			});
		}
	}
	const seconds = world?.secondsPerStep;
	try {
		const def = parseExperiment(raw, file, seconds === undefined ? undefined : () => seconds, target);
		if (problems.length || later.length) throw new ExperimentDefError(file, [...problems, ...later]);
		return def;
	} catch (e) {
		if (!(e instanceof ExperimentDefError) || !(problems.length || later.length) || e.file !== file) throw e;
		if (e.reasons.every((i) => problems.includes(i) || later.includes(i))) throw e;
		throw new ExperimentDefError(file, [...new Set([...problems, ...e.reasons, ...later])]);
	}
}

/** Reads and checks a definition file (see `resolveExperiment`). */
export async function loadExperimentFile(file: string, home = dataHome()): Promise<ExperimentDef> {
	return resolveExperiment(readExperimentJson(file), file, home);
}

/** Starts (or continues) an experiment and waits for every replicate. */
export async function runExperiment(def: ExperimentDef, opts: RunExperimentOptions = {}): Promise<ExperimentResult> {
	const home = opts.home ?? dataHome();
	const t0 = performance.now();
	const id = experimentId(def);
	const current = existsSync(experimentDir(id, home)) ? readProgress(id, home) : null;
	if (current?.state === 'running' && current.pid !== process.pid) throw new Error(`experiment ${id} is already running (process ${current.pid})`);
	openExperiment(id, def, opts.file ?? null, home);
	const prompts = new Map<string, string | undefined>();
	for (const arm of def.arms) prompts.set(arm.name, arm.prompts ? promptsFolder(arm.prompts, home) : undefined);

	const states = jobStates(id, home);
	const jobs: JobStatus[] = experimentJobs(def).map((j) => {
		const s = states.get(j.key);
		if (s?.state === 'done') return { ...j, state: 'done', run: s.run, stepsDone: def.steps, stepsTotal: def.steps, metrics: s.metrics, wallMs: s.wallMs };
		// started before and not finished: resume that run; failed: start afresh
		return { ...j, state: 'pending', ...(s?.state === 'started' && s.run && { run: s.run }), stepsDone: 0, stepsTotal: def.steps };
	});
	const kept = jobs.filter((j) => j.state === 'done').length;
	const todo = jobs.filter((j) => j.state !== 'done');
	const workers = Math.max(1, Math.min(opts.workers ?? def.workers ?? defaultWorkers(), todo.length || 1));
	const broker = new CallBroker(opts.concurrency ?? def.concurrency ?? 8 * workers, def.endpoints ?? []);

	const started = new Date().toISOString();
	const startStepsDone = () => jobs.reduce((n, j) => n + (j.state === 'done' ? j.stepsTotal : 0), 0);
	const doneAtStart = startStepsDone();
	const t1 = performance.now();
	let state: ExperimentProgress['state'] = 'running';
	let error: string | undefined;
	const progress = (): ExperimentProgress => {
		const stepsTotal = jobs.reduce((n, j) => n + j.stepsTotal, 0);
		const stepsDone = jobs.reduce((n, j) => n + Math.min(j.stepsDone, j.stepsTotal), 0);
		const gained = stepsDone - doneAtStart;
		const elapsed = (performance.now() - t1) / 1000;
		return {
			id,
			state,
			pid: process.pid,
			started,
			updated: new Date().toISOString(),
			stepsDone,
			stepsTotal,
			etaSeconds: gained > 0 ? Math.round((elapsed / gained) * (stepsTotal - stepsDone)) : null,
			jobs: jobs.map((j) => ({ ...j })),
			...(error && { error })
		};
	};
	let lastWrite = 0;
	const report = (force = false) => {
		const now = performance.now();
		if (!force && now - lastWrite < 250) return;
		lastWrite = now;
		const p = progress();
		writeProgress(id, p, home);
		opts.onProgress?.(p);
	};
	report(true);

	const queue = [...todo];
	const children: ChildProcess[] = [];
	let ran = 0;
	try {
		if (todo.length) await new Promise<void>((resolve, reject) => {
			let live = 0;
			let failed = false;
			const fail = (e: Error) => {
				if (failed) return;
				failed = true;
				for (const c of children) c.kill();
				reject(e);
			};
			opts.signal?.addEventListener('abort', () => fail(new Error('the experiment was stopped')), { once: true });
			const order = (j: JobStatus): WorkOrder => {
				const arm = def.arms.find((a) => a.name === j.arm)!;
				return {
					job: { key: j.key, arm: j.arm, replicate: j.replicate, seed: j.seed, sample: j.sample },
					home,
					...(def.world && { world: def.world }),
					steps: def.steps,
					model: arm.model ?? def.model,
					...(def.base && { from: def.base }),
					...(prompts.get(arm.name) && { promptsDir: prompts.get(arm.name) }),
					set: arm.set,
					...(def.metrics && { metrics: def.metrics }),
					endpoints: def.endpoints ?? [],
					...(j.run && { resume: j.run })
				};
			};
			const next = (child: ChildProcess) => {
				const j = queue.shift();
				if (!j) {
					child.send({ type: 'exit' } satisfies ToWorker);
					return;
				}
				j.state = 'running';
				(child as ChildProcess & { job?: JobStatus }).job = j;
				child.send({ type: 'run', order: order(j) } satisfies ToWorker);
				report();
			};
			const root = projectRoot();
			for (let w = 0; w < workers; w++) {
				const owner = `w${w}`;
				const child = fork(path.join(root, WORKER_FILE), [], {
					cwd: root,
					execArgv: ['--import', 'tsx'],
					env: { ...process.env, SIMULACRA_HOME: home },
					// a worker's output goes to stderr: stdout carries the report (--json)
					stdio: ['ignore', 2, 2, 'ipc']
				});
				children.push(child);
				live++;
				child.on('message', (msg: ToParent) => {
					if (failed) return;
					const job = (child as ChildProcess & { job?: JobStatus }).job;
					switch (msg.type) {
						case 'ready':
							next(child);
							break;
						case 'acquire':
							broker.acquire(owner).then((g) => child.connected && child.send({ type: 'grant', ask: msg.ask, id: g.id, endpoint: g.endpoint } satisfies ToWorker));
							break;
						case 'release':
							broker.release(msg.id);
							break;
						case 'started':
							if (job) job.run = msg.run;
							appendJobLine(id, { key: msg.key, state: 'started', run: msg.run }, home);
							report();
							break;
						case 'progress':
							if (job) {
								job.stepsDone = msg.done;
								job.stepsTotal = msg.total;
							}
							report();
							break;
						case 'done':
							if (job) Object.assign(job, { state: 'done', run: msg.run, stepsDone: job.stepsTotal, metrics: msg.metrics, wallMs: msg.wallMs, stateHash: msg.stateHash });
							appendJobLine(id, { key: msg.key, state: 'done', run: msg.run, metrics: msg.metrics, wallMs: msg.wallMs, ...(msg.stateHash && { stateHash: msg.stateHash }) }, home);
							ran++;
							report(true);
							next(child);
							break;
						case 'failed':
							if (job) Object.assign(job, { state: 'failed', error: msg.error });
							appendJobLine(id, { key: msg.key, state: 'failed', ...(job?.run && { run: job.run }), error: msg.error }, home);
							fail(new Error(`arm "${job?.arm}", replicate ${job?.replicate}: ${msg.error}`));
							break;
					}
				});
				child.on('exit', (code, signal) => {
					broker.releaseOwner(owner);
					live--;
					const job = (child as ChildProcess & { job?: JobStatus }).job;
					if (!failed && job && job.state === 'running') fail(new Error(`a worker stopped (${signal ?? `exit ${code}`}) during arm "${job.arm}", replicate ${job.replicate}`));
					if (live === 0 && !failed) resolve();
				});
				child.on('error', (e) => fail(e));
			}
		});
		state = 'done';
	} catch (e) {
		state = opts.signal?.aborted ? 'interrupted' : 'failed';
		error = (e as Error).message;
		throw e;
	} finally {
		for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
		report(true);
	}
	return { id, report: experimentReport(id, home), ran, kept, wallMs: Math.round(performance.now() - t0), peakCalls: broker.peak };
}
