// The evaluation's files and pure parts: scenario events and evaluation.json checked with
// lines, the question bank and its `[name]`, CSV quoting, density and presence.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentView } from '../../engine/sim';
import { CONDITIONS, DEFAULT_QUESTIONS, QUESTION_CATEGORIES, fillQuestion, namedPersona, unknownPlaceholders } from '../../eval/questions';
import { ProblemList, WorldError } from '../../world/problems';
import { checkScenarioEvents, readScenario } from '../world/manifest';
import { questionBank, readEvaluationFile } from './evaluation-file';
import { density, mutualEdges, presence, sampleSteps } from './metrics';

const root = mkdtempSync(path.join(tmpdir(), 'eval-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function folder(files: Record<string, string>): string {
	const dir = path.join(root, `w${n++}`);
	mkdirSync(dir, { recursive: true });
	for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
	return dir;
}

describe('scenario events', () => {
	const fact = (event: unknown) =>
		JSON.stringify({ seeds: [], facts: [{ id: 'party', label: 'A party', keywords: ['party'], event }] }, null, '\t');

	it('reads an event and checks its place and host against the world', async () => {
		const dir = folder({ 'scenario.json': fact({ place: 'Hobbs Cafe', start: '2023-02-14T17:00:00', end: '2023-02-14T19:00:00', host: 'isabella-rodriguez' }) });
		const problems = new ProblemList();
		const s = await readScenario(dir, problems);
		expect(problems.errors).toEqual([]);
		expect(s.facts[0].event).toEqual({ place: 'Hobbs Cafe', start: '2023-02-14T17:00:00', end: '2023-02-14T19:00:00', host: 'isabella-rodriguez' });
		checkScenarioEvents(s, { sectors: ['Hobbs Cafe'], personas: ['isabella-rodriguez'] }, problems);
		expect(problems.errors).toEqual([]);
		checkScenarioEvents(s, { sectors: ['Hobbs Café', 'Park'], personas: ['isabella-rodrigues'] }, problems);
		expect(problems.errors.map((p) => [p.file, p.where, p.message])).toEqual([
			['scenario.json', 'line 11', 'fact "party": there is no sector "Hobbs Cafe" on the map; did you mean "Hobbs Café"?'],
			['scenario.json', 'line 14', 'fact "party": there is no persona "isabella-rodriguez"; did you mean "isabella-rodrigues"?']
		]);
	});

	it('names the line of every wrong field and keeps no half-read fact', async () => {
		const dir = folder({ 'scenario.json': fact({ place: '', start: '2023-02-30T17:00:00', end: 'soon', hots: 'x' }) });
		const problems = new ProblemList();
		const s = await readScenario(dir, problems);
		expect(s.facts).toEqual([]);
		const messages = problems.errors.map((p) => `${p.where}: ${p.message}`);
		expect(messages).toContain('line 14: unknown field "facts[0].event.hots"; did you mean "host"?');
		expect(messages).toContain('line 11: "facts[0].event.place" must not be empty');
		expect(messages.some((m) => /^line 12: "facts\[0\]\.event\.start" must be a calendar time .*got "2023-02-30T17:00:00"/.test(m))).toBe(true);
		expect(messages.some((m) => /^line 13: "facts\[0\]\.event\.end" must be a calendar time/.test(m))).toBe(true);

		const backwards = folder({ 'scenario.json': fact({ place: 'Cafe', start: '2023-02-14T19:00:00', end: '2023-02-14T17:00:00' }) });
		const p2 = new ProblemList();
		await readScenario(backwards, p2);
		expect(p2.errors.map((p) => p.message)).toEqual(['"facts[0].event.end" (2023-02-14T17:00:00) must be after "start" (2023-02-14T19:00:00)']);
	});
});

describe('evaluation.json', () => {
	it('is optional: without it the paper\'s 5 x 5 questions are asked', async () => {
		const bank = await questionBank({ worldsDir: root, world: 'nowhere' });
		expect(bank.from).toBe('default');
		expect(bank.questions).toHaveLength(25);
		for (const c of QUESTION_CATEGORIES) expect(bank.questions.filter((q) => q.category === c), c).toHaveLength(5);
		expect(new Set(bank.questions.map((q) => q.id)).size).toBe(25);
		expect(DEFAULT_QUESTIONS.some((q) => q.text === 'Give an introduction of yourself.')).toBe(true);
		expect(DEFAULT_QUESTIONS.every((q) => unknownPlaceholders(q.text).length === 0)).toBe(true);
	});

	it('replaces the bank when the world has one', async () => {
		const dir = folder({
			'evaluation.json': JSON.stringify({ questions: [{ id: 'q1', category: 'memory', text: 'Who is [name]?' }, { id: 'q2', category: 'plans', text: 'What next?' }] })
		});
		const bank = await questionBank({ worldsDir: root, world: path.basename(dir) });
		expect(bank.from).toBe(`worlds/${path.basename(dir)}/evaluation.json`);
		expect(bank.questions.map((q) => q.id)).toEqual(['q1', 'q2']);
	});

	it('reports every problem with its line', async () => {
		const text = `{
	"questions": [
		{ "id": "intro", "category": "self-knowledge", "text": "Who are you?" },
		{ "id": "intro", "category": "memory", "text": "Who is [Name]?" },
		{ "id": "Bad Id", "category": "feelings", "text": "" },
		{ "id": "x", "categroy": "plans", "text": "Plans?" }
	]
}`;
		const dir = folder({ 'evaluation.json': text });
		const problems = new ProblemList();
		expect(await readEvaluationFile(dir, problems)).toBeUndefined();
		expect(problems.errors.map((p) => `${p.file} ${p.where}: ${p.message}`)).toEqual([
			'evaluation.json line 4: question id "intro" is used twice (also questions[0])',
			'evaluation.json line 4: unknown placeholder [Name] in "questions[1].text"; the only placeholder is [name]',
			'evaluation.json line 5: "questions[2].text" must not be empty',
			'evaluation.json line 5: question id "Bad Id" must be lowercase letters, digits and dashes (at most 64)',
			'evaluation.json line 5: "questions[2].category" must be one of self-knowledge, memory, plans, reactions, reflections (got "feelings")',
			'evaluation.json line 6: unknown field "questions[3].categroy"; did you mean "category"?',
			'evaluation.json line 6: missing field "questions[3].category"'
		]);
		await expect(questionBank({ worldsDir: root, world: path.basename(dir) })).rejects.toThrow(WorldError);
		const empty = folder({ 'evaluation.json': '{ "questions": [] }' });
		await expect(questionBank({ worldsDir: root, world: path.basename(empty) })).rejects.toThrow(/"questions" is empty/);
	});
});

describe('questions and conditions', () => {
	const personas = [
		{ id: 'ann', name: 'Ann Lee', seedMemories: ['Ann Lee likes tea', 'Ann Lee works with Cid Moe and knows Bob Ray'] },
		{ id: 'bob', name: 'Bob Ray', seedMemories: [] },
		{ id: 'cid', name: 'Cid Moe', seedMemories: ['Cid Moe is alone'] }
	];

	it('fills [name] with someone the agent knows, else the next resident by id', () => {
		expect(namedPersona('ann', personas)?.id).toBe('cid');
		expect(namedPersona('bob', personas)?.id).toBe('cid');
		expect(namedPersona('cid', personas)?.id).toBe('ann');
		expect(namedPersona('ann', [personas[0]])).toBeUndefined();
		// structured seed memories come first, as in the stream
		expect(namedPersona('ann', [{ ...personas[0], memories: [{ description: 'Ann Lee chatted with Bob Ray' }] }, ...personas.slice(1)])?.id).toBe('bob');
		expect(fillQuestion("What would [name] like for [name]'s birthday?", 'Cid Moe')).toBe("What would Cid Moe like for Cid Moe's birthday?");
	});

	it('maps the four conditions to the engine\'s ablation flags', () => {
		expect(CONDITIONS.map((c) => [c.id, c.ablation])).toEqual([
			['full', { reflection: false, planning: false, observation: false }],
			['no-reflection', { reflection: true, planning: false, observation: false }],
			['no-reflection-planning', { reflection: true, planning: true, observation: false }],
			['no-observation-reflection-planning', { reflection: true, planning: true, observation: true }]
		]);
	});
});

describe('pure measures', () => {
	it('density counts mutual edges only', () => {
		const says = new Set(['a|b', 'b|a', 'a|c', 'c|d', 'd|c']);
		const edges = mutualEdges(['d', 'c', 'b', 'a'], (x, y) => says.has(`${x}|${y}`));
		expect(edges).toEqual([
			['a', 'b'],
			['c', 'd']
		]);
		expect(density(4, edges.length)).toBeCloseTo(2 / 6);
		expect(density(1, 0)).toBe(0);
	});

	it('samples the start, every game hour and the end; fewer for long runs', () => {
		expect(sampleSteps(1000, 10)).toEqual({ steps: [0, 360, 720, 1000], every: 360 });
		expect(sampleSteps(0, 10)).toEqual({ steps: [0], every: 360 });
		const long = sampleSteps(3 * 8640, 10);
		expect(long.every).toBe(720);
		expect(long.steps).toHaveLength(37);
	});

	it('presence: who stood on the place\'s tiles in the window, from when, for how long', () => {
		const width = 10;
		const at = (id: string, x: number, y: number) => ({ id, x, y }) as AgentView;
		const tiles = new Set([2 * width + 2, 2 * width + 3]);
		const positions = new Map<number, AgentView[]>([
			[4, [at('a', 2, 2), at('b', 0, 0)]],
			[5, [at('a', 3, 2), at('b', 2, 2)]],
			[6, [at('a', 5, 5), at('b', 3, 2)]],
			[7, [at('a', 2, 2), at('b', 3, 2)]]
		]);
		expect(presence(positions, 5, 7, tiles, width)).toEqual([
			{ agent: 'a', first: 5, count: 1 },
			{ agent: 'b', first: 5, count: 2 }
		]);
		expect(presence(positions, 0, 4, tiles, width)).toEqual([]);
	});
});
