import { answer, readBody } from '$lib/server/ide/http';
import { badRequest } from '$lib/server/errors';
import { runQueries } from '$lib/server/read/queries';
import { runDir } from '$lib/server/read/run-data';
import { AGENT_NAME, bodyInt, queryInt } from '$lib/server/validate';
import { isRecord } from '$lib/shared/guards';
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

function nameList(value: unknown, field: string, pattern: RegExp): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value) || value.length > 200) throw badRequest(`${field} must be a list of at most 200 names`);
	return value.map((v, i) => {
		if (typeof v !== 'string' || !pattern.test(v)) throw badRequest(`${field}[${i}] is not a valid name`);
		return v;
	});
}

/** Interviews every chosen agent with every question under every condition (InterviewRequest -> InterviewSet). */
export const POST: RequestHandler = ({ params, request }) =>
	answer(async () => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		const body = await readBody(request);
		if (!isRecord(body)) throw badRequest('the body must be a JSON object { step?, agents?, conditions? }');
		for (const key of Object.keys(body)) if (!['step', 'agents', 'conditions'].includes(key)) throw badRequest(`unknown field "${key.slice(0, 40)}" (fields: step, agents, conditions)`);
		return runInterviews(params.id, {
			home,
			step: bodyInt(body.step, 'step'),
			agents: nameList(body.agents, 'agents', AGENT_NAME),
			conditions: nameList(body.conditions, 'conditions', /^[a-z-]{1,60}$/)
		});
	});
