// Writes a stored version's templates into the working copy.
import { RestoreVersionRequestSchema } from '$lib/api/prompts';
import { answer, readBody } from '$lib/server/http';
import { PROMPTS_BODY, refParam } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** {} -> PromptWorkingCopy */
export const POST: RequestHandler = ({ params, request }) =>
	answer(async () => {
		const ref = refParam(params.version);
		await readBody(request, RestoreVersionRequestSchema, PROMPTS_BODY);
		return promptStore().restore(ref);
	});
