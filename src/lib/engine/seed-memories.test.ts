// A persona's structured seed memories (PersonaDef.memories): stored when the run starts with
// their kind, time made, importance (no rating asked for them) and evidence as the ids the cited
// memories get, before the plain seed memories; a world without them starts as before.

import { describe, expect, it } from 'vitest';
import { Simulation } from './sim';
import { createTestWorld, digestOf, scriptedModel } from './testing';

const at = (h: number, m = 0) => Date.UTC(2023, 1, 13, h, m);

describe('structured seed memories', () => {
	it('are stored with their kind, time, importance and evidence, rated only when no importance is given', async () => {
		const world = createTestWorld();
		const ana = world.personas.find((p) => p.id === 'ana-alder')!;
		ana.memories = [
			{ id: 'n1', kind: 'observation', description: 'the kettle is boiling', created: at(6), importance: 2 },
			{ id: 'n2', kind: 'conversation', description: 'talking with Ben about the picnic', created: at(6, 30), importance: 6, with: 'ben-brook' },
			{ kind: 'thought', description: 'Ana wonders about the weather' },
			{ id: 'n4', kind: 'reflection', description: 'Ana enjoys planning with her brother', created: at(6, 45), importance: 8, evidence: ['n1', 'n2'], keywords: ['brother'] },
			{ kind: 'plan', description: 'Ana plans to bake bread at 9am', created: at(6, 50), importance: 4 }
		];
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const records = sim.stream('ana-alder').records;
		expect(records.map((r) => [r.id, r.kind, r.source, r.created, r.step])).toEqual([
			['ana-alder/m0', 'observation', 'seed', at(6), 0],
			['ana-alder/m1', 'conversation', 'seed', at(6, 30), 0],
			['ana-alder/m2', 'thought', 'seed', world.start, 0],
			['ana-alder/m3', 'reflection', 'seed', at(6, 45), 0],
			['ana-alder/m4', 'plan', 'seed', at(6, 50), 0],
			// then the plain seed memories and the scenario's seed, as before
			['ana-alder/m5', 'thought', 'seed', world.start, 0],
			['ana-alder/m6', 'thought', 'seed', world.start, 0],
			['ana-alder/m7', 'thought', 'seed', world.start, 0]
		]);
		expect(records.map((r) => r.description).slice(5)).toEqual([...ana.seedMemories, world.seeds[0].memory]);
		expect(records[3].evidence).toEqual(['ana-alder/m0', 'ana-alder/m1']);
		expect(records[1].with).toBe('ben-brook');
		expect([records[0], records[1], records[3], records[4]].map((r) => r.importance)).toEqual([2, 6, 8, 4]);
		// last access starts at the time made, so recency counts from then
		expect(sim.stream('ana-alder').lastAccess(0)).toBe(at(6));
		expect(sim.agent('ana-alder').importanceSinceReflection).toBe(0);
		// only memories without an importance were rated
		const rated = model.calls.filter((c) => c.template === 'importance' && c.vars.name === 'Ana Alder').flatMap((c) => c.vars.memories as string[]);
		expect(rated.sort()).toEqual(['Ana wonders about the weather', ...ana.seedMemories, world.seeds[0].memory].sort());
	});

	it('are stored with the world\'s vectors of the model\'s dimension, without asking the embedder for them', async () => {
		const world = createTestWorld();
		const ana = world.personas.find((p) => p.id === 'ana-alder')!;
		ana.memories = [
			{ id: 'n1', kind: 'observation', description: 'the kettle is boiling', importance: 2 },
			{ id: 'n2', kind: 'thought', description: 'Ana wonders about the weather', importance: 3 },
			{ id: 'n3', kind: 'plan', description: 'Ana plans to bake bread at 9am', importance: 4 }
		];
		const model = scriptedModel();
		const given = (x: number) => Float32Array.from({ length: model.dimensions }, (_, k) => (k === 0 ? x : 0));
		const asked: string[] = [];
		const counting = {
			...model,
			embed: (texts: string[]) => {
				asked.push(...texts);
				return model.embed(texts);
			}
		};
		const reads: [string, number][] = [];
		// n1 has a vector, n2 one of another dimension, n3 none
		world.seedVectors = {
			read: async (persona, dimensions) => {
				reads.push([persona, dimensions]);
				return persona === 'ana-alder' ? [given(0.5), new Float32Array(3), undefined] : undefined;
			}
		};
		const { sim } = await Simulation.create(world, { seed: 1 }, counting);
		const records = sim.stream('ana-alder').records;
		expect(Array.from(records[0].embedding)).toEqual(Array.from(given(0.5)));
		expect(Array.from(records[1].embedding)).toEqual(Array.from((await model.embed(['Ana wonders about the weather']))[0]));
		// only personas with structured memories are asked for vectors, at the model's dimension
		expect(reads).toEqual([['ana-alder', model.dimensions]]);
		expect(asked).not.toContain('the kettle is boiling');
		expect(asked).toEqual(expect.arrayContaining(['Ana wonders about the weather', 'Ana plans to bake bread at 9am', ...ana.seedMemories]));
		// the same world without the vectors starts from other embeddings, the rest alike
		delete world.seedVectors;
		const plain = await Simulation.create(world, { seed: 1 }, model);
		expect(plain.sim.stream('ana-alder').records.map((r) => r.description)).toEqual(records.map((r) => r.description));
		expect(digestOf(plain.sim)).not.toBe(digestOf(sim));
	});

	it('leave a world without them as it was: no list and an empty list start the same state', async () => {
		const plain = await Simulation.create(createTestWorld(), { seed: 1 }, scriptedModel());
		const world = createTestWorld();
		for (const p of world.personas) p.memories = [];
		const empty = await Simulation.create(world, { seed: 1 }, scriptedModel());
		expect(digestOf(empty.sim)).toBe(digestOf(plain.sim));
		// two seed memories of the persona and the scenario's seed, thoughts made at the start
		const records = plain.sim.stream('ana-alder').records;
		expect(records).toHaveLength(3);
		for (const r of records) expect([r.kind, r.source, r.created]).toEqual(['thought', 'seed', plain.sim.world.start]);
	});
});
