import { answer } from '$lib/server/http';
import { queryInt } from '$lib/server/validate';
import { captureState, diffStates, journalOfStep, memoriesSince, type CapturedState } from '$lib/server/read/changes';
import { runQueries } from '$lib/server/read/queries';
import { runLineage } from '$lib/server/store/store';
import type { StepChanges } from '$lib/api/changes';
import type { RequestHandler } from './$types';

/** What the step to the state after ?step=N steps did (StepChanges; default: the latest step). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(async (): Promise<StepChanges> => {
		const queries = runQueries();
		const data = queries.run(params.id);
		const step = queryInt(url, 'step', { min: 0 }) ?? data.committed();
		const first = runLineage(params.id, { home: queries.home })[0]?.from ?? 0;
		if (step <= first) {
			const time = await queries.withState(params.id, step, (sim) => sim.time);
			return { run: params.id, step, time, changes: [], counts: {} };
		}
		const before: CapturedState = await queries.withState(params.id, step - 1, (sim) => captureState(sim));
		const { after, stored } = await queries.withState(params.id, step, (sim) => ({ after: captureState(sim), stored: memoriesSince(sim, before.sizes) }));
		return diffStates(params.id, before, after, stored, journalOfStep(params.id, step - 1, queries.home));
	});
