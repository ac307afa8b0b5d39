import { answer } from '$lib/server/ide/http';
import { queryInt } from '$lib/server/validate';
import { MAX_LIMIT, parseKinds } from '$lib/server/search/search';
import { searcherFor } from '$lib/server/search/searchers';
import { runQueries } from '$lib/server/read/queries';
import type { SearchAnswer } from '$lib/api/search';
import type { RequestHandler } from './$types';

/**
 * The run searched: ?q=TEXT&agent=ID|NAME&kind=memory,call,conversation|MEMORY_KIND&limit=N
 * (SearchAnswer). Memories by meaning and by words, calls by prompt and answer, lines; one ranked list.
 */
export const GET: RequestHandler = ({ params, url }) =>
	answer(async (): Promise<SearchAnswer> => {
		const queries = runQueries();
		queries.run(params.id); // 404 for no such run
		const filter = parseKinds(url.searchParams.get('kind'));
		const limit = queryInt(url, 'limit', { min: 1, max: MAX_LIMIT });
		const searcher = await searcherFor(params.id, queries.home);
		return searcher.search(url.searchParams.get('q') ?? '', { agent: url.searchParams.get('agent') || undefined, filter, limit });
	});
