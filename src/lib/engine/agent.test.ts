import { describe, expect, it } from 'vitest';
import { normaliseBlocks } from './agent';
import { TEMPLATE_IDS } from './model';
import { Simulation } from './sim';
import { createTestWorld, scriptedModel } from './testing';

describe('planning', () => {
	it('turns messy hour blocks into a clean day from wake-up to midnight', () => {
		const blocks = normaliseBlocks(
			[
				{ start: '13:00', minutes: 60, activity: 'lunch' },
				{ start: 'noonish', minutes: 60, activity: 'unreadable start' },
				{ start: '07:30', minutes: 120, activity: 'working' },
				{ start: '08:30', minutes: 30, activity: 'overlapping meeting' },
				{ start: '15:00', minutes: 60, activity: '' },
				{ start: '21:00', minutes: 60, activity: 'going to bed' }
			],
			7 * 60
		);
		expect(blocks[0].start).toBe(7 * 60);
		for (let i = 1; i < blocks.length; i++) expect(blocks[i].start).toBe(blocks[i - 1].start + blocks[i - 1].minutes);
		const last = blocks.at(-1)!;
		expect(last.start + last.minutes).toBe(24 * 60);
		expect(blocks.map((b) => b.activity)).not.toContain('unreadable start');
		expect(blocks.map((b) => b.activity)).not.toContain('');
		expect(normaliseBlocks(undefined, 6 * 60)).toEqual([{ start: 360, minutes: 18 * 60, activity: 'sleeping', subtasks: null }]);
	});

	it('decomposed steps fill their block exactly and carry their place', async () => {
		const model = scriptedModel({
			decompose_task: () => ({ subtasks: [{ activity: 'a', minutes: 7 }, { activity: 'b', minutes: 7 }, { activity: 'c', minutes: 7 }] })
		});
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		await sim.step([], model);
		for (const a of sim.state.agents) {
			const done = a.plan!.blocks.filter((b) => b.subtasks);
			expect(done.length).toBeGreaterThan(0);
			for (const b of done) {
				expect(b.subtasks!.reduce((n, t) => n + t.minutes, 0)).toBe(b.minutes);
				for (const t of b.subtasks!) expect(t.address).toMatch(/^\w+:/);
			}
		}
	});
});

describe('bad model answers', () => {
	it('a model that only gives fail-safes or garbage never stops the run', async () => {
		const garbage = Object.fromEntries(TEMPLATE_IDS.map((t) => [t, () => ({ nonsense: true })]));
		const model = scriptedModel(garbage, { failsafe: new Set(TEMPLATE_IDS) });
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		let failsafes = 0;
		for (let i = 0; i < 60; i++) failsafes += (await sim.step([], model)).events.filter((e) => e.kind === 'failsafe').length;
		expect(failsafes).toBeGreaterThan(0);
		for (const a of sim.state.agents) {
			expect(a.plan).not.toBeNull();
			expect(a.action.activity).not.toBe('');
			expect(sim.world.collision[a.tile]).toBe(0);
		}
	});

	it('reflections keep only citations of memories that were shown', async () => {
		const model = scriptedModel({
			importance: (r) => ({ ratings: (r.vars.memories as string[]).map(() => 10) }),
			reflection_insights: () => ({ insights: [{ insight: 'an insight', evidence: [1, 2, 99, -1, 2] }, { insight: '', evidence: [1] }] })
		});
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		for (let i = 0; i < 150; i++) await sim.step([], model);
		const reflections = [...sim.streams.values()].flatMap((s) => s.records.filter((m) => m.kind === 'reflection'));
		expect(reflections.length).toBeGreaterThan(0);
		for (const r of reflections) {
			expect(r.description).toBe('an insight');
			expect(r.evidence!.length).toBeGreaterThan(0);
			expect(r.evidence!.length).toBeLessThanOrEqual(2);
			for (const id of r.evidence!) expect(sim.stream(r.agent).byId(id)).toBeDefined();
		}
	});

	it('an empty stream retrieves nothing and asks for no embedding', async () => {
		const world = createTestWorld();
		world.personas.forEach((p) => (p.seedMemories = []));
		world.seeds = [];
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const answer = await sim.interview('ana-alder', 'a reporter', 'Who are you?', model);
		expect(answer.memories).toEqual([]);
		expect(answer.answer).toBe("I don't know");
	});
});
