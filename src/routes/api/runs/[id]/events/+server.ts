import { answerWith } from '$lib/server/http';
import { eventStream } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Server-sent RunEvents of one run. */
export const GET: RequestHandler = ({ params, request }) => answerWith(() => eventStream(runManager(), params.id, request.signal));
