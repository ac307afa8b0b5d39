import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** Tokens and dollars of the run's own calls per agent, template and model (RunUsage). */
export const GET: RequestHandler = ({ params }) => answer(() => runQueries().usage(params.id));
