import { answer, readJsonBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** Every run in the data home, newest first (RunListing[]). */
export const GET: RequestHandler = () => answer(() => runQueries().list());

/** Starts a run, or a fork with `from` (StartRunRequest -> { id }). */
export const POST: RequestHandler = ({ request }) => answer(async () => runManager().start(await readJsonBody(request, RUN_BODY)));
