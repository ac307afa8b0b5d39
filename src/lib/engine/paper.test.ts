// Where the engine follows the paper's definitions, on Smallville with random schema-valid
// answers (reflections within the hour: a lower threshold than the paper's 150).

import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { loadPromptSet } from '../server/model/load';
import { randomAnswerModel } from '../server/model/testing/random-json';
import { loadWorld } from '../server/world/load';
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
});
