// The versions in which one template's text changed.
import { answer } from '$lib/server/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** TemplateHistoryEntry[], newest first */
export const GET: RequestHandler = ({ params }) => answer(() => promptStore().historyOf(params.template));
