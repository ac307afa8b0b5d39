// The run store: the one owner of runs on disk (`<data home>/runs/<id>/`). It opens runs for
// reading (the journal's RunReader, which never blocks and sees only whole lines), walks a
// run's lineage across forks, says how a run stands (its status follows whether its writer is
// alive), and lists, checks and removes runs. Writing goes through the journal's RunWriter,
// which holds the run's writer lock (../journal/lock.ts). The file formats themselves live in
// ../journal/journal.ts.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { RunReader, committedSteps, listSnapshotSteps, type RunMeta, type RunStatus } from '../journal/journal';
import { validRunId } from '../../shared/ids';
import { dataHome } from '../paths';
import { lineageSpans, type LineageNode, type Span } from './lineage';
import { liveWriter, type LockInfo } from '../journal/lock';
import { NotFoundError } from '../errors';

export { lineageSpans, spanOfState, spanOfStep, type Span } from './lineage';
export { RunLockedError, describeHolder, liveWriter, type LockInfo, type WriterKind } from '../journal/lock';

export function runsDir(home = dataHome()): string {
	return path.join(home, 'runs');
}

/** The folder of a run that exists, or null. */
export function runFolder(id: string, home = dataHome()): string | null {
	if (!validRunId(id)) return null;
	const dir = path.join(runsDir(home), id);
	return existsSync(path.join(dir, 'run.json')) ? dir : null;
}

/** A run for reading; a clear error when there is none. */
export function openRun(id: string, home = dataHome()): RunReader {
	const dir = runFolder(id, home);
	if (!dir) throw new NotFoundError(`no run "${id}" in ${runsDir(home)}`);
	return new RunReader(dir);
}

/** What the lineage walk needs of a run in a data home, or null when there is no such run. */
export function lineageNode(home: string): (id: string) => LineageNode | null {
	return (id) => {
		const dir = runFolder(id, home);
		if (!dir) return null;
		const meta = new RunReader(dir).meta;
		return { firstStep: meta.firstStep, parent: meta.parent, committed: committedSteps(dir, meta) };
	};
}

/** Who holds which steps of a run's history, root first (see ./lineage.ts). */
export function runLineage(id: string, opts: { home?: string; until?: number } = {}): Span[] {
	return lineageSpans(id, lineageNode(opts.home ?? dataHome()), opts.until);
}

/**
 * How a run stands as shown to people: run.json's status, except that a run marked `running`
 * whose writer is gone is `interrupted`, and one that was being created when its writer went
 * away (no first snapshot) is `incomplete` (it cannot be resumed: remove it).
 */
export type ShownStatus = RunStatus | 'incomplete';

export function liveStatus(dir: string, meta: RunMeta): ShownStatus {
	if (meta.status !== 'running' && meta.status !== 'creating') return meta.status;
	if (liveWriter(dir)) return meta.status === 'creating' ? 'running' : meta.status;
	if (meta.status === 'creating' && !listSnapshotSteps(dir).includes(meta.firstStep)) return 'incomplete';
	return 'interrupted';
}

/** The live writer of a run, or null. */
export function writerOf(dir: string): LockInfo | null {
	return liveWriter(dir);
}

export interface StoredRun {
	id: string;
	dir: string;
	meta: RunMeta;
}

/** Every run of a data home (folders without a readable run.json are not runs). */
export function storedRuns(home = dataHome()): StoredRun[] {
	const dir = runsDir(home);
	if (!existsSync(dir)) return [];
	const out: StoredRun[] = [];
	for (const id of readdirSync(dir)) {
		if (!validRunId(id)) continue;
		try {
			const r = new RunReader(path.join(dir, id));
			out.push({ id, dir: r.dir, meta: r.meta });
		} catch {
			// not a run
		}
	}
	return out;
}

/** Runs forked directly from `id`. */
export function childrenOf(id: string, home = dataHome()): string[] {
	return storedRuns(home)
		.filter((r) => r.meta.parent?.run === id)
		.map((r) => r.id);
}
