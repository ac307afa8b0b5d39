// How the browser's API clients (runs, worlds, prompts, evaluation, diff) read answers: the
// JSON of a good answer, the server's own message of an error answer, the problems or issues
// it lists, and a server that does not answer.

import { describe, expect, it } from 'vitest';
import { ApiError, createApi, jsonInit, ProblemsError, query, request, saveWorldSettings, type Fetch } from '../shared/api';
import { fetchDiff } from './diff-api';
import { createEvalApi } from './eval/eval-api';
import { createPromptsApi, PromptsApiError } from './prompts-api';

/** A fetch that answers every call with `body` (a string as it is, anything else as JSON). */
function answering(status: number, body: unknown, calls: [string, RequestInit | undefined][] = []): Fetch {
	return (async (input: RequestInfo | URL, init?: RequestInit) => {
		calls.push([String(input), init]);
		return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, statusText: 'Teapot' });
	}) as Fetch;
}

const unreachable: Fetch = async () => {
	throw new TypeError('fetch failed');
};

async function caught(p: Promise<unknown>): Promise<ApiError> {
	try {
		await p;
	} catch (err) {
		if (err instanceof ApiError) return err;
		throw err;
	}
	throw new Error('the call did not fail');
}

describe('request', () => {
	it('answers the JSON of a good answer', async () => {
		expect(await request<{ n: number }>(answering(200, { n: 3 }), '/api/x')).toEqual({ n: 3 });
	});

	it("throws the API's one error shape: its message, kind and issues; else the text, then the status", async () => {
		const issues = [{ path: 'steps', message: 'steps is required' }];
		expect(await caught(request(answering(400, { kind: 'invalid', message: 'steps is required', issues }), '/api/x'))).toMatchObject({
			message: 'steps is required',
			status: 400,
			kind: 'invalid',
			issues
		});
		// SvelteKit's own errors have no kind: the status says it
		expect(await caught(request(answering(404, { message: 'Not Found' }), '/api/x'))).toMatchObject({ message: 'Not Found', status: 404, kind: 'not-found' });
		expect((await caught(request(answering(502, '  proxy down \n'), '/api/x'))).message).toBe('proxy down');
		expect((await caught(request(answering(500, ''), '/api/x'))).message).toBe('500 Teapot');
		expect((await caught(request(answering(500, 'null'), '/api/x'))).message).toBe('null');
	});

	it("a generic client's error lists a world's problems after the message", async () => {
		const problems = [{ file: 'world.json', where: 'line 2', message: '"start" must be a calendar time' }];
		const err = await caught(request(answering(400, { kind: 'invalid', message: 'world "x" has 1 problem', problems }), '/api/runs'));
		expect(err.message).toBe('world "x" has 1 problem:\n  world.json (line 2): "start" must be a calendar time');
	});

	it('throws ApiError with status 0 naming the address when the server does not answer', async () => {
		const err = await caught(request(unreachable, '/api/runs'));
		expect(err).toBeInstanceOf(ApiError);
		expect(err.status).toBe(0);
		expect(err.message).toBe('The studio server did not answer (/api/runs): fetch failed');
	});

	it('lets an aborted call throw its AbortError', async () => {
		const controller = new AbortController();
		controller.abort();
		const f: Fetch = async (_input, init) => {
			init?.signal?.throwIfAborted();
			return new Response('{}');
		};
		await expect(request(f, '/api/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
	});
});

describe('jsonInit and query', () => {
	it('sends a body as JSON only when there is one', () => {
		expect(jsonInit('GET')).toEqual({ method: 'GET' });
		expect(jsonInit('PUT', { a: 1 })).toEqual({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
	});

	it('keeps only the parameters that have a value', () => {
		expect(query({ step: 0, agent: '', from: undefined, to: null, q: 'a b' })).toBe('?step=0&q=a+b');
		expect(query({ step: undefined })).toBe('');
	});
});

describe('the clients', () => {
	it('posts run controls as JSON', async () => {
		const calls: [string, RequestInit | undefined][] = [];
		await createApi(answering(200, {}, calls)).control('run 1', { action: 'pause' });
		expect(calls[0][0]).toBe('/api/runs/run%201/control');
		expect(calls[0][1]).toMatchObject({ method: 'POST', body: '{"action":"pause"}' });
	});

	it('a refused world edit is a ProblemsError with the problems the server lists', async () => {
		const problems = [{ file: 'world.json', where: 'name', message: 'name is empty' }];
		const err = await caught(saveWorldSettings('town', {} as never, answering(400, { kind: 'invalid', message: 'the world has 1 problem', problems })));
		expect(err).toBeInstanceOf(ProblemsError);
		expect(err.message).toBe('the world has 1 problem');
		expect(err.kind).toBe('invalid');
		expect((err as ProblemsError).problems).toEqual(problems);
		const down = await caught(saveWorldSettings('town', {} as never, unreachable));
		expect(down).not.toBeInstanceOf(ProblemsError);
		expect(down.status).toBe(0);
	});

	it('a refused prompt set is a PromptsApiError with its issues, and so is no answer (with none)', async () => {
		const issues = [{ template: 'plan', line: 3, message: 'unknown variable' }];
		const err = await caught(createPromptsApi(answering(400, { kind: 'invalid', message: 'refused', issues })).save({ message: 'm', templates: [] }));
		expect(err).toBeInstanceOf(PromptsApiError);
		expect((err as PromptsApiError).issues).toEqual(issues);
		const down = await caught(createPromptsApi(unreachable).overview());
		expect(down).toBeInstanceOf(PromptsApiError);
		expect((down as PromptsApiError).issues).toEqual([]);
		expect(down.status).toBe(0);
	});

	it("the evaluation and diff clients throw ApiError with the server's message and kind", async () => {
		const evalErr = await caught(createEvalApi(answering(404, { kind: 'not-found', message: 'no run "x"' })).report('x', 3));
		expect(evalErr).toMatchObject({ message: 'no run "x"', status: 404, kind: 'not-found' });
		const calls: [string, RequestInit | undefined][] = [];
		const diffErr = await caught(fetchDiff('a', 'b', answering(400, { kind: 'invalid', message: 'a diff compares two runs' }, calls)));
		expect(diffErr).toMatchObject({ message: 'a diff compares two runs', status: 400 });
		expect(calls[0][0]).toBe('/api/diff?a=a&b=b');
	});
});
