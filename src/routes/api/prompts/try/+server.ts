// Tries a template text on a model call a run recorded (see $lib/server/prompts/try); stores nothing.
import { runQueries } from '$lib/server/read/queries';
import { bodyInt, bodyString } from '$lib/server/validate';
import { providerFromEnv } from '$lib/server/model';
import { readObject, respond } from '$lib/server/prompts/http';
import { findCall, tryCall, type TryResult } from '$lib/server/prompts/try';
import type { RequestHandler } from './$types';

/** TryRequest { run, key, step?, source } -> TryResult; 400 with issues when the text cannot be rendered */
export const POST: RequestHandler = ({ request }) =>
	respond(async (): Promise<TryResult> => {
		const body = await readObject(request);
		const run = bodyString(body.run, 'run', { max: 200 }) as string;
		const key = bodyString(body.key, 'key', { max: 300 }) as string;
		const step = bodyInt(body.step, 'step', { min: -1 });
		if (typeof body.source !== 'string') throw new Error('source must be the template text to try');
		if (body.source.length > 64 * 1024) throw new Error('the template is longer than 65536 characters');
		const queries = runQueries();
		const call = await findCall((filter) => queries.calls(run, filter), run, key, step);
		return tryCall(run, call, body.source, providerFromEnv());
	});
