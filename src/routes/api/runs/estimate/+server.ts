import { answer, readJsonBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** What a run or fork would cost before it starts (StartRunRequest -> RunEstimate). */
export const POST: RequestHandler = ({ request }) => answer(async () => runQueries().estimate(await readJsonBody(request, RUN_BODY)));
