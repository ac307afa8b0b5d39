import { listWorlds } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import { loadWorld, WorldError } from '$lib/server/world/load';
import { worldView, type ProblemView, type WorldView } from '$lib/shared/world-view';
import type { PageServerLoad } from './$types';

const DEFAULT_WORLD = 'smallville';

export const load: PageServerLoad = async ({ url }) => {
	const dir = worldsDir();
	const worlds = await listWorlds(dir);
	const requested = url.searchParams.get('world');
	const current =
		requested ?? (worlds.some((w) => w.id === DEFAULT_WORLD) ? DEFAULT_WORLD : (worlds[0]?.id ?? DEFAULT_WORLD));

	let world: WorldView | null = null;
	let problems: ProblemView[] = [];
	// Only listed folder names reach the loader: it would read any path it is given.
	if (!worlds.some((w) => w.id === current)) {
		problems = [{ file: `worlds/${current}`, message: 'No such world: the folder is missing or has no world.json' }];
	} else {
		try {
			world = worldView(current, await loadWorld(current, { worldsDir: dir }));
		} catch (err) {
			if (!(err instanceof WorldError)) console.error(`Opening world "${current}" failed:`, err);
			problems =
				err instanceof WorldError
					? err.problems
					: [{ file: `worlds/${current}`, message: err instanceof Error ? err.message : String(err) }];
		}
	}

	return { worlds, current, world, problems };
};
