import { answer, readBody } from '$lib/server/ide/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** What a run or fork would cost before it starts (StartRunRequest -> RunEstimate). */
export const POST: RequestHandler = ({ request }) => answer(async () => runQueries().estimate(await readBody(request)));
