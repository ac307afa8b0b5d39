// The request guard as a function: host names, origins, content types, tokens and the server's
// own refusal to start on a reachable address without an allow-list and a token.

import { describe, expect, it } from 'vitest';
import { init } from '../../hooks.server';
import { bindingProblems, guardConfig, guardRequest, hostName, isJsonType, isLoopbackName } from './http-guard';

const cfg = guardConfig({});
const req = (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) => new Request(url, init);
const verdict = async (r: Request, routeId: string | null = '/api/runs', clientAddress = '127.0.0.1', c = cfg) => {
	const v = await guardRequest({ request: r, url: new URL(r.url), routeId, clientAddress }, c);
	return v instanceof Response ? v.status : 'pass';
};

describe('host names', () => {
	it('are read from Host headers, with ports and IPv6 brackets', () => {
		expect(['127.0.0.1:5173', 'LOCALHOST', '[::1]:80', 'studio.lan.', 'a b', '[::1', 'x:port', ''].map(hostName)).toEqual([
			'127.0.0.1',
			'localhost',
			'::1',
			'studio.lan',
			undefined,
			undefined,
			undefined,
			undefined
		]);
		expect(['localhost', '127.0.0.9', '::1', '::ffff:127.0.0.1', '0.0.0.0', '127.0.0.1.evil.example', 'localhost.evil.example'].map(isLoopbackName)).toEqual([
			true,
			true,
			true,
			true,
			false,
			false,
			false
		]);
	});

	it('include the bound address and the allow-list', () => {
		expect([...guardConfig({ HOST: '192.168.1.4', SIMULACRA_ALLOWED_HOSTS: 'Studio.LAN:5173, ::2' }).hosts].sort()).toEqual(['192.168.1.4', '::2', 'studio.lan']);
		expect([...guardConfig({ HOST: '0.0.0.0' }).hosts]).toEqual([]);
	});
});

describe('guardRequest', () => {
	it('lets the studio change things and refuses other origins', async () => {
		const post = (headers: Record<string, string>) => req('http://127.0.0.1:5173/api/runs', { method: 'POST', headers: { host: '127.0.0.1:5173', ...headers } });
		expect(await verdict(post({ origin: 'http://127.0.0.1:5173' }))).toBe('pass');
		expect(await verdict(post({}))).toBe('pass');
		expect(await verdict(post({ 'sec-fetch-site': 'none' }))).toBe('pass');
		expect(await verdict(post({ origin: 'http://localhost:5173' }))).toBe(403);
		expect(await verdict(post({ origin: 'https://127.0.0.1:5173' }))).toBe('pass');
		expect(await verdict(post({ origin: 'file://' }))).toBe(403);
		expect(await verdict(post({ origin: 'not a url' }))).toBe(403);
		expect(await verdict(post({ 'sec-fetch-site': 'same-site' }))).toBe(403);
		// reading is never refused for its origin
		expect(await verdict(req('http://127.0.0.1:5173/api/runs', { headers: { host: '127.0.0.1:5173', origin: 'http://evil.example' } }))).toBe('pass');
	});

	it('refuses clients on other machines unless a token is set, and then asks everyone for it', async () => {
		const get = req('http://127.0.0.1:5173/', { headers: { host: '127.0.0.1:5173' } });
		expect(await verdict(get, null, '192.168.1.9')).toBe(403);
		expect(await verdict(get, null, '::ffff:127.0.0.1')).toBe('pass');
		const withToken = guardConfig({ SIMULACRA_ACCESS_TOKEN: 't'.repeat(20) });
		expect(await verdict(get, null, '192.168.1.9', withToken)).toBe(401);
		expect(await verdict(get, null, '127.0.0.1', withToken)).toBe(401);
		const bearer = req('http://127.0.0.1:5173/', { headers: { host: '127.0.0.1:5173', authorization: `Bearer ${'t'.repeat(20)}` } });
		expect(await verdict(bearer, null, '192.168.1.9', withToken)).toBe('pass');
	});

	it('keeps the body it read for the route, and refuses a Content-Length that is no number', async () => {
		const r = req('http://127.0.0.1/api/runs', { method: 'POST', headers: { host: '127.0.0.1', 'content-type': 'application/json' }, body: '{"a":1}' });
		const v = await guardRequest({ request: r, url: new URL(r.url), routeId: '/api/runs' }, cfg);
		expect(v instanceof Request && (await v.json())).toEqual({ a: 1 });
		expect(['application/json', 'Application/JSON; charset=utf-8', 'application/ld+json', 'text/json', 'text/plain', null].map(isJsonType)).toEqual([
			true,
			true,
			true,
			false,
			false,
			false
		]);
	});
});

describe('starting the server', () => {
	it('is refused on a reachable address without an allow-list and a token', () => {
		expect(bindingProblems({ HOST: '127.0.0.1' })).toEqual([]);
		expect(bindingProblems({})).toEqual([]);
		expect(bindingProblems({ HOST: '0.0.0.0' })).toHaveLength(2);
		const saved = { ...process.env };
		try {
			process.env.HOST = '0.0.0.0';
			delete process.env.SIMULACRA_ALLOWED_HOSTS;
			delete process.env.SIMULACRA_ACCESS_TOKEN;
			expect(() => init()).toThrow(/^Simulacra Studio will not start: HOST=0\.0\.0\.0 lets other machines connect/);
			process.env.SIMULACRA_ALLOWED_HOSTS = 'studio.lan';
			process.env.SIMULACRA_ACCESS_TOKEN = 'a-secret-of-some-length';
			expect(() => init()).not.toThrow();
		} finally {
			process.env = saved;
		}
	});
});
