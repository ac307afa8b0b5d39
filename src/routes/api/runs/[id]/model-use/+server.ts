import { answer } from '$lib/server/http';
import { modelUse } from '$lib/server/store/model-use';
import { runQueries } from '$lib/server/read/queries';
import type { ModelUse } from '$lib/api/model-use';
import type { RequestHandler } from './$types';

/** Answers kept per run and committed step count (a run's past never changes). */
const kept = new Map<string, ModelUse>();

/** The lineage's model calls per game hour and per template: calls, tokens, latency (ModelUse). */
export const GET: RequestHandler = ({ params }) =>
	answer((): ModelUse => {
		const queries = runQueries();
		const data = queries.run(params.id);
		const key = `${queries.home}\u0000${params.id}@${data.committed()}`;
		let use = kept.get(key);
		if (!use) {
			use = modelUse(params.id, { home: queries.home });
			kept.set(key, use);
			while (kept.size > 8) kept.delete(kept.keys().next().value as string);
		}
		return use;
	});
