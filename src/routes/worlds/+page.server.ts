// The worlds folder, for the worlds page.
import { listWorlds, worldsDir } from '$lib/server/files';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async () => ({ worlds: await listWorlds(worldsDir()) });
