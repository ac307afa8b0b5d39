// The browser's side of the evaluation API (shapes in $lib/api-eval): the report at a step, the
// stored interview sets, running interviews, and the addresses of the CSV exports. Errors throw
// the API's ApiError with the server's own message.

import type { EvalCsvTable, EvalReport, InterviewRequest, InterviewSet, InterviewSetListing } from '$lib/api-eval';
import { ApiError, type Fetch } from '../api';

const base = (run: string) => `/api/runs/${encodeURIComponent(run)}/eval`;

function query(params: Record<string, string | number | undefined | null>): string {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
	const s = q.toString();
	return s ? `?${s}` : '';
}

/** The report's address: at `step` (default: the run's last), computed again with `refresh`. */
export function reportUrl(run: string, step?: number | null, refresh = false): string {
	return `${base(run)}${query({ step, refresh: refresh ? 1 : undefined })}`;
}

/** A CSV export's address (the interviews table reads the set stored at `step`). */
export function csvUrl(run: string, table: EvalCsvTable, step: number): string {
	return `${base(run)}${query({ format: 'csv', table, step })}`;
}

export function interviewsUrl(run: string, step?: number): string {
	return `${base(run)}/interviews${query({ step })}`;
}

/** The readable part of an error answer: `{ message }`, `{ error }`, or the text. */
async function errorMessage(res: Response): Promise<string> {
	const text = await res.text().catch(() => '');
	try {
		const body = JSON.parse(text) as { message?: unknown; error?: unknown };
		if (typeof body.error === 'string') return body.error;
		if (typeof body.message === 'string') return body.message;
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

export function createEvalApi(f: Fetch = (...args) => fetch(...args)) {
	return {
		report: (run: string, step?: number | null, opts: { refresh?: boolean; signal?: AbortSignal } = {}) =>
			request<EvalReport>(f, reportUrl(run, step, opts.refresh), { signal: opts.signal }),
		interviewSets: (run: string, signal?: AbortSignal) => request<InterviewSetListing[]>(f, interviewsUrl(run), { signal }),
		interviewSet: (run: string, step: number, signal?: AbortSignal) => request<InterviewSet>(f, interviewsUrl(run, step), { signal }),
		runInterviews: (run: string, body: InterviewRequest, signal?: AbortSignal) =>
			request<InterviewSet>(f, interviewsUrl(run), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal
			})
	};
}

export type EvalApi = ReturnType<typeof createEvalApi>;
