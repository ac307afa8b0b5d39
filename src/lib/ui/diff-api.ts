// The browser's side of GET /api/diff: the behaviour diff of two runs (shape in $lib/api-diff).
// Errors throw the API's ApiError with the server's own message.

import type { RunDiff } from '$lib/api-diff';
import { ApiError, type Fetch } from './api';

/** The diff of runs `a` and `b` (the server keeps it while neither run changes). */
export async function fetchDiff(a: string, b: string, f: Fetch = (...args) => fetch(...args), signal?: AbortSignal): Promise<RunDiff> {
	const url = `/api/diff?${new URLSearchParams({ a, b })}`;
	let res: Response;
	try {
		res = await f(url, { signal });
	} catch (err) {
		if (err instanceof DOMException && err.name === 'AbortError') throw err;
		throw new ApiError(`The studio server did not answer (${url}): ${err instanceof Error ? err.message : String(err)}`, 0);
	}
	if (!res.ok) {
		const text = await res.text().catch(() => '');
		let message = text.trim() || `${res.status} ${res.statusText}`;
		try {
			const body = JSON.parse(text) as { error?: unknown; message?: unknown };
			if (typeof body.error === 'string') message = body.error;
			else if (typeof body.message === 'string') message = body.message;
		} catch {
			// not JSON: the text as it is
		}
		throw new ApiError(message, res.status);
	}
	return (await res.json()) as RunDiff;
}
