// Every request passes the guard before it reaches a page or an API route: the Host it names,
// the access token when one is set, the origin and content type of requests that change
// something, and the size of request bodies (src/lib/server/http-guard.ts).
import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit';
import { kindOfStatus } from '$lib/api/errors';
import { bindingProblems, guardConfig, guardRequest } from '$lib/server/http-guard';

/** A server bound to an address other machines reach refuses to start without an allow-list and a token. */
export const init: ServerInit = () => {
	const problems = bindingProblems(process.env);
	if (problems.length) throw new Error(`Simulacra Studio will not start: ${problems.join('; ')}.`);
};

export const handle: Handle = async ({ event, resolve }) => {
	let clientAddress: string | undefined;
	try {
		clientAddress = event.getClientAddress();
	} catch {
		clientAddress = undefined;
	}
	const verdict = await guardRequest(
		{ request: event.request, url: event.url, routeId: event.route.id, clientAddress },
		guardConfig(process.env)
	);
	if (verdict instanceof Response) return verdict;
	event.request = verdict;
	return resolve(event);
};

/**
 * An error SvelteKit answers itself (no route for the path, a method the route lacks, a failure
 * outside the API's adapter) in the API's error shape: its message and the kind of its status.
 */
export const handleError: HandleServerError = ({ error, status, message }) => {
	if (status >= 500) console.error(error);
	return { message, kind: kindOfStatus(status) };
};
