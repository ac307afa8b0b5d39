import { SearchQuerySchema, type SearchAnswer } from '$lib/api/search';
import { answer } from '$lib/server/http';
import { parseWith, queryOf } from '$lib/server/validate';
import { parseKinds } from '$lib/server/search/search';
import { searcherFor } from '$lib/server/search/searchers';
import { runQueries } from '$lib/server/read/queries';
import type { RequestHandler } from './$types';

/**
 * The run searched: ?q=TEXT&agent=ID|NAME&kind=memory,call,conversation|MEMORY_KIND&limit=N
 * (SearchQuery -> SearchAnswer). Memories by meaning and by words, calls by prompt and answer, lines; one ranked list.
 */
export const GET: RequestHandler = ({ params, url }) =>
	answer(async (): Promise<SearchAnswer> => {
		const queries = runQueries();
		queries.run(params.id); // not-found for no such run
		const { q, agent, kind, limit } = parseWith(SearchQuerySchema, queryOf(url.searchParams), 'the query');
		const filter = parseKinds(kind);
		const searcher = await searcherFor(params.id, queries.home);
		return searcher.search(q, { agent, filter, limit });
	});
