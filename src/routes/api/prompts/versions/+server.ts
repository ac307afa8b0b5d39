// Stored prompt-set versions: list them, or store a new one.
import { SavePromptVersionRequestSchema } from '$lib/api/prompts';
import { answer, readBody, WithStatus } from '$lib/server/http';
import { PROMPTS_BODY } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** PromptVersionInfo[], newest first */
export const GET: RequestHandler = () => answer(() => promptStore().listVersions());

/** SavePromptVersionRequest -> PromptVersionInfo: 201 stored, 200 already stored; invalid with issues when refused */
export const POST: RequestHandler = ({ request }) =>
	answer(async () => {
		const body = await readBody(request, SavePromptVersionRequestSchema, PROMPTS_BODY);
		const { info, created } = promptStore().saveVersion(body);
		return new WithStatus(created ? 201 : 200, info);
	});
