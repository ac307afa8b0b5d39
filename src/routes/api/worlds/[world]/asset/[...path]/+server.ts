import { error } from '@sveltejs/kit';
import { contentTypeOf, PathError } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import { FileLimitError, readFileCapped } from '$lib/server/limits';
import { RequestError } from '$lib/server/errors';
import { resolveWorldFile } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

// Serves a file the world's map uses (its tilesets and their images), from inside the world
// folder; anything else is "not found".
export const GET: RequestHandler = async ({ params, url }) => {
	const raw = url.pathname.split('/asset/').slice(1).join('/asset/');
	try {
		const file = await resolveWorldFile(worldsDir(), params.world, params.path, raw);
		const body = await readFileCapped(file);
		return new Response(new Uint8Array(body), {
			headers: {
				'content-type': contentTypeOf(file),
				'content-length': String(body.byteLength),
				'cache-control': 'no-cache',
				'x-content-type-options': 'nosniff',
				'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox"
			}
		});
	} catch (err) {
		if (err instanceof PathError) error(err.status, err.status === 404 ? 'Not found' : err.message);
		if (err instanceof RequestError) error(err.status === 404 ? 404 : 400, err.status === 404 ? 'Not found' : err.message);
		if (err instanceof FileLimitError) error(409, `the file was refused: ${err.message}`);
		throw err;
	}
};
