// Glue between the /api/prompts/** route handlers and the prompt store: JSON answers, JSON
// errors ({ message, issues? } with 400 or 404, never a stack trace) and request bodies.

import type { PromptsErrorBody } from '../../api/prompts';
import { RequestError } from '../errors';
import { PromptStoreError } from './store';

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
/** a whole prompt set is about 60 kB; each template may be up to 64 kB */
const BODY_LIMIT = 2 * 1024 * 1024;

/** An answer's status and body for anything thrown. */
export function errorBody(err: unknown): { status: number; body: PromptsErrorBody } {
	if (err instanceof PromptStoreError) return { status: err.status, body: { message: err.message, ...(err.issues.length ? { issues: err.issues } : {}) } };
	if (err instanceof RequestError) return { status: err.status, body: { message: err.message } };
	const message = err instanceof Error ? err.message : String(err);
	// a programming error, not something the request can fix
	if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError) {
		console.error(err);
		return { status: 500, body: { message: `internal error: ${message}` } };
	}
	return { status: 400, body: { message } };
}

/** Runs a handler: its value as JSON with `status` (or the status it picks), or an error answer. */
export async function respond(fn: () => unknown, status = 200): Promise<Response> {
	try {
		let value = await fn();
		let code = status;
		if (value instanceof WithStatus) {
			code = value.status;
			value = value.value;
		}
		return new Response(JSON.stringify(value), { status: code, headers: HEADERS });
	} catch (err) {
		const e = errorBody(err);
		return new Response(JSON.stringify(e.body), { status: e.status, headers: HEADERS });
	}
}

/** A handler's value with the status to answer it with. */
export class WithStatus {
	constructor(
		readonly status: number,
		readonly value: unknown
	) {}
}

/** The JSON object body of a request. */
export async function readObject(request: Request): Promise<Record<string, unknown>> {
	const text = await request.text();
	if (text.length > BODY_LIMIT) throw new PromptStoreError(400, `the request body is larger than ${BODY_LIMIT} bytes`);
	let value: unknown;
	try {
		value = text.trim() ? JSON.parse(text) : {};
	} catch {
		throw new PromptStoreError(400, 'the request body is not valid JSON');
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PromptStoreError(400, 'the request body must be a JSON object');
	return value as Record<string, unknown>;
}

/** A version id, prefix or label from the URL (the store answers 404 when it names nothing). */
export function refParam(value: string | undefined, what = 'version'): string {
	if (!value || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(value)) throw new PromptStoreError(400, `"${value ?? ''}" is not a ${what} id or label`);
	return value;
}
