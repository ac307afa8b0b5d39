import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/types';
import { ProblemList } from '../../world/problems';
import { checkManifest, parseJsonFile } from './manifest';

const dir = mkdtempSync(path.join(tmpdir(), 'manifest-'));
writeFileSync(path.join(dir, 'town.tmx'), '<map/>');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(defaults: unknown) {
	const problems = new ProblemList();
	const text = JSON.stringify({ name: 'Town', map: 'town.tmx', start: '2023-02-13T07:00:00', secondsPerStep: 10, defaults }, null, '\t');
	const f = parseJsonFile('world.json', text, problems);
	const { manifest } = checkManifest(dir, f!, problems);
	return { manifest, errors: problems.errors.map((e) => e.message) };
}

describe('world.json retrieval settings', () => {
	it('per-purpose top k take the paper-based defaults and can be set one by one', () => {
		expect(DEFAULT_SETTINGS.retrieval.topK).toBe(30);
		expect(DEFAULT_SETTINGS.retrieval.k).toEqual({ summary: 30, plan: 30, reaction: 30, conversation: 50, dialogue: 15, onMind: 0 });
		const { manifest, errors } = check({ retrieval: { k: { dialogue: 8, onMind: 3 } } });
		expect(errors).toEqual([]);
		expect(manifest?.settings.retrieval.k).toEqual({ ...DEFAULT_SETTINGS.retrieval.k, dialogue: 8, onMind: 3 });
		expect(manifest?.settings.retrieval.topK).toBe(30);
	});

	it('refuses unknown purposes and values that are not whole numbers, naming the field', () => {
		const { manifest, errors } = check({ retrieval: { k: { dialog: 8, conversation: 2.5, onMind: -1, summary: 0 } } });
		expect(manifest).toBeUndefined();
		expect(errors).toEqual([
			'unknown field "defaults.retrieval.k.dialog"; did you mean "dialogue"?',
			'"defaults.retrieval.k.conversation" must be a positive whole number, not 2.5',
			'"defaults.retrieval.k.onMind" must be a whole number, 0 or more, not -1',
			'"defaults.retrieval.k.summary" must be a positive whole number, not 0'
		]);
	});
});
