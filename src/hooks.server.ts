// Every request passes the guard before it reaches a page or an API route: the Host it names,
// the access token when one is set, the origin and content type of requests that change
// something, and the size of request bodies (src/lib/server/http-guard.ts).
import type { Handle, ServerInit } from '@sveltejs/kit';
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
