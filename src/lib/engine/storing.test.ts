// With the paper's settings a memory is rated when it is made; the agent goes on meanwhile with
// what reads no rating (its plan's next steps), and the memories are stored in the order they
// were made whenever the ratings come.

import { beforeAll, describe, expect, it } from 'vitest';
import { createModelGateway, OfflineProvider } from '../server/model';
import { loadWorld } from '../server/world/load';
import type { ModelPort, ModelRequest } from './model';
import { Simulation } from './sim';
import { digestOf } from './testing';
import type { WorldDef } from './types';

let world: WorldDef;
beforeAll(async () => {
	world = (await loadWorld('smallville')).def;
});

/** The offline stand-in, its ratings answered `ratingMs` late; `log` gets each call asked and answered. */
async function slowRatings(ratingMs: number, log: string[]): Promise<ModelPort> {
	const { gateway } = await createModelGateway({ provider: new OfflineProvider(), cacheDir: false });
	return {
		dimensions: gateway.dimensions,
		complete: async <T,>(r: ModelRequest) => {
			log.push(`ask ${r.key} ${r.template}`);
			if (r.template === 'importance') await new Promise((resolve) => setTimeout(resolve, ratingMs));
			const answer = await gateway.complete<T>(r);
			log.push(`answer ${r.key} ${r.template}`);
			return answer;
		},
		embed: (t) => gateway.embed(t)
	};
}

describe('memories made in a step', () => {
	it('are rated while the agent goes on, and stored as they were made', async () => {
		const run = async (ratingMs: number) => {
			const log: string[] = [];
			const model = await slowRatings(ratingMs, log);
			const { sim } = await Simulation.create(world, { seed: 1 }, model);
			log.length = 0;
			const first = await sim.step([], model);
			for (let i = 1; i < 40; i++) await sim.step([], model);
			return { log, first, digest: digestOf(sim) };
		};
		const slow = await run(30);
		// Klaus plans his day, then decomposes his first hour block while the plan is rated
		const at = (line: RegExp) => slow.log.findIndex((l) => line.test(l));
		const planRated = at(/^answer 0\/klaus-mueller\/\d+ importance$/);
		const decomposing = at(/^ask 0\/klaus-mueller\/\d+ decompose_task$/);
		expect(planRated).toBeGreaterThan(0);
		expect(decomposing).toBeGreaterThan(0);
		expect(decomposing).toBeLessThan(planRated);
		// the step's memories are all stored when it ends, in the order they were made
		const klaus = slow.first.memories.filter((m) => m.agent === 'klaus-mueller');
		expect(klaus.map((m) => m.kind)).toContain('plan');
		expect(klaus.at(-1)?.description).toBe('Klaus Mueller is brushing teeth');
		// the same run as with ratings that come at once
		expect(slow.digest).toBe((await run(0)).digest);
	}, 60_000);
});
