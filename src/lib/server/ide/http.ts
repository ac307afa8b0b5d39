// The run manager's server-sent events (the API's JSON answers and errors are ../http.ts's).

import type { RunEvent } from '../../api/types';
import type { RunManager } from './manager';

/** The largest body of a run request (start, control, inputs, interview): they are small. */
export const RUN_BODY = { limit: 256 * 1024 };

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
