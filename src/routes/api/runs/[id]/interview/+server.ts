import { answer, readJsonBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/** A read-only question to an agent at a step (InterviewRequest -> InterviewAnswer). */
export const POST: RequestHandler = ({ params, request }) => answer(async () => runQueries().interview(params.id, await readJsonBody(request, RUN_BODY)));
