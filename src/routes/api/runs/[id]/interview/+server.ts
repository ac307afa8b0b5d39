import { answer, readBody } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** A read-only question to an agent at a step (InterviewRequest -> InterviewAnswer). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runManager().interview(params.id, await readBody(request)));
