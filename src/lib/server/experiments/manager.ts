// Experiments started from the IDE: run in the background of the server process (their workers
// are child processes), at most once at a time per experiment; the pages read their progress
// from the experiment's folder, so one started from the command line shows the same way.

import { ConflictError } from '../errors';
import { dataHome } from '../paths';
import { experimentId } from './definition';
import { resolveExperiment, runExperiment } from './pool';
import { experimentReport, readProgress } from './store';
import type { ExperimentProgress, ExperimentReport } from '../../api/experiments';

const running = new Map<string, Promise<unknown>>();

/** Starts (or continues) the experiment a definition describes; answers its id once it is checked. */
export async function startExperiment(raw: unknown, home = dataHome()): Promise<{ id: string }> {
	const def = await resolveExperiment(raw, 'definition', home);
	const id = experimentId(def);
	if (running.has(id) || readProgress(id, home)?.state === 'running') throw new ConflictError(`experiment ${id} is already running`);
	const p = runExperiment(def, { home })
		.catch(() => {
			// the failure is in the experiment's progress file and its jobs log
		})
		.finally(() => running.delete(id));
	running.set(id, p);
	return { id };
}

export interface ExperimentView {
	report: ExperimentReport;
	progress: ExperimentProgress | null;
}

/** The report and progress of experiment `id` (not-found when there is none). */
export function experimentView(id: string, home = dataHome()): ExperimentView {
	return { report: experimentReport(id, home), progress: readProgress(id, home) };
}
