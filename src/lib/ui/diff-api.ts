// The browser's side of GET /api/diff: the behaviour diff of two runs (shape in $lib/api/diff).
// Errors throw the API's ApiError with the server's own message.

import type { RunDiff } from '$lib/api/diff';
import { defaultFetch, request, type Fetch } from '$lib/shared/api';

/** The diff of runs `a` and `b` (the server keeps it while neither run changes). */
export function fetchDiff(a: string, b: string, f: Fetch = defaultFetch, signal?: AbortSignal): Promise<RunDiff> {
	return request<RunDiff>(f, `/api/diff?${new URLSearchParams({ a, b })}`, { signal });
}
