// Glue between the route handlers and the run manager: JSON answers, JSON errors ({ error }
// with a status, never a stack trace), request bodies and server-sent events.

import { json } from '@sveltejs/kit';
import type { RunEvent } from '../../api/types';
import { badRequest, describeError } from '../errors';
import type { RunManager } from './manager';

const MAX_BODY = 256 * 1024;

/** The error answer for anything thrown. */
export function errorResponse(err: unknown): Response {
	const { status, message } = describeError(err);
	if (status >= 500) console.error(message);
	return json({ error: message }, { status });
}

/** Runs a handler: its value as JSON, or an error answer. */
export async function answer(fn: () => unknown): Promise<Response> {
	try {
		return json(await fn());
	} catch (err) {
		return errorResponse(err);
	}
}

/** The JSON body of a request ({} when empty). */
export async function readBody(request: Request): Promise<unknown> {
	const text = await request.text();
	if (text.length > MAX_BODY) throw badRequest(`the body is larger than ${MAX_BODY} bytes`);
	if (!text.trim()) return {};
	try {
		return JSON.parse(text);
	} catch {
		throw badRequest('the body is not valid JSON');
	}
}

/** Step events waiting for a slow reader beyond this are dropped (it can fetch the frames). */
const QUEUE_LIMIT = 64;

/**
 * A `text/event-stream` of a run's events: its status first, then every event until the
 * client goes away. Keep-alive comments every 15 seconds keep proxies from closing it.
 */
export function eventStream(manager: RunManager, id: string, signal: AbortSignal): Response {
	manager.run(id);
	const encoder = new TextEncoder();
	let cleanup = () => {};
	const stream = new ReadableStream<Uint8Array>(
		{
			start(controller) {
				let open = true;
				const send = (chunk: string) => {
					if (!open) return;
					try {
						controller.enqueue(encoder.encode(chunk));
					} catch {
						cleanup();
					}
				};
				const onEvent = (e: RunEvent) => {
					if (e.type === 'step' && (controller.desiredSize ?? 0) <= 0) return;
					send(`data: ${JSON.stringify(e)}\n\n`);
				};
				onEvent(manager.statusEvent(id));
				const off = manager.subscribe(id, onEvent);
				const beat = setInterval(() => send(': keep-alive\n\n'), 15_000);
				beat.unref?.();
				cleanup = () => {
					if (!open) return;
					open = false;
					off();
					clearInterval(beat);
				};
				signal.addEventListener(
					'abort',
					() => {
						cleanup();
						try {
							controller.close();
						} catch {
							// already closed
						}
					},
					{ once: true }
				);
			},
			cancel() {
				cleanup();
			}
		},
		new CountQueuingStrategy({ highWaterMark: QUEUE_LIMIT })
	);
	return new Response(stream, {
		headers: {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-cache, no-transform',
			'x-accel-buffering': 'no'
		}
	});
}
