// GET /api/diff?a=RUN&b=RUN -> RunDiff: the behaviour diff of two runs (see $lib/api/diff).

import { cachedDiff } from '$lib/server/diff/diff';
import { badRequest, notFound } from '$lib/server/errors';
import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { validRunId } from '$lib/shared/ids';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ url }) =>
	answer(() => {
		const a = url.searchParams.get('a');
		const b = url.searchParams.get('b');
		if (!a || !b) throw badRequest('a diff compares two runs: ?a=RUN&b=RUN');
		for (const id of [a, b]) if (!validRunId(id)) throw notFound(`no run "${id.slice(0, 200)}"`);
		return cachedDiff(a, b, { home: runQueries().home });
	});
