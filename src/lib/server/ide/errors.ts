// Errors the IDE's API answers with: a status and a message meant for the person using it.

export class ApiError extends Error {
	constructor(
		readonly status: 400 | 404 | 409 | 500,
		message: string
	) {
		super(message);
		this.name = 'ApiError';
	}
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);

/** Messages of lower layers that mean "no such thing" rather than "bad request". */
const NOT_FOUND = [/^no run /, /has no agent /, /^unknown agent /, /has no retrieval /, /is not among them/, /^unknown object /];

/** The status and message for any thrown value; never a stack trace. */
export function describeError(err: unknown): { status: number; message: string } {
	if (err instanceof ApiError) return { status: err.status, message: err.message };
	const message = err instanceof Error ? err.message : String(err);
	if (NOT_FOUND.some((re) => re.test(message))) return { status: 404, message };
	// a programming error, not something the request can fix
	if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError) return { status: 500, message: `internal error: ${message}` };
	return { status: 400, message };
}
