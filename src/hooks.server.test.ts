// Real HTTP requests against the request hook, with the routes enumerated from the route files
// (`src/routes/**/+server.ts` and the methods they export): cross-origin requests, foreign Host
// headers and non-JSON bodies are refused on every route that changes something; the studio's
// own requests (same origin, JSON) and non-browser clients reach the routes; bodies are limited.
// The world routes are also run for real behind the hook.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRequest, setResponse } from '@sveltejs/kit/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { kindOfStatus } from '$lib/api/errors';
import { handle } from './hooks.server';
import { copyWorld, removeWorldCopies } from '$lib/server/world/testing';

const ROUTES_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'routes');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'fallback'] as const;
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Endpoint {
	/** SvelteKit route id, e.g. /api/worlds/[world]/map */
	id: string;
	file: string;
	methods: string[];
}

/** Every +server.ts below src/routes and the request methods it exports. */
function endpoints(dir = ROUTES_DIR): Endpoint[] {
	const out: Endpoint[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const abs = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...endpoints(abs));
		else if (/^\+server\.[jt]s$/.test(entry.name)) {
			const src = readFileSync(abs, 'utf8');
			const methods = new Set<string>();
			for (const m of src.matchAll(/export\s+(?:const|let|var|async\s+function|function)\s+([A-Za-z]+)\b/g)) methods.add(m[1]);
			for (const m of src.matchAll(/export\s*\{([^}]*)\}/g))
				for (const part of m[1].split(',')) methods.add(part.trim().split(/\s+as\s+/).pop()!.trim());
			const id = '/' + path.relative(ROUTES_DIR, dir).split(path.sep).join('/');
			out.push({ id: id === '/' ? '/' : id, file: abs, methods: [...methods].filter((m) => (METHODS as readonly string[]).includes(m)) });
		}
	}
	return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** A concrete path for a route id: parameters filled with plain values. */
const concrete = (id: string) => id.replace(/\[\.\.\.[^\]]+\]/g, 'a/b').replace(/\[\[?[^\]]+\]?\]/g, 'x');

const ALL = endpoints();
const changing = ALL.flatMap((e) => e.methods.filter((m) => CHANGING.has(m) || m === 'fallback').map((m) => ({ ...e, method: m === 'fallback' ? 'POST' : m })));
const reading = ALL.filter((e) => e.methods.includes('GET'));

// ---- the server: Node's http -> SvelteKit's request conversion -> the hook -> the route ----------

let server: http.Server;
let base: string;
let port: number;
/** requests that reached a route, as "METHOD path" */
const reached: string[] = [];
/** route ids whose handlers really run (the others answer a stand-in 200) */
const REAL = new Set(['/api/worlds/[world]/map', '/api/worlds/[world]/check', '/api/worlds']);
const home = mkdtempSync(path.join(tmpdir(), 'hooks-'));
let worldsDir: string;
const savedEnv = { ...process.env };

function routeOf(pathname: string): { ep: Endpoint; params: Record<string, string> } | undefined {
	for (const ep of ALL) {
		const names: string[] = [];
		const re = new RegExp(
			'^' +
				ep.id.replace(/\[\.\.\.([^\]]+)\]|\[([^\]]+)\]|[.*+?^${}()|\\]/g, (m, rest: string, name: string) => {
					if (rest) return names.push(rest), '(.+)';
					if (name) return names.push(name), '([^/]+)';
					return '\\' + m;
				}) +
				'$'
		);
		const m = re.exec(pathname);
		if (m) return { ep, params: Object.fromEntries(names.map((n, k) => [n, decodeURIComponent(m[k + 1])])) };
	}
	return undefined;
}

beforeAll(async () => {
	worldsDir = path.dirname(copyWorld());
	process.env.SIMULACRA_WORLDS = worldsDir;
	process.env.SIMULACRA_HOME = home;
	// the prompt routes write into the working prompt folder: a copy
	process.env.SIMULACRA_PROMPTS = path.join(home, 'prompts');
	cpSync(path.join(ROUTES_DIR, '..', '..', 'prompts'), process.env.SIMULACRA_PROMPTS, { recursive: true });
	delete process.env.HOST;
	delete process.env.SIMULACRA_ACCESS_TOKEN;
	delete process.env.SIMULACRA_ALLOWED_HOSTS;
	server = http.createServer(async (req, res) => {
		const request = await getRequest({ base: `http://${req.headers.host ?? 'localhost'}`, request: req, bodySizeLimit: 512 * 1024 * 1024 });
		const url = new URL(request.url);
		const match = routeOf(url.pathname);
		const event = {
			request,
			url,
			params: match?.params ?? {},
			route: { id: match?.ep.id ?? null },
			getClientAddress: () => req.socket.remoteAddress ?? '',
			locals: {}
		};
		const resolve = async (ev: typeof event): Promise<Response> => {
			reached.push(`${ev.request.method} ${url.pathname}`);
			if (match && REAL.has(match.ep.id)) {
				const mod = (await import(/* @vite-ignore */ match.ep.file)) as Record<string, (e: unknown) => Promise<Response>>;
				const fn = mod[ev.request.method];
				if (fn) return fn(ev);
			}
			return new Response('reached', { status: 200 });
		};
		const response = await handle({ event, resolve } as never);
		await setResponse(res, response);
	});
	// an answer sent before the body is read closes the connection as `npm start`'s server does
	// (the script is plain JavaScript, outside the type-checked sources)
	const start = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'scripts', 'start.js');
	const { closeEarlyAnswers } = (await import(/* @vite-ignore */ start)) as { closeEarlyAnswers: (server: http.Server) => void };
	closeEarlyAnswers(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	port = (server.address() as AddressInfo).port;
	base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
	await new Promise((r) => server.close(r));
	process.env = savedEnv;
	rmSync(home, { recursive: true, force: true });
	removeWorldCopies();
});

interface Sent {
	status: number;
	body: string;
}

/** One request through a real socket; `host` overrides the Host header. */
function send(method: string, pathname: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Sent> {
	return new Promise((resolve, reject) => {
		const length = body === undefined || 'content-length' in headers ? {} : { 'content-length': String(Buffer.byteLength(body)) };
		const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers: { ...length, ...headers }, agent: false }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		if (body !== undefined) req.write(body);
		req.end();
	});
}

const own = () => ({ origin: base, 'sec-fetch-site': 'same-origin' });
const json = { 'content-type': 'application/json' };

describe('the routes, read from the route files', () => {
	it('include every state-changing route of the API', () => {
		const names = changing.map((c) => `${c.method} ${c.id}`);
		expect(names).toContain('POST /api/prompts/versions/[version]/restore');
		expect(names).toContain('POST /api/runs/[id]/eval/interviews');
		expect(names).toContain('PUT /api/worlds/[world]/map');
		expect(names.length).toBeGreaterThanOrEqual(16);
		expect(reading.length).toBeGreaterThanOrEqual(10);
	});
});

describe('requests that change something', () => {
	it('are refused from another origin, even empty and without a content type', async () => {
		for (const c of changing) {
			const p = concrete(c.id);
			const before = reached.length;
			for (const headers of <Record<string, string>[]>[
				{ origin: 'http://evil.example' },
				{ origin: 'null' },
				{ origin: `http://localhost:${port + 1}` },
				{ 'sec-fetch-site': 'cross-site' },
				{ 'sec-fetch-site': 'same-site' }
			]) {
				const r = await send(c.method, p, { ...headers, 'content-length': '0' });
				expect(r.status, `${c.method} ${p} ${JSON.stringify(headers)}`).toBe(403);
				expect(JSON.parse(r.body).message).toMatch(/^refused: /);
			}
			expect(reached.length, `${c.method} ${p} reached its route`).toBe(before);
		}
	});

	it('are refused with a body that is not JSON, from the studio itself too', async () => {
		for (const c of changing) {
			const p = concrete(c.id);
			for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
				const headers: Record<string, string> = { ...own(), ...(type ? { 'content-type': type } : {}) };
				const r = await send(c.method, p, headers, '{}');
				expect(r.status, `${c.method} ${p} ${type}`).toBe(403);
				expect(JSON.parse(r.body).message).toMatch(/must send JSON/);
			}
		}
	});

	it("reach their route from the studio's own pages and from clients that are not browsers", async () => {
		for (const c of changing) {
			if (REAL.has(c.id)) continue;
			const p = concrete(c.id);
			for (const headers of [{ ...own(), ...json }, json, { origin: base, ...json }, { 'sec-fetch-site': 'same-origin', ...json }]) {
				const r = await send(c.method, p, headers, '{}');
				expect([r.status, r.body], `${c.method} ${p} ${JSON.stringify(headers)}`).toEqual([200, 'reached']);
			}
			// an empty request needs no content type
			expect((await send(c.method, p, own())).status).toBe(200);
			// the studio opened as localhost: the origin matches the Host it sends
			expect((await send(c.method, p, { host: `localhost:${port}`, origin: `http://localhost:${port}`, ...json }, '{}')).status).toBe(200);
		}
	});
});

describe('the Host header', () => {
	it('must name this server, on every route and every method', async () => {
		const pages = ['/', '/runs', '/worlds', '/prompts'];
		for (const [method, p] of [
			...reading.map((e) => ['GET', concrete(e.id)]),
			...pages.map((p) => ['GET', p]),
			...changing.map((c) => [c.method, concrete(c.id)])
		]) {
			const before = reached.length;
			for (const host of ['evil.example:5302', 'evil.example', '127.0.0.1.evil.example', '192.168.1.20:5302', 'localhost.evil.example']) {
				// what a DNS-rebinding page sends: its own name, and its own origin
				const r = await send(method, p, { host, origin: `http://${host}`, ...json }, method === 'GET' ? undefined : '{}');
				expect(r.status, `${method} ${p} Host: ${host}`).toBe(421);
				expect(JSON.parse(r.body).message).toMatch(/does not answer to the host/);
			}
			expect(reached.length).toBe(before);
		}
		for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost'])
			expect((await send('GET', '/api/status', { host })).status, host).toBe(200);
	});

	it('may name the hosts listed in SIMULACRA_ALLOWED_HOSTS, with the access token', async () => {
		process.env.SIMULACRA_ALLOWED_HOSTS = 'studio.lan, 10.0.0.5';
		process.env.SIMULACRA_ACCESS_TOKEN = 'a-long-enough-secret-token';
		try {
			expect((await send('GET', '/api/status', { host: 'studio.lan:5173' })).status).toBe(401);
			const auth = { authorization: 'Bearer a-long-enough-secret-token' };
			expect((await send('GET', '/api/status', { host: 'studio.lan:5173', ...auth })).status).toBe(200);
			expect((await send('GET', '/api/status', { host: '10.0.0.5', ...auth })).status).toBe(200);
			expect((await send('GET', '/api/status', { host: 'evil.example', ...auth })).status).toBe(421);
			expect((await send('GET', '/api/status', { ...auth, authorization: 'Bearer wrong' })).status).toBe(401);
			const visit = await new Promise<http.IncomingMessage>((r) =>
				http.get({ host: '127.0.0.1', port, path: '/runs?token=a-long-enough-secret-token&x=1', agent: false }, r)
			);
			expect(visit.statusCode).toBe(303);
			expect(visit.headers.location).toBe('/runs?x=1');
			const cookie = String(visit.headers['set-cookie']);
			expect(cookie).toMatch(/^simulacra_token=.*HttpOnly; SameSite=Strict/);
			visit.resume();
			expect((await send('POST', '/api/runs', { cookie: cookie.split(';')[0], ...own(), ...json }, '{}')).status).toBe(200);
			expect((await send('POST', '/api/runs', { cookie: 'simulacra_token=nope', ...own(), ...json }, '{}')).status).toBe(401);
		} finally {
			delete process.env.SIMULACRA_ALLOWED_HOSTS;
			delete process.env.SIMULACRA_ACCESS_TOKEN;
		}
	});
});

describe('request bodies', () => {
	/** Streams `total` bytes chunked (no Content-Length) and returns the answer as soon as it comes. */
	function sendChunked(method: string, pathname: string, total: number): Promise<Sent & { sent: number; ms: number }> {
		const t0 = performance.now();
		return new Promise((resolve, reject) => {
			let sent = 0;
			let answered = false;
			const req = http.request(
				{ host: '127.0.0.1', port, method, path: pathname, headers: { ...own(), ...json, 'transfer-encoding': 'chunked' }, agent: false },
				(res) => {
					answered = true;
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => {
						resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), sent, ms: performance.now() - t0 });
						req.destroy();
					});
				}
			);
			// a server that answers and closes while the body is still being written can make a
			// write fail (EPIPE) before its answer is read: the answer gets a moment to arrive
			req.on('error', (e) => {
				if (!answered) setTimeout(() => (answered ? undefined : reject(e)), 1000);
			});
			const chunk = Buffer.alloc(1024 * 1024, 0x20);
			const pump = () => {
				while (!answered && sent < total) {
					sent += chunk.length;
					if (!req.write(chunk)) return void req.once('drain', pump);
				}
				if (!answered) req.end();
			};
			req.write('{"doc":');
			pump();
		});
	}

	it('a chunked 200 MB map save is refused with 413 and nothing on the server log', async () => {
		const logged = vi.spyOn(console, 'error');
		try {
			const r = await sendChunked('PUT', '/api/worlds/tiny/map', 200 * 1024 * 1024);
			expect(r.status).toBe(413);
			expect(JSON.parse(r.body)).toEqual({ kind: 'too-large', message: 'the request body is larger than the 64 MiB allowed (SIMULACRA_MAX_MAP_BODY_BYTES)' });
			expect(r.sent).toBeLessThan(200 * 1024 * 1024);
			expect(logged).not.toHaveBeenCalled();
		} finally {
			logged.mockRestore();
		}
	});

	it('other routes take at most 4 MiB, chunked or declared', async () => {
		const r = await sendChunked('POST', '/api/runs', 6 * 1024 * 1024);
		expect([r.status, JSON.parse(r.body).message]).toEqual([413, 'the request body is larger than the 4 MiB allowed (SIMULACRA_MAX_BODY_BYTES)']);
		const declared = await send('POST', '/api/prompts/check', { ...own(), ...json, 'content-length': String(5 * 1024 * 1024) }, '{}');
		expect(declared.status).toBe(413);
		expect((await send('POST', '/api/prompts/check', { ...own(), ...json }, JSON.stringify({ text: 'x'.repeat(1024 * 1024) }))).status).toBe(200);
	});

	it('the world check answers 400 to a body that is not an object, and runs behind the hook', async () => {
		for (const body of ['[]', '"doc"', '3', 'null']) {
			const r = await send('POST', '/api/worlds/tiny/check', { ...own(), ...json }, body);
			expect([r.status, JSON.parse(r.body).message], body).toEqual([400, 'the body must be a JSON object { doc?: MapDoc, renames?: ZoneRename[] }']);
		}
		const ok = await send('POST', '/api/worlds/tiny/check', { ...own(), ...json }, '{}');
		expect(ok.status).toBe(200);
		expect(JSON.parse(ok.body)).toHaveProperty('errors');
		const bad = await send('POST', '/api/worlds/tiny/check', { ...own(), ...json }, '{"doc":');
		expect([bad.status, JSON.parse(bad.body)]).toEqual([400, { kind: 'invalid', message: 'the request body is not valid JSON' }]);
	});
});

describe('JSON nested 100,000 deep', () => {
	const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
	const message = (limit: number, column: number) =>
		`the request body is refused: its lists and objects nest deeper than the ${limit} levels allowed (SIMULACRA_MAX_JSON_DEPTH), at line 1, column ${column}`;

	it('is refused with 400 naming the limit on every route that takes a body, before the route runs', async () => {
		for (const c of changing) {
			const p = concrete(c.id).replace(/\/x(?=\/|$)/, '/tiny');
			const before = reached.length;
			const r = await send(c.method, p, { ...own(), ...json }, deep);
			const map = ['/api/worlds/[world]/map', '/api/worlds/[world]/check'].includes(c.id);
			// a map nests as its XML may: 64 levels and two for each of the 64 of XML
			expect([r.status, JSON.parse(r.body).message], `${c.method} ${p}`).toEqual([400, map ? message(192, 5 * 192 + 1) : message(64, 5 * 64 + 1)]);
			expect(reached.length, `${c.method} ${p} reached its route`).toBe(before);
		}
	});

	it('no longer fails the persona and settings saves (it answered 500: the stack overflowed), and writes nothing', async () => {
		const routes = ['/api/worlds/[world]/personas/[id]', '/api/worlds/[world]/settings'];
		for (const id of routes) REAL.add(id);
		const logged = vi.spyOn(console, 'error');
		try {
			const settings = readFileSync(path.join(worldsDir, 'tiny', 'world.json'), 'utf8');
			for (const p of ['/api/worlds/tiny/personas/carol', '/api/worlds/tiny/personas/alice-chen', '/api/worlds/tiny/settings']) {
				const r = await send('PUT', p, { ...own(), ...json }, '['.repeat(100_000) + ']'.repeat(100_000));
				expect([r.status, JSON.parse(r.body).message], p).toEqual([400, message(64, 65)]);
			}
			expect(readdirSync(path.join(worldsDir, 'tiny', 'personas')).sort()).toEqual(['alice-chen.json', 'bob-diaz.json']);
			expect(readFileSync(path.join(worldsDir, 'tiny', 'world.json'), 'utf8')).toBe(settings);
			// 64 levels pass the guard and reach the route, which checks the persona as usual
			const ok = await send('PUT', '/api/worlds/tiny/personas/carol', { ...own(), ...json }, JSON.stringify({ id: 'carol', x: JSON.parse('['.repeat(62) + ']'.repeat(62)) }));
			expect(ok.status).toBe(400);
			expect(JSON.parse(ok.body).message).toBe('persona "carol" has problems; nothing was saved');
			expect(logged).not.toHaveBeenCalled();
		} finally {
			logged.mockRestore();
			for (const id of routes) REAL.delete(id);
		}
	});
});

describe('every API body, fuzzed', () => {
	const bodies = fc.oneof(
		fc.json({ maxDepth: 5 }),
		fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ doc: v, id: v, world: v, steps: v, text: v, name: v })),
		fc.string({ unit: 'binary', maxLength: 300 }),
		fc.constantFrom('', '{', '[]', 'null', '"x"', '{"__proto__":{"a":1}}', '{"doc":{"file":"../../etc/passwd"}}', '['.repeat(5000), '{"a":'.repeat(3000))
	);
	const types = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', undefined);

	it('is answered with a status under 500 and a JSON message, never a stack trace, on every state-changing route', { timeout: 60_000 }, async () => {
		for (const c of changing) REAL.add(c.id);
		const logged = vi.spyOn(console, 'error');
		try {
			await fc.assert(
				fc.asyncProperty(fc.nat(changing.length - 1), bodies, types, fc.boolean(), async (k, body, type, sameOrigin) => {
					const c = changing[k];
					const p = concrete(c.id).replace(/\/x(?=\/|$)/, '/tiny');
					const headers: Record<string, string> = { ...(type ? { 'content-type': type } : {}), ...(sameOrigin ? own() : { origin: 'http://evil.example' }) };
					const t0 = performance.now();
					const r = await send(c.method, p, headers, body);
					const label = `${c.method} ${p} ${type} ${JSON.stringify(body).slice(0, 80)}`;
					expect(r.status, label).toBeLessThan(500);
					expect(performance.now() - t0, label).toBeLessThan(5000);
					if (r.status >= 400) {
						// every refusal, the guard's and the routes', has the API's one error shape
						const parsed = JSON.parse(r.body) as { message?: unknown; kind?: unknown };
						expect(typeof parsed.message, label).toBe('string');
						expect(parsed.kind, label).toBe(kindOfStatus(r.status));
						expect(r.body, label).not.toMatch(/\n\s+at \S.*:\d+:\d+|\bat .*\.ts:\d+/);
					}
					if (!sameOrigin) expect(r.status, label).toBe(403);
				}),
				{ numRuns: 150, seed: 13 }
			);
			expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([]);
		} finally {
			logged.mockRestore();
			REAL.clear();
			for (const id of ['/api/worlds/[world]/map', '/api/worlds/[world]/check', '/api/worlds']) REAL.add(id);
		}
	});
});
