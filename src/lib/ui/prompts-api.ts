// The browser's side of the prompt workbench's HTTP API (shapes in $lib/api/prompts). Every
// call throws a PromptsApiError carrying the server's message and, for a refused prompt set,
// its issues (template, line, message) so the editor can mark them.

import type {
	CheckTemplateResult,
	PromptIssue,
	PromptsOverview,
	PromptVersionDetail,
	PromptVersionInfo,
	PromptWorkingCopy,
	SavePromptVersionRequest,
	TemplateHistoryEntry,
	TryRequest,
	TryResult
} from '$lib/api/prompts';
import type { ErrorKind } from '$lib/api/errors';
import { ApiError, defaultFetch, jsonInit, request, type ErrorFactory, type Fetch } from '$lib/shared/api';

export class PromptsApiError extends ApiError {
	constructor(
		message: string,
		status: number,
		override readonly issues: PromptIssue[],
		kind?: ErrorKind
	) {
		super(message, status, { kind, issues });
		this.name = 'PromptsApiError';
	}
}

/** An error answer's message and issues (a refused set's problems); no answer at all is a PromptsApiError with none (status 0). */
const promptsError: ErrorFactory = (message, status, body) => new PromptsApiError(message, status, body?.issues ?? [], body?.kind);

function call<T>(f: Fetch, url: string, method = 'GET', body?: unknown): Promise<T> {
	return request<T>(f, url, jsonInit(method, body), promptsError);
}

const enc = encodeURIComponent;

export function createPromptsApi(f: Fetch = defaultFetch) {
	return {
		/** the working copy, every version (newest first) and the labels */
		overview: () => call<PromptsOverview>(f, '/api/prompts'),
		versions: () => call<PromptVersionInfo[]>(f, '/api/prompts/versions'),
		/** a version by id, unique prefix (8+ hex digits) or label */
		version: (ref: string) => call<PromptVersionDetail>(f, `/api/prompts/versions/${enc(ref)}`),
		/** stores a complete set (and writes it into the working copy); the existing version when the content is already stored */
		save: (req: SavePromptVersionRequest) => call<PromptVersionInfo>(f, '/api/prompts/versions', 'POST', req),
		restore: (ref: string) => call<PromptWorkingCopy>(f, `/api/prompts/versions/${enc(ref)}/restore`, 'POST', {}),
		labels: () => call<Record<string, string>>(f, '/api/prompts/labels'),
		/** points `label` at a version (id, prefix or another label); answers every label */
		setLabel: (label: string, version: string) => call<Record<string, string>>(f, `/api/prompts/labels/${enc(label)}`, 'PUT', { version }),
		history: (template: string) => call<TemplateHistoryEntry[]>(f, `/api/prompts/history/${enc(template)}`),
		/** the server's diagnostics for one template (the same as checkTemplateSource in $lib/prompts/check) */
		check: (id: string, source: string) => call<CheckTemplateResult>(f, '/api/prompts/check', 'POST', { id, source }),
		/** a template text tried on a model call a run recorded: the model's answer now beside the recorded one (stores nothing) */
		tryCall: (req: TryRequest) => call<TryResult>(f, '/api/prompts/try', 'POST', req)
	};
}

export type PromptsApi = ReturnType<typeof createPromptsApi>;
