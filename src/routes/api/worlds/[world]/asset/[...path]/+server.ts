import { error } from '@sveltejs/kit';
import { readFile } from 'node:fs/promises';
import { contentTypeOf, PathError, resolveInside, worldsDir } from '$lib/server/files';
import type { RequestHandler } from './$types';

// Serves a file from inside one world folder (tileset images, the map, personas), nothing else.
export const GET: RequestHandler = async ({ params, url }) => {
	// Params arrive decoded; the raw path shows whether a separator was smuggled in encoded.
	const raw = url.pathname.split('/asset/').slice(1).join('/asset/');
	if (/%(2f|5c|00|25)/i.test(raw)) error(400, 'Encoded separators are not allowed in asset paths');
	try {
		const dir = await resolveInside(worldsDir(), params.world, 'directory');
		const file = await resolveInside(dir, params.path, 'file');
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
		throw err;
	}
};
