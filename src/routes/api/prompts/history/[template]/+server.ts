// The versions in which one template's text changed.
import { respond } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** TemplateHistoryEntry[], newest first */
export const GET: RequestHandler = ({ params }) => respond(() => promptStore().historyOf(params.template));
