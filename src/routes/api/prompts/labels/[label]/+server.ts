// Points a label at a prompt-set version (creating or moving it).
import { readObject, respond } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** SetLabelRequest -> Record<label, version> */
export const PUT: RequestHandler = ({ params, request }) =>
	respond(async () => {
		const body = await readObject(request);
		if (typeof body.version !== 'string' || !body.version.trim()) throw new Error('the body must be { version } naming a version id, prefix or label');
		return promptStore().setLabel(params.label, body.version);
	});
