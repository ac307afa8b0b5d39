import { error } from '@sveltejs/kit';
import { readFile } from 'node:fs/promises';
import { contentTypeOf, PathError, worldsDir } from '$lib/server/files';
import { EditError, resolveWorldFile } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

// Serves a file from inside one world folder (tileset images, the map, personas), nothing else.
export const GET: RequestHandler = async ({ params, url }) => {
	const raw = url.pathname.split('/asset/').slice(1).join('/asset/');
	try {
		const file = await resolveWorldFile(worldsDir(), params.world, params.path, raw);
		const body = await readFile(file);
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
		if (err instanceof EditError) error(err.status === 404 ? 404 : 400, err.status === 404 ? 'Not found' : err.message);
		throw err;
	}
};
