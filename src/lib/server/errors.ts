// A request the server refuses: a status and a message meant for the person using the studio
// (and, for a world, the problems found). Thrown by any layer that checks what a request asks;
// the HTTP adapters turn it into the answer (the IDE's API: `describeError`, ide/http.ts; the
// world editing API: world/edit.ts `errorBody`). The browser's ApiError ($lib/shared/api) is the
// other side: an answer that was an error.

import type { WorldProblem } from '../world/problems';

export type RefusalStatus = 400 | 404 | 409 | 413 | 500;

export class RequestError extends Error {
	constructor(
		readonly status: RefusalStatus,
		message: string,
		/** what is wrong with a world, each with its place, when that is why */
		readonly problems?: WorldProblem[]
	) {
		super(message);
		this.name = 'RequestError';
	}
}

export const badRequest = (message: string) => new RequestError(400, message);
export const notFound = (message: string) => new RequestError(404, message);

/** Messages of lower layers that mean "no such thing" rather than "bad request". */
const NOT_FOUND = [/^no run /, /has no agent /, /^unknown agent /, /has no retrieval /, /is not among them/, /^unknown object /];

/** The status and message for any thrown value; never a stack trace. */
export function describeError(err: unknown): { status: number; message: string } {
	if (err instanceof RequestError) return { status: err.status, message: err.message };
	const message = err instanceof Error ? err.message : String(err);
	if (NOT_FOUND.some((re) => re.test(message))) return { status: 404, message };
	// a programming error, not something the request can fix
	if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError) return { status: 500, message: `internal error: ${message}` };
	return { status: 400, message };
}
