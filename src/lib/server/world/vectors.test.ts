// The vectors of a persona's seed memories (personas/<id>.vectors): the world import keeps those
// of embeddings.json; a run whose embedder has their dimension starts with them instead of
// embedding the memories (and replays, restores and forks with the same), any other embeds them;
// a damaged, foreign or stale file is named by the world check and not used; a copied world
// carries it, a deleted persona takes it along.

import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelPort } from '../../engine/model';
import { Simulation } from '../../engine/sim';
import { scriptedModel } from '../../engine/testing';
import type { WorldDef } from '../../engine/types';
import { worldImportText } from '../../../cli/reference';
import { hashEmbed, OFFLINE_DIMENSIONS } from '../model/providers/embed';
import { importRecording } from '../run/import-run';
import { loadState, startRun, stateHash } from '../run/runner';
import { checkWorld } from './check';
import { createWorld, deletePersona, writePersona } from './edit';
import { importReference } from './import-reference';
import { loadWorld } from './load';
import { annNodes, writeFixtureCheckout } from './reference/testing';
import { decodeVectors, encodeVectors, readVectorsHead } from './vectors';

const root = mkdtempSync(path.join(tmpdir(), 'seed-vectors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let worlds: string;
let home: string;
const env = process.env.SIMULACRA_WORLDS;
beforeEach(() => {
	n++;
	worlds = path.join(root, `worlds-${n}`);
	home = path.join(root, `home-${n}`);
	process.env.SIMULACRA_WORLDS = worlds;
});
afterEach(() => {
	if (env === undefined) delete process.env.SIMULACRA_WORLDS;
	else process.env.SIMULACRA_WORLDS = env;
	delete process.env.SIMULACRA_MAX_SEED_VECTOR_BYTES;
});

/** The fixture's recording as a starting simulation (Ann: 6 memories, Bob: 1), its vectors of `dims` dimensions. */
async function importWithVectors(dims: number, name = 'ville') {
	const checkout = writeFixtureCheckout(path.join(root, `checkout-${n}-${name}`), { embeddings: dims });
	const report = await importReference(checkout.checkout, { simulation: 'rec_two', name, worldsDir: worlds });
	const table = (persona: string) =>
		JSON.parse(readFileSync(path.join(checkout.expanded, 'personas', persona, 'bootstrap_memory', 'associative_memory', 'embeddings.json'), 'utf8')) as Record<string, number[]>;
	return { checkout, report, dir: path.join(worlds, name), table };
}

/** A model of `dims` dimensions that counts the texts it embeds. */
function countingModel(dims: number): ModelPort & { embedded: string[] } {
	const base = scriptedModel();
	const embedded: string[] = [];
	return {
		dimensions: dims,
		embedded,
		complete: (req) => base.complete(req),
		async embed(texts) {
			embedded.push(...texts);
			return texts.map((t) => hashEmbed(t, dims));
		}
	};
}

const embeddingsOf = (sim: Simulation, agent: string) => sim.stream(agent).records.map((r) => Array.from(r.embedding));
const f32 = (v: number[]) => Array.from(Float32Array.from(v));

describe('the vectors file', () => {
	it('stores each distinct vector once and reads back the float32 values by memory id', () => {
		const buf = encodeVectors('ann-lee', 3, [
			{ id: 'node_1', description: 'a', vector: [0.1, -0.2, 0.3] },
			{ id: 'node_2', description: 'b', vector: [1, 2, 3] },
			{ id: 'node_3', description: 'c', vector: [0.1, -0.2, 0.3] }
		]);
		const { head, vectorOf } = decodeVectors(buf);
		expect([head.persona, head.dimension, head.vectors, head.entries.map((e) => [e.id, e.vector])]).toEqual([
			'ann-lee',
			3,
			2,
			[
				['node_1', 0],
				['node_2', 1],
				['node_3', 0]
			]
		]);
		expect(Array.from(vectorOf('node_3')!)).toEqual(f32([0.1, -0.2, 0.3]));
		expect(vectorOf('node_9')).toBeUndefined();
		// the header, the entries, the names padded to 4 bytes, then 2 vectors of 3 floats
		expect(buf.length).toBe(24 + 12 * 3 + 32 + 2 * 3 * 4);
		expect(buf.subarray(0, 8).toString('latin1')).toBe('SIMVEC\0\x01');
	});

	it('refuses a file cut short, with another header or over its limit, saying why', async () => {
		const buf = encodeVectors('ann-lee', 4, [{ id: 'node_1', description: 'a', vector: [1, 2, 3, 4] }]);
		const file = path.join(root, 'one.vectors');
		writeFileSync(file, buf.subarray(0, buf.length - 3));
		await expect(readVectorsHead(file)).rejects.toThrow(/^damaged: it is 65 bytes, but its header \(1 memory, 1 vector of 4 dimensions\) makes it 68 \(cut short\?\)$/);
		writeFileSync(file, Buffer.concat([Buffer.from('NOTVEC\0\x01'), buf.subarray(8)]));
		await expect(readVectorsHead(file)).rejects.toThrow(/not a file of seed-memory vectors/);
		const v2 = Buffer.from(buf);
		v2[7] = 2;
		writeFileSync(file, v2);
		await expect(readVectorsHead(file)).rejects.toThrow(/format version 2; this studio reads version 1/);
		writeFileSync(file, buf.subarray(0, 10));
		await expect(readVectorsHead(file)).rejects.toThrow(/not a file of seed-memory vectors/);
		writeFileSync(file, buf);
		await expect(readVectorsHead(file, 67)).rejects.toThrow(/more than the 67 bytes allowed \(SIMULACRA_MAX_SEED_VECTOR_BYTES\)/);
		expect((await readVectorsHead(file)).entries).toHaveLength(1);
	});
});

describe('world import keeps the vectors of embeddings.json', () => {
	it('of the embedder\'s dimension: a run starts with them, the embedder is not asked, and a restore, a replay and a fork keep them', async () => {
		const { report, dir, table } = await importWithVectors(OFFLINE_DIMENSIONS);
		expect(report.personas.map((p) => [p.id, p.seedMemories, p.vectors])).toEqual([
			['ann-lee', 6, { kept: 6, dimension: 256, file: 'personas/ann-lee.vectors', bytes: expect.any(Number) }],
			['bob-ray', 1, { kept: 1, dimension: 256, file: 'personas/bob-ray.vectors', bytes: expect.any(Number) }]
		]);
		expect(report.warnings.join('\n')).not.toMatch(/not kept/);
		expect(worldImportText(report)).toContain('Ann Lee: 6 seed memories, embeddings of 6 kept (256 dimensions, personas/ann-lee.vectors');
		expect((await checkWorld(dir)).warnings.filter((w) => w.file.endsWith('.vectors'))).toEqual([]);

		// in the engine: the seed memories hold the file's vectors, and none was embedded
		const world = (await loadWorld(dir)).def;
		const persona = JSON.parse(readFileSync(path.join(dir, 'personas', 'ann-lee.json'), 'utf8')) as { memories: { id: string }[] };
		const nodes = annNodes() as Record<string, { embedding_key: string }>;
		const expected = persona.memories.map((m) => f32(table('Ann Lee')[nodes[m.id].embedding_key]));
		const model = countingModel(OFFLINE_DIMENSIONS);
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		expect(embeddingsOf(sim, 'ann-lee')).toEqual(expected);
		expect(model.embedded).toEqual([]);

		// a run: its first state, a later one replayed, and a fork, all with the file's vectors
		const run = await startRun({ world: 'ville', steps: 12, home });
		const runDir = path.join(home, 'runs', run.run);
		// the run keeps the world as it began, the vectors file with it
		expect(readFileSync(path.join(runDir, 'world', 'personas', 'ann-lee.vectors')).equals(readFileSync(path.join(dir, 'personas', 'ann-lee.vectors')))).toBe(true);
		// and its memories (with their vectors) in its own table: the world's file is no longer read
		rmSync(path.join(dir, 'personas', 'ann-lee.vectors'));
		rmSync(path.join(runDir, 'world', 'personas', 'ann-lee.vectors'));
		const first = await loadState(run.run, 0, { home });
		expect(embeddingsOf(first.sim, 'ann-lee').slice(0, 6)).toEqual(expected);
		const last = await loadState(run.run, 12, { home });
		expect(stateHash(last.sim)).toBe(run.stateHash);
		const fork = await startRun({ from: { run: run.run, step: 6 }, steps: 6, home });
		expect(fork.stateHash).toBe(run.stateHash);
		const forked = await loadState(fork.run, 12, { home });
		expect(embeddingsOf(forked.sim, 'ann-lee').slice(0, 6)).toEqual(expected);

		// without the file, a new run embeds Ann's memories: another start
		const again = await startRun({ world: 'ville', steps: 12, home });
		expect(again.stateHash).not.toBe(run.stateHash);
		const other = await loadState(again.run, 0, { home });
		expect(embeddingsOf(other.sim, 'ann-lee').slice(0, 6)).not.toEqual(expected);
	}, 60_000);

	it('of another dimension: kept, but a run embeds the memories with its own embedder', async () => {
		const { report, dir } = await importWithVectors(8);
		expect(report.personas[0].vectors).toEqual({ kept: 6, dimension: 8, file: 'personas/ann-lee.vectors', bytes: expect.any(Number) });
		expect(worldImportText(report)).toContain('a run whose embedder has 8 dimensions starts with the kept embeddings');
		const world = (await loadWorld(dir)).def;
		const model = countingModel(OFFLINE_DIMENSIONS);
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const descriptions = sim.stream('ann-lee').records.map((r) => r.description);
		expect(model.embedded).toEqual(expect.arrayContaining(descriptions));
		expect(embeddingsOf(sim, 'ann-lee')).toEqual(descriptions.map((d) => Array.from(hashEmbed(d))));
		// and a model of 8 dimensions takes them
		const eight = countingModel(8);
		await Simulation.create(world, { seed: 1 }, eight);
		expect(eight.embedded).toEqual([]);
	});

	it('without vectors, or when they would pass their limit, keeps none and says so', async () => {
		const plain = await importWithVectors(0, 'plain');
		expect(plain.report.personas[0].vectors).toEqual({ kept: 0, reason: 'embeddings.json holds no vectors' });
		expect(existsSync(path.join(plain.dir, 'personas', 'ann-lee.vectors'))).toBe(false);
		process.env.SIMULACRA_MAX_SEED_VECTOR_BYTES = '1000';
		const big = await importWithVectors(OFFLINE_DIMENSIONS, 'big');
		expect(big.report.personas.map((p) => p.vectors.kept)).toEqual([0, 0]);
		expect(big.report.warnings.join('\n')).toMatch(/more than the 1000 bytes a world's vectors file may \(SIMULACRA_MAX_SEED_VECTOR_BYTES\); they are not kept/);
		expect(worldImportText(big.report)).toContain('Ann Lee: 6 seed memories, embeddings not kept (more than SIMULACRA_MAX_SEED_VECTOR_BYTES): a run embeds them');
	});

	it('a recording imported as a run keeps its own memories: the run\'s copy of the world has no vectors file', async () => {
		const { checkout } = await importWithVectors(OFFLINE_DIMENSIONS);
		const r = await importRecording(checkout.compressed, { world: 'ville', home });
		expect(existsSync(path.join(r.dir, 'world', 'personas', 'ann-lee.vectors'))).toBe(false);
		expect((await checkWorld(path.join(r.dir, 'world'))).warnings.filter((w) => w.file.endsWith('.vectors'))).toEqual([]);
	}, 60_000);
});

describe('a vectors file the world cannot use', () => {
	const vectorWarnings = async (dir: string) => (await checkWorld(dir)).warnings.filter((w) => w.file.endsWith('.vectors'));
	const seedsEmbedded = async (world: WorldDef, agent = 'ann-lee') => {
		const model = countingModel(OFFLINE_DIMENSIONS);
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		return sim.stream(agent).records.filter((r) => model.embedded.includes(r.description)).length;
	};

	it('damaged (cut short, another header) is named by the check and not used: the run embeds the memories', async () => {
		const { dir } = await importWithVectors(OFFLINE_DIMENSIONS);
		const file = path.join(dir, 'personas', 'ann-lee.vectors');
		const whole = readFileSync(file);
		truncateSync(file, whole.length - 100);
		const cut = await vectorWarnings(dir);
		expect(cut).toEqual([
			{
				file: 'personas/ann-lee.vectors',
				message: expect.stringMatching(/^damaged: it is [\d,]+ bytes, but its header \(6 memories, \d vectors? of 256 dimensions\) makes it [\d,]+ \(cut short\?\); its vectors are not used: the run embeds those memories with its own embedder$/)
			}
		]);
		const world = (await loadWorld(dir)).def;
		expect(await seedsEmbedded(world)).toBe(6);
		expect(await seedsEmbedded(world, 'bob-ray')).toBe(0);

		writeFileSync(file, Buffer.concat([Buffer.from('garbage!'), whole.subarray(8)]));
		expect((await vectorWarnings(dir)).map((w) => w.message)).toEqual([expect.stringMatching(/^not a file of seed-memory vectors/)]);
		expect(await seedsEmbedded((await loadWorld(dir)).def)).toBe(6);

		// damaged after the check, before the run reads it: embedded, no crash
		writeFileSync(file, whole);
		const checked = (await loadWorld(dir)).def;
		truncateSync(file, 30);
		expect(await seedsEmbedded(checked)).toBe(6);
	});

	it('of no persona, of another persona or of changed memories is not used, with a warning', async () => {
		const { dir } = await importWithVectors(OFFLINE_DIMENSIONS);
		const personas = path.join(dir, 'personas');
		// the persona's file removed by hand: its vectors are of no persona
		copyFileSync(path.join(personas, 'ann-lee.vectors'), path.join(personas, 'cy-doe.vectors'));
		// Ann's file in Bob's place
		copyFileSync(path.join(personas, 'ann-lee.vectors'), path.join(personas, 'bob-ray.vectors'));
		expect((await vectorWarnings(dir)).map((w) => `${w.file}: ${w.message}`)).toEqual([
			'personas/bob-ray.vectors: holds the vectors of persona "ann-lee", not of bob-ray; its vectors are not used: the run embeds those memories with its own embedder',
			'personas/cy-doe.vectors: there is no persona cy-doe.json; the file is not used'
		]);
		expect(await seedsEmbedded((await loadWorld(dir)).def, 'bob-ray')).toBe(1);

		// one memory's text edited in the editor: that one is embedded, the others keep theirs
		const ann = JSON.parse(readFileSync(path.join(personas, 'ann-lee.json'), 'utf8'));
		ann.memories[1].description = 'the bed is made';
		const saved = await writePersona(worlds, 'ville', 'ann-lee', ann);
		expect(saved.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^1 of its 6 vectors are of no memory of ann-lee\.json \(by id and text/)]);
		expect(await seedsEmbedded((await loadWorld(dir)).def)).toBe(1);

		// a persona deleted in the editor takes its vectors along: one made later with its id starts without them
		await deletePersona(worlds, 'ville', 'ann-lee');
		expect(existsSync(path.join(personas, 'ann-lee.vectors'))).toBe(false);
	});

	it('a copied world carries the vectors, and its runs start with them', async () => {
		const { dir } = await importWithVectors(OFFLINE_DIMENSIONS);
		await createWorld(worlds, { id: 'ville-copy', name: 'Copy', from: 'ville' });
		const copy = path.join(worlds, 'ville-copy');
		expect(readFileSync(path.join(copy, 'personas', 'ann-lee.vectors')).equals(readFileSync(path.join(dir, 'personas', 'ann-lee.vectors')))).toBe(true);
		expect(await vectorWarnings(copy)).toEqual([]);
		expect(await seedsEmbedded((await loadWorld(copy)).def)).toBe(0);
	});
});
