import type { RunListing } from '$lib/api/types';
import { ApiError, createApi } from '$lib/shared/api';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ data, fetch }) => {
	let runs: RunListing[] = [];
	let runsError: string | null = null;
	try {
		runs = await createApi(fetch).listRuns();
	} catch (err) {
		runsError = err instanceof ApiError ? err.message : String(err);
	}
	return { ...data, runs, runsError };
};
