import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim';
import { createTestWorld, scriptedModel } from '../../engine/testing';
import { objectStates } from './objects';

describe('the town’s objects at a step', () => {
	it('lists every object with its default, and a user’s state from the step it applies', async () => {
		const world = createTestWorld();
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const before = objectStates(sim);
		const all = world.sectors.flatMap((s) => s.arenas.flatMap((a) => a.objects));
		expect(before.map((o) => o.address)).toEqual(all.map((o) => o.address));
		const desk = before.find((o) => o.address === 'House:bedroom:desk')!;
		expect(desk).toMatchObject({ name: 'desk', state: desk.default, base: desk.default });
		expect(desk.setByUser).toBeUndefined();

		await sim.step([{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }], model);
		const after = objectStates(sim).find((o) => o.address === 'House:bedroom:desk')!;
		expect(after).toMatchObject({ state: 'on fire', base: 'on fire', setByUser: true });
		expect(after.usedBy).toBeUndefined();
	});

	it('names the agent whose action sets an object’s state', async () => {
		const world = createTestWorld();
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		let seen = 0;
		for (let i = 0; i < 60; i++) {
			await sim.step([], model);
			const used = objectStates(sim).filter((o) => o.usedBy);
			seen += used.length;
			for (const o of used) {
				const agent = sim.state.agents.find((a) => a.id === o.usedBy)!;
				expect(agent.action.object).toBe(o.address);
				expect(o.state).toBe(agent.action.objectState);
			}
		}
		expect(seen).toBeGreaterThan(0);
	});
});
