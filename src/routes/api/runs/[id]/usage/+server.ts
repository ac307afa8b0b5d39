import { answer } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Tokens and dollars of the run's own calls per agent, template and model (RunUsage). */
export const GET: RequestHandler = ({ params }) => answer(() => runManager().usage(params.id));
