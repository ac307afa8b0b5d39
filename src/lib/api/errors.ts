// The one shape of every error answer of the IDE's HTTP API (src/routes/api/**, and the request
// guard of src/hooks.server.ts): `ApiErrorBody`, with the status its `kind` decides. The server
// throws typed errors ($lib/server/errors) and one adapter ($lib/server/http) answers them; the
// browser's client ($lib/shared/api) reads this shape back into its errors.

import type { WorldProblem } from '../world/problems';

/**
 * What went wrong, as far as the caller can act on it:
 * - `invalid`: the request is malformed or asks for something impossible (fix the request);
 * - `not-found`: what it names does not exist;
 * - `conflict`: the thing exists but its state refuses the request (a run written elsewhere,
 *   a name taken, a file that cannot be used);
 * - `too-large`: the request body is over its limit;
 * - `unauthorized`, `forbidden`, `misdirected`: the request guard refused the request (no
 *   token; not from this studio or machine; a Host this server does not answer to);
 * - `unavailable`: something the server depends on failed (the model's endpoint, the disk);
 * - `fault`: the server's own failure (a bug, or data on disk it cannot read).
 */
export type ErrorKind = 'invalid' | 'not-found' | 'conflict' | 'too-large' | 'unauthorized' | 'forbidden' | 'misdirected' | 'unavailable' | 'fault';

/** The HTTP status of each kind of error. */
export const ERROR_STATUS: Readonly<Record<ErrorKind, number>> = {
	invalid: 400,
	unauthorized: 401,
	forbidden: 403,
	'not-found': 404,
	conflict: 409,
	'too-large': 413,
	misdirected: 421,
	fault: 500,
	unavailable: 503
};

export const ERROR_KINDS = Object.keys(ERROR_STATUS) as ErrorKind[];

/** The kind an error status stands for (a status no kind has: `fault` from 500 up, else `invalid`). */
export function kindOfStatus(status: number): ErrorKind {
	for (const kind of ERROR_KINDS) if (ERROR_STATUS[kind] === status) return kind;
	return status >= 500 ? 'fault' : 'invalid';
}

/**
 * One thing wrong with what a request sent: a field of its body (`path`, e.g. `from.step`,
 * `inputs[2].text`), or a place in a prompt template (`template`, 1-based `line` and `column`).
 */
export interface ApiIssue {
	message: string;
	path?: string;
	template?: string;
	line?: number;
	column?: number;
}

/** The JSON body of every error answer. */
export interface ApiErrorBody {
	kind: ErrorKind;
	/** for the person using the studio; never a stack trace */
	message: string;
	/** what is wrong with the request, each with its place: a body's fields, a prompt set's templates */
	issues?: ApiIssue[];
	/** what is wrong with a world, each with its file and place (the world editor marks them) */
	problems?: WorldProblem[];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * An error answer's body read as `ApiErrorBody`: the kind (from the status when the body has
 * none), the message (`fallback` when it has none), and the issues and problems it lists.
 */
export function readErrorBody(body: unknown, status: number, fallback: string): ApiErrorBody {
	const b = isObject(body) ? body : {};
	const kind = typeof b.kind === 'string' && (ERROR_KINDS as string[]).includes(b.kind) ? (b.kind as ErrorKind) : kindOfStatus(status);
	const message = typeof b.message === 'string' && b.message ? b.message : fallback;
	const issues = Array.isArray(b.issues) ? (b.issues.filter((i) => isObject(i) && typeof i.message === 'string') as ApiIssue[]) : undefined;
	const problems = Array.isArray(b.problems) ? (b.problems.filter((p) => isObject(p) && typeof p.message === 'string') as WorldProblem[]) : undefined;
	return { kind, message, ...(issues && { issues }), ...(problems && { problems }) };
}
