// A local OpenAI-compatible test server (node:http on 127.0.0.1, a free port). Tests script
// its answers per request: status codes, headers such as Retry-After, delays, malformed bodies.

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
}

/** Answers one request; `n` counts requests to the same endpoint from 0. */
export type FakeHandler = (req: FakeRequest, n: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAI {
	/** base URL including /v1, for OPENAI_BASE_URL */
	url: string;
	requests: FakeRequest[];
	chatRequests(): FakeRequest[];
	embeddingRequests(): FakeRequest[];
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

	const send = (res: ServerResponse, reply: FakeReply) => {
		if (res.destroyed) return;
		const body = reply.raw ?? JSON.stringify(reply.json ?? {});
		res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
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
		close: () =>
			new Promise<void>((resolve) => {
				for (const t of timers) clearTimeout(t);
				timers.clear();
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
