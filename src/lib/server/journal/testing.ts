// Test helper: the run.json of a small made-up run, for tests of the journal's files.

import { NO_ABLATION } from '../../engine/state';
import { DEFAULT_SETTINGS } from '../../engine/types';
import type { RunMeta } from './journal';

export function testMeta(patch: Partial<RunMeta> = {}): RunMeta {
	return {
		id: 'r',
		world: 'w',
		worldName: 'W',
		seed: 1,
		model: { provider: 'offline', model: 'x', label: 'x' },
		promptSet: { version: 'v', templates: {} },
		settings: DEFAULT_SETTINGS,
		ablate: NO_ABLATION,
		overrides: [],
		parent: null,
		firstStep: 0,
		snapshotEvery: 10,
		created: '2026-01-01T00:00:00Z',
		status: 'running',
		dimensions: 3,
		target: 50,
		...patch
	};
}
