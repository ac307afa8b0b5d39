// Checks one template's text as it is edited; stores nothing.
import type { CheckTemplateResult } from '$lib/api/prompts';
import { checkTemplateSource } from '$lib/prompts/check';
import { readObject, respond } from '$lib/server/prompts/http';
import type { RequestHandler } from './$types';

/** CheckTemplateRequest -> CheckTemplateResult */
export const POST: RequestHandler = ({ request }) =>
	respond(async (): Promise<CheckTemplateResult> => {
		const body = await readObject(request);
		if (typeof body.source !== 'string') throw new Error('the body must be { id, source } with the template text in source');
		if (body.source.length > 64 * 1024) throw new Error('the template is longer than 65536 characters');
		if (body.id !== undefined && (typeof body.id !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(body.id))) {
			throw new Error('id must be a template id: lowercase letters, digits and underscores');
		}
		return { issues: checkTemplateSource(body.source, body.id as string | undefined) };
	});
