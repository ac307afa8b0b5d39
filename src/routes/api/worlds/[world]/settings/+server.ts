// A world's settings (world.json): read them, or check and write them.
import { worldsDir } from '$lib/server/paths';
import { readJsonBody, readSettings, respond, writeSettings } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** WorldSettingsDoc */
export const GET: RequestHandler = ({ params }) => respond(() => readSettings(worldsDir(), params.world));

/** WorldSettingsDoc -> SaveSettingsResult (400 with problems, file unchanged, when invalid) */
export const PUT: RequestHandler = ({ params, request }) =>
	respond(async () => writeSettings(worldsDir(), params.world, await readJsonBody(request)));
