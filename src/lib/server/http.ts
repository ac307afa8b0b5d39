// The one HTTP adapter of the API (src/routes/api/** and the request guard): a handler's value as
// JSON, any thrown error as the one error shape (`ApiErrorBody`, $lib/api/errors) with the status
// of its kind, and request bodies read within their limits and through their schemas.
//
// An error's kind comes from its class only (../errors.ts): a RequestError says its kind; a
// WorldError (a world's problems) is `invalid` with the problems; anything else is the server's
// own `fault`, logged, answered without a stack trace.

import type { GenericSchema, InferOutput } from 'valibot';
import type { ApiErrorBody } from '../api/errors';
import { WorldError } from '../world/problems';
import { InvalidError, RequestError, TooLargeError } from './errors';
import { jsonTooDeep, limits } from './limits';
import { parseWith } from './validate';

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** Any thrown value as a RequestError: its own kind, or `invalid` for a world's problems, else `fault`. */
export function requestErrorOf(err: unknown): RequestError {
	if (err instanceof RequestError) return err;
	if (err instanceof WorldError) return new InvalidError(err.summary, { problems: err.problems });
	const message = err instanceof Error ? err.message : String(err);
	// a programming error, not something the request can fix
	const internal = err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError || err instanceof SyntaxError;
	return new RequestError('fault', internal ? `internal error: ${message}` : message);
}

/** The status and JSON body of the error answer for any thrown value; never a stack trace. */
export function errorBody(err: unknown): { status: number; body: ApiErrorBody } {
	const e = requestErrorOf(err);
	const body: ApiErrorBody = { kind: e.kind, message: e.message };
	if (e.issues?.length) body.issues = e.issues;
	if (e.problems?.length) body.problems = e.problems;
	return { status: e.status, body };
}

/** The error answer for anything thrown (a server fault is logged). */
export function errorResponse(err: unknown, headers: Record<string, string> = {}): Response {
	const { status, body } = errorBody(err);
	if (status >= 500) console.error(err instanceof RequestError ? `${body.kind}: ${body.message}` : err);
	return new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...headers } });
}

/** A handler's value with the status to answer it with (a created thing: 201). */
export class WithStatus {
	constructor(
		readonly status: number,
		readonly value: unknown
	) {}
}

/** Runs a handler: its value as JSON with `status` (or the one it picks with WithStatus), or the error answer. */
export async function answer(fn: () => unknown, status = 200): Promise<Response> {
	try {
		let value = await fn();
		let code = status;
		if (value instanceof WithStatus) {
			code = value.status;
			value = value.value;
		}
		return new Response(JSON.stringify(value), { status: code, headers: HEADERS });
	} catch (err) {
		return errorResponse(err);
	}
}

/** Runs a handler that makes its own Response (a download, a stream); a thrown error is the error answer. */
export async function answerWith(fn: () => Response | Promise<Response>): Promise<Response> {
	try {
		return await fn();
	} catch (err) {
		return errorResponse(err);
	}
}

export interface BodyLimits {
	/** bytes (default: SIMULACRA_MAX_BODY_BYTES) */
	limit?: number;
	/** how deep lists and objects may nest (default: SIMULACRA_MAX_JSON_DEPTH) */
	maxDepth?: number;
}

/**
 * The JSON body of a request, read up to its limit ({} when empty). A body over the limit
 * (declared or streamed, chunked included) is `too-large`, one that cannot be read, is not JSON
 * or nests deeper than `maxDepth` is `invalid` (the depth checked before it is parsed). The
 * request guard refuses the same before any route runs; this holds for routes called directly.
 */
export async function readJsonBody(request: Request, { limit = limits().maxBodyBytes, maxDepth = limits().maxJsonDepth }: BodyLimits = {}): Promise<unknown> {
	const tooLarge = () => new TooLargeError(`the request body is larger than ${limit} bytes`);
	const declared = Number(request.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > limit) throw tooLarge();
	const text = new TextDecoder().decode(await readBodyBytes(request, limit, tooLarge));
	if (!text.trim()) return {};
	const deep = jsonTooDeep(text, maxDepth);
	if (deep) throw new InvalidError(`the request body is refused: its ${deep.message}, at line ${deep.line}, column ${deep.column}`);
	try {
		return JSON.parse(text);
	} catch {
		throw new InvalidError('the request body is not valid JSON');
	}
}

/**
 * A request's body, read up to `limit` bytes (chunked included): past it `tooLarge()` is thrown,
 * and `invalid` when it cannot be read. Shared by the request guard and `readJsonBody`.
 */
export async function readBodyBytes(request: Request, limit: number, tooLarge: () => RequestError): Promise<Uint8Array<ArrayBuffer>> {
	const chunks: Uint8Array[] = [];
	let size = 0;
	if (request.body) {
		const reader = request.body.getReader();
		for (;;) {
			let chunk: ReadableStreamReadResult<Uint8Array>;
			try {
				chunk = await reader.read();
			} catch (e) {
				// the server's own size limit ends the stream with a 413 error
				if ((e as { status?: unknown })?.status === 413) throw tooLarge();
				throw new InvalidError('the request body could not be read');
			}
			const { done, value } = chunk;
			if (done) break;
			size += value.byteLength;
			if (size > limit) {
				// released, not cancelled: cancelling resets the connection before the answer is
				// sent; the server discards the rest of the body once the answer is out
				reader.releaseLock();
				throw tooLarge();
			}
			chunks.push(value);
		}
	}
	const body = new Uint8Array(size);
	let at = 0;
	for (const c of chunks) {
		body.set(c, at);
		at += c.byteLength;
	}
	return body;
}

/** The request's JSON body checked by its schema (../validate.ts `parseWith`): the typed value, or `invalid` naming the field. */
export async function readBody<S extends GenericSchema>(request: Request, schema: S, opts: BodyLimits = {}): Promise<InferOutput<S>> {
	return parseWith(schema, await readJsonBody(request, opts));
}
