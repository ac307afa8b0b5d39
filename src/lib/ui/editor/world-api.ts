// The world editor's calls that carry renamed zones: the check of the unsaved map (with the
// references the renames would rewrite) and saving the map (which rewrites them). Errors are
// ProblemsError with the server's problems, as for the other world calls.

import type { ReferenceUpdate, ZoneRename } from '$lib/editor/references';
import type { CheckOutcome, SaveMapOutcome } from '$lib/api/types';
import { defaultFetch, jsonInit, problemsError, request, type Fetch } from '$lib/shared/api';
import type { MapDoc } from '$lib/world/doc';

export type { CheckOutcome, ReferenceUpdate, SaveMapOutcome };

const url = (world: string, what: string) => `/api/worlds/${encodeURIComponent(world)}/${what}`;

/** The checks a run makes of the world, with `doc` for the saved map; with renames, the references they would rewrite. */
export function checkMap(world: string, doc: MapDoc | undefined, renames: readonly ZoneRename[], f: Fetch = defaultFetch): Promise<CheckOutcome> {
	const body = { ...(doc ? { doc } : {}), ...(renames.length ? { renames } : {}) };
	return request<CheckOutcome>(f, url(world, 'check'), jsonInit('POST', body), problemsError);
}

/** Saves the map, rewriting the references the renames name; answers the checks of the saved world. */
export function saveMap(world: string, doc: MapDoc, renames: readonly ZoneRename[], f: Fetch = defaultFetch): Promise<SaveMapOutcome> {
	return request<SaveMapOutcome>(f, url(world, 'map'), jsonInit('PUT', { doc, ...(renames.length ? { renames } : {}) }), problemsError);
}
