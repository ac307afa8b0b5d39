import { error } from '@sveltejs/kit';
import path from 'node:path';
import type { RunInfo, Timeline } from '$lib/api-types';
import { listWorlds, worldsDir } from '$lib/server/files';
import { dataHome } from '$lib/server/paths';
import { runsDir } from '$lib/server/run/runner';
import { loadWorld, WorldError } from '$lib/server/world/load';
import { ApiError, createApi } from '$lib/ui/api';
import { worldView, type ProblemView, type WorldView } from '$lib/ui/world-view';
import type { PageServerLoad } from './$types';

/** Run ids are folder names; anything else never reaches the file system. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The world folder whose tileset images the map shows: the run's world, or for a run whose
 * world id names no folder (a fork records its parent's copy), the nearest ancestor's.
 */
async function assetWorld(api: ReturnType<typeof createApi>, info: RunInfo): Promise<string> {
	const known = new Set((await listWorlds(worldsDir())).map((w) => w.id));
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

export const load: PageServerLoad = async ({ params, fetch }) => {
	if (!RUN_ID.test(params.id)) error(404, `No run "${params.id}"`);
	const api = createApi(fetch);
	let info: RunInfo;
	let timeline: Timeline;
	try {
		[info, timeline] = await Promise.all([api.run(params.id), api.timeline(params.id)]);
	} catch (err) {
		if (err instanceof ApiError) error(err.status === 404 ? 404 : 500, err.message);
		throw err;
	}

	// The map comes from the run's own copy of its world: the town as it was when the run began.
	let world: WorldView | null = null;
	let problems: ProblemView[] = [];
	try {
		const loaded = await loadWorld(path.join(runsDir(dataHome()), info.id, 'world'));
		world = worldView(await assetWorld(api, info), loaded);
	} catch (err) {
		problems =
			err instanceof WorldError
				? err.problems
				: [{ file: `runs/${info.id}/world`, message: err instanceof Error ? err.message : String(err) }];
	}
	return { info, timeline, world, problems };
};
