import { answer, readJsonBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Play, pause, step, run N, speed (ControlRequest -> RunInfo). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runManager().control(params.id, await readJsonBody(request, RUN_BODY)));
