import { answer } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Step count and markers of the run's lineage (Timeline). */
export const GET: RequestHandler = ({ params }) => answer(() => runManager().timeline(params.id));
