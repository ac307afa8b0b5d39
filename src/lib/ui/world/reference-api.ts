// The browser's calls for importing the reference implementation's town (the new-world form).
import type { ReferenceImportRequest, WorldListing } from '$lib/api/types';
import { defaultFetch, jsonInit, problemsError as problems, request, type Fetch } from '$lib/shared/api';

/** The simulations (storage/ folders) of a checkout on the studio's machine. */
export const listReferenceSimulations = (checkout: string, f: Fetch = defaultFetch) =>
	request<{ checkout: string; simulations: string[] }>(f, `/api/worlds/import-reference?checkout=${encodeURIComponent(checkout)}`, undefined, problems);

/** Imports the checkout's town and the personas of `storage` as the world `id`. Throws ProblemsError naming each file and row. */
export const importReferenceWorld = (body: ReferenceImportRequest, f: Fetch = defaultFetch) =>
	request<WorldListing & { report: { missingImages: string[]; warnings: string[] } }>(f, '/api/worlds/import-reference', jsonInit('POST', body), problems);
