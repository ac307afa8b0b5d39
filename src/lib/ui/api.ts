// The browser's side of the IDE's HTTP API (shapes in $lib/api-types). Every call throws an
// ApiError carrying the server's own message, so screens can show it as it is.

import type {
	AgentDetail,
	ApiErrorBody,
	CallView,
	ControlRequest,
	CreateWorldRequest,
	Frame,
	InputRequest,
	InputResult,
	InterviewAnswer,
	InterviewRequest,
	MapResponse,
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
} from '$lib/api-types';
import type { RetrievalTable, TraceSummary } from '$lib/server/run/traces';
import type { MapDoc } from '$lib/world/doc';
import type { WorldProblem } from '$lib/world/problems';

export type { RetrievalTable, TableRow, TraceSummary } from '$lib/server/run/traces';

export type Fetch = typeof fetch;

export class ApiError extends Error {
	constructor(
		message: string,
		readonly status: number
	) {
		super(message);
		this.name = 'ApiError';
	}
}

/** The readable part of an error answer: SvelteKit's `{ message }`, `{ error }`, or the text. */
async function errorMessage(res: Response): Promise<string> {
	const text = await res.text().catch(() => '');
	try {
		const body = JSON.parse(text) as { message?: unknown; error?: unknown };
		if (typeof body.message === 'string') return body.message;
		if (typeof body.error === 'string') return body.error;
	} catch {
		// not JSON
	}
	return text.trim() || `${res.status} ${res.statusText}`;
}

async function request<T>(f: Fetch, url: string, init?: RequestInit): Promise<T> {
	let res: Response;
	try {
		res = await f(url, init);
	} catch (err) {
		if (err instanceof DOMException && err.name === 'AbortError') throw err;
		throw new ApiError(`The studio server did not answer (${url}): ${err instanceof Error ? err.message : String(err)}`, 0);
	}
	if (!res.ok) throw new ApiError(await errorMessage(res), res.status);
	return (await res.json()) as T;
}

function post<T>(f: Fetch, url: string, body: unknown, signal?: AbortSignal): Promise<T> {
	return request<T>(f, url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal
	});
}

function query(params: Record<string, string | number | undefined | null>): string {
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

export function createApi(f: Fetch = (...args) => fetch(...args)) {
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
		interview: (id: string, body: InterviewRequest) =>
			post<InterviewAnswer>(f, `${run(id)}/interview`, body),
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
		readonly problems: WorldProblem[]
	) {
		super(message, status);
		this.name = 'ProblemsError';
	}
}

async function worldRequest<T>(f: Fetch, url: string, method = 'GET', body?: unknown): Promise<T> {
	let res: Response;
	try {
		res = await f(url, {
			method,
			...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
		});
	} catch (err) {
		throw new ApiError(`The studio server did not answer (${url}): ${err instanceof Error ? err.message : String(err)}`, 0);
	}
	if (res.ok) return (await res.json()) as T;
	const text = await res.text().catch(() => '');
	let parsed: Partial<ApiErrorBody> = {};
	try {
		parsed = JSON.parse(text) as Partial<ApiErrorBody>;
	} catch {
		// not JSON
	}
	const message = typeof parsed.message === 'string' ? parsed.message : text.trim() || `${res.status} ${res.statusText}`;
	throw new ProblemsError(message, res.status, Array.isArray(parsed.problems) ? parsed.problems : []);
}

const worldUrl = (world: string) => `/api/worlds/${encodeURIComponent(world)}`;
const defaultFetch: Fetch = (...args) => fetch(...args);

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
