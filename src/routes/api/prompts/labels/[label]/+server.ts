// Points a label at a prompt-set version (creating or moving it).
import { SetLabelRequestSchema } from '$lib/api/prompts';
import { answer, readBody } from '$lib/server/http';
import { PROMPTS_BODY } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** SetLabelRequest -> Record<label, version> */
export const PUT: RequestHandler = ({ params, request }) =>
	answer(async () => {
		const body = await readBody(request, SetLabelRequestSchema, PROMPTS_BODY);
		return promptStore().setLabel(params.label, body.version);
	});
