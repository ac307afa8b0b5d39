import { badRequest } from '$lib/server/errors';
import { answerWith } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { queryInt } from '$lib/server/validate';
import type { RequestHandler } from './$types';

/** Frames ?from=A&to=B (inclusive; `to` defaults to `from`): Frame[], cut from the journal as text. */
export const GET: RequestHandler = ({ params, url }) =>
	answerWith(async () => {
		const from = queryInt(url, 'from');
		if (from === undefined) throw badRequest('from is required (frames ?from=A&to=B)');
		const body = await runQueries().framesJson(params.id, from, queryInt(url, 'to') ?? from);
		return new Response(body, { headers: { 'content-type': 'application/json' } });
	});
