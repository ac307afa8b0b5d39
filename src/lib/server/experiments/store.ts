// An experiment on disk, `<data home>/experiments/<id>/`:
//   experiment.json  the definition, the file it came from, when it was created
//   jobs.jsonl       one line per change of a run's state (started with its run id, done with its
//                    metrics, failed with why); the last line of a replicate says where it stands
//   progress.json    the latest progress of a running experiment (steps, ETA, each run)
// Running the same definition again reads jobs.jsonl: finished runs are kept, started ones resumed.

import { appendFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { compareArms } from '../../eval/stats';
import { readLines } from '../journal/journal';
import { dataHome } from '../paths';
import { experimentJobs } from './definition';
import { metricInfo, METRIC_IDS } from './metrics';
import type { ExperimentDef, ExperimentListing, ExperimentProgress, ExperimentReport, Job, JobStatus } from '../../api/experiments';
import { toCsv, type CsvCell } from '../../shared/csv';
import { writeFileAtomic } from '../fs/atomic';
import { pidAlive } from '../fs/lock';
import { NotFoundError } from '../errors';
import { readJsonFile } from '../validate';
import * as v from 'valibot';

export interface StoredExperiment {
	id: string;
	def: ExperimentDef;
	file: string | null;
	created: string;
}

export interface JobLine {
	key: string;
	state: 'started' | 'done' | 'failed';
	run?: string;
	metrics?: Record<string, number>;
	wallMs?: number;
	stateHash?: string;
	error?: string;
}

const ID = /^[a-z0-9][a-z0-9-]{0,80}$/;

export function experimentsDir(home = dataHome()): string {
	return path.join(home, 'experiments');
}

export function experimentDir(id: string, home = dataHome()): string {
	// a name that cannot be an experiment's names none
	if (!ID.test(id)) throw new NotFoundError(`"${id.slice(0, 80)}" is not an experiment id`);
	return path.join(experimentsDir(home), id);
}

/** Creates the experiment's folder (or finds it, when the same definition ran before). */
/** What experiment.json must hold to be read (the definition was checked when it was written). */
const STORED = v.looseObject({
	id: v.string(),
	def: v.looseObject({ name: v.string(), steps: v.number(), replicates: v.number(), arms: v.array(v.looseObject({ name: v.string() })) }),
	file: v.nullable(v.string()),
	created: v.string()
});

/** What progress.json must hold to be read. */
const PROGRESS = v.looseObject({
	id: v.string(),
	state: v.picklist(['running', 'done', 'failed', 'interrupted']),
	stepsDone: v.number(),
	stepsTotal: v.number(),
	jobs: v.array(v.looseObject({}))
});

const readStored = (file: string) => readJsonFile(file, STORED, `${path.basename(path.dirname(file))}/experiment.json`) as unknown as StoredExperiment;

export function openExperiment(id: string, def: ExperimentDef, file: string | null, home = dataHome()): StoredExperiment {
	const dir = experimentDir(id, home);
	const meta = path.join(dir, 'experiment.json');
	if (existsSync(meta)) {
		const stored = readStored(meta);
		// workers, concurrency, endpoints and metrics may change between sessions
		const next = { ...stored, def, file: file ?? stored.file };
		writeFileAtomic(meta, JSON.stringify(next, null, '\t') + '\n');
		return next;
	}
	mkdirSync(dir, { recursive: true });
	const stored: StoredExperiment = { id, def, file, created: new Date().toISOString() };
	writeFileAtomic(meta, JSON.stringify(stored, null, '\t') + '\n');
	return stored;
}

export function readExperiment(id: string, home = dataHome()): StoredExperiment {
	const file = path.join(experimentDir(id, home), 'experiment.json');
	if (!existsSync(file)) throw new ExperimentNotFound(id);
	return readStored(file);
}

export class ExperimentNotFound extends NotFoundError {
	constructor(id: string) {
		super(`no experiment "${id}"`);
		this.name = 'ExperimentNotFound';
	}
}

export function appendJobLine(id: string, line: JobLine, home = dataHome()): void {
	appendFileSync(path.join(experimentDir(id, home), 'jobs.jsonl'), JSON.stringify(line) + '\n');
}

/** Where each replicate stands, from the last line about it (a torn last line is ignored). */
export function jobStates(id: string, home = dataHome()): Map<string, JobLine> {
	const out = new Map<string, JobLine>();
	for (const l of readLines(path.join(experimentDir(id, home), 'jobs.jsonl'))) {
		try {
			const line = JSON.parse(l) as JobLine;
			out.set(line.key, line);
		} catch {
			// a line cut off by a crash
		}
	}
	return out;
}

export function writeProgress(id: string, progress: ExperimentProgress, home = dataHome()): void {
	writeFileAtomic(path.join(experimentDir(id, home), 'progress.json'), JSON.stringify(progress));
}

function alive(pid: number | undefined): boolean {
	return !!pid && pidAlive(pid);
}

/** The latest progress; a running experiment whose process went away reads as interrupted. */
export function readProgress(id: string, home = dataHome()): ExperimentProgress | null {
	const file = path.join(experimentDir(id, home), 'progress.json');
	if (!existsSync(file)) return null;
	try {
		const p = readJsonFile(file, PROGRESS, `${id}/progress.json`) as unknown as ExperimentProgress;
		return p.state === 'running' && !alive(p.pid) ? { ...p, state: 'interrupted' } : p;
	} catch {
		return null;
	}
}

/** The replicates with their state as far as the log tells (without live progress). */
export function jobStatuses(stored: StoredExperiment, home = dataHome()): JobStatus[] {
	const states = jobStates(stored.id, home);
	return experimentJobs(stored.def).map((j: Job) => {
		const s = states.get(j.key);
		const state = s?.state === 'done' ? 'done' : s?.state === 'failed' ? 'failed' : 'pending';
		return {
			...j,
			state,
			...(s?.run && { run: s.run }),
			stepsDone: state === 'done' ? stored.def.steps : 0,
			stepsTotal: stored.def.steps,
			...(s?.error && { error: s.error }),
			...(s?.metrics && { metrics: s.metrics }),
			...(s?.wallMs !== undefined && { wallMs: s.wallMs }),
			...(s?.stateHash && { stateHash: s.stateHash })
		};
	});
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The report: every finished run's metrics by arm, and every arm against the first. */
export function experimentReport(id: string, home = dataHome()): ExperimentReport {
	const stored = readExperiment(id, home);
	const { def } = stored;
	const jobs = jobStatuses(stored, home);
	const progress = readProgress(id, home);
	const arms = def.arms.map((arm) => ({
		name: arm.name,
		set: arm.set,
		prompts: arm.prompts ?? null,
		model: arm.model ?? def.model,
		runs: jobs
			.filter((j) => j.arm === arm.name && j.state === 'done' && j.run && j.metrics)
			.map((j) => ({ replicate: j.replicate, run: j.run!, seed: j.seed, sample: j.sample, metrics: j.metrics! }))
	}));
	// metrics in registry order, each family's parts after it
	const seen = new Set<string>();
	for (const a of arms) for (const r of a.runs) for (const k of Object.keys(r.metrics)) seen.add(k);
	const order = (k: string) => {
		const [family] = k.split('.');
		const i = METRIC_IDS.indexOf(family);
		return (i < 0 ? METRIC_IDS.length : i) * 1e6 + (k === family ? 0 : 1);
	};
	const metricIds = [...seen].sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
	const valuesOf = (arm: (typeof arms)[number]) => Object.fromEntries(metricIds.map((m) => [m, arm.runs.map((r) => r.metrics[m]).filter((v) => v !== undefined)]));
	const comparisons: ExperimentReport['comparisons'] = [];
	const representative: ExperimentReport['representative'] = [];
	const first = arms[0];
	for (const other of arms.slice(1)) {
		if (!first.runs.length || !other.runs.length) continue;
		comparisons.push(...compareArms({ name: first.name, values: valuesOf(first) }, { name: other.name, values: valuesOf(other) }, metricIds));
		// the runs nearest each arm's median of the first metric: a typical pair for the compare view
		const m = metricIds[0];
		const nearest = (runs: typeof first.runs) => {
			const med = median(runs.map((r) => r.metrics[m]));
			return [...runs].sort((x, y) => Math.abs(x.metrics[m] - med) - Math.abs(y.metrics[m] - med) || x.replicate - y.replicate)[0].run;
		};
		representative.push({ a: first.name, b: other.name, runA: nearest(first.runs), runB: nearest(other.runs) });
	}
	const total = jobs.length;
	const done = jobs.filter((j) => j.state === 'done').length;
	const state: ExperimentReport['state'] =
		progress?.state === 'running' ? 'running' : done === total ? 'done' : jobs.some((j) => j.state === 'failed') ? 'failed' : progress ? 'interrupted' : 'pending';
	return {
		experiment: { id, name: def.name, world: def.world ?? null, steps: def.steps, replicates: def.replicates, base: def.base ?? null, created: stored.created, file: stored.file },
		state,
		metrics: metricIds.map(metricInfo),
		arms,
		comparisons,
		representative
	};
}

/** The report as CSV: one row per run and metric. */
export function reportRunsCsv(r: ExperimentReport): string {
	const rows: CsvCell[][] = [];
	for (const a of r.arms) for (const run of a.runs) for (const m of r.metrics) if (run.metrics[m.id] !== undefined) rows.push([a.name, run.replicate, run.run, run.seed, run.sample, m.id, run.metrics[m.id]]);
	return toCsv(['arm', 'replicate', 'run', 'seed', 'sample', 'metric', 'value'], rows, '\n');
}

/** The table of effects as CSV. */
export function reportComparisonsCsv(r: ExperimentReport): string {
	const rows = r.comparisons.map((c) => [c.metric, c.a, c.b, c.effect, c.ci[0], c.ci[1], c.p, c.pAdjusted, c.delta]);
	return toCsv(['metric', 'a', 'b', 'effect', 'ci_low', 'ci_high', 'p', 'p_adjusted', 'cliffs_delta'], rows, '\n');
}

export function listExperiments(home = dataHome()): ExperimentListing[] {
	const dir = experimentsDir(home);
	if (!existsSync(dir)) return [];
	const out: ExperimentListing[] = [];
	for (const id of readdirSync(dir)) {
		if (!ID.test(id)) continue;
		try {
			const stored = readExperiment(id, home);
			const jobs = jobStatuses(stored, home);
			const progress = readProgress(id, home);
			const done = jobs.filter((j) => j.state === 'done').length;
			out.push({
				id,
				name: stored.def.name,
				world: stored.def.world ?? null,
				arms: stored.def.arms.map((a) => a.name),
				replicates: stored.def.replicates,
				state: progress?.state === 'running' ? 'running' : done === jobs.length ? 'done' : jobs.some((j) => j.state === 'failed') ? 'failed' : progress ? 'interrupted' : 'pending',
				created: stored.created,
				done,
				total: jobs.length
			});
		} catch {
			// a folder without a readable experiment.json is not an experiment
		}
	}
	return out.sort((a, b) => (a.created < b.created ? 1 : -1));
}
