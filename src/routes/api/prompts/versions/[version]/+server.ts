// One stored prompt-set version (by id, unique prefix or label): its info and sources.
import { answer } from '$lib/server/http';
import { refParam } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** PromptVersionDetail */
export const GET: RequestHandler = ({ params }) => answer(() => promptStore().getVersion(refParam(params.version)));
