// /runs/<id>: the run, its timeline, and the town its map draws (the run's own copy of its world).

import path from 'node:path';
import { assetWorld, checkRunId, pageAnswer, runWorldProblems } from '$lib/server/ide/run-pages';
import { dataHome } from '$lib/server/paths';
import { runsDir } from '$lib/server/run/runner';
import { loadWorld } from '$lib/server/world/load';
import { createApi } from '$lib/shared/api';
import { worldView, type ProblemView, type WorldView } from '$lib/shared/world-view';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, fetch }) => {
	checkRunId(params.id);
	const api = createApi(fetch);
	const [info, timeline] = await pageAnswer(Promise.all([api.run(params.id), api.timeline(params.id)]));

	// The map comes from the run's own copy of its world: the town as it was when the run began.
	let world: WorldView | null = null;
	let problems: ProblemView[] = [];
	try {
		const loaded = await loadWorld(path.join(runsDir(dataHome()), info.id, 'world'));
		world = worldView(await assetWorld(api, info), loaded);
	} catch (err) {
		problems = runWorldProblems(err, info.id);
	}
	return { info, timeline, world, problems };
};
