import { HumanAnswersRequestSchema } from '$lib/api/eval';
import { answer, readBody } from '$lib/server/http';
import { badRequest } from '$lib/server/errors';
import { runQueries } from '$lib/server/read/queries';
import { runDir } from '$lib/server/read/run-data';
import { queryInt } from '$lib/server/validate';
import { deleteHumanAnswer, humanAnswers, saveHumanAnswers } from '$lib/server/eval/human';
import { runsDir } from '$lib/server/run/runner';
import type { RequestHandler } from './$types';

// The human-written answers (condition `human`) of the interview set at ?step=N (default: the
// newest set): read, write (each answer replaces the one stored for its agent and question),
// remove one.

/** -> HumanAnswerSet (an empty list when none were written). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		return humanAnswers(params.id, queryInt(url, 'step'), home);
	});

/** HumanAnswersRequest -> HumanAnswerSet (everything stored for the step). */
export const PUT: RequestHandler = ({ params, request }) =>
	answer(async () => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		return saveHumanAnswers(params.id, await readBody(request, HumanAnswersRequestSchema), { home });
	});

/** ?step=N&agent=A&question=Q: removes that answer -> HumanAnswerSet. */
export const DELETE: RequestHandler = ({ params, url }) =>
	answer(() => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		const agent = url.searchParams.get('agent')?.trim();
		const question = url.searchParams.get('question')?.trim();
		if (!agent) throw badRequest('name the agent: ?agent=ID');
		if (!question) throw badRequest('name the question: ?question=ID');
		return deleteHumanAnswer(params.id, queryInt(url, 'step'), agent, question, home);
	});
