import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/types';
import { ProblemList } from '../../world/problems';
import { checkManifest, checkPersonaFile, checkSeedMemoryPlaces, parseJsonFile } from './manifest';

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

describe('a persona\'s structured seed memories', () => {
	const persona = (memories: unknown, extra: object = {}) => ({
		id: 'ann',
		name: 'Ann Lee',
		firstName: 'Ann',
		lastName: 'Lee',
		age: 30,
		innate: '',
		learned: '',
		currently: '',
		lifestyle: '',
		dailyPlanRequirement: '',
		home: 'House:room',
		spawn: 'ann',
		knownPlaces: [],
		seedMemories: ['Ann likes tea'],
		memories,
		...extra
	});
	function checkPersona(value: unknown, world = { start: Date.UTC(2023, 1, 13, 7), personas: ['ann', 'bob'] }) {
		const problems = new ProblemList();
		const text = JSON.stringify(value, null, '\t');
		const pf = checkPersonaFile(parseJsonFile('personas/ann.json', text, problems)!, 'ann', problems);
		checkSeedMemoryPlaces(pf, world, problems);
		/** the line of the `nth` line holding `needle` (0: the first) */
		const lineOf = (needle: string, nth = 0) => text.split('\n').flatMap((l, k) => (l.includes(needle) ? [k + 1] : []))[nth];
		return { def: pf.def, errors: problems.errors.map((e) => `${e.where}: ${e.message}`), lineOf };
	}

	it('reads kind, description, time, importance, evidence, the other party and keywords', () => {
		const { def, errors } = checkPersona(
			persona([
				{ id: 'a', kind: 'observation', description: 'the kettle boils', created: '2023-02-13T06:00:00', importance: 2 },
				{ id: 'b', kind: 'conversation', description: 'talked with Bob', with: 'bob' },
				{ kind: 'reflection', description: 'Ann likes mornings', importance: 8, evidence: ['a', 'b'], keywords: ['morning'] }
			])
		);
		expect(errors).toEqual([]);
		expect(def?.memories).toEqual([
			{ id: 'a', kind: 'observation', description: 'the kettle boils', created: Date.UTC(2023, 1, 13, 6), importance: 2 },
			{ id: 'b', kind: 'conversation', description: 'talked with Bob', with: 'bob' },
			{ kind: 'reflection', description: 'Ann likes mornings', importance: 8, evidence: ['a', 'b'], keywords: ['morning'] }
		]);
		expect(def?.seedMemories).toEqual(['Ann likes tea']);
		// without the field, a persona is as before
		const plain = checkPersona(persona(undefined));
		expect(plain.errors).toEqual([]);
		expect(plain.def && 'memories' in plain.def).toBe(false);
	});

	it('names the entry, the field and its line of every problem', () => {
		const { def, errors, lineOf } = checkPersona(
			persona([
				{ id: 'a', kind: 'memory', description: '', created: '2023-02-13 06:00', importance: 11, colour: 'red' },
				{ id: 'a', kind: 'thought', description: 'x', evidence: ['b', 'zz'] },
				{ id: 'b', kind: 'thought', description: 'y', evidence: ['b'], created: '2023-02-13T08:00:00', with: 'cid' }
			])
		);
		expect(def).toBeUndefined();
		expect(errors).toEqual([
			`line ${lineOf('"colour"')}: unknown field "memories[0].colour" ("memories[0]" fields: id, kind, description, created, importance, evidence, with, keywords)`,
			`line ${lineOf('"memory"')}: "memories[0].kind" must be one of observation, thought, reflection, plan, conversation (got "memory")`,
			`line ${lineOf('"description": ""')}: "memories[0].description" must not be empty`,
			`line ${lineOf('"2023-02-13 06:00"')}: "memories[0].created" must be a game time written YYYY-MM-DDTHH:MM:SS without a zone, e.g. "2023-02-13T07:00:00" (got "2023-02-13 06:00")`,
			`line ${lineOf('11')}: "memories[0].importance" must be a whole number from 1 to 10, not 11`,
			`line ${lineOf('"id": "a"', 1)}: "memories[1].id" "a" is used twice (also memories[0])`,
			expect.stringMatching(/^line \d+: "memories\[1\]\.evidence\[0\]" cites "b", memories\[2\], which comes after it: evidence cites earlier memories$/),
			expect.stringMatching(/^line \d+: "memories\[1\]\.evidence\[1\]" cites "zz", which is not the id of a memory of this list$/),
			expect.stringMatching(/^line \d+: "memories\[2\]\.evidence\[0\]" cites "b", the memory itself$/)
		]);
		// what needs the world: a memory made after the start, a party who is not a persona
		const later = checkPersona(persona([{ kind: 'thought', description: 'y', created: '2023-02-13T08:00:00', with: 'cid' }]));
		expect(later.errors).toEqual([
			`line ${later.lineOf('"2023-02-13T08:00:00"')}: "memories[0].created" (2023-02-13T08:00:00) is after the world's start (2023-02-13T07:00:00): a seed memory is one the agent has when the run begins`,
			`line ${later.lineOf('"cid"')}: "memories[0].with": there is no persona "cid"`
		]);
	});

	it('counts with seedMemories against SIMULACRA_MAX_SEED_MEMORIES', () => {
		const before = process.env.SIMULACRA_MAX_SEED_MEMORIES;
		process.env.SIMULACRA_MAX_SEED_MEMORIES = '3';
		try {
			const three = [1, 2, 3].map((k) => ({ kind: 'thought', description: `t${k}` }));
			const { errors, lineOf } = checkPersona(persona(three));
			expect(errors).toEqual([
				`line ${lineOf('"memories"')}: "memories" and "seedMemories" hold 4 memories together, more than the 3 an agent may start with (SIMULACRA_MAX_SEED_MEMORIES)`
			]);
			expect(checkPersona(persona(three, { seedMemories: [] })).errors).toEqual([]);
			// a list past the limit is refused before its entries are read
			const huge = checkPersona(persona([...three, 'not a memory'], { seedMemories: [] }));
			expect(huge.errors).toEqual([`line ${huge.lineOf('"memories"')}: "memories" and "seedMemories" hold 4 memories together, more than the 3 an agent may start with (SIMULACRA_MAX_SEED_MEMORIES)`]);
		} finally {
			if (before === undefined) delete process.env.SIMULACRA_MAX_SEED_MEMORIES;
			else process.env.SIMULACRA_MAX_SEED_MEMORIES = before;
		}
	});
});
