// The state after a step depends on the answers, never on when they arrive. A model answers
// every call with a random schema-valid value drawn from the call's key, after a random delay
// (a fresh draw per run), so answers come back in another order each time; the state must be
// that of the same model answering at once, over a game hour of Smallville with conversations,
// reactions and reflections.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { loadPromptSet } from '../server/model/load';
import { randomAnswerModel } from '../server/model/testing/random-json';
import { loadWorld } from '../server/world/load';
import { mulberry32 } from './rng';
import type { ModelAnswer, ModelPort, ModelRequest } from './model';
import { Simulation } from './sim';
import { applyOverrides } from './settings';
import { profileOverrides } from './profiles';
import { digestOf } from './testing';
import type { WorldDef } from './types';

/** more runs with PROPERTY_RUNS=n */
const RUNS = Number(process.env.PROPERTY_RUNS) || 3;
const STEPS = 360;

let templates: PromptSet;
let world: WorldDef;
beforeAll(async () => {
	templates = await loadPromptSet();
	world = (await loadWorld('smallville')).def;
});

/** The same answers, each after a random delay of 0 to `maxMs` milliseconds (or at once). */
function delayed(model: ModelPort, seed: number, maxMs: number): ModelPort {
	const draw = mulberry32(seed);
	const wait = () => new Promise((resolve) => setTimeout(resolve, Math.floor(draw() * (maxMs + 1))));
	return {
		dimensions: model.dimensions,
		async complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
			await wait();
			return model.complete<T>(req);
		},
		async embed(texts: string[]) {
			await wait();
			return model.embed(texts);
		}
	};
}

async function run(model: ModelPort): Promise<{ digest: string; conversations: number; reflections: number; reactions: number }> {
	// reflections within the hour: a lower threshold than the paper's 150
	const settings = { ...world.settings, reflection: { threshold: 40 } };
	const { sim } = await Simulation.create(world, { seed: 3, settings }, model);
	let conversations = 0;
	let reflections = 0;
	let reactions = 0;
	for (let i = 0; i < STEPS; i++) {
		const out = await sim.step([], model);
		conversations += out.conversations.length;
		reflections += out.events.filter((e) => e.kind === 'reflection').length;
		reactions += out.events.filter((e) => e.kind === 'reaction').length;
	}
	return { digest: digestOf(sim), conversations, reflections, reactions };
}

describe('answers in any order', () => {
	it('random per-call latencies and arrival orders give the state of answers that come at once', async () => {
		const answers = () => randomAnswerModel({ templates, seed: 11, jsonSchemaFor: outputJsonSchema });
		const atOnce = await run(answers());
		// the hour holds what makes concurrency matter
		expect(atOnce.conversations).toBeGreaterThan(0);
		expect(atOnce.reflections).toBeGreaterThan(0);
		expect(atOnce.reactions).toBeGreaterThan(0);
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(2, 5, 12), async (seed, maxMs) => {
				const late = await run(delayed(answers(), seed, maxMs));
				expect(late.digest).toBe(atOnce.digest);
			}),
			{ numRuns: RUNS, seed: 20_261_127, endOnFailure: true }
		);
	}, 300_000);

	it.each(['paper', 'fast'])('work done ahead of need (the lookahead) never changes the state, whatever it is answered (%s profile)', async (profile) => {
		const answers = (seed: number) => randomAnswerModel({ templates, seed, jsonSchemaFor: outputJsonSchema });
		const model = answers(11);
		// work ahead answered otherwise than the steps: its guesses go wrong, reactions included
		const ahead = answers(111);
		const created = async () => {
			const { sim } = await Simulation.create(world, { seed: 3 }, model);
			applyOverrides(sim.state, profileOverrides(profile));
			return sim;
		};
		const sim = await created();
		const started = new Set<string>();
		let reactions = 0;
		let talks = 0;
		for (let i = 0; i < 1500; i++) {
			const before = JSON.stringify(sim.state);
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			expect(JSON.stringify(sim.state), `the lookahead before step ${i}`).toBe(before);
			// conversations begun in the step are made ahead while it runs
			const out = await sim.step([], model, { model: ahead, started });
			reactions += out.events.filter((e) => e.kind === 'reaction').length;
			talks += (sim.state.talks ?? []).filter((t) => t.step === i).length;
		}
		expect(reactions).toBeGreaterThan(0);
		expect(talks).toBeGreaterThan(0);
		// the same steps with no work ahead
		const plain = await created();
		for (let i = 0; i < 1500; i++) await plain.step([], model);
		expect(digestOf(sim)).toBe(digestOf(plain));
	}, 300_000);
});
