// The checks a run makes of a world, with an unsaved map standing for the saved one.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { checkWorldEdit, readMapBody } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** MapRequest { doc?, renames? } -> CheckOutcome */
export const POST: RequestHandler = ({ params, request }) => answer(async () => checkWorldEdit(worldsDir(), params.world, await readMapBody(request)));
