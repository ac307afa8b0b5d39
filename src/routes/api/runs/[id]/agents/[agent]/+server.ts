import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { queryInt } from '$lib/server/validate';
import type { RequestHandler } from './$types';

/** One agent at ?step=N (default: the latest), from the exact restored state (AgentDetail). */
export const GET: RequestHandler = ({ params, url }) => answer(() => runQueries().agent(params.id, params.agent, queryInt(url, 'step')));
