import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileOverrides } from '../../engine/profiles';
import { DEFAULT_SETTINGS } from '../../engine/types';
import { checkSetting, closest, ExperimentDefError, experimentId, experimentJobs, parseExperiment, readExperimentFile } from './definition';

const minimal = { world: 'the-ville-3', steps: 10, replicates: 2, arms: [{ name: 'A' }, { name: 'B', set: ['retrieval.weights.relevance=3'] }] };

describe('parseExperiment', () => {
	it('reads the minimal form with defaults', () => {
		const def = parseExperiment(minimal, 'x.json');
		expect(def).toMatchObject({ name: 'x', world: 'the-ville-3', steps: 10, replicates: 2, seed: 1, seeds: 'shared', model: 'offline' });
		expect(def.arms).toEqual([
			{ name: 'A', set: [] },
			{ name: 'B', set: ['retrieval.weights.relevance=3'] }
		]);
	});

	it("an arm's profile (or the experiment's) stands for its settings, before the arm's own", () => {
		const def = parseExperiment({ ...minimal, profile: 'fast', arms: [{ name: 'fast' }, { name: 'paper', profile: 'paper', set: ['perception.reactionMinutes=1'] }] }, 'x.json');
		expect(def.arms[0].set).toEqual(profileOverrides('fast'));
		expect(def.arms[1].set).toEqual([...profileOverrides('paper'), 'perception.reactionMinutes=1']);
		expect(experimentId(def)).not.toBe(experimentId(parseExperiment({ ...minimal, arms: [{ name: 'fast' }, { name: 'paper' }] }, 'x.json')));
		expect(() => parseExperiment({ ...minimal, arms: [{ name: 'A', profile: 'quick' }] }, 'x.json')).toThrow(/arms\[0\]\.profile \(arm "A"\): "paper" or "fast", not "quick"/);
	});

	it('names the file, the field and why for every problem', () => {
		const bad = { world: 'The Ville', steps: 0, replicates: 'many', arms: [{ name: 'A', set: ['novalue'] }, { name: 'A' }], colour: 'red', endpoints: ['http://u:p@host/v1'] };
		try {
			parseExperiment(bad, 'bad.json');
			expect.unreachable();
		} catch (e) {
			expect(e).toBeInstanceOf(ExperimentDefError);
			const issues = (e as ExperimentDefError).reasons.join('\n');
			expect((e as Error).message).toMatch(/^bad\.json: /);
			expect(issues).toMatch(/"colour": unknown field/);
			expect(issues).toMatch(/world: a world id/);
			expect(issues).toMatch(/steps: a whole number from 1/);
			expect(issues).toMatch(/replicates: a whole number/);
			expect(issues).toMatch(/arms\[0\]\.set\[0\] \(arm "A"\): setting "novalue" is not KEY=VALUE/);
			expect(issues).toMatch(/arms\[1\]\.name: "A" names two arms/);
			expect(issues).toMatch(/endpoints\[0\]: an http\(s\) base URL without credentials/);
		}
	});

	it("checks every arm's settings as its runs apply them: names (with the close name) and values", () => {
		const target = { settings: structuredClone(DEFAULT_SETTINGS), agents: ['ana-quill', 'bo-li'] };
		const def = {
			...minimal,
			arms: [
				{ name: 'base', set: ['retrieval.k.dialogue=10', 'agents.bo-li.retrieval.topK=5'] },
				{ name: 'relevance x3', set: ['retrieval.weights.relevanse=3', 'retrieval.topK=2.5', 'perception.visionRadius=far', 'agents.bo-ly.retrieval.decay=0.9', 'agents.ana-quill.retrieval.wieghts.recency=2', 'nothing.like.this=1'] }
			]
		};
		try {
			parseExperiment(def, 'typo.json', undefined, target);
			expect.unreachable();
		} catch (e) {
			expect(e).toBeInstanceOf(ExperimentDefError);
			expect((e as ExperimentDefError).reasons).toEqual([
				'arms[1].set[0] (arm "relevance x3"): unknown setting "retrieval.weights.relevanse" (did you mean "retrieval.weights.relevance"?)',
				'arms[1].set[1] (arm "relevance x3"): setting "retrieval.topK" takes a whole number, not 2.5',
				'arms[1].set[2] (arm "relevance x3"): setting "perception.visionRadius" takes a number, not "far"',
				'arms[1].set[3] (arm "relevance x3"): setting "agents.bo-ly.retrieval.decay": unknown agent "bo-ly" (did you mean "agents.bo-li.retrieval.decay"?)',
				'arms[1].set[4] (arm "relevance x3"): unknown setting "agents.ana-quill.retrieval.wieghts.recency" (did you mean "agents.ana-quill.retrieval.weights.recency"?)',
				'arms[1].set[5] (arm "relevance x3"): unknown setting "nothing.like.this"'
			]);
		}
		// the good arm alone passes, and the settings object it was checked against is untouched
		expect(parseExperiment({ ...minimal, arms: [def.arms[0]] }, 'ok.json', undefined, target).arms[0].set).toEqual(def.arms[0].set);
		expect(target.settings).toEqual(DEFAULT_SETTINGS);
		expect(checkSetting('retrieval.weights.relevance=3', target)).toBeUndefined();
		expect(closest('relevanse', ['recency', 'importance', 'relevance'])).toBe('relevance');
		expect(closest('zzz', ['recency', 'importance', 'relevance'])).toBeUndefined();
	});

	it('turns game time into steps with the world step length', () => {
		const { steps: _s, ...rest } = minimal;
		expect(parseExperiment({ ...rest, hours: 1 }, 'h.json', () => 10).steps).toBe(360);
		expect(() => parseExperiment({ ...rest, hours: 1, steps: 3 }, 'h.json', () => 10)).toThrow(/give one span/);
	});

	it('points at the line of broken JSON', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'exp-def-'));
		const file = path.join(dir, 'e.json');
		writeFileSync(file, '{\n  "world": "the-ville-3",\n  "steps": 10,,\n}');
		expect(() => readExperimentFile(file)).toThrow(/not valid JSON/);
		expect(() => readExperimentFile(path.join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read: ENOENT/);
	});
});

describe('experiment ids and jobs', () => {
	it('keeps the id when only workers or metrics change, and changes it with the arms', () => {
		const def = parseExperiment(minimal, 'x.json');
		const id = experimentId(def);
		expect(experimentId(parseExperiment({ ...minimal, workers: 4, metrics: ['tokens'] }, 'x.json'))).toBe(id);
		expect(experimentId(parseExperiment({ ...minimal, replicates: 3 }, 'x.json'))).not.toBe(id);
		expect(id).toMatch(/^x-[0-9a-f]{10}$/);
	});

	it('gives replicates seeds and sampling indices, shared or distinct across arms', () => {
		const shared = experimentJobs(parseExperiment({ ...minimal, seed: 5 }, 'x.json'));
		expect(shared.map((j) => [j.key, j.seed, j.sample])).toEqual([
			['A#0', 5, 0],
			['A#1', 6, 1],
			['B#0', 5, 0],
			['B#1', 6, 1]
		]);
		const distinct = experimentJobs(parseExperiment({ ...minimal, seeds: 'distinct' }, 'x.json'));
		expect(new Set(distinct.map((j) => j.seed)).size).toBe(4);
		expect(new Set(distinct.map((j) => j.sample)).size).toBe(4);
	});
});
