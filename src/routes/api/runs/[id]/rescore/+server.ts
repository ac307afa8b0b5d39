import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { rescoreFromQuery } from '$lib/server/rescore/api';
import type { RequestHandler } from './$types';

/** Every recorded retrieval re-scored under a grid of weights and decays (RescoreReport; see rescore/api.ts). */
export const GET: RequestHandler = ({ params, url }) => answer(() => rescoreFromQuery(params.id, url.searchParams, runQueries().home));
