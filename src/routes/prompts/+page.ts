import type { PromptsOverview } from '$lib/api/prompts';
import { createPromptsApi } from '$lib/ui/prompts-api';
import type { PageLoad } from './$types';

// The working copy's templates, the stored versions and the labels.
export const load: PageLoad = async ({ fetch }) => {
	let overview: PromptsOverview | null = null;
	let overviewError: string | null = null;
	try {
		overview = await createPromptsApi(fetch).overview();
	} catch (err) {
		overviewError = err instanceof Error ? err.message : String(err);
	}
	return { overview, overviewError };
};
