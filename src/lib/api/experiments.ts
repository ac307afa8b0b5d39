// Shapes of an experiment: its definition, the state of its runs and its report (shared by the
// CLI, the API and the pages).

import type { ArmComparison } from '../eval/stats';
import { v } from './schema';

export type ModelName = 'offline' | 'openai';

export interface ArmDef {
	name: string;
	/** setting overrides, KEY=VALUE */
	set: string[];
	/** a prompt-set version, label or folder (default: the working prompts, or the base run's) */
	prompts?: string;
	/** the model this arm talks to (default: the experiment's) */
	model?: ModelName;
}

export interface ExperimentDef {
	name: string;
	world?: string;
	/** steps every run takes (from the fork step when there is a base run) */
	steps: number;
	replicates: number;
	/** the seed of replicate 0; replicate r uses seed + r */
	seed: number;
	/** `shared`: replicate r has the same seed and sampling index in every arm; `distinct`: each run its own */
	seeds: 'shared' | 'distinct';
	/** fork every run from this run and step, so the arms share history up to the change */
	base?: { run: string; step: number };
	model: ModelName;
	arms: ArmDef[];
	/** metric ids to compute (default: all) */
	metrics?: string[];
	/** worker processes (default: the machine's cores) */
	workers?: number;
	/** model calls in flight across all workers */
	concurrency?: number;
	/** OpenAI-compatible base URLs serving the configured models: calls are spread over them */
	endpoints?: string[];
}

export interface Job {
	/** `<arm>#<replicate>` */
	key: string;
	arm: string;
	replicate: number;
	seed: number;
	/** sampling index, part of the answer-cache key of every chat answer */
	sample: number;
}

export type JobState = 'pending' | 'running' | 'done' | 'failed';

export interface JobStatus extends Job {
	state: JobState;
	run?: string;
	stepsDone: number;
	stepsTotal: number;
	error?: string;
	metrics?: Record<string, number>;
	wallMs?: number;
	stateHash?: string;
}

export interface ExperimentProgress {
	id: string;
	state: 'running' | 'done' | 'failed' | 'interrupted';
	/** the process running it */
	pid?: number;
	started: string;
	updated: string;
	stepsDone: number;
	stepsTotal: number;
	/** seconds left, from the pace so far (null until a step is done) */
	etaSeconds: number | null;
	jobs: JobStatus[];
	error?: string;
}

export interface MetricInfo {
	id: string;
	label: string;
	description: string;
}

export interface ExperimentRunRow {
	replicate: number;
	run: string;
	seed: number;
	sample: number;
	metrics: Record<string, number>;
}

/** One metric compared between two arms (see `compareArms`). */
export type ExperimentComparison = ArmComparison;

export interface ExperimentReport {
	experiment: { id: string; name: string; world: string | null; steps: number; replicates: number; base: ExperimentDef['base'] | null; created: string; file: string | null };
	state: ExperimentProgress['state'] | 'pending';
	metrics: MetricInfo[];
	arms: { name: string; set: string[]; prompts: string | null; model: ModelName; runs: ExperimentRunRow[] }[];
	/** every arm against the first, per metric */
	comparisons: ExperimentComparison[];
	/** per compared pair: the runs whose values sit nearest each arm's median of the first metric */
	representative: { a: string; b: string; runA: string; runB: string }[];
}

export interface ExperimentListing {
	id: string;
	name: string;
	world: string | null;
	arms: string[];
	replicates: number;
	state: ExperimentReport['state'];
	created: string;
	done: number;
	total: number;
}

/**
 * POST /api/experiments body -> { id }: an experiment definition, the file format as JSON
 * (`ExperimentDef`). A JSON object here; the definition's own checks (the CLI's too) name every
 * problem with its field, and answer `invalid` with them as issues.
 */
export const ExperimentStartRequestSchema = v.custom<Record<string, unknown>>(
	(x) => typeof x === 'object' && x !== null && !Array.isArray(x),
	'must be a JSON object: an experiment definition'
);
