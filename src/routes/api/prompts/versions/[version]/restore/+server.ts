// Writes a stored version's templates into the working copy.
import { refParam, respond } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** -> PromptWorkingCopy */
export const POST: RequestHandler = ({ params }) => respond(() => promptStore().restore(refParam(params.version)));
