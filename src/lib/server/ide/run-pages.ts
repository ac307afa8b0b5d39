// What the run pages (/runs/<id>, /runs/<id>/eval, /compare) load on the server besides the API's
// answers: the run id check, the API's errors as the page's, the world folder a run's map takes
// its tileset images from, and the problems of a run's world copy.

import { error } from '@sveltejs/kit';
import type { RunInfo } from '$lib/api/types';
import { ApiError, type Api } from '$lib/shared/api';
import { validRunId } from '$lib/shared/ids';
import type { ProblemView } from '$lib/shared/world-view';
import { listWorlds } from '../files';
import { worldsDir } from '../paths';
import { WorldError } from '../../world/problems';

/** A 404 page for a string that cannot be a run id (run ids are folder names; anything else never reaches the file system). */
export function checkRunId(id: string): void {
	if (!validRunId(id)) error(404, `No run "${id.slice(0, 200)}"`);
}

/** The API's answer; its ApiError becomes the page's error (404 for an unknown run, else 500). */
export async function pageAnswer<T>(answer: Promise<T>): Promise<T> {
	try {
		return await answer;
	} catch (err) {
		if (err instanceof ApiError) error(err.status === 404 ? 404 : 500, err.message);
		throw err;
	}
}

/**
 * The world folder whose tileset images the map shows: the run's world, or for a run whose
 * world id names no folder (a fork records its parent's copy), the nearest ancestor's.
 * `known`: the worlds folder's ids (read from it when not given).
 */
export async function assetWorld(api: Api, info: RunInfo, known?: Set<string>): Promise<string> {
	known ??= new Set((await listWorlds(worldsDir())).map((w) => w.id));
	let run = info;
	for (let depth = 0; depth < 20 && !known.has(run.world) && run.parent; depth++) {
		try {
			run = await api.run(run.parent.run);
		} catch {
			break;
		}
	}
	return known.has(run.world) ? run.world : info.world;
}

/** Why run `id`'s world copy could not be shown: the loader's problems, or the error's message. */
export function runWorldProblems(err: unknown, id: string): ProblemView[] {
	if (err instanceof WorldError) return err.problems;
	return [{ file: `runs/${id}/world`, message: err instanceof Error ? err.message : String(err) }];
}
