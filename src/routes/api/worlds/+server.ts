// The worlds folder: list the worlds, create one (empty, or a copy of another).
import { listWorlds } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import { createWorld, readJsonBody, respond } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** WorldListing[] */
export const GET: RequestHandler = () => respond(() => listWorlds(worldsDir()));

/** CreateWorldRequest -> 201 WorldListing */
export const POST: RequestHandler = ({ request }) => respond(async () => createWorld(worldsDir(), await readJsonBody(request)), 201);
