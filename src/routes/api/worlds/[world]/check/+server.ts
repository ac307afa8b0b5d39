// The checks a run makes of a world, with an unsaved map standing for the saved one.
import { worldsDir } from '$lib/server/paths';
import { checkWorldEdit, readMapBody, respond } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** { doc?: MapDoc } -> WorldChecks */
export const POST: RequestHandler = ({ params, request }) =>
	respond(async () => checkWorldEdit(worldsDir(), params.world, await readMapBody(request)));
