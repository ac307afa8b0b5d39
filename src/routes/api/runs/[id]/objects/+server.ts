import { answer } from '$lib/server/http';
import { objectStates } from '$lib/server/read/objects';
import { runQueries } from '$lib/server/read/queries';
import { queryInt } from '$lib/server/validate';
import type { ObjectStates } from '$lib/api/types';
import type { RequestHandler } from './$types';

/** The town's objects at ?step=N (default: the latest), from the exact restored state (ObjectStates). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(async () => {
		const queries = runQueries();
		const step = queryInt(url, 'step') ?? queries.run(params.id).committed();
		const objects = await queries.withState(params.id, step, (sim) => objectStates(sim));
		return { step, objects } satisfies ObjectStates;
	});
