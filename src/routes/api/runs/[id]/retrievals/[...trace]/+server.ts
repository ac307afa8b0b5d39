import { answer } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import { parseWeights } from '$lib/server/ide/validate';
import type { RequestHandler } from './$types';

/** The full score table of one retrieval, ?weights=r,i,v to re-score it (RetrievalTable). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() => runManager().retrieval(params.id, params.trace, parseWeights(url.searchParams.get('weights'))));
