import { answer } from '$lib/server/http';
import { experimentView } from '$lib/server/experiments/manager';
import type { RequestHandler } from './$types';

/** The experiment's report and, while it runs, its progress ({ report, progress }). */
export const GET: RequestHandler = ({ params }) => answer(() => experimentView(params.id));
