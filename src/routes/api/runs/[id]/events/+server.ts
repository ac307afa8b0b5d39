import { errorResponse, eventStream } from '$lib/server/ide/http';
import { runManager } from '$lib/server/ide/manager';
import type { RequestHandler } from './$types';

/** Server-sent RunEvents of one run. */
export const GET: RequestHandler = ({ params, request }) => {
	try {
		return eventStream(runManager(), params.id, request.signal);
	} catch (err) {
		return errorResponse(err);
	}
};
