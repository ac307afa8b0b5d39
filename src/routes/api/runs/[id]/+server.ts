import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** RunInfo of one run. */
export const GET: RequestHandler = ({ params }) => answer(() => runQueries().info(params.id));
