// One persona file: create or replace it (checked against the saved map first), or delete it.
import { worldsDir } from '$lib/server/paths';
import { deletePersona, readJsonBody, respond, writePersona } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** the persona -> SavePersonaResult (400 with problems, file unchanged, when invalid) */
export const PUT: RequestHandler = ({ params, request }) =>
	respond(async () => writePersona(worldsDir(), params.world, params.id, await readJsonBody(request)));

/** { deleted: id } */
export const DELETE: RequestHandler = ({ params }) => respond(() => deletePersona(worldsDir(), params.world, params.id));
