import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST } from './+server';

const home = mkdtempSync(path.join(tmpdir(), 'simulacra-exp-start-'));
const saved = process.env.SIMULACRA_HOME;

beforeAll(() => {
	process.env.SIMULACRA_HOME = home;
});
afterAll(() => {
	if (saved === undefined) delete process.env.SIMULACRA_HOME;
	else process.env.SIMULACRA_HOME = saved;
	rmSync(home, { recursive: true, force: true });
});

const post = (body: unknown) =>
	POST({ request: new Request('http://localhost/api/experiments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) } as never) as Promise<Response>;

describe('POST /api/experiments', () => {
	it('refuses a misspelt setting with 400, naming the arm, the setting and the close name, and starts nothing', async () => {
		const res = await post({ name: 'typo', world: 'the-ville-3', steps: 5, replicates: 1, arms: [{ name: 'base' }, { name: 'relevance x3', set: ['retrieval.weights.relevanse=3'] }] });
		expect(res.status).toBe(400);
		const { message: error, kind } = (await res.json()) as { message: string; kind: string };
		expect(kind).toBe('invalid');
		expect(error).toContain('arms[1].set[0] (arm "relevance x3"): unknown setting "retrieval.weights.relevanse" (did you mean "retrieval.weights.relevance"?)');
		expect(existsSync(path.join(home, 'experiments'))).toBe(false);
	});
});
