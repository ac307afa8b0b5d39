import { answer } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { queryInt } from '$lib/server/validate';
import type { RequestHandler } from './$types';

/** Model calls ?agent=&template=&from=&to=&limit= (CallView[], newest last). */
export const GET: RequestHandler = ({ params, url }) =>
	answer(() =>
		runQueries().calls(params.id, {
			agent: url.searchParams.get('agent') || undefined,
			template: url.searchParams.get('template') || undefined,
			from: queryInt(url, 'from', { min: -1 }),
			to: queryInt(url, 'to', { min: -1 }),
			limit: queryInt(url, 'limit', { min: 1, max: 2000 })
		})
	);
