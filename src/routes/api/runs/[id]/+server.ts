import { answer } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** RunInfo of one run. */
export const GET: RequestHandler = ({ params }) => answer(() => runManager().info(params.id));
