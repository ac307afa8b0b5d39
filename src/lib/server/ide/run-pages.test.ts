// The run pages' server side: malformed run ids and the API's errors as page errors, the world
// folder a forked run's map takes its tiles from, and a world copy's problems.

import { isHttpError } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import type { RunInfo } from '$lib/api/types';
import { ApiError, type Api } from '$lib/shared/api';
import { testRunInfo } from '$lib/ui/testing';
import { WorldError } from '../../world/problems';
import { assetWorld, checkRunId, pageAnswer, runWorldProblems } from './run-pages';

function thrown(fn: () => unknown): unknown {
	try {
		fn();
	} catch (err) {
		return err;
	}
	throw new Error('nothing was thrown');
}

async function rejected(p: Promise<unknown>): Promise<unknown> {
	return p.then(
		() => {
			throw new Error('the promise was fulfilled');
		},
		(err: unknown) => err
	);
}

describe('checkRunId', () => {
	it('passes folder names and answers 404 for anything else', () => {
		expect(() => checkRunId('run-2024.01_a')).not.toThrow();
		for (const id of ['../etc', '.hidden', 'a/b', '']) {
			const err = thrown(() => checkRunId(id));
			expect(isHttpError(err, 404), id).toBe(true);
		}
		const long = thrown(() => checkRunId(`/${'x'.repeat(300)}`));
		expect(isHttpError(long) && long.body.message.length).toBeLessThan(220);
	});
});

describe('pageAnswer', () => {
	it("answers the API's value and turns its errors into the page's (404, or 500)", async () => {
		expect(await pageAnswer(Promise.resolve(3))).toBe(3);
		const missing = await rejected(pageAnswer(Promise.reject(new ApiError('no run "x"', 404))));
		expect(isHttpError(missing, 404) && missing.body.message).toBe('no run "x"');
		const down = await rejected(pageAnswer(Promise.reject(new ApiError('The studio server did not answer', 0))));
		expect(isHttpError(down, 500)).toBe(true);
		const other = new TypeError('bug');
		expect(await rejected(pageAnswer(Promise.reject(other)))).toBe(other);
	});
});

describe('assetWorld', () => {
	const runs: Record<string, RunInfo> = {
		base: testRunInfo(10, { id: 'base', world: 'town' }),
		fork: testRunInfo(10, { id: 'fork', world: 'fork-copy', parent: { run: 'base', step: 5 } }),
		forkOfFork: testRunInfo(10, { id: 'forkOfFork', world: 'fork2-copy', parent: { run: 'fork', step: 7 } }),
		orphan: testRunInfo(10, { id: 'orphan', world: 'gone', parent: { run: 'deleted', step: 1 } })
	};
	const api = {
		run: async (id: string) => {
			const info = runs[id];
			if (!info) throw new ApiError(`no run "${id}"`, 404);
			return info;
		}
	} as unknown as Api;
	const known = new Set(['town']);

	it("is the run's world when the worlds folder has it, else the nearest ancestor's", async () => {
		expect(await assetWorld(api, runs.base, known)).toBe('town');
		expect(await assetWorld(api, runs.forkOfFork, known)).toBe('town');
	});

	it("falls back to the run's own world id when no ancestor's world is there", async () => {
		expect(await assetWorld(api, runs.orphan, known)).toBe('gone');
	});
});

describe('runWorldProblems', () => {
	it("lists the loader's problems, or the error's message at the run's world copy", () => {
		const problems = [{ file: 'world.json', message: 'name is empty' }];
		expect(runWorldProblems(new WorldError(problems), 'r1')).toEqual(problems);
		expect(runWorldProblems(new Error('ENOENT: no such folder'), 'r1')).toEqual([{ file: 'runs/r1/world', message: 'ENOENT: no such folder' }]);
	});
});
