import { InterviewRequestSchema } from '$lib/api/eval';
import { answer, readBody } from '$lib/server/http';
import { RUN_BODY } from '$lib/server/ide/http';
import { runQueries } from '$lib/server/read/queries';
import { runDir } from '$lib/server/read/run-data';
import { queryInt } from '$lib/server/validate';
import { listInterviewSets, readInterviewSet, runInterviews } from '$lib/server/eval/interviews';
import { runsDir } from '$lib/server/run/runner';
import type { RequestHandler } from './$types';

/** Stored interview sets: InterviewSetListing[]; with ?step=N the set itself (InterviewSet). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		const step = queryInt(url, 'step');
		return step === undefined ? listInterviewSets(params.id, home) : readInterviewSet(params.id, step, home);
	});

/** Interviews every chosen agent with every question under every condition (InterviewRequest -> InterviewSet). */
export const POST: RequestHandler = ({ params, request }) =>
	answer(async () => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		const { step, agents, conditions } = await readBody(request, InterviewRequestSchema, RUN_BODY);
		return runInterviews(params.id, { home, step, agents, conditions });
	});
