// What the lookahead asks ahead is what the steps then ask: with the paper's settings (reactions
// decided when noticed, memories rated when made), foreseen reactions, their conversations and the
// ratings of what agents will see are asked with the very prompts the steps use.

import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { loadPromptSet } from '../server/model/load';
import { randomAnswerModel } from '../server/model/testing/random-json';
import { loadWorld } from '../server/world/load';
import type { ModelPort, ModelRequest } from './model';
import { Simulation } from './sim';
import type { WorldDef } from './types';

let templates: PromptSet;
let world: WorldDef;
beforeAll(async () => {
	templates = await loadPromptSet();
	world = (await loadWorld('smallville')).def;
});

describe('the lookahead with the paper settings', () => {
	it('asks foreseen reactions, conversations and ratings with the prompts the steps then ask', async () => {
		// answers that depend on the prompt only, as an endpoint's (whatever the call's key)
		const base = randomAnswerModel({ templates, seed: 11, jsonSchemaFor: outputJsonSchema });
		const prompt = (r: ModelRequest) => `${r.template}|${JSON.stringify(r.vars)}`;
		const byPrompt = <T,>(r: ModelRequest) => base.complete<T>({ ...r, key: prompt(r) });
		const asked = new Set<string>();
		const ahead: ModelPort = {
			dimensions: base.dimensions,
			complete: <T,>(r: ModelRequest) => (asked.add(prompt(r)), byPrompt<T>(r)),
			embed: (t) => base.embed(t)
		};
		const used = new Map<string, { calls: number; ahead: number }>();
		const step: ModelPort = {
			dimensions: base.dimensions,
			complete: <T,>(r: ModelRequest) => {
				const u = used.get(r.template) ?? { calls: 0, ahead: 0 };
				used.set(r.template, { calls: u.calls + 1, ahead: u.ahead + (asked.has(prompt(r)) ? 1 : 0) });
				return byPrompt<T>(r);
			},
			embed: (t) => base.embed(t)
		};
		const { sim } = await Simulation.create(world, { seed: 3 }, base);
		expect(sim.state.settings.perception.reactionMinutes).toBe(0);
		const started = new Set<string>();
		for (let i = 0; i < 360; i++) {
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			await sim.step([], step);
		}
		const share = (template: string) => {
			const u = used.get(template) ?? { calls: 0, ahead: 0 };
			expect(u.calls, template).toBeGreaterThan(0);
			return u.ahead / u.calls;
		};
		// most reactions are foreseen with the memories the agent will have (the rest: the first
		// steps, and what follows a conversation's end)
		expect(share('react')).toBeGreaterThan(0.5);
		expect(share('context_summary')).toBeGreaterThan(0.5);
		expect(share('dialogue_turn')).toBeGreaterThan(0.8);
		// ratings of observations and of the actions agents begin, asked for the steps that make them
		expect(share('importance')).toBeGreaterThan(0.3);
	}, 120_000);
});
