// One persona file: create or replace it (checked against the saved map first), or delete it.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { deletePersona, readWorldJsonBody, writePersona } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** the persona -> SavePersonaResult (invalid with problems, file unchanged, when it has problems) */
export const PUT: RequestHandler = ({ params, request }) =>
	answer(async () => writePersona(worldsDir(), params.world, params.id, await readWorldJsonBody(request)));

/** { deleted: id } */
export const DELETE: RequestHandler = ({ params }) => answer(() => deletePersona(worldsDir(), params.world, params.id));
