import { answer, readBody } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Play, pause, step, run N, speed (ControlRequest -> RunInfo). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runManager().control(params.id, await readBody(request)));
