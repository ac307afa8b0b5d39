// The run journal: a run is its log. Layout of <data home>/runs/<run id>/:
//
//   run.json             what the run is: world, seed, model, prompt set, settings, parent
//   world/  prompts/     copies of the world folder and prompt set the run used
//   calls.jsonl          every model call (template, version, prompt, answer, parsed value...)
//                        (./call-line.ts, its one reader)
//   traces.jsonl         every retrieval (enough to rebuild its score table)
//   steps.jsonl          one commit line per committed step: inputs, events, conversations, agents
//                        (./commit-line.ts, its one reader)
//   logs/<log>.<from>-<to>.br  the three logs' lines of steps from..to, sealed into Brotli
//                        blocks at each snapshot; the .jsonl files hold the lines since
//                        (./log.ts, the one reader and writer of the logs)
//   snapshots/<n>.json.br  full state after n steps, every `snapshotEvery` steps, Brotli-compressed
//                        JSON (./codec.ts; runs from before compression have <n>.json)
//   lance/               the memory streams (LanceDB, see ../memory/lance-store.ts): every memory
//                        of every snapshot is stored before that snapshot is written
//   writer.lock          the one process appending to the run (see ./lock.ts)
//
// A run is made with status `creating` and becomes `running` once its first snapshot is
// written; a run killed before that has no state to resume from and is shown as `incomplete`.
//
// A step is committed when its steps line is complete. Lines of the other logs carry
// `s`, the step that commits them (-1 for the run's creation); on resume, anything after
// the last committed step is cut off. Writes go straight to the files (they survive the process
// being killed); data is synced to disk at least once a second and on close.

import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	readdirSync
} from 'node:fs';
import path from 'node:path';
import { WriteLock, type WriterKind } from './lock';
import { readSnapshotAt, snapshotStepOf, writeSnapshotAt } from './codec';
import { commitLineText, parseCommitLine, type StepLine } from './commit-line';
import { callLineText, parseCallLine, type CallLine, type CallRecord } from './call-line';

import * as v from 'valibot';
import { readJsonFile } from '../validate';
import { appendToFile, removeTempFiles, syncFile, writeFileAtomic } from '../fs/atomic';
import { DiskFullError } from '../fs/disk-full';
import { committedSteps, cutLog, lastLogStep, LOG_NAMES, readLogLines, removeUnfinishedBlocks, sealLogs, tailFile, type LogName, type StepRange } from './log';
import type { AgentView, Snapshot, StepOutput } from '../../engine/sim';
import type { SimInput } from '../../engine/inputs';
import type { Ablation, RetrievalTrace } from '../../engine/state';
import type { Settings } from '../../engine/types';
import type { Budget, ImportedRecording, ModelChange, ModelIdentity, PauseInfo, Price, UsageRow } from '../../api/types';

/**
 * `paused`: stopped between steps, every step committed (by the user, or by itself at its budget
 * or on a model fault, with `pause` saying why); it resumes like `interrupted`.
 */
export type RunStatus = 'creating' | 'running' | 'paused' | 'done' | 'interrupted' | 'failed';

export interface RunMeta {
	id: string;
	world: string;
	worldName: string;
	seed: number;
	model: { provider: string; model: string; label: string };
	promptSet: { version: string; templates: Record<string, string> };
	settings: Settings;
	ablate: Ablation;
	/** settings the user changed for this run, as KEY=VALUE */
	overrides: string[];
	parent: { run: string; step: number } | null;
	/** first step this run computed itself (0, or the fork step) */
	firstStep: number;
	snapshotEvery: number;
	/** wall-clock creation time (not part of the simulation) */
	created: string;
	status: RunStatus;
	dimensions: number;
	/** the number of steps the user asked for; a resumed run continues to it */
	target: number;
	/** the models the run talks to (runs made before it was recorded have only `model`) */
	identity?: ModelIdentity;
	/** model changes accepted on resume or fork, oldest first */
	modelChanges?: ModelChange[];
	/** prices (US dollars per million tokens) of the language models the run used, by model name */
	prices?: Record<string, Price>;
	/** the run pauses between steps once its own calls reach this */
	budget?: Budget | null;
	/** why the run paused by itself; cleared when it steps again */
	pause?: PauseInfo | null;
	/** tokens and dollars of the run's own calls, as of the last status write */
	usage?: UsageRow;
	/**
	 * tokens and dollars of calls made ahead of need that no step used (not in the calls log:
	 * they are not part of the run, but they were paid for), as of the last status write
	 */
	aheadUnused?: UsageRow;
	/** tokens (estimated, 4 characters a token) and dollars of the embedding requests sent to an endpoint */
	embeddings?: UsageRow;
	/** a run made from a recording of the reference implementation: where from, and what it lacks */
	imported?: ImportedRecording;
}

/** The files of a run folder, by name: every module finds them here (the logs: ./log.ts). */
export type RunFileName = 'run.json';

export function runFile(dir: string, name: RunFileName): string {
	return path.join(dir, name);
}

const RUN_STATUSES = ['creating', 'running', 'paused', 'done', 'interrupted', 'failed'] as const satisfies readonly RunStatus[];
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** What a run.json must hold for the run to be read (the rest is read as it was written). */
const RUN_META = v.looseObject({
	id: v.string(),
	world: v.string(),
	worldName: v.string(),
	seed: v.number(),
	promptSet: v.looseObject({ version: v.string(), templates: v.record(v.string(), v.string()) }),
	created: v.string(),
	model: v.looseObject({ provider: v.string(), model: v.string() }),
	settings: v.looseObject({}),
	ablate: v.looseObject({}),
	overrides: v.array(v.string()),
	parent: v.nullable(v.object({ run: v.string(), step: count })),
	firstStep: count,
	snapshotEvery: v.pipe(count, v.minValue(1)),
	status: v.picklist(RUN_STATUSES),
	dimensions: count,
	target: count
});

/** A run's run.json as it is now, checked (a damaged one is named with the field at fault). */
export function readRunMeta(dir: string): RunMeta {
	// the fields a reader relies on are checked; the settings and the rest are the writer's own
	return readJsonFile(runFile(dir, 'run.json'), RUN_META, `run.json of ${path.basename(dir)}`) as unknown as RunMeta;
}

/** Complete lines of a JSONL file (a torn last line, from a crash, is ignored). */
export function readLines(file: string): string[] {
	if (!existsSync(file)) return [];
	const text = readFileSync(file, 'utf8');
	const end = text.lastIndexOf('\n');
	if (end < 0) return [];
	return text.slice(0, end).split('\n').filter((l) => l.length > 0);
}

/** Appends complete lines to an open log in one write (a reader sees a line whole or not yet). */
export function appendLines(fd: number, lines: readonly string[], file: string): void {
	if (lines.length === 0) return;
	appendToFile(fd, lines.join('\n') + '\n', file);
}

function writeJsonAtomic(file: string, value: unknown): void {
	writeFileAtomic(file, JSON.stringify(value));
}

// ---------------------------------------------------------------------------
// writing

/** Runs `fn`; a full disk is reported with how to resume the run `id` (../fs/disk-full.ts). */
function writing<T>(id: string, fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		throw e instanceof DiskFullError ? e.forRun(id) : e;
	}
}

export class RunWriter {
	private readonly fds = new Map<LogName, number>();
	private lastSync = 0;

	private constructor(
		readonly dir: string,
		public meta: RunMeta,
		/** this writer's hold on the run (released by close) */
		readonly lock: WriteLock,
		/** wall clock for sync pacing only; never enters the simulation */
		private readonly clock: () => number = () => performance.now()
	) {
		for (const log of LOG_NAMES) this.fds.set(log, openSync(tailFile(dir, log), 'a'));
	}

	/**
	 * A new run folder with its metadata, locked for `holder`; run.json says `creating` until
	 * the caller has written the first snapshot and set the status.
	 */
	static create(runsDir: string, meta: RunMeta, holder: WriterKind): RunWriter {
		const dir = path.join(runsDir, meta.id);
		mkdirSync(runsDir, { recursive: true });
		try {
			mkdirSync(dir);
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`run ${meta.id} already exists`);
			throw e;
		}
		const lock = WriteLock.acquire(dir, holder, meta.id);
		mkdirSync(path.join(dir, 'snapshots'));
		const created = { ...meta, status: 'creating' as const };
		writing(meta.id, () => writeJsonAtomic(path.join(dir, 'run.json'), created));
		return new RunWriter(dir, created, lock);
	}

	/**
	 * Reopens a run to continue it: cuts every log back to the last committed step.
	 * Returns the writer and that step count (the state to restore is after it).
	 */
	static reopen(dir: string, holder: WriterKind): { writer: RunWriter; committed: number } {
		const lock = WriteLock.acquire(dir, holder);
		try {
			return RunWriter.reopenLocked(dir, lock);
		} catch (e) {
			lock.release();
			throw e;
		}
	}

	private static reopenLocked(dir: string, lock: WriteLock): { writer: RunWriter; committed: number } {
		const meta = readRunMeta(dir);
		if (!listSnapshotSteps(dir).includes(meta.firstStep)) {
			throw new Error(
				`run ${meta.id} was stopped while it was being created, before its first snapshot: it cannot be resumed; delete it with \`runs rm ${meta.id}\``
			);
		}
		// a block being written when the writer stopped is no one's now; sealed blocks hold only committed steps
		removeUnfinishedBlocks(dir);
		const last = lastLogStep(dir, 'steps');
		const lastStep = Number.isFinite(last) ? last : meta.firstStep - 1;
		writing(meta.id, () => {
			for (const log of LOG_NAMES) cutLog(dir, log, lastStep);
		});
		// snapshots after the last committed step cannot exist, but a file being written when the
		// writer stopped can: only the lock holder writes, so it is no one's now
		removeTempFiles(path.join(dir, 'snapshots'));
		removeTempFiles(dir, 'run.json');
		return { writer: new RunWriter(dir, meta, lock), committed: lastStep + 1 };
	}

	private append(log: LogName, lines: string[]): void {
		appendLines(this.fds.get(log) as number, lines, tailFile(this.dir, log));
	}

	/**
	 * Writes a step's records and then its commit line. A full disk (DiskFullError) leaves at most
	 * a torn line, which reopening the run cuts.
	 */
	commit(out: StepOutput, inputs: SimInput[], calls: CallRecord[], agents: AgentView[]): void {
		writing(this.meta.id, () => this.commitLines(out, inputs, calls, agents));
	}

	private commitLines(out: StepOutput, inputs: SimInput[], calls: CallRecord[], agents: AgentView[]): void {
		const s = out.step;
		this.lock.verify();
		// tokens ahead of the prompt, so that indexes reading only a line's head see them
		this.append('calls', calls.map((c) => callLineText(s, c)));
		this.append('traces', out.traces.map((t) => JSON.stringify({ s, ...t })));
		if (s < this.meta.firstStep) return; // the creation's records are committed by its first snapshot
		const line: StepLine = {
			step: s,
			time: out.time,
			inputs,
			events: out.events,
			conversations: out.conversations,
			agents,
			calls: calls.length,
			memories: out.memories.length
		};
		this.append('steps', [commitLineText(line)]);
		const now = this.clock();
		if (now - this.lastSync > 1000) this.sync(now);
	}

	/**
	 * Writes a snapshot, then seals the logs' lines up to it into blocks (./log.ts). On a full
	 * disk (DiskFullError) no temporary file stays; the lines not sealed stay in the tails.
	 */
	snapshot(snap: Snapshot): void {
		this.lock.verify();
		writing(this.meta.id, () => {
			this.sync(this.clock());
			writeSnapshotFile(this.dir, snap);
			sealLogs(this.dir, snap.state.step - 1);
		});
	}

	setStatus(status: RunStatus, patch: Partial<RunMeta> = {}): void {
		this.update({ ...patch, status });
	}

	/** Changes run.json (written atomically). */
	update(patch: Partial<RunMeta>): void {
		this.lock.verify();
		this.meta = { ...this.meta, ...patch };
		writing(this.meta.id, () => writeJsonAtomic(path.join(this.dir, 'run.json'), this.meta));
	}

	private sync(now: number): void {
		for (const [log, fd] of this.fds) syncFile(fd, tailFile(this.dir, log));
		this.lastSync = now;
	}

	/** Syncs and closes the logs and releases the run, whatever fails (a full disk: DiskFullError). */
	close(): void {
		try {
			if (this.fds.size > 0) writing(this.meta.id, () => this.sync(this.clock()));
		} finally {
			try {
				for (const fd of this.fds.values()) closeSync(fd);
				this.fds.clear();
			} finally {
				this.lock.release();
			}
		}
	}
}

/**
 * Changes the run.json of a run that is not open for writing (atomically), holding its writer
 * lock meanwhile: refused (RunLockedError) while another process writes the run.
 */
export function updateRunMeta(dir: string, patch: Partial<RunMeta>, holder: WriterKind = 'CLI'): RunMeta {
	const lock = WriteLock.acquire(dir, holder);
	try {
		const meta = { ...readRunMeta(dir), ...patch };
		writeJsonAtomic(runFile(dir, 'run.json'), meta);
		return meta;
	} finally {
		lock.release();
	}
}

// ---------------------------------------------------------------------------
// reading

export class RunReader {
	readonly meta: RunMeta;

	constructor(readonly dir: string) {
		if (!existsSync(runFile(dir, 'run.json'))) throw new Error(`no run at ${dir}`);
		this.meta = readRunMeta(dir);
	}

	/** Commit lines, all or those of steps [range.from, range.to) (read from the blocks that hold them). */
	steps(range?: StepRange): StepLine[] {
		return readLogLines(this.dir, 'steps', range).map(parseCommitLine);
	}

	/** Steps committed: the state after this many steps is the latest one. */
	committed(): number {
		return committedSteps(this.dir, this.meta);
	}

	snapshotSteps(): number[] {
		return listSnapshotSteps(this.dir);
	}

	snapshot(step: number): Snapshot {
		return readSnapshotFile(this.dir, step);
	}

	calls(range?: StepRange): CallLine[] {
		return readLogLines(this.dir, 'calls', range).map(parseCallLine);
	}

	traces(range?: StepRange): (RetrievalTrace & { s: number })[] {
		return readLogLines(this.dir, 'traces', range).map((l) => JSON.parse(l));
	}
}

/** Steps that have a snapshot in a run folder, ascending. */
export function listSnapshotSteps(runDir: string): number[] {
	const dir = path.join(runDir, 'snapshots');
	if (!existsSync(dir)) return [];
	// compressed or plain (see ./codec.ts); a step that has both is listed once
	const steps = new Set<number>();
	for (const f of readdirSync(dir)) {
		const step = snapshotStepOf(f);
		if (step !== null) steps.add(step);
	}
	return [...steps].sort((a, b) => a - b);
}

/** The state after `step` steps as its snapshot file holds it (either encoding, see ./codec.ts). */
export function readSnapshotFile(runDir: string, step: number): Snapshot {
	return readSnapshotAt(path.join(runDir, 'snapshots'), step);
}

/** Writes a snapshot file whole or not at all (named by its step, compressed: see ./codec.ts). */
export function writeSnapshotFile(runDir: string, snap: Snapshot): void {
	writeSnapshotAt(path.join(runDir, 'snapshots'), snap);
}

export const readSnapshot = readSnapshotFile;

/** The committed step count, from the logs' block names and last line (see ./log.ts). */
export { committedSteps };
