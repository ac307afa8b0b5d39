// A local OpenAI-compatible test server (node:http on 127.0.0.1, a free port). Tests script
// its answers per request: status codes, headers such as Retry-After, delays, malformed bodies,
// and the faults of real endpoints and proxies: a body that drips in a few bytes at a time (or
// never ends), a body of another content type (a proxy's HTML page), a body of many megabytes.

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: unknown;
}

export interface FakeReply {
	status?: number;
	headers?: Record<string, string>;
	/** a JSON body */
	json?: unknown;
	/** a raw body, sent as is */
	raw?: string;
	/** wait this long before answering */
	delayMs?: number;
	/** the Content-Type header (default application/json); `headers` can still override it */
	contentType?: string;
	/**
	 * Send the headers at once, then the body a few bytes at a time: `chunk` bytes every
	 * `intervalMs`, or `bytesPerSecond`. With `forever` the body never ends: after it, spaces keep
	 * dripping until the client hangs up or the server is closed.
	 */
	drip?: FakeDrip;
	/**
	 * A body of this many bytes (at least the ~220 of the envelope), streamed in 64 KiB pieces as
	 * the client reads them (never built whole): a chat completion whose content is padded with
	 * "x" to the size. Sent chunked, without Content-Length unless `headers` gives one.
	 */
	hugeBytes?: number;
}

export interface FakeDrip {
	bytesPerSecond?: number;
	/** bytes per write (default 1) */
	chunk?: number;
	/** ms between writes (default 100) */
	intervalMs?: number;
	forever?: boolean;
}

/** Answers one request; `n` counts requests to the same endpoint from 0. */
export type FakeHandler = (req: FakeRequest, n: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAI {
	/** base URL including /v1, for OPENAI_BASE_URL */
	url: string;
	requests: FakeRequest[];
	chatRequests(): FakeRequest[];
	embeddingRequests(): FakeRequest[];
	/** body bytes handed to the socket by dripping and huge replies (a client that hangs up early stops it) */
	streamedBytes(): number;
	close(): Promise<void>;
}

export function chatCompletion(content: string, usage = { prompt_tokens: 11, completion_tokens: 7 }): unknown {
	return {
		id: 'chatcmpl-test',
		object: 'chat.completion',
		created: 0,
		model: 'test-model',
		choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
		usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
	};
}

export function embeddingsResponse(vectors: number[][]): unknown {
	return {
		object: 'list',
		model: 'test-embed',
		data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
		usage: { prompt_tokens: vectors.length, total_tokens: vectors.length }
	};
}

/** A deterministic, not normalised vector of `dims` numbers for a text. */
export function fakeVector(text: string, dims: number): number[] {
	const v: number[] = [];
	let h = 2166136261;
	for (let i = 0; i < dims; i++) {
		for (const ch of text + i) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
		v.push(((h % 2000) - 1000) / 100);
	}
	return v;
}

export async function startFakeOpenAI(handlers: { chat?: FakeHandler; embeddings?: FakeHandler; dims?: number } = {}): Promise<FakeOpenAI> {
	const requests: FakeRequest[] = [];
	const counts = { chat: 0, embeddings: 0 };
	const timers = new Set<NodeJS.Timeout>();
	const dims = handlers.dims ?? 8;
	const chat: FakeHandler = handlers.chat ?? (() => ({ json: chatCompletion('{}') }));
	const embeddings: FakeHandler =
		handlers.embeddings ??
		((req) => {
			const input = (req.body as { input: string[] | string }).input;
			const texts = Array.isArray(input) ? input : [input];
			return { json: embeddingsResponse(texts.map((t) => fakeVector(t, dims))) };
		});

	/** Ends what is still being sent (drips, huge bodies) when the server closes. */
	const streaming = new Set<() => void>();
	let streamed = 0;

	const drip = (res: ServerResponse, body: Buffer, d: FakeDrip) => {
		let chunk = Math.max(1, d.chunk ?? 1);
		let intervalMs = Math.max(1, d.intervalMs ?? 100);
		if (d.bytesPerSecond !== undefined) {
			intervalMs = Math.max(10, Math.round(1000 / d.bytesPerSecond));
			chunk = Math.max(1, Math.round((d.bytesPerSecond * intervalMs) / 1000));
		}
		let at = 0;
		const space = Buffer.from(' '.repeat(chunk));
		const stop = () => {
			clearInterval(timer);
			streaming.delete(stop);
		};
		const timer = setInterval(() => {
			if (res.destroyed || res.writableEnded) return stop();
			if (at < body.length) {
				const piece = body.subarray(at, at + chunk);
				res.write(piece);
				streamed += piece.length;
				at += chunk;
			} else if (d.forever) {
				res.write(space);
				streamed += space.length;
			}
			else {
				stop();
				res.end();
			}
		}, intervalMs);
		streaming.add(stop);
		res.on('close', stop);
	};

	const huge = (res: ServerResponse, bytes: number) => {
		const head = Buffer.from('{"id":"chatcmpl-huge","object":"chat.completion","created":0,"model":"test-model","choices":[{"index":0,"message":{"role":"assistant","content":"');
		const tail = Buffer.from('"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}');
		const piece = Buffer.alloc(64 * 1024, 'x');
		let left = Math.max(0, bytes - head.length - tail.length);
		let stopped = false;
		const stop = () => {
			stopped = true;
			streaming.delete(stop);
		};
		streaming.add(stop);
		res.on('close', stop);
		const pump = () => {
			while (!stopped && !res.destroyed && left > 0) {
				const n = Math.min(left, piece.length);
				left -= n;
				streamed += n;
				if (!res.write(n === piece.length ? piece : piece.subarray(0, n))) return void res.once('drain', pump);
			}
			if (!stopped && !res.destroyed) {
				stop();
				res.end(tail);
			}
		};
		res.write(head);
		pump();
	};

	const send = (res: ServerResponse, reply: FakeReply) => {
		if (res.destroyed) return;
		const headers: Record<string, string> = { 'content-type': reply.contentType ?? 'application/json', ...reply.headers };
		if (reply.hugeBytes !== undefined) {
			res.writeHead(reply.status ?? 200, headers);
			huge(res, reply.hugeBytes);
			return;
		}
		const body = Buffer.from(reply.raw ?? JSON.stringify(reply.json ?? {}), 'utf8');
		if (reply.drip) {
			res.writeHead(reply.status ?? 200, headers);
			res.flushHeaders();
			drip(res, body, reply.drip);
			return;
		}
		res.writeHead(reply.status ?? 200, headers);
		res.end(body);
	};

	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', async () => {
			let body: unknown = undefined;
			try {
				body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
			} catch {
				body = Buffer.concat(chunks).toString('utf8');
			}
			const request: FakeRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
			requests.push(request);
			let reply: FakeReply;
			try {
				if (request.path.endsWith('/chat/completions')) reply = await chat(request, counts.chat++);
				else if (request.path.endsWith('/embeddings')) reply = await embeddings(request, counts.embeddings++);
				else reply = { status: 404, json: { error: { message: `no route ${request.path}` } } };
			} catch (e) {
				reply = { status: 500, json: { error: { message: `fake server handler failed: ${(e as Error).message}` } } };
			}
			if (reply.delayMs) {
				const timer = setTimeout(() => {
					timers.delete(timer);
					send(res, reply);
				}, reply.delayMs);
				timers.add(timer);
			} else send(res, reply);
		});
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
		embeddingRequests: () => requests.filter((r) => r.path.endsWith('/embeddings')),
		streamedBytes: () => streamed,
		close: () =>
			new Promise<void>((resolve) => {
				for (const t of timers) clearTimeout(t);
				timers.clear();
				for (const stop of [...streaming]) stop();
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
