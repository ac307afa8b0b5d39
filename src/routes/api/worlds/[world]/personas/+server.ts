// A world's personas, one file each.
import { worldsDir } from '$lib/server/paths';
import { listPersonas, respond } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** PersonaEntry[] */
export const GET: RequestHandler = ({ params }) => respond(() => listPersonas(worldsDir(), params.world));
