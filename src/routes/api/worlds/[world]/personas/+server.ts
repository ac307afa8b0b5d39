// A world's personas, one file each.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { listPersonas } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** PersonaEntry[] */
export const GET: RequestHandler = ({ params }) => answer(() => listPersonas(worldsDir(), params.world));
