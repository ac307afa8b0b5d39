// The labels of prompt-set versions.
import { respond } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** Record<label, version> */
export const GET: RequestHandler = () => respond(() => promptStore().labels());
