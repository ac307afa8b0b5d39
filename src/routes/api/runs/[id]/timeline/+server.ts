import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** Step count and markers of the run's lineage (Timeline). */
export const GET: RequestHandler = ({ params }) => answer(() => runQueries().timeline(params.id));
