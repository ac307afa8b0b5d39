// The worlds folder: list the worlds, create one (empty, or a copy of another).
import { listWorlds } from '$lib/server/files';
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { createWorld, readWorldJsonBody } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** WorldListing[] */
export const GET: RequestHandler = () => answer(() => listWorlds(worldsDir()));

/** CreateWorldRequest -> 201 WorldListing */
export const POST: RequestHandler = ({ request }) => answer(async () => createWorld(worldsDir(), await readWorldJsonBody(request)), 201);
