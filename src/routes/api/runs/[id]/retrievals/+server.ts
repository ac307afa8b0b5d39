import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { queryInt } from '$lib/server/validate';
import type { RequestHandler } from './$types';

/** Retrievals of the lineage, ?agent=X&step=N to filter (TraceSummary[]). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() => runQueries().retrievals(params.id, { agent: url.searchParams.get('agent') || undefined, step: queryInt(url, 'step') }));
