import { answerWith } from '$lib/server/http';
import { contentTypeOf } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import { readFileCapped } from '$lib/server/limits';
import { NotFoundError, RequestError } from '$lib/server/errors';
import { resolveWorldFile } from '$lib/server/world/edit';
import type { RequestHandler } from './$types';

// Serves a file the world's map uses (its tilesets and their images), from inside the world
// folder; anything else is "not found" (without saying what is there).
export const GET: RequestHandler = ({ params, url }) =>
	answerWith(async () => {
		const raw = url.pathname.split('/asset/').slice(1).join('/asset/');
		const file = await resolveWorldFile(worldsDir(), params.world, params.path, raw).catch((e: unknown) => {
			throw e instanceof RequestError && e.kind === 'not-found' ? new NotFoundError('Not found') : e;
		});
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
	});
