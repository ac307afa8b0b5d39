// The second sweep of hostile world files: JSON nested deeper than its limit, files and folders
// linked out of the world, personas too large or with too many seed memories. `world check`,
// a run (which loads the world the same way), the editor's reads and saves all refuse them
// with the same message, naming the file and the limit (or the link), never a stack overflow
// and never anything of a link's target.

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WorldError, ProblemList } from '../../world/problems';
import { readEvaluationFile } from '../eval/evaluation-file';
import { startRun } from '../run/runner';
import { checkWorld } from './check';
import { RequestError } from '../errors';
import { listPersonas, readSettings, writePersona, writeSettings } from './edit';
import { answer as respond, readJsonBody } from '../http';
import { loadWorld } from './load';
import { formatBytes } from '../limits';
import { copyWorld, lineOf, removeWorldCopies } from './testing';

const outside = mkdtempSync(path.join(tmpdir(), 'outside-'));
const home = mkdtempSync(path.join(tmpdir(), 'sweep-home-'));
const savedEnv = { ...process.env };
afterEach(() => {
	process.env = { ...savedEnv };
});
afterAll(() => {
	rmSync(outside, { recursive: true, force: true });
	rmSync(home, { recursive: true, force: true });
	removeWorldCopies();
});

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const persona = (dir: string, id = 'alice-chen') => JSON.parse(readFileSync(path.join(dir, 'personas', `${id}.json`), 'utf8')) as Record<string, unknown>;

/** The problems `world check` and a run's loading of the world report, which must be the same. */
async function refusals(dir: string): Promise<string[]> {
	const check = await checkWorld(dir);
	expect(check.ok).toBe(false);
	const load = await loadWorld(dir).then(
		() => undefined,
		(e: unknown) => e
	);
	expect(load).toBeInstanceOf(WorldError);
	expect((load as WorldError).problems).toEqual(check.errors);
	return check.errors.map((p) => `${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`);
}

describe('JSON nested past the limit', () => {
	it('is refused in every JSON file of a world before it is parsed, naming the limit and where', async () => {
		const dir = copyWorld({
			'personas/alice-chen.json': deep(100_000),
			'scenario.json': `{\n  "seeds": ${deep(65)}\n}`
		});
		const t = performance.now();
		const problems = await refusals(dir);
		expect(performance.now() - t).toBeLessThan(2000);
		expect(problems).toContain(
			'personas/alice-chen.json (line 1, column 65): refused: its lists and objects nest deeper than the 64 levels allowed (SIMULACRA_MAX_JSON_DEPTH)'
		);
		expect(problems).toContain('scenario.json (line 2, column 75): refused: its lists and objects nest deeper than the 64 levels allowed (SIMULACRA_MAX_JSON_DEPTH)');
		writeFileSync(path.join(dir, 'world.json'), deep(100_000));
		expect((await checkWorld(dir)).errors[0].message).toMatch(/^refused: its lists and objects nest deeper than the 64 levels allowed/);
		// evaluation.json is read by the same reader
		writeFileSync(path.join(dir, 'evaluation.json'), `{"questions": ${deep(100_000)}}`);
		const evalProblems = new ProblemList();
		expect(await readEvaluationFile(dir, evalProblems)).toBeUndefined();
		expect(evalProblems.errors[0]).toMatchObject({ file: 'evaluation.json', where: 'line 1, column 78' });
	});

	it('is fine up to the limit, and the limit is settable', async () => {
		const dir = copyWorld({ 'evaluation.json': `{"questions": [{"id": "a", "category": "plans", "text": "${'['.repeat(10)}"}]}` });
		const at = (n: number) => `{"questions": [{"id": "a", "category": "plans", "text": "x"}], "x": ${deep(n - 1)}}`;
		writeFileSync(path.join(dir, 'evaluation.json'), at(64));
		const problems = new ProblemList();
		await readEvaluationFile(dir, problems);
		// the nesting is fine; the unknown field is what is wrong
		expect(problems.errors.map((p) => p.message)).toEqual(['unknown field "x" (evaluation.json fields: questions)']);
		process.env.SIMULACRA_MAX_JSON_DEPTH = '10';
		const tight = new ProblemList();
		await readEvaluationFile(dir, tight);
		expect(tight.errors[0].message).toBe('refused: its lists and objects nest deeper than the 10 levels allowed (SIMULACRA_MAX_JSON_DEPTH)');
	});

	it('in a persona on disk lists the persona without content, instead of failing the answer', async () => {
		const dir = copyWorld({ 'personas/alice-chen.json': deep(100_000) });
		const worlds = path.dirname(dir);
		const r = await respond(() => listPersonas(worlds, 'tiny'));
		expect(r.status).toBe(200);
		expect(((await r.json()) as { id: string; persona: unknown }[]).map((p) => [p.id, p.persona === null])).toEqual([
			['alice-chen', true],
			['bob-diaz', false]
		]);
		writeFileSync(path.join(dir, 'world.json'), deep(100_000));
		const settings = await readSettings(worlds, 'tiny').catch((e: unknown) => e);
		expect(settings).toBeInstanceOf(RequestError);
		expect((settings as RequestError).problems?.[0].message).toMatch(/SIMULACRA_MAX_JSON_DEPTH/);
	});

	it('in a request body is a 400 naming the limit, whatever route reads it', async () => {
		const body = (text: string) => new Request('http://127.0.0.1/', { method: 'PUT', body: text });
		const err = await readJsonBody(body(deep(100_000))).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(RequestError);
		expect([(err as RequestError).status, (err as RequestError).message]).toEqual([
			400,
			'the request body is refused: its lists and objects nest deeper than the 64 levels allowed (SIMULACRA_MAX_JSON_DEPTH), at line 1, column 65'
		]);
		// brackets inside strings are text, not nesting
		expect(await readJsonBody(body(JSON.stringify({ text: '['.repeat(10_000) })))).toEqual({ text: '['.repeat(10_000) });
	});
});

describe('links out of the world', () => {
	const secret = path.join(outside, 'passwd');
	writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
	const valid = path.join(outside, 'alice-chen.json');

	/** A copy of the world with `rel` replaced by a link to `target`. */
	function linked(rel: string, target: string): string {
		const dir = copyWorld();
		const abs = path.join(dir, rel);
		rmSync(abs, { recursive: true, force: true });
		symlinkSync(target, abs);
		return dir;
	}

	it('are refused by the check and by a run alike, naming the link and nothing of its target', async () => {
		writeFileSync(valid, readFileSync(path.join(copyWorld(), 'personas', 'alice-chen.json')));
		const personasOut = path.join(outside, 'personas');
		mkdirSync(personasOut);
		const donor = copyWorld();
		renameSync(path.join(donor, 'personas'), path.join(personasOut, 'p'));
		const cases: [string, string, string][] = [
			// a valid persona outside: the check used to say "ok" and the run refused
			['personas/alice-chen.json', valid, 'personas/alice-chen.json: refused: personas/alice-chen.json is a link to a file outside the world folder; copy the file into the world folder instead'],
			// /etc/passwd: the error used to show its first byte ("found \"r\"")
			['personas/alice-chen.json', secret, 'personas/alice-chen.json: refused: personas/alice-chen.json is a link to a file outside the world folder; copy the file into the world folder instead'],
			['scenario.json', secret, 'scenario.json: refused: scenario.json is a link to a file outside the world folder; copy the file into the world folder instead'],
			['personas', path.join(personasOut, 'p'), 'personas: refused: personas is a link to a folder outside the world folder; copy the folder into the world folder instead'],
			['tiny.tmx', secret, 'tiny.tmx: refused: tiny.tmx is a link to a file outside the world folder; copy the file into the world folder instead'],
			['personas/bob-diaz.json', path.join(outside, 'nothing.json'), 'personas/bob-diaz.json: refused: personas/bob-diaz.json is a link to nothing; replace it with what it should be'],
			// a file no reader reads: the run's copy of the world refused it, the check said "ok"
			['tilesets/notes.txt', secret, 'tilesets/notes.txt: refused: tilesets/notes.txt is a link to a file outside the world folder; copy the file into the world folder instead']
		];
		for (const [rel, target, message] of cases) {
			const dir = linked(rel, target);
			const problems = await refusals(dir);
			// once: by the reader of the file, or by the walk of the folder
			expect(problems.filter((p) => p === message), rel).toEqual([message]);
			const all = problems.join('\n');
			expect(all, rel).not.toMatch(/root|"r"/);
			expect(all, rel).not.toContain(outside);
			// a run reads the world the same way, before anything is created
			const run = await startRun({ world: dir, steps: 1, home, model: 'offline' }).catch((e: unknown) => e);
			expect(run, rel).toBeInstanceOf(WorldError);
			expect((run as WorldError).message, rel).toContain(message.slice(message.indexOf(': ') + 2));
			expect((run as WorldError).message, rel).not.toMatch(/root|"r"/);
		}
	});

	it('that stay inside the world are followed', async () => {
		const dir = copyWorld();
		mkdirSync(path.join(dir, 'people'));
		renameSync(path.join(dir, 'personas', 'alice-chen.json'), path.join(dir, 'people', 'alice.json'));
		symlinkSync('../people/alice.json', path.join(dir, 'personas', 'alice-chen.json'));
		expect((await checkWorld(dir)).errors).toEqual([]);
		expect((await loadWorld(dir)).def.personas.map((p) => p.id)).toEqual(['alice-chen', 'bob-diaz']);
	});
});

describe('huge personas', () => {
	it('with more seed memories than an agent may start with are refused by the check, the run and the editor', async () => {
		const dir = copyWorld();
		const p = persona(dir);
		const many = { ...p, seedMemories: Array.from({ length: 1001 }, (_, k) => `Alice remembers thing ${k}`) };
		const text = JSON.stringify(many, null, '\t');
		writeFileSync(path.join(dir, 'personas', 'alice-chen.json'), text);
		const message = '"seedMemories" holds 1,001 memories, more than the 1,000 an agent may start with (SIMULACRA_MAX_SEED_MEMORIES)';
		expect((await refusals(dir)).join('\n')).toContain(`personas/alice-chen.json (line ${lineOf(text, '"seedMemories"')}): ${message}`);
		const run = await startRun({ world: dir, steps: 1, home, model: 'offline' }).catch((e: unknown) => e);
		expect((run as Error).message).toContain(message);
		// the editor's save: nothing written
		const before = readFileSync(path.join(dir, 'personas', 'bob-diaz.json'), 'utf8');
		const saved = await writePersona(path.dirname(dir), 'tiny', 'bob-diaz', { ...persona(dir, 'bob-diaz'), seedMemories: many.seedMemories }).catch((e: unknown) => e);
		expect(saved).toBeInstanceOf(RequestError);
		expect((saved as RequestError).problems?.map((x) => x.message)).toEqual([message]);
		expect(readFileSync(path.join(dir, 'personas', 'bob-diaz.json'), 'utf8')).toBe(before);
	});

	it('count the scenario seeds for the agent too', async () => {
		const dir = copyWorld();
		// Alice's persona has 2 seed memories
		const seeds = Array.from({ length: 998 }, (_, k) => ({ id: `s${k}`, agent: 'alice-chen', memory: `seed ${k}` }));
		writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify({ seeds, facts: [] }, null, 1));
		expect((await checkWorld(dir)).errors).toEqual([]);
		seeds.push({ id: 's998', agent: 'alice-chen', memory: 'one too many' });
		const text = JSON.stringify({ seeds, facts: [] }, null, 1);
		writeFileSync(path.join(dir, 'scenario.json'), text);
		expect(await refusals(dir)).toEqual([
			`scenario.json (line ${lineOf(text, '"s998"') + 1}): seed "s998": "alice-chen" would start with 1,001 seed memories (2 from its persona, the rest from this file), more than the 1,000 an agent may start with (SIMULACRA_MAX_SEED_MEMORIES)`
		]);
	});

	it('larger than a world JSON file may be are refused before they are read, by the check, the run and the editor', async () => {
		const dir = copyWorld();
		// 150,000 seed memories, 6.9 MB: the run used to overflow the stack after 4 s
		const huge = { ...persona(dir), seedMemories: Array.from({ length: 150_000 }, (_, k) => `Alice remembers the thing number ${k} well`) };
		const text = JSON.stringify(huge);
		writeFileSync(path.join(dir, 'personas', 'alice-chen.json'), text);
		const t = performance.now();
		const problems = await refusals(dir);
		expect(performance.now() - t).toBeLessThan(2000);
		expect(problems).toEqual([`personas/alice-chen.json: refused: it is ${formatBytes(text.length)}, more than the 4 MiB allowed (SIMULACRA_MAX_WORLD_JSON_BYTES)`]);
		const run = await startRun({ world: dir, steps: 1, home, model: 'offline' }).catch((e: unknown) => e);
		expect((run as Error).message).toContain('more than the 4 MiB allowed (SIMULACRA_MAX_WORLD_JSON_BYTES)');
		// the editor writes what the check reads: a save that would be larger is refused
		process.env.SIMULACRA_MAX_WORLD_JSON_BYTES = String(32 * 1024);
		const big = { ...persona(dir, 'bob-diaz'), seedMemories: Array.from({ length: 900 }, (_, k) => `Bob remembers the thing number ${k} quite well indeed`) };
		const saved = await writePersona(path.dirname(dir), 'tiny', 'bob-diaz', big).catch((e: unknown) => e);
		expect((saved as RequestError).problems?.[0].message).toMatch(/^refused: it would be 5\d\.\d KiB, more than the 32 KiB allowed \(SIMULACRA_MAX_WORLD_JSON_BYTES\)$/);
		expect(persona(dir, 'bob-diaz').seedMemories).toHaveLength(1);
		const settings = await writeSettings(path.dirname(dir), 'tiny', { ...JSON.parse(readFileSync(path.join(dir, 'world.json'), 'utf8')), name: 'x'.repeat(40_000) }).catch(
			(e: unknown) => e
		);
		expect((settings as RequestError).problems?.[0].message).toMatch(/more than the 32 KiB allowed \(SIMULACRA_MAX_WORLD_JSON_BYTES\)$/);
	});

	it('at the limit run', async () => {
		const dir = copyWorld();
		// with the scenario's seed for her, the 1,000 an agent may start with
		const full = { ...persona(dir), seedMemories: Array.from({ length: 999 }, (_, k) => `Alice remembers thing ${k}`) };
		writeFileSync(path.join(dir, 'personas', 'alice-chen.json'), JSON.stringify(full, null, '\t'));
		expect((await checkWorld(dir)).errors).toEqual([]);
		const r = await startRun({ world: dir, steps: 2, home, model: 'offline' });
		expect([r.status, r.steps]).toEqual(['done', 2]);
	});
});
