// The prompt workbench's overview: the working copy, the stored versions and the labels.
import type { PromptsOverview } from '$lib/api/prompts';
import { answer } from '$lib/server/http';
import { shippedPromptSet } from '$lib/server/prompts/shipped';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** PromptsOverview */
export const GET: RequestHandler = () =>
	answer((): PromptsOverview => {
		const store = promptStore();
		return { working: store.working(), versions: store.listVersions(), labels: store.labels(), shipped: shippedPromptSet() };
	});
