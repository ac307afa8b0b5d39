// The errors a request can meet, one class per kind ($lib/api/errors: `ErrorKind`), thrown by the
// layer that knows the fact: the stores and queries (a run, a version, an agent that is not
// there), the checks of request bodies (a field that is wrong), the world editing module (a name
// taken), the model gateway (an endpoint that failed). The HTTP adapter (../http.ts) answers each
// with the status of its kind and the one JSON error shape; nothing decides a status from an
// error's words. The browser's ApiError ($lib/shared/api) is the other side: an answer that was
// an error. Outside HTTP (the CLI) these are plain Errors with a message.

import { ERROR_STATUS, type ApiIssue, type ErrorKind } from '../api/errors';
import type { WorldProblem } from '../world/problems';

export type { ApiIssue, ErrorKind };

/** What an error lists besides its message: fields or template lines (`issues`), world problems (`problems`). */
export interface ErrorDetails {
	issues?: ApiIssue[];
	problems?: WorldProblem[];
}

/** A refused request: its kind (which decides the status) and a message meant for the person using the studio. */
export class RequestError extends Error {
	readonly issues?: ApiIssue[];
	readonly problems?: WorldProblem[];

	constructor(
		readonly kind: ErrorKind,
		message: string,
		details: ErrorDetails = {}
	) {
		super(message);
		this.name = 'RequestError';
		if (details.issues?.length) this.issues = details.issues;
		if (details.problems?.length) this.problems = details.problems;
	}

	/** the HTTP status of its kind */
	get status(): number {
		return ERROR_STATUS[this.kind];
	}
}

/** The request is malformed or asks for something impossible (400). */
export class InvalidError extends RequestError {
	constructor(message: string, details?: ErrorDetails) {
		super('invalid', message, details);
		this.name = 'InvalidError';
	}
}

/** What the request names does not exist (404). */
export class NotFoundError extends RequestError {
	constructor(message: string, details?: ErrorDetails) {
		super('not-found', message, details);
		this.name = 'NotFoundError';
	}
}

/** The state of what the request names refuses it: written elsewhere, a name taken, a file unusable (409). */
export class ConflictError extends RequestError {
	constructor(message: string, details?: ErrorDetails) {
		super('conflict', message, details);
		this.name = 'ConflictError';
	}
}

/** The request body is over its limit (413). */
export class TooLargeError extends RequestError {
	constructor(message: string) {
		super('too-large', message);
		this.name = 'TooLargeError';
	}
}

/** Something the server depends on failed: the model's endpoint, the disk (503). */
export class UnavailableError extends RequestError {
	constructor(message: string) {
		super('unavailable', message);
		this.name = 'UnavailableError';
	}
}

/** The server's own failure, said as such (500); any error that is not a RequestError answers the same. */
export class FaultError extends RequestError {
	constructor(message: string, details?: ErrorDetails) {
		super('fault', message, details);
		this.name = 'FaultError';
	}
}

/** Refused by the request guard: no access token (401). */
export class UnauthorizedError extends RequestError {
	constructor(message: string) {
		super('unauthorized', message);
		this.name = 'UnauthorizedError';
	}
}

/** Refused by the request guard: not from this studio, or not from this machine (403). */
export class ForbiddenError extends RequestError {
	constructor(message: string) {
		super('forbidden', message);
		this.name = 'ForbiddenError';
	}
}

/** Refused by the request guard: a Host this server does not answer to (421). */
export class MisdirectedError extends RequestError {
	constructor(message: string) {
		super('misdirected', message);
		this.name = 'MisdirectedError';
	}
}

export const badRequest = (message: string, details?: ErrorDetails) => new InvalidError(message, details);
export const notFound = (message: string) => new NotFoundError(message);
export const conflict = (message: string, details?: ErrorDetails) => new ConflictError(message, details);

/** `e` as an InvalidError with its message (an engine's or a library's check of what the request gave). */
export function invalidFrom(e: unknown): RequestError {
	if (e instanceof RequestError) return e;
	return new InvalidError(e instanceof Error ? e.message : String(e));
}
