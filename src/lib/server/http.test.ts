// The one HTTP adapter: each kind of error answers its status and the one error shape; values
// answer as JSON; bodies are read within their limits and through their schemas.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_KINDS, ERROR_STATUS, kindOfStatus, readErrorBody, type ApiErrorBody, type ErrorKind } from '../api/errors';
import { fields, list, optional, tagged, text, option, v, wholeNumber } from '../api/schema';
import { StartRunRequestSchema } from '../api/types';
import { WorldError } from '../world/problems';
import {
	ConflictError,
	FaultError,
	ForbiddenError,
	InvalidError,
	MisdirectedError,
	NotFoundError,
	RequestError,
	TooLargeError,
	UnauthorizedError,
	UnavailableError
} from './errors';
import { PathError } from './files';
import { answer, answerWith, errorBody, errorResponse, readBody, readJsonBody, WithStatus } from './http';
import { FileLimitError } from './limits';
import { parseWith } from './validate';

afterEach(() => vi.restoreAllMocks());

const post = (body: string) => new Request('http://127.0.0.1/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('errorBody', () => {
	const cases: [RequestError, ErrorKind, number][] = [
		[new InvalidError('bad step'), 'invalid', 400],
		[new UnauthorizedError('no token'), 'unauthorized', 401],
		[new ForbiddenError('not from here'), 'forbidden', 403],
		[new NotFoundError('no run "x"'), 'not-found', 404],
		[new ConflictError('written elsewhere'), 'conflict', 409],
		[new TooLargeError('too big'), 'too-large', 413],
		[new MisdirectedError('another host'), 'misdirected', 421],
		[new FaultError('broken'), 'fault', 500],
		[new UnavailableError('the endpoint is down'), 'unavailable', 503]
	];

	it.each(cases)('answers %s as its kind and status, in the one shape', (err, kind, status) => {
		expect(errorBody(err)).toEqual({ status, body: { kind, message: err.message } });
		expect(ERROR_STATUS[kind]).toBe(status);
		expect(kindOfStatus(status)).toBe(kind);
	});

	it('has a case for every kind', () => {
		expect(cases.map(([, kind]) => kind).sort()).toEqual([...ERROR_KINDS].sort());
	});

	it('carries issues and world problems, and leaves out empty lists', () => {
		const problems = [{ file: 'world.json', message: 'no name', at: { kind: 'settings' as const, field: 'name' } }];
		expect(errorBody(new InvalidError('the settings have problems', { problems })).body).toEqual({ kind: 'invalid', message: 'the settings have problems', problems });
		const issues = [{ path: 'from.step', message: 'from.step must be a whole number' }];
		expect(errorBody(new InvalidError('from.step must be a whole number', { issues })).body).toEqual({ kind: 'invalid', message: 'from.step must be a whole number', issues });
		expect(errorBody(new ConflictError('taken', { issues: [], problems: [] })).body).toEqual({ kind: 'conflict', message: 'taken' });
	});

	it('decides by class, never by words: errors of the lower layers keep their kinds', () => {
		expect(errorBody(new PathError('not-found', 'Not found: x')).status).toBe(404);
		expect(errorBody(new PathError('invalid', 'Refused path "../x"')).status).toBe(400);
		expect(errorBody(new FileLimitError('it is not a regular file')).body).toEqual({ kind: 'conflict', message: 'a file was refused: it is not a regular file' });
		// a plain error that reads like "not found" is still the server's fault
		expect(errorBody(new Error('no run "x"'))).toEqual({ status: 500, body: { kind: 'fault', message: 'no run "x"' } });
	});

	it("answers a world's problems as invalid, with its summary and the problems", () => {
		const problems = [{ file: 'world.json', message: 'bad start' }];
		expect(errorBody(new WorldError(problems, 'world "town"'))).toEqual({ status: 400, body: { kind: 'invalid', message: 'world "town" has 1 problem', problems } });
	});

	it('answers programming errors and thrown values as faults, without a stack', () => {
		const { status, body } = errorBody(new TypeError('x is undefined'));
		expect([status, body]).toEqual([500, { kind: 'fault', message: 'internal error: x is undefined' }]);
		expect(errorBody('a string')).toEqual({ status: 500, body: { kind: 'fault', message: 'a string' } });
	});
});

describe('answer and errorResponse', () => {
	it('answers a value as JSON, with the status asked or the one it picks', async () => {
		const ok = await answer(() => ({ n: 1 }));
		expect([ok.status, ok.headers.get('content-type'), await ok.json()]).toEqual([200, 'application/json; charset=utf-8', { n: 1 }]);
		expect((await answer(async () => ({ id: 'w' }), 201)).status).toBe(201);
		const picked = await answer(() => new WithStatus(201, { created: true }));
		expect([picked.status, await picked.json()]).toEqual([201, { created: true }]);
	});

	it('answers a thrown error in the one shape, and logs only faults', async () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => {});
		const refused = await answer(() => {
			throw new NotFoundError('no run "x"');
		});
		expect([refused.status, refused.headers.get('content-type'), await refused.json()]).toEqual([404, 'application/json; charset=utf-8', { kind: 'not-found', message: 'no run "x"' }]);
		expect(log).not.toHaveBeenCalled();
		const fault = await answer(async () => {
			throw new Error('the journal is cut');
		});
		expect([fault.status, await fault.json()]).toEqual([500, { kind: 'fault', message: 'the journal is cut' }]);
		expect(log).toHaveBeenCalledTimes(1);
	});

	it('keeps headers given to an error answer, and lets a handler make its own answer', async () => {
		const r = errorResponse(new UnauthorizedError('token'), { 'www-authenticate': 'Bearer' });
		expect([r.status, r.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
		const csv = await answerWith(() => new Response('a,b\n', { headers: { 'content-type': 'text/csv' } }));
		expect(await csv.text()).toBe('a,b\n');
		const refused = await answerWith(() => {
			throw new InvalidError('format is json or csv');
		});
		expect(await refused.json()).toEqual({ kind: 'invalid', message: 'format is json or csv' });
	});

	it('is read back by the client as the same shape', async () => {
		const r = await answer(() => {
			throw new InvalidError('bad', { issues: [{ path: 'steps', message: 'steps is required' }] });
		});
		const body = (await r.json()) as ApiErrorBody;
		expect(readErrorBody(body, r.status, '')).toEqual(body);
		// SvelteKit's own { message } and a text body are read as well as they can be
		expect(readErrorBody({ message: 'Not Found' }, 404, '')).toEqual({ kind: 'not-found', message: 'Not Found' });
		expect(readErrorBody(null, 502, 'proxy down')).toEqual({ kind: 'fault', message: 'proxy down' });
	});
});

describe('readJsonBody', () => {
	it('reads JSON, {} for nothing, and refuses what is not JSON, too large or too deep', async () => {
		expect(await readJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
		expect(await readJsonBody(post(''))).toEqual({});
		await expect(readJsonBody(post('{a'))).rejects.toThrow(new InvalidError('the request body is not valid JSON'));
		const big = await readJsonBody(post('x'.repeat(2000)), { limit: 1000 }).catch((e: unknown) => e);
		expect([(big as RequestError).kind, (big as RequestError).message]).toEqual(['too-large', 'the request body is larger than 1000 bytes']);
		const deep = await readJsonBody(post('['.repeat(10) + ']'.repeat(10)), { maxDepth: 5 }).catch((e: unknown) => e);
		expect((deep as RequestError).kind).toBe('invalid');
		expect((deep as RequestError).message).toMatch(/^the request body is refused: its lists and objects nest deeper than the 5 levels allowed/);
	});
});

describe('bodies through their schemas', () => {
	const Schema = fields({
		steps: wholeNumber({ min: 1, max: 100 }),
		name: optional(text({ max: 5 })),
		from: optional(fields({ run: text(), step: wholeNumber() })),
		set: optional(list(text({ max: 10 }), 2, 'a list of KEY=VALUE strings'))
	});
	const refusal = (value: unknown, schema: v.GenericSchema = Schema) => {
		try {
			parseWith(schema, value);
		} catch (e) {
			expect(e).toBeInstanceOf(InvalidError);
			return { message: (e as InvalidError).message, issues: (e as InvalidError).issues };
		}
		throw new Error('the value passed');
	};

	it('answers the typed value, null standing for absent', () => {
		const body: { steps: number; name?: string } = parseWith(Schema, { steps: 3, name: null });
		expect(body).toEqual({ steps: 3, name: undefined });
	});

	it('names the field at fault by its path, with a message as clear as a hand-written one', () => {
		expect(refusal({}).message).toBe('steps is required');
		expect(refusal({ steps: 1.5 }).message).toBe('steps must be a whole number');
		expect(refusal({ steps: 0 }).message).toBe('steps must be between 1 and 100, not 0');
		expect(refusal({ steps: 1, name: 'toolong' }).message).toBe('name is longer than 5 characters');
		expect(refusal({ steps: 1, name: ' ' }).message).toBe('name is empty');
		expect(refusal({ steps: 1, from: { run: 'r' } }).message).toBe('from.step is required');
		expect(refusal({ steps: 1, set: ['a=1', 3] }).message).toBe('set[1] must be a string');
		expect(refusal({ steps: 1, set: ['a', 'b', 'c'] }).message).toBe('set holds 3 entries; at most 2 are taken (a list of KEY=VALUE strings)');
		expect(refusal({ steps: 1, colour: 'red' }).message).toBe('unknown field "colour" (fields: steps, name, from, set)');
		expect(refusal({ steps: 1, from: { run: 'r', step: 1, at: 2 } }).message).toBe('from: unknown field "at" (fields: run, step)');
		for (const body of [[], 'x', 3, null]) expect(refusal(body).message).toBe('the body must be a JSON object { steps, name?, from?, set? }');
	});

	it('lists every field at fault as issues, and counts the others in the message', () => {
		const { message, issues } = refusal({ steps: 'x', name: 5 });
		expect(message).toBe('steps must be a whole number (and 1 more problem)');
		expect(issues).toEqual([
			{ path: 'steps', message: 'steps must be a whole number' },
			{ path: 'name', message: 'name must be a string' }
		]);
	});

	it('tells tagged objects apart by their tag, naming the tags allowed', () => {
		const Control = tagged('action', [option({ action: v.literal('pause') }), option({ action: v.literal('run'), steps: wholeNumber() })], '{ action }');
		expect(refusal({ action: 'jump' }, Control).message).toBe('action must be one of pause, run, not "jump"');
		expect(refusal({}, Control).message).toBe('action is required (pause, run)');
		expect(refusal({ action: 'run' }, Control).message).toBe('steps is required');
		expect(refusal([], Control).message).toBe('the body must be a JSON object { action }');
	});

	it('reads a request body through its schema: a run start', async () => {
		expect(await readBody(post('{"steps":3,"world":"the-ville-3"}'), StartRunRequestSchema)).toEqual({ steps: 3, world: 'the-ville-3' });
		await expect(readBody(post('{"steps":3,"seed":-1}'), StartRunRequestSchema)).rejects.toThrow('seed must be between 0 and 2147483647, not -1');
		await expect(readBody(post('{"steps":3,"profile":"slow"}'), StartRunRequestSchema)).rejects.toThrow(/^profile must be "paper" or "fast", not "slow"$/);
		await expect(readBody(post('{"steps":3,"budget":{"usd":0}}'), StartRunRequestSchema)).rejects.toThrow('budget.usd must be a positive number of dollars, not 0');
		await expect(readBody(post('[1]'), StartRunRequestSchema)).rejects.toThrow('the body must be a JSON object (see StartRunRequest)');
	});
});
