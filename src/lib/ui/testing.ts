// A run as the runs API describes it, for the tests of the screens' state: two agents (Ann and
// Bob) on the offline model, ten game seconds a step from 07:00 on 13 February 2023.

import type { RunInfo } from '$lib/api/types';

/** The game time of step 0. */
export const TEST_START = Date.UTC(2023, 1, 13, 7, 0, 0);

/** A finished, recorded run of `steps` steps ("r1" unless `extra` says otherwise). */
export function testRunInfo(steps: number, extra: Partial<RunInfo> = {}): RunInfo {
	return {
		id: 'r1',
		world: 'town',
		steps,
		target: steps,
		model: 'offline stand-in, not a language model',
		created: '2024-01-01T00:00:00Z',
		status: 'done',
		parent: null,
		promptSet: 'abcdef012345',
		live: false,
		worldName: 'Town',
		seed: 1,
		settings: {} as RunInfo['settings'],
		overrides: [],
		firstStep: 0,
		start: TEST_START,
		secondsPerStep: 10,
		agents: [
			{ id: 'ann', name: 'Ann Lee' },
			{ id: 'bob', name: 'Bob Ray' }
		],
		...extra
	};
}
