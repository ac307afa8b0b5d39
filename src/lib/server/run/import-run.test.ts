// Importing a simulation recorded by the reference implementation as a run, from a small
// recording of our own in its formats (../world/reference/testing.ts): step N is the recording's
// step N (tiles, actions, addresses, emoji, conversations), the memories of nodes.json are there
// with their kinds, times, importance and evidence, the expanded and compressed forms give the
// same run, `runs check` finds nothing wrong, and a fork at the last step runs on.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorldError, type WorldProblem } from '../../world/problems';
import { MemoryStore } from '../memory/lance-store';
import { digestOf } from '../../engine/testing';
import { OFFLINE_DIMENSIONS } from '../model/providers/embed';
import { loadState, openRun, startRun } from './runner';
import { importReference } from '../world/import-reference';
import { movements, writeFixtureCheckout } from '../world/reference/testing';
import { importRecording } from './import-run';
import { RunQueries } from '../read/queries';
import { checkRun } from '../store/upkeep';

const root = mkdtempSync(path.join(tmpdir(), 'import-run-'));
const worlds = path.join(root, 'worlds');
const home = path.join(root, 'home');
let fixture: ReturnType<typeof writeFixtureCheckout>;
const env = process.env.SIMULACRA_WORLDS;

beforeAll(async () => {
	fixture = writeFixtureCheckout(path.join(root, 'checkout'), { embeddings: OFFLINE_DIMENSIONS });
	await importReference(fixture.checkout, { simulation: 'base_two', name: 'ville', worldsDir: worlds });
	process.env.SIMULACRA_WORLDS = worlds;
});
afterAll(() => {
	if (env === undefined) delete process.env.SIMULACRA_WORLDS;
	else process.env.SIMULACRA_WORLDS = env;
	rmSync(root, { recursive: true, force: true });
});

const refused = async (p: Promise<unknown>): Promise<WorldProblem[]> => {
	try {
		await p;
	} catch (e) {
		if (e instanceof WorldError) return e.problems;
		throw e;
	}
	throw new Error('the import was not refused');
};

describe('runs import <recording> --world <id>', () => {
	it('makes a run whose step N is the recording\'s step N, with every memory, that a fork continues', async () => {
		const report = await importRecording(fixture.compressed, { world: 'ville', home });
		expect(report.form).toBe('compressed');
		expect(report.steps).toBe(9);
		// a snapshot at step 0 and at the last (the states between follow from the commit lines)
		expect(report.snapshots).toBe(2);
		expect(report.conversations).toBe(1);
		expect(report.agents).toEqual([
			{ id: 'ann-lee', name: 'Ann Lee', memories: 6, embeddings: 'recording' },
			{ id: 'bob-ray', name: 'Bob Ray', memories: 1, embeddings: 'recording' }
		]);

		// every step as the recording says, from the journal (what the debugger draws)
		const queries = new RunQueries({ home });
		const frames = await queries.frames(report.run, 0, 9);
		const moves = movements();
		frames.forEach((f, n) => {
			expect(f.step).toBe(n);
			expect(f.time).toBe(Date.UTC(2023, 1, 13, 0, 0, 10 * n));
			for (const a of f.agents) {
				const m = moves[n][a.name];
				const [activity, place] = m.description.split(' @ ');
				expect([a.x, a.y]).toEqual(m.movement);
				expect(a.activity).toBe(activity);
				expect(a.address).toBe(place.replace(/^the Ville:/, ''));
				expect(a.emoji).toBe(m.pronunciatio);
				expect(a.chatWith).toBe(m.chat ? (a.id === 'ann-lee' ? 'bob-ray' : 'ann-lee') : '');
			}
		});
		expect(frames[4].conversations).toEqual([
			{
				id: 'import-4-ann-lee-bob-ray',
				step: 3,
				time: Date.UTC(2023, 1, 13, 0, 0, 30),
				endStep: 3,
				agents: ['ann-lee', 'bob-ray'],
				address: 'Hobbs Cafe:cafe',
				lines: [
					{ speaker: 'Ann Lee', text: 'Hi Bob, come to my party!' },
					{ speaker: 'Bob Ray', text: 'I will, Ann.' }
				]
			}
		]);

		// the state of any step, memories counted in as they were made
		const { sim: at3 } = await loadState(report.run, 3, { home });
		expect(at3.stream('ann-lee').size).toBe(2);
		expect(at3.view().find((a) => a.id === 'ann-lee')).toMatchObject({ x: 2, y: 2, activity: 'walking to the cafe', address: 'Hobbs Cafe:cafe' });
		const { sim: end } = await loadState(report.run, 9, { home });
		const ann = end.stream('ann-lee').records;
		expect(ann.map((m) => [m.kind, m.source, m.importance, m.description])).toEqual([
			['observation', 'observed', 3, 'Ann Lee is idle'],
			['observation', 'observed', 1, 'bed is being used'],
			['conversation', 'conversation', 6, 'conversing about the party'],
			['thought', 'conversation', 5, "For Ann Lee's planning: remember Bob is coming"],
			['plan', 'planned', 3, "This is Ann Lee's plan for Monday February 13: open the cafe"],
			['reflection', 'reflected', 7, 'Ann Lee cares about her friends']
		]);
		expect(ann[2].with).toBe('bob-ray');
		expect(ann[3].evidence).toEqual(['ann-lee/m2']);
		expect(ann[5].evidence).toEqual(['ann-lee/m0', 'ann-lee/m2']);
		expect(ann[5].created).toBe(Date.UTC(2023, 1, 13, 0, 1, 20));
		expect(end.agent('ann-lee').importanceSinceReflection).toBe(30);
		expect(end.agent('ann-lee').spatial).toEqual({ "Ann Lee's house": { 'main room': ['bed'] }, 'Hobbs Cafe': { cafe: ['cafe counter'] } });
		// the recording's vectors, as embeddings.json holds them
		const store = await MemoryStore.open(openRun(report.run, home).dir, OFFLINE_DIMENSIONS);
		try {
			const rows = await store.load();
			expect(rows).toHaveLength(7);
			const vectors = JSON.parse(readFileSync(path.join(fixture.compressed, 'personas/Ann Lee/bootstrap_memory/associative_memory/embeddings.json'), 'utf8'));
			expect(Array.from(rows[0].embedding)).toEqual(Array.from(Float32Array.from(vectors['Ann Lee is idle'])));
		} finally {
			store.close();
		}

		const check = await checkRun(report.run, home);
		expect(check.problems).toEqual([]);
		expect(check.committed).toBe(9);

		// a fork at the recording's last step runs on offline
		const fork = await startRun({ home, from: { run: report.run, step: 9 }, steps: 30 });
		expect(fork.steps).toBe(39);
		const { sim: after } = await loadState(fork.run, 39, { home });
		expect(after.stream('ann-lee').size).toBeGreaterThanOrEqual(6);
	}, 60_000);

	it.each([
		['ville', 'a world on the recording\'s clock'],
		['ville-late', 'a world that starts later (the run keeps the recording\'s clock)']
	])('restores every step between two snapshots as the import made it, from the commit lines (%s: %s)', async (world) => {
		if (world === 'ville-late' && !existsSync(path.join(worlds, world))) await importReference(fixture.checkout, { simulation: 'rec_two', name: world, worldsDir: worlds });
		const every = await importRecording(fixture.compressed, { world, home, snapshotEvery: 1 });
		const sparse = await importRecording(fixture.compressed, { world, home, snapshotEvery: 4 });
		expect([every.snapshots, sparse.snapshots]).toEqual([10, 4]);
		expect(openRun(sparse.run, home).snapshotSteps()).toEqual([0, 4, 8, 9]);
		expect(openRun(sparse.run, home).meta.snapshotEvery).toBe(4);
		const queries = new RunQueries({ home });
		for (let n = 0; n <= 9; n++) {
			// the engine's whole state (every memory, its vector and last access) and what the inspector shows
			const [a, b] = await Promise.all([loadState(every.run, n, { home }), loadState(sparse.run, n, { home })]);
			expect(digestOf(b.sim), `step ${n}`).toBe(digestOf(a.sim));
			expect(b.sim.state).toEqual(a.sim.state);
			for (const agent of ['ann-lee', 'bob-ray']) {
				const [x, y] = await Promise.all([queries.agent(every.run, agent, n), queries.agent(sparse.run, agent, n)]);
				expect(y).toEqual(x);
			}
		}
		// a state between snapshots, as the recording says: Ann in the conversation (steps 4..6),
		// begun at step 4, lasting to step 7; Bob's talk with her ended at step 7
		const { sim: at5 } = await loadState(sparse.run, 5, { home });
		const t = (s: number) => Date.UTC(2023, 1, 13, 0, 0, 10 * s);
		expect(at5.agent('ann-lee').action).toMatchObject({ activity: 'conversing about the party', chatWith: 'bob-ray', start: t(4), end: t(7) });
		expect(at5.stream('ann-lee').size).toBe(2);
		const { sim: at7 } = await loadState(sparse.run, 7, { home });
		expect(at7.agent('bob-ray').lastChat).toEqual({ 'ann-lee': t(7) });
		expect(at7.agent('bob-ray').action).toMatchObject({ activity: 'reading', start: t(7), end: t(9) });
		// a fork between snapshots starts from that state
		const fork = await startRun({ home, from: { run: sparse.run, step: 6 }, steps: 3 });
		expect(fork.steps).toBe(9);
	}, 60_000);

	it('writes a snapshot every snapshotEvery steps (default 120), records the interval, and restores every step as the default does', async () => {
		const standard = await importRecording(fixture.compressed, { world: 'ville', home });
		const five = await importRecording(fixture.compressed, { world: 'ville', home, snapshotEvery: 5 });
		expect([standard.snapshotEvery, standard.snapshots]).toEqual([120, 2]);
		expect([five.snapshotEvery, five.snapshots]).toEqual([5, 3]);
		// on disk: step 0, step 5 and the last, and the interval in run.json
		expect(readdirSync(path.join(five.dir, 'snapshots')).sort()).toEqual(['0.json.br', '5.json.br', '9.json.br']);
		expect(openRun(five.run, home).meta.snapshotEvery).toBe(5);
		expect(openRun(standard.run, home).meta.snapshotEvery).toBe(120);
		for (let n = 0; n <= 9; n++) {
			const [a, b] = await Promise.all([loadState(standard.run, n, { home }), loadState(five.run, n, { home })]);
			expect(digestOf(b.sim), `step ${n}`).toBe(digestOf(a.sim));
			expect(b.sim.state, `step ${n}`).toEqual(a.sim.state);
		}
		expect((await checkRun(five.run, home)).problems).toEqual([]);

		// anything but a whole number of at least 1 is refused before a run is made
		const before = openRunIds();
		for (const bad of [0, -3, 2.5, Number.NaN]) await expect(importRecording(fixture.compressed, { world: 'ville', home, snapshotEvery: bad })).rejects.toThrow(/^snapshotEvery must be a whole number of at least 1/);
		expect(openRunIds()).toEqual(before);
	}, 60_000);

	it('reads the expanded form into the same steps, and computes embeddings of another size', async () => {
		const compressed = await importRecording(fixture.compressed, { world: 'ville', home });
		// embeddings.json of the wrong size: the run's embedder embeds them again
		const file = path.join(fixture.expanded, 'personas/Ann Lee/bootstrap_memory/associative_memory/embeddings.json');
		writeFileSync(file, JSON.stringify({ 'Ann Lee is idle': [0.1, 0.2] }));
		const expanded = await importRecording(fixture.expanded, { world: 'ville', home });
		expect(expanded.form).toBe('expanded');
		expect(expanded.agents.map((a) => a.embeddings)).toEqual(['computed', 'recording']);
		const a = openRun(compressed.run, home).steps();
		const b = openRun(expanded.run, home).steps();
		expect(b).toEqual(a);
	}, 60_000);

	it('names what is wrong and makes no run', async () => {
		const runs = () => openRunIds();
		const before = runs();
		const other = await refused(importRecording(root, { world: 'ville', home }));
		expect(other[0].message).toMatch(/not a recorded simulation of the reference implementation: expected meta\.json and master_movement\.json/);

		const master = path.join(fixture.compressed, 'master_movement.json');
		const text = readFileSync(master, 'utf8');
		const broken = JSON.parse(text);
		delete broken['0']['Bob Ray'];
		broken['5'] = { 'Ann Lee': { movement: [99, 1], pronunciatio: 'x', description: 'y', chat: null } };
		writeFileSync(master, JSON.stringify(broken, null, 2));
		const problems = await refused(importRecording(fixture.compressed, { world: 'ville', home }));
		expect(problems.map((p) => [p.file, p.where, p.message])).toEqual([
			['master_movement.json', '"0", line 2', 'step 0 has no entry for "Bob Ray" (its first tile, description and emoji)'],
			['master_movement.json', expect.stringMatching(/^"5 > Ann Lee", line \d+$/), '"movement" must be a tile [x, y] of the 6 x 5 map (got [99,1])']
		]);
		writeFileSync(master, text);

		rmSync(path.join(fixture.expanded, 'movement', '4.json'));
		const gap = await refused(importRecording(fixture.expanded, { world: 'ville', home }));
		expect(gap[0]).toEqual({ file: 'movement/4.json', message: 'not found: the movement of every step from 0 to 9 is needed (the folder has 5.json after 3.json)' });

		const meta = path.join(fixture.compressed, 'meta.json');
		const m = JSON.parse(readFileSync(meta, 'utf8'));
		writeFileSync(meta, JSON.stringify({ ...m, persona_names: ['Ann Lee', 'Bob Ray', 'Cy Dee'] }));
		const cy = JSON.parse(text);
		cy['0']['Cy Dee'] = cy['0']['Bob Ray'];
		writeFileSync(master, JSON.stringify(cy));
		const persona = await refused(importRecording(fixture.compressed, { world: 'ville', home }));
		expect(persona[0].message).toMatch(/^"Cy Dee" is not a persona of world "ville" \(its personas: Ann Lee, Bob Ray\)/);
		expect(runs()).toEqual(before);
	}, 60_000);
});

function openRunIds(): string[] {
	const dir = path.join(home, 'runs');
	return existsSync(dir) ? readdirSync(dir).sort() : [];
}
