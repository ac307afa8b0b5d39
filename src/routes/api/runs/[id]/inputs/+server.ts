import { answer, readJsonBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Inner voices and object edits, queued on the live run or as a fork (InputRequest -> InputResult). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runManager().input(params.id, await readJsonBody(request, RUN_BODY)));
