// Upkeep of runs on disk: checking that a run's files agree with each other (and saying how to
// repair what does not), and removing a run.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Snapshot } from '../../engine/sim';
import { RunReader, listSnapshotSteps, readSnapshotFile } from '../journal/journal';
import { checkLog, LOG_NAMES, readLogLines, tornTail, type LogName } from '../journal/log';
import { MemoryStore } from '../memory/lance-store';
import { dataHome } from '../paths';
import { RunLockedError, WriteLock, liveWriter } from '../journal/lock';
import { validRunId } from '../../shared/ids';
import { childrenOf, liveStatus, openRun, runsDir, type ShownStatus } from './store';

export interface CheckProblem {
	/** the file (relative to the run folder) or part of the run */
	where: string;
	what: string;
	repair: string;
}

export interface RunCheck {
	run: string;
	status: ShownStatus;
	firstStep: number;
	/** steps committed (the last whole commit line) */
	committed: number;
	snapshots: number;
	memoryRows: number | null;
	problems: CheckProblem[];
}

/**
 * Verifies a run: its commit lines (whole, in order, one per step), the other logs against
 * them, its snapshots and its memory rows against the snapshots. Reads only; a run being
 * written is checked as far as it is committed.
 */
export async function checkRun(id: string, home = dataHome()): Promise<RunCheck> {
	const reader = openRun(id, home);
	const dir = reader.dir;
	const meta = reader.meta;
	const problems: CheckProblem[] = [];
	const add = (where: string, what: string, repair: string) => problems.push({ where, what, repair });
	const status = liveStatus(dir, meta);
	const resume = `npm run simulacra -- resume ${id}`;
	const remove = `npm run simulacra -- runs rm ${id}`;
	if (status === 'incomplete') {
		add('run.json', 'the run was stopped while it was being created, before its first snapshot: there is no state to resume from', `remove it (${remove}) and start it again`);
	} else if (status === 'interrupted' && (meta.status === 'running' || meta.status === 'creating')) {
		add('run.json', `run.json says "${meta.status}" but no process is writing the run: it was interrupted`, `continue it (${resume}); nothing is lost of what was committed`);
	}

	// sealed blocks (logs/<log>.<from>-<to>.br) against their names and the tails
	const fork = (step: number) => `fork a new run from step ${step} (npm run simulacra -- run --from ${id}@${step} --steps N), which copies only the good part, then remove this one (${remove})`;
	const unreadable = new Set<LogName>();
	for (const log of LOG_NAMES) {
		for (const p of checkLog(dir, log)) {
			if (p.repair === 'fork') unreadable.add(log);
			add(p.where, p.what, p.repair === 'resume' ? `resuming drops them (${resume})` : p.repair === 'delete' ? 'delete the file (it is not used)' : fork(meta.firstStep));
		}
	}
	const linesOf = (log: LogName): string[] => {
		try {
			return readLogLines(dir, log);
		} catch {
			return []; // a block that does not decompress: reported above
		}
	};

	// commit lines
	const lines = unreadable.has('steps') ? [] : linesOf('steps');
	let expected = meta.firstStep;
	let committed = meta.firstStep;
	for (let i = 0; i < lines.length; i++) {
		let step: number;
		try {
			step = (JSON.parse(lines[i]) as { step: number }).step;
		} catch {
			add('steps.jsonl', `line ${i + 1} is not a whole commit line (not JSON)`, `fork a new run from the last good step (npm run simulacra -- run --from ${id}@${expected} --steps N) or remove this one`);
			break;
		}
		if (step !== expected) {
			add(
				'steps.jsonl',
				`line ${i + 1} is the commit line of step ${step}, not of step ${expected}: ${step < expected ? 'steps were written twice (two writers at once)' : 'steps are missing'}`,
				`fork a new run from step ${expected} (npm run simulacra -- run --from ${id}@${expected} --steps N), which copies only the good part, then remove this one (${remove})`
			);
			break;
		}
		expected++;
		committed = expected;
	}
	const torn = tornTail(dir, 'steps');
	if (torn > 0) add('steps.jsonl', `ends in a torn line of ${torn} bytes after step ${committed - 1} (a writer stopped mid-line)`, `resuming cuts it (${resume})`);

	// the other logs: every line belongs to a committed step (or to the run's creation)
	for (const log of ['calls', 'traces'] as const) {
		const f = `${log}.jsonl`;
		const rows = unreadable.has(log) ? [] : linesOf(log);
		let last = -Infinity;
		let after = 0;
		const keys = new Set<string>();
		for (let i = 0; i < rows.length; i++) {
			let row: { s: number; key?: string; id?: string };
			try {
				row = JSON.parse(rows[i]);
			} catch {
				add(f, `line ${i + 1} is not JSON`, `fork a new run from step ${Math.max(meta.firstStep, last)} and remove this one`);
				break;
			}
			if (typeof row.s !== 'number' || row.s < last) {
				add(f, `line ${i + 1} is of step ${row.s} after lines of step ${last}: the log is out of order (two writers at once)`, `fork a new run from step ${meta.firstStep} .. ${committed} and remove this one (${remove})`);
				break;
			}
			last = row.s;
			if (row.s >= committed) after++;
			const key = f === 'calls.jsonl' ? row.key : row.id;
			if (key !== undefined) {
				if (keys.has(`${row.s}/${key}`)) {
					add(f, `line ${i + 1} repeats ${f === 'calls.jsonl' ? 'call' : 'trace'} ${key} of step ${row.s}`, `fork a new run from step ${row.s} and remove this one (${remove})`);
					break;
				}
				keys.add(`${row.s}/${key}`);
			}
		}
		if (after > 0) add(f, `${after} line(s) of steps after the last commit (step ${committed - 1}), from a step that was not finished`, `resuming cuts them (${resume})`);
		const t = tornTail(dir, log);
		if (t > 0) add(f, `ends in a torn line of ${t} bytes`, `resuming cuts it (${resume})`);
	}

	// snapshots
	const steps = listSnapshotSteps(dir);
	let latest: Snapshot | null = null;
	for (const s of steps) {
		let snap: Snapshot;
		try {
			snap = readSnapshotFile(dir, s);
		} catch (e) {
			add(`snapshot ${s}`, `cannot be read (${e instanceof Error ? e.message.slice(0, 120) : String(e)})`, `delete snapshots/${s}.*: the run restores from an earlier snapshot and its log`);
			continue;
		}
		if (snap.state?.step !== s) add(`snapshot ${s}`, `holds the state after ${snap.state?.step} steps, not ${s}`, `delete snapshots/${s}.*`);
		else if (s > committed) add(`snapshot ${s}`, `is of step ${s}, after the last commit (${committed})`, `delete snapshots/${s}.*, then resume`);
		else latest = snap;
	}
	if (status !== 'incomplete' && !steps.includes(meta.firstStep)) {
		add('snapshots', `there is no snapshot of the run's first state (step ${meta.firstStep})`, `the run cannot be restored: remove it (${remove})`);
	}
	for (const f of existsSync(path.join(dir, 'snapshots')) ? readdirSync(path.join(dir, 'snapshots')) : []) {
		if (f.includes('.tmp')) add(`snapshots/${f}`, 'is a snapshot that was being written when the writer stopped', 'delete the file (it is not used)');
	}

	// memory rows against the latest snapshot: every memory it counts is stored, once
	let memoryRows: number | null = null;
	if (!existsSync(path.join(dir, 'lance'))) {
		if (status !== 'incomplete') add('lance', 'the run has no memory store', `the run cannot be restored: remove it (${remove})`);
	} else if (latest) {
		const store = await MemoryStore.open(dir, meta.dimensions);
		try {
			const rows = await store.load();
			memoryRows = rows.length;
			const seen = new Set<string>();
			const byAgent = new Map<string, number>();
			let twice = 0;
			for (const r of rows) {
				const key = `${r.agent}/${r.index}`;
				if (seen.has(key)) twice++;
				seen.add(key);
				byAgent.set(r.agent, Math.max(byAgent.get(r.agent) ?? 0, r.index + 1));
			}
			if (twice > 0) add('lance', `${twice} memory row(s) are stored twice (same agent and index)`, `fork a new run from step ${latest.state.step} and remove this one (${remove})`);
			for (const [agent, { size }] of Object.entries(latest.memory)) {
				const held = byAgent.get(agent) ?? 0;
				if (held < size) {
					add('lance', `${agent} has ${held} stored memories but the snapshot of step ${latest.state.step} counts ${size}`, `delete snapshots/${latest.state.step}.* and resume (${resume}): the log rebuilds them`);
				}
			}
		} finally {
			store.close();
		}
	}
	return { run: id, status, firstStep: meta.firstStep, committed, snapshots: steps.length, memoryRows, problems };
}

/** The bytes of the files under `dir`. */
export function folderBytes(dir: string): number {
	let n = 0;
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) n += folderBytes(p);
		else if (e.isFile()) n += statSync(p).size;
	}
	return n;
}

/**
 * Removes a run: its folder holds everything only it uses (logs, snapshots, memories, copies of
 * its world and prompts, evaluations). Refused while a process writes it, and while forks read
 * their earlier steps from it. The folder is first moved aside, so a removal stopped half-way
 * leaves no half-run behind.
 */
export function removeRun(id: string, home = dataHome()): { run: string; bytes: number } {
	const bare = path.join(runsDir(home), id);
	if (validRunId(id) && !existsSync(path.join(bare, 'run.json')) && existsSync(bare) && statSync(bare).isDirectory()) {
		// a folder made for a run whose process was killed before it wrote run.json
		const maker = liveWriter(bare);
		if (maker) throw new RunLockedError(id, maker);
		const bytes = folderBytes(bare);
		rmSync(bare, { recursive: true, force: true });
		return { run: id, bytes };
	}
	const reader: RunReader = openRun(id, home);
	const writer = liveWriter(reader.dir);
	if (writer) throw new RunLockedError(id, writer);
	const forks = childrenOf(id, home);
	if (forks.length > 0) throw new Error(`run ${id} has forks that read their earlier steps from it (${forks.join(', ')}): remove them first`);
	const lock = WriteLock.acquire(reader.dir, 'CLI', id);
	const trash = path.join(runsDir(home), '.removed');
	mkdirSync(trash, { recursive: true });
	const aside = path.join(trash, `${id}-${randomBytes(3).toString('hex')}`);
	let bytes = 0;
	try {
		bytes = folderBytes(reader.dir);
		renameSync(reader.dir, aside);
	} catch (e) {
		lock.release();
		throw e;
	}
	rmSync(aside, { recursive: true, force: true });
	// what earlier removals left when they were stopped
	for (const left of readdirSync(trash)) rmSync(path.join(trash, left), { recursive: true, force: true });
	return { run: id, bytes };
}
