import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallBroker, installFetchGate, rewriteURL } from './broker';

describe('CallBroker', () => {
	it('never grants more than its limit and serves waiters in order', async () => {
		const b = new CallBroker(2);
		const order: number[] = [];
		const g1 = await b.acquire('w0');
		const g2 = await b.acquire('w1');
		const p3 = b.acquire('w0').then((g) => (order.push(3), g));
		const p4 = b.acquire('w1').then((g) => (order.push(4), g));
		await Promise.resolve();
		expect(b.active).toBe(2);
		expect(order).toEqual([]);
		b.release(g1.id);
		await p3;
		b.release(g2.id);
		await p4;
		expect(order).toEqual([3, 4]);
		expect(b.peak).toBe(2);
	});

	it('spreads grants over the endpoints by load', async () => {
		const b = new CallBroker(4, ['http://a/v1', 'http://b/v1']);
		const gs = await Promise.all([b.acquire('w'), b.acquire('w'), b.acquire('w'), b.acquire('w')]);
		expect(gs.map((g) => g.endpoint)).toEqual([0, 1, 0, 1]);
		b.release(gs[1].id);
		b.release(gs[3].id);
		expect((await b.acquire('w')).endpoint).toBe(1);
	});

	it('takes back the grants of a worker that went away', async () => {
		const b = new CallBroker(1);
		await b.acquire('gone');
		const waiting = b.acquire('alive');
		b.releaseOwner('gone');
		expect((await waiting).id).toBeGreaterThan(0);
		expect(b.active).toBe(1);
	});

	it('refuses a bad limit', () => {
		expect(() => new CallBroker(0)).toThrow(/whole number from 1/);
	});
});

describe('installFetchGate', () => {
	const servers: Server[] = [];
	const hits = [0, 0];
	let inFlight = 0;
	let maxInFlight = 0;
	const urls: string[] = [];
	beforeAll(async () => {
		for (let i = 0; i < 2; i++) {
			const s = createServer((req, res) => {
				hits[i]++;
				inFlight++;
				maxInFlight = Math.max(maxInFlight, inFlight);
				setTimeout(() => {
					inFlight--;
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify({ server: i, path: req.url }));
				}, 20);
			});
			await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
			servers.push(s);
			urls.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`);
		}
	});
	afterAll(() => servers.forEach((s) => s.close()));

	it('moves configured requests to the granted endpoint under the shared limit', async () => {
		const broker = new CallBroker(3, urls);
		const target = { fetch: globalThis.fetch };
		const restore = installFetchGate({ endpoints: urls, configured: ['http://configured.test/v1'], acquire: () => broker.acquire('w'), release: (id) => broker.release(id) }, target);
		const answers = await Promise.all(Array.from({ length: 12 }, () => target.fetch('http://configured.test/v1/chat/completions', { method: 'POST', body: '{}' }).then((r) => r.json())));
		restore();
		expect(target.fetch).toBe(globalThis.fetch);
		expect(answers.every((a) => a.path === '/v1/chat/completions')).toBe(true);
		expect(hits[0]).toBeGreaterThan(0);
		expect(hits[1]).toBeGreaterThan(0);
		expect(hits[0] + hits[1]).toBe(12);
		expect(maxInFlight).toBeLessThanOrEqual(3);
		expect(broker.active).toBe(0);
	});

	it('leaves other addresses alone', () => {
		expect(rewriteURL('http://other.test/x', ['http://configured.test/v1'], 'http://a/v1')).toBe('http://other.test/x');
		expect(rewriteURL('http://configured.test/v1/embeddings', ['http://configured.test/v1/'], 'http://a:1/v1')).toBe('http://a:1/v1/embeddings');
	});
});
