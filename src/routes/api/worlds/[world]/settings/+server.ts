// A world's settings (world.json): read them, or check and write them.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { readSettings, readWorldJsonBody, writeSettings } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

/** WorldSettingsDoc */
export const GET: RequestHandler = ({ params }) => answer(() => readSettings(worldsDir(), params.world));

/** WorldSettingsDoc -> SaveSettingsResult (invalid with problems, file unchanged, when it has problems) */
export const PUT: RequestHandler = ({ params, request }) => answer(async () => writeSettings(worldsDir(), params.world, await readWorldJsonBody(request)));
