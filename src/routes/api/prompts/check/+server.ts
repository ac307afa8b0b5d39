// Checks one template's text as it is edited; stores nothing.
import { CheckTemplateRequestSchema, type CheckTemplateResult } from '$lib/api/prompts';
import { checkTemplateSource } from '$lib/prompts/check';
import { answer, readBody } from '$lib/server/http';
import { PROMPTS_BODY } from '$lib/server/prompts/http';
import type { RequestHandler } from './$types';

/** CheckTemplateRequest -> CheckTemplateResult */
export const POST: RequestHandler = ({ request }) =>
	answer(async (): Promise<CheckTemplateResult> => {
		const body = await readBody(request, CheckTemplateRequestSchema, PROMPTS_BODY);
		return { issues: checkTemplateSource(body.source, body.id) };
	});
