// Tries a template text on a model call a run recorded (see $lib/server/prompts/try); stores nothing.
import { TryRequestSchema } from '$lib/api/prompts';
import { runQueries } from '$lib/server/read/queries';
import { answer, readBody } from '$lib/server/http';
import { providerFromEnv } from '$lib/server/model';
import { PROMPTS_BODY } from '$lib/server/prompts/http';
import { findCall, tryCall, type TryResult } from '$lib/server/prompts/try';
import type { RequestHandler } from './$types';

/** TryRequest { run, key, step?, source } -> TryResult; invalid with issues when the text cannot be rendered */
export const POST: RequestHandler = ({ request }) =>
	answer(async (): Promise<TryResult> => {
		const { run, key, step, source } = await readBody(request, TryRequestSchema, PROMPTS_BODY);
		const queries = runQueries();
		const call = await findCall((filter) => queries.calls(run, filter), run, key, step);
		return tryCall(run, call, source, providerFromEnv());
	});
