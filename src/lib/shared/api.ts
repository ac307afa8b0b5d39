// The browser's side of the IDE's HTTP API (shapes in $lib/api/types), and the one way every
// client of the API (prompts, evaluation, diff) calls it: `request`. Every call throws an
// ApiError read from the API's one error shape ($lib/api/errors): the server's own message, so
// screens can show it as it is, its kind and status, and what it lists (issues; a world's
// problems, which ProblemsError keeps for the editor).

import type {
	AgentDetail,
	CallView,
	ControlRequest,
	CreateWorldRequest,
	Frame,
	InputRequest,
	InputResult,
	InterviewAnswer,
	InterviewRequest,
	MapResponse,
	ObjectStates,
	PersonaEntry,
	RetrievalWeights,
	RunInfo,
	RunListing,
	SaveMapResult,
	SavePersonaResult,
	SaveSettingsResult,
	StartRunRequest,
	Timeline,
	WorldChecks,
	WorldListing,
	WorldSettingsDoc
} from '$lib/api/types';
import type { SearchAnswer } from '$lib/api/search';
import type { StepChanges } from '$lib/api/changes';
import type { ModelUse } from '$lib/api/model-use';
import type { RetrievalTable, TraceSummary } from '$lib/api/traces';
import { kindOfStatus, readErrorBody, type ApiErrorBody, type ApiIssue, type ErrorKind } from '$lib/api/errors';
import type { MapDoc } from '$lib/world/doc';
import { formatProblem, type WorldProblem } from '$lib/world/problems';

export type { RetrievalTable, TableRow, TraceSummary } from '$lib/api/traces';

export type Fetch = typeof fetch;

/** The global fetch, looked up at each call. */
export const defaultFetch: Fetch = (...args) => fetch(...args);

/** An error answer of the API (or no answer: status 0), with what the one error shape ($lib/api/errors) says. */
export class ApiError extends Error {
	/** what went wrong (from the answer's `kind`, else its status) */
	readonly kind: ErrorKind;
	/** what is wrong with the request, each with its place (a body's fields, a template's lines) */
	readonly issues: ApiIssue[];
	constructor(
		message: string,
		readonly status: number,
		details: { kind?: ErrorKind; issues?: ApiIssue[] } = {}
	) {
		super(message);
		this.name = 'ApiError';
		this.kind = details.kind ?? (status === 0 ? 'unavailable' : kindOfStatus(status));
		this.issues = details.issues ?? [];
	}
}

/**
 * The error a call throws: `body` is the error answer read as the one error shape, or null when
 * the server did not answer (status 0).
 */
export type ErrorFactory = (message: string, status: number, body: ApiErrorBody | null) => ApiError;

/** The generic client's error: the message, with a world's problems (when the answer lists them) on the lines after it. */
const apiError: ErrorFactory = (message, status, body) =>
	new ApiError(body?.problems?.length ? `${message}:\n${body.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}` : message, status, {
		kind: body?.kind,
		issues: body?.issues
	});

/** An error answer as the one error shape (SvelteKit's own errors, and a text that is not JSON, are read as well as they can be). */
async function readError(res: Response): Promise<ApiErrorBody> {
	const text = await res.text().catch(() => '');
	let parsed: unknown = null;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: the text as it is
	}
	return readErrorBody(parsed, res.status, text.trim() || `${res.status} ${res.statusText}`);
}

/**
 * One call of the API: the answer's JSON. Throws what `toError` makes of an error answer or of
 * no answer at all (an aborted call throws its AbortError as it is).
 */
export async function request<T>(f: Fetch, url: string, init?: RequestInit, toError: ErrorFactory = apiError): Promise<T> {
	let res: Response;
	try {
		res = await f(url, init);
	} catch (err) {
		if (err instanceof DOMException && err.name === 'AbortError') throw err;
		throw toError(`The studio server did not answer (${url}): ${err instanceof Error ? err.message : String(err)}`, 0, null);
	}
	if (!res.ok) {
		const body = await readError(res);
		throw toError(body.message, res.status, body);
	}
	return (await res.json()) as T;
}

/** A request's init: `method`, with `body` as JSON unless it is undefined, aborted by `signal`. */
export function jsonInit(method: string, body?: unknown, signal?: AbortSignal): RequestInit {
	return {
		method,
		...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
		...(signal ? { signal } : {})
	};
}

function post<T>(f: Fetch, url: string, body: unknown, signal?: AbortSignal): Promise<T> {
	return request<T>(f, url, jsonInit('POST', body, signal));
}

/** `?k=v&…` of the parameters that have a value ('' when none has). */
export function query(params: Record<string, string | number | undefined | null>): string {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
	const s = q.toString();
	return s ? `?${s}` : '';
}

const run = (id: string) => `/api/runs/${encodeURIComponent(id)}`;

/** `r,i,v` as the retrieval endpoint reads it. */
export function weightsParam(w: RetrievalWeights): string {
	return `${w.recency},${w.importance},${w.relevance}`;
}

export interface CallFilter {
	agent?: string;
	template?: string;
	from?: number;
	to?: number;
	limit?: number;
}

/** Path segments encoded one by one: trace ids hold a slash (`agent/r12`) that stays a slash. */
function segments(id: string): string {
	return id.split('/').map(encodeURIComponent).join('/');
}

export function createApi(f: Fetch = defaultFetch) {
	return {
		listRuns: () => request<RunListing[]>(f, '/api/runs'),
		startRun: (body: StartRunRequest) => post<{ id: string }>(f, '/api/runs', body),
		run: (id: string) => request<RunInfo>(f, run(id)),
		control: (id: string, body: ControlRequest) => post<RunInfo>(f, `${run(id)}/control`, body),
		/** Inputs at a step: queued on the live run when it is there, otherwise in a new fork. */
		inputs: (id: string, body: InputRequest) => post<InputResult>(f, `${run(id)}/inputs`, body),
		timeline: (id: string) => request<Timeline>(f, `${run(id)}/timeline`),
		frames: (id: string, from: number, to: number, signal?: AbortSignal) =>
			request<Frame[]>(f, `${run(id)}/frames${query({ from, to })}`, { signal }),
		agent: (id: string, agent: string, step: number, signal?: AbortSignal) =>
			request<AgentDetail>(f, `${run(id)}/agents/${encodeURIComponent(agent)}${query({ step })}`, { signal }),
		retrievals: (id: string, agent: string, step?: number, signal?: AbortSignal) =>
			request<TraceSummary[]>(f, `${run(id)}/retrievals${query({ agent, step })}`, { signal }),
		retrieval: (id: string, trace: string, weights?: RetrievalWeights, signal?: AbortSignal) =>
			request<RetrievalTable>(
				f,
				`${run(id)}/retrievals/${segments(trace)}${query({ weights: weights ? weightsParam(weights) : undefined })}`,
				{ signal }
			),
		calls: (id: string, filter: CallFilter, signal?: AbortSignal) =>
			request<CallView[]>(f, `${run(id)}/calls${query({ ...filter })}`, { signal }),
		/** The town's objects and their states at a step (the exact restored state). */
		objects: (id: string, step: number, signal?: AbortSignal) => request<ObjectStates>(f, `${run(id)}/objects${query({ step })}`, { signal }),
		interview: (id: string, body: InterviewRequest) =>
			post<InterviewAnswer>(f, `${run(id)}/interview`, body),
		/** The run searched: memories, model calls and conversation lines in one ranked list. */
		search: (id: string, q: string, filter: { agent?: string; kind?: string; limit?: number } = {}, signal?: AbortSignal) =>
			request<SearchAnswer>(f, `${run(id)}/search${query({ q, ...filter })}`, { signal }),
		/** What the step to the state after `step` steps did. */
		changes: (id: string, step: number, signal?: AbortSignal) => request<StepChanges>(f, `${run(id)}/changes${query({ step })}`, { signal }),
		/** Model calls, tokens and latency per game hour and per template. */
		modelUse: (id: string, signal?: AbortSignal) => request<ModelUse>(f, `${run(id)}/model-use`, { signal }),
		eventsUrl: (id: string) => `${run(id)}/events`
	};
}

export type Api = ReturnType<typeof createApi>;

// ---- worlds (the world editor) ----------------------------------------------------------------

/** A refused world edit: the server's message and the problems it found (each with its place). */
export class ProblemsError extends ApiError {
	constructor(
		message: string,
		status: number,
		readonly problems: WorldProblem[],
		details: { kind?: ErrorKind; issues?: ApiIssue[] } = {}
	) {
		super(message, status, details);
		this.name = 'ProblemsError';
	}
}

/** The worlds API's errors: a ProblemsError with the problems an error answer lists; ApiError (status 0) for no answer. */
export const problemsError: ErrorFactory = (message, status, body) => {
	if (!body) return new ApiError(message, status);
	return new ProblemsError(message, status, body.problems ?? [], { kind: body.kind, issues: body.issues });
};

function worldRequest<T>(f: Fetch, url: string, method = 'GET', body?: unknown): Promise<T> {
	return request<T>(f, url, jsonInit(method, body), problemsError);
}

const worldUrl = (world: string) => `/api/worlds/${encodeURIComponent(world)}`;

/** The worlds folder's worlds. */
export const listWorldEntries = (f: Fetch = defaultFetch) => worldRequest<WorldListing[]>(f, '/api/worlds');
/** A new world, empty or a copy of `body.from`. Throws ProblemsError (409 when the id is taken). */
export const createWorld = (body: CreateWorldRequest, f: Fetch = defaultFetch) =>
	worldRequest<WorldListing>(f, '/api/worlds', 'POST', body);
/** The world's map as an editable doc. */
export const loadWorldMap = (world: string, f: Fetch = defaultFetch) =>
	worldRequest<MapResponse>(f, `${worldUrl(world)}/map`).then((r) => r.doc);
/** Saves the map; answers the checks of the saved world. */
export const saveWorldMap = (world: string, doc: MapDoc, f: Fetch = defaultFetch) =>
	worldRequest<SaveMapResult>(f, `${worldUrl(world)}/map`, 'PUT', { doc } satisfies MapResponse);
/** The checks a run makes of the world, with `doc` instead of the saved map when given. */
export const checkWorld = (world: string, doc?: MapDoc, f: Fetch = defaultFetch) =>
	worldRequest<WorldChecks>(f, `${worldUrl(world)}/check`, 'POST', doc ? { doc } : {});
export const loadWorldSettings = (world: string, f: Fetch = defaultFetch) =>
	worldRequest<WorldSettingsDoc>(f, `${worldUrl(world)}/settings`);
/** Writes world.json; ProblemsError (400) with the problems when the loader would refuse it. */
export const saveWorldSettings = (world: string, settings: WorldSettingsDoc, f: Fetch = defaultFetch) =>
	worldRequest<SaveSettingsResult>(f, `${worldUrl(world)}/settings`, 'PUT', settings);
export const listPersonas = (world: string, f: Fetch = defaultFetch) =>
	worldRequest<PersonaEntry[]>(f, `${worldUrl(world)}/personas`);
/** Creates or replaces a persona; ProblemsError (400) with field-level problems when invalid. */
export const savePersona = (world: string, id: string, persona: Record<string, unknown>, f: Fetch = defaultFetch) =>
	worldRequest<SavePersonaResult>(f, `${worldUrl(world)}/personas/${encodeURIComponent(id)}`, 'PUT', persona);
export const deletePersona = (world: string, id: string, f: Fetch = defaultFetch) =>
	worldRequest<{ deleted: string }>(f, `${worldUrl(world)}/personas/${encodeURIComponent(id)}`, 'DELETE');
