import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { parseWeights } from '$lib/server/validate';
import type { RequestHandler } from './$types';

/** The full score table of one retrieval, ?weights=r,i,v to re-score it (RetrievalTable). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() => runQueries().retrieval(params.id, params.trace, parseWeights(url.searchParams.get('weights'))));
