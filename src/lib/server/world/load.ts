// Loading a world folder (docs/world-format.md) into the engine's WorldDef plus a view model of
// the map for the UI.

import path from 'node:path';
import { analyseWorld } from './analyse';
import { WorldError } from '../../world/problems';
import type { LoadedWorld } from '../../world/types';

export type { LoadedWorld, MapLayerView, MapView, TilesetView, ZoneRect, ZoneView } from '../../world/types';
export { WorldError, formatProblem, type WorldProblem } from '../../world/problems';
export { resolveWorldDir } from './analyse';

/**
 * Loads `worlds/<name>` (or the folder / world.json path given). Throws WorldError listing
 * every problem found when the world has errors; warnings come back in `warnings`.
 */
export async function loadWorld(nameOrPath: string, opts: { worldsDir?: string } = {}): Promise<LoadedWorld> {
	const a = await analyseWorld(nameOrPath, opts);
	if (a.errors.length || !a.world) throw new WorldError(a.errors, `world "${a.id || path.basename(a.dir)}"`);
	return a.world;
}
