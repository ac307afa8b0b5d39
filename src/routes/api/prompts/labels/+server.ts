// The labels of prompt-set versions.
import { answer } from '$lib/server/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** Record<label, version> */
export const GET: RequestHandler = () => answer(() => promptStore().labels());
