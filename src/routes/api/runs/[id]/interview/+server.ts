import { answer, readBody } from '$lib/server/ide/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** A read-only question to an agent at a step (InterviewRequest -> InterviewAnswer). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runQueries().interview(params.id, await readBody(request)));
