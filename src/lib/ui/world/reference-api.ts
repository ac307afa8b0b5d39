// The browser's calls for importing the reference implementation's town (the new-world form).
import type { WorldListing } from '$lib/api/types';
import { ApiError, ProblemsError, defaultFetch, jsonInit, request, type ErrorFactory, type Fetch } from '$lib/shared/api';
import type { WorldProblem } from '$lib/world/problems';

const problems: ErrorFactory = (message, status, body) =>
	body ? new ProblemsError(message, status, Array.isArray(body.problems) ? (body.problems as WorldProblem[]) : []) : new ApiError(message, status);

/** The simulations (storage/ folders) of a checkout on the studio's machine. */
export const listReferenceSimulations = (checkout: string, f: Fetch = defaultFetch) =>
	request<{ checkout: string; simulations: string[] }>(f, `/api/worlds/import-reference?checkout=${encodeURIComponent(checkout)}`, undefined, problems);

/** Imports the checkout's town and the personas of `storage` as the world `id`. Throws ProblemsError naming each file and row. */
export const importReferenceWorld = (body: { checkout: string; storage: string; id: string; name?: string }, f: Fetch = defaultFetch) =>
	request<WorldListing & { report: { missingImages: string[]; warnings: string[] } }>(f, '/api/worlds/import-reference', jsonInit('POST', body), problems);
