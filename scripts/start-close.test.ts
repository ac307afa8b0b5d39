// A body over its limit is answered 413 before it is read; the connection must then close so
// that every client sees the answer at once: one on a keep-alive agent, and one that writes its
// whole body before it reads (Python's http.client, a plain socket), which used to wait, blocked
// in its write, until the connection timed out. The server is the production one's request path:
// Node's http server, SvelteKit's request conversion (what adapter-node uses) and the hook.

import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { getRequest, setResponse } from '@sveltejs/kit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle } from '../src/hooks.server';
import { closeEarlyAnswers } from './start.js';

const FIVE_MIB = 5 * 1024 * 1024;
const savedEnv = { ...process.env };

/** A server like `npm start`'s; `fixed` applies closeEarlyAnswers as start.js does. */
async function serve(fixed: boolean): Promise<{ server: http.Server; port: number }> {
	const server = http.createServer(async (req, res) => {
		const request = await getRequest({ base: `http://${req.headers.host}`, request: req, bodySizeLimit: 64 * 1024 * 1024 });
		const url = new URL(request.url);
		const event = { request, url, params: {}, route: { id: '/api/runs' }, getClientAddress: () => req.socket.remoteAddress ?? '', locals: {} };
		const response = await handle({ event, resolve: async () => new Response('{"ok":true}') } as never);
		await setResponse(res, response);
	});
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	if (fixed) closeEarlyAnswers(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return { server, port: (server.address() as AddressInfo).port };
}

let fixed: { server: http.Server; port: number };
let unfixed: { server: http.Server; port: number };

beforeAll(async () => {
	delete process.env.HOST;
	delete process.env.SIMULACRA_ACCESS_TOKEN;
	delete process.env.SIMULACRA_ALLOWED_HOSTS;
	fixed = await serve(true);
	unfixed = await serve(false);
});

afterAll(async () => {
	for (const s of [fixed, unfixed]) {
		s.server.closeAllConnections();
		await new Promise((r) => s.server.close(r));
	}
	process.env = savedEnv;
});

const headers = (port: number, length: number) =>
	`POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * A plain socket that writes the request and its whole body, waits until all of it is written,
 * and only then reads: what Python's http.client does. Answers what it read within `ms`.
 */
function sendAllThenRead(port: number, body: number, ms: number): Promise<{ answer: string; ms: number; error?: string }> {
	const t0 = performance.now();
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		const chunks: Buffer[] = [];
		const done = (error?: string) => {
			clearTimeout(timer);
			socket.destroy();
			resolve({ answer: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - t0, ...(error ? { error } : {}) });
		};
		const timer = setTimeout(() => done('timed out'), ms);
		socket.on('error', (e) => done(e.message));
		socket.write(headers(port, body));
		socket.write(Buffer.alloc(body, 0x20), () => {
			// everything handed to the kernel: now read
			socket.on('data', (c: Buffer) => chunks.push(c));
			socket.on('end', () => done());
		});
	});
}

/** POSTs `body` bytes on `agent` and answers the status, the Connection header and the time it took. */
function post(port: number, agent: http.Agent, body: number | string): Promise<{ status: number; connection?: string; message: string; ms: number }> {
	const t0 = performance.now();
	return new Promise((resolve, reject) => {
		const data = typeof body === 'string' ? Buffer.from(body) : Buffer.alloc(body, 0x20);
		const req = http.request(
			{
				host: '127.0.0.1',
				port,
				method: 'POST',
				path: '/api/runs',
				agent,
				headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': data.length }
			},
			(res) => {
				const parts: Buffer[] = [];
				res.on('data', (c: Buffer) => parts.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, message: Buffer.concat(parts).toString(), ms: performance.now() - t0 })
				);
			}
		);
		req.on('error', reject);
		req.end(data);
	});
}

describe('a 413 before the body is read', () => {
	it('reaches a client that writes its whole body before reading, within a second (it used to wait for the timeout)', async () => {
		const r = await sendAllThenRead(fixed.port, FIVE_MIB, 5000);
		expect(r.error).toBeUndefined();
		expect(r.answer).toMatch(/^HTTP\/1\.1 413 /);
		expect(r.answer).toMatch(/\r\nconnection: close\r\n/i);
		expect(r.answer).toContain('"message":"the request body is larger than the 4 MiB allowed (SIMULACRA_MAX_BODY_BYTES)"');
		expect(r.answer).toContain('"kind":"too-large"');
		expect(r.ms).toBeLessThan(1000);
		// the same client against the server without it: no answer in a second, still blocked in its write
		const before = await sendAllThenRead(unfixed.port, FIVE_MIB, 1000);
		expect([before.error, before.answer]).toEqual(['timed out', '']);
	});

	it('reaches a client on a keep-alive agent within a second, which then goes on on a new connection', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const r = await post(fixed.port, agent, FIVE_MIB);
			expect([r.status, r.connection, JSON.parse(r.message).message]).toEqual([413, 'close', 'the request body is larger than the 4 MiB allowed (SIMULACRA_MAX_BODY_BYTES)']);
			expect(r.ms).toBeLessThan(1000);
			const next = await post(fixed.port, agent, '{}');
			expect([next.status, next.connection, next.message]).toEqual([200, 'keep-alive', '{"ok":true}']);
			expect(next.ms).toBeLessThan(1000);
			// bodies read whole keep their connection
			const again = await post(fixed.port, agent, '{}');
			expect([again.status, again.connection]).toEqual([200, 'keep-alive']);
		} finally {
			agent.destroy();
		}
	});

	it('stops reading what a client still sends after the answer at the limits it is given', async () => {
		const { server, port } = await serve(false);
		closeEarlyAnswers(server, { lingerBytes: 1024 * 1024, lingerMs: 10_000 });
		try {
			// 20 MiB sent whole before reading: the server drops 1 MiB after the answer, then closes
			const r = await sendAllThenRead(port, 20 * FIVE_MIB, 5000);
			expect(r.error ?? 'closed').not.toBe('timed out');
			expect(r.ms).toBeLessThan(5000);
		} finally {
			server.closeAllConnections();
			await new Promise((r) => server.close(r));
		}
	});
});
