import { answer, readBody } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** What a run or fork would cost before it starts (StartRunRequest -> RunEstimate). */
export const POST: RequestHandler = ({ request }) => answer(async () => runManager().estimate(await readBody(request)));
