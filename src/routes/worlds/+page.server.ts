// The worlds folder, for the worlds page.
import { listWorlds } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async () => ({ worlds: await listWorlds(worldsDir()) });
