// Where the engine follows the paper's definitions, on Smallville with random schema-valid
// answers (reflections within the hour: a lower threshold than the paper's 150).

import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { loadPromptSet } from '../server/model/load';
import { randomAnswerModel } from '../server/model/testing/random-json';
import { loadWorld } from '../server/world/load';
import type { ModelPort, ModelRequest } from './model';
import { Simulation } from './sim';
import type { StepEvent } from './state';
import type { WorldDef } from './types';

let templates: PromptSet;
let world: WorldDef;
beforeAll(async () => {
	templates = await loadPromptSet();
	world = (await loadWorld('smallville')).def;
});

describe('the paper, as the engine does it', () => {
	it('a reflection event lists the reflections stored, not the observations stored with them', async () => {
		const model = randomAnswerModel({ templates, seed: 11, jsonSchemaFor: outputJsonSchema });
		const settings = { ...world.settings, reflection: { threshold: 40 } };
		const { sim } = await Simulation.create(world, { seed: 3, settings }, model);
		const events: Extract<StepEvent, { kind: 'reflection' }>[] = [];
		for (let i = 0; i < 360; i++) {
			for (const e of (await sim.step([], model)).events) if (e.kind === 'reflection') events.push(e);
		}
		expect(events.length).toBeGreaterThan(0);
		for (const e of events) {
			expect(e.memories.length).toBeGreaterThan(0);
			for (const id of e.memories) expect(sim.stream(e.agent).records.find((m) => m.id === id)?.kind, id).toBe('reflection');
		}
	});

	it('a reflection retrieves the evidence of each question first, then answers the questions side by side', async () => {
		const base = randomAnswerModel({ templates, seed: 11, jsonSchemaFor: outputJsonSchema });
		const log: string[] = [];
		const model: ModelPort = {
			dimensions: base.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				log.push(`ask ${r.agent} ${r.template}`);
				if (r.template === 'reflection_insights') await new Promise((resolve) => setTimeout(resolve, 5));
				const answer = await base.complete<T>(r);
				log.push(`answer ${r.agent} ${r.template}`);
				return answer;
			},
			embed: (t) => base.embed(t)
		};
		const settings = { ...world.settings, reflection: { threshold: 40 } };
		const { sim } = await Simulation.create(world, { seed: 3, settings }, model);
		let reflected: string | undefined;
		for (let i = 0; i < 360 && !reflected; i++) {
			log.length = 0;
			const out = await sim.step([], model);
			reflected = out.events.find((e) => e.kind === 'reflection')?.agent;
		}
		expect(reflected).toBeDefined();
		const mine = log.filter((l) => l.startsWith(`ask ${reflected} reflection_insights`) || l.startsWith(`answer ${reflected} reflection_insights`));
		// every question asked before the first is answered (one at a time before)
		const firstAnswer = mine.findIndex((l) => l.startsWith('answer'));
		expect(firstAnswer).toBeGreaterThan(1);
		expect(mine.slice(firstAnswer).every((l) => l.startsWith('answer'))).toBe(true);
	});
});
