// Calling the API's route handlers in tests the way SvelteKit would, and checking their answers.

import { expect } from 'vitest';
import { kindOfStatus, type ApiErrorBody } from '../../api/errors';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (event: any) => Response | Promise<Response>;

/** Calls a route handler with the parts the handlers use: params, the URL with `query`, a JSON body (POST). */
export async function call(handler: Handler, params: Record<string, string>, query = '', body?: unknown, signal?: AbortSignal): Promise<Response> {
	const url = new URL(`http://127.0.0.1/api/test${query ? `?${query}` : ''}`);
	const request = new Request(url, body === undefined ? { signal } : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal });
	return handler({ params, url, request });
}

/** The JSON of a 200 answer; any other status throws with the answer's body. */
export async function ok<T>(res: Response | Promise<Response>): Promise<T> {
	const r = await res;
	const body = await r.json();
	if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${JSON.stringify(body)}`);
	return body as T;
}

/** Expects the API's one JSON error shape with `status` (and the kind of that status), no stack trace, and a message matching `pattern`; returns the message. */
export async function fails(res: Response | Promise<Response>, status: number, pattern?: RegExp): Promise<string> {
	const r = await res;
	expect(r.status).toBe(status);
	expect(r.headers.get('content-type')).toMatch(/json/);
	const body = (await r.json()) as ApiErrorBody;
	expect(typeof body.message).toBe('string');
	expect(body.kind).toBe(kindOfStatus(status));
	expect(body.message).not.toMatch(/\n\s+at /); // no stack trace
	if (pattern) expect(body.message).toMatch(pattern);
	return body.message;
}
