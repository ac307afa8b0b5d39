// A world's map as an editable MapDoc: read it, or save it and get the world's checks back.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { readMapBody, readWorldMap, saveWorldMap } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** MapResponse */
export const GET: RequestHandler = ({ params }) => answer(async () => ({ doc: await readWorldMap(worldsDir(), params.world) }));

/** MapRequest { doc, renames? } -> SaveMapOutcome */
export const PUT: RequestHandler = ({ params, request }) => answer(async () => saveWorldMap(worldsDir(), params.world, await readMapBody(request)));
