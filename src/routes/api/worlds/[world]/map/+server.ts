// A world's map as an editable MapDoc: read it, or save it and get the world's checks back.
import { worldsDir } from '$lib/server/paths';
import { readMapBody, readWorldMap, respond, saveWorldMap } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** MapResponse */
export const GET: RequestHandler = ({ params }) => respond(async () => ({ doc: await readWorldMap(worldsDir(), params.world) }));

/** MapResponse -> SaveMapResult */
export const PUT: RequestHandler = ({ params, request }) =>
	respond(async () => saveWorldMap(worldsDir(), params.world, await readMapBody(request)));
