// Any answer that satisfies a template's output schema is a valid answer: the engine must not
// crash, stall or reach an impossible state, however odd the answers. A model answers every
// call with a random value valid for that call's JSON Schema (see random-json.ts), and the
// state is checked after every step; at the end the run is replayed from its recorded answers
// (straight, and from a snapshot taken halfway) to the same state.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { loadPromptSet } from '../server/model/load';
import { randomAnswerModel, randomUnitVector, UNICODE_PIECES, UNKNOWN_NAMES } from '../server/model/testing/random-json';
import { invariantProblems, memoryTracker } from './invariants';
import type { MemoryRecord } from './memory';
import type { ModelAnswer, ModelPort, ModelRequest } from './model';
import type { SimInput } from './inputs';
import { Simulation, type Snapshot } from './sim';
import { createTestWorld, scriptedModel, digestOf } from './testing';

/** more runs with PROPERTY_RUNS=n, longer ones with PROPERTY_STEPS=n, other draws with PROPERTY_SEED=n */
const RUNS = Number(process.env.PROPERTY_RUNS) || 24;
const SEED = Number(process.env.PROPERTY_SEED) || 20_230_213;
const STEPS = Number(process.env.PROPERTY_STEPS) || 180;

let templates: PromptSet;
beforeAll(async () => {
	templates = await loadPromptSet();
});

/** Serves recorded answers by call key; a key that was not recorded is an error. */
function replayModel(recorded: Map<string, { template: string; answer: ModelAnswer }>, dims: number, seed: number): ModelPort {
	return {
		dimensions: dims,
		async complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
			const rec = recorded.get(req.key);
			if (!rec || rec.template !== req.template) throw new Error(`replay: no recorded ${req.template} answer for key ${req.key}`);
			return structuredClone(rec.answer) as ModelAnswer<T>;
		},
		async embed(texts: string[]): Promise<Float32Array[]> {
			return texts.map((t) => randomUnitVector(t, dims, seed));
		}
	};
}

interface Scenario {
	seed: number;
	startHour: number;
	steps: number;
	inputs: { step: number; input: SimInput }[];
	failsafeRate: number;
}

const text = fc.constantFrom(...UNICODE_PIECES, ...UNKNOWN_NAMES, 'go to the cafe', 'x').filter((t) => t.trim() !== '');

function scenarioArb(steps: number): fc.Arbitrary<Scenario> {
	const world = createTestWorld();
	const agents = world.personas.map((p) => p.id);
	const objects = world.sectors.flatMap((s) => s.arenas.flatMap((a) => a.objects.map((o) => o.address)));
	const input: fc.Arbitrary<SimInput> = fc.oneof(
		fc.record({ type: fc.constant('whisper' as const), agent: fc.constantFrom(...agents), text }),
		fc.record({ type: fc.constant('interview' as const), agent: fc.constantFrom(...agents), interviewer: fc.constantFrom('', 'a reporter', 'Gandalf Greyhame'), question: text }),
		fc.record({ type: fc.constant('set-object' as const), address: fc.constantFrom(...objects), state: text })
	);
	return fc.record({
		seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
		// the night, the morning plan, midday, and the change of day (yesterday's summary, a new plan)
		startHour: fc.constantFrom(0, 5, 7, 12, 22, 23),
		steps: fc.constant(steps),
		inputs: fc.array(fc.record({ step: fc.integer({ min: 0, max: steps - 1 }), input }), { maxLength: 4 }),
		failsafeRate: fc.constantFrom(0, 0, 0.05)
	});
}

async function runScenario(s: Scenario): Promise<{ calls: number; templates: Set<string> }> {
	const world = createTestWorld();
	world.start = Date.UTC(2023, 1, 13, s.startHour, 0, 0);
	const model = randomAnswerModel({ templates, seed: s.seed, jsonSchemaFor: outputJsonSchema, failsafeRate: s.failsafeRate });
	const { sim, output } = await Simulation.create(world, { seed: s.seed }, model);
	const memories: MemoryRecord[] = [...output.memories];
	const half = Math.floor(s.steps / 2);
	let snapshot: Snapshot | null = null;
	let memoriesAtHalf = 0;
	const seen = memoryTracker();
	const inputsAt = (step: number) => s.inputs.filter((x) => x.step === step).map((x) => x.input);
	for (let i = 0; i < s.steps; i++) {
		if (i === half) {
			snapshot = JSON.parse(JSON.stringify(sim.snapshot())) as Snapshot;
			memoriesAtHalf = memories.length;
		}
		const out = await sim.step(inputsAt(i), model);
		memories.push(...out.memories);
		const problems = invariantProblems(sim, world, seen);
		if (problems.length > 0) throw new Error(problems.slice(0, 8).join('\n'));
	}
	const digest = digestOf(sim);

	// replay from the log: the recorded answers, from the start and from the halfway snapshot
	const replay = replayModel(model.answers, model.dimensions, s.seed);
	const again = await Simulation.create(world, { seed: s.seed }, replay);
	for (let i = 0; i < s.steps; i++) await again.sim.step(inputsAt(i), replay);
	if (digestOf(again.sim) !== digest) throw new Error('replaying the recorded answers from the start gives another state');
	const restored = Simulation.restore(world, snapshot as Snapshot, memories.slice(0, memoriesAtHalf), model.dimensions);
	for (let i = half; i < s.steps; i++) await restored.step(inputsAt(i), replay);
	if (digestOf(restored) !== digest) throw new Error('restoring the halfway snapshot and replaying gives another state');
	return { calls: model.answers.size, templates: new Set([...model.answers.values()].map((a) => a.template)) };
}

describe('any schema-valid answer, engine level (small world)', () => {
	it('keeps every invariant over three-hour runs and replays to the same state', async () => {
		const seen = new Set<string>();
		await fc.assert(
			fc.asyncProperty(scenarioArb(STEPS), async (s) => {
				const r = await runScenario(s);
				for (const t of r.templates) seen.add(t);
			}),
			{ numRuns: RUNS, seed: SEED, endOnFailure: true }
		);
		// the runs reached the planning, location, conversation and reflection templates
		for (const t of ['daily_plan', 'hourly_schedule', 'decompose_task', 'choose_sector', 'action_emoji', 'importance']) expect(seen).toContain(t);
	}, 120_000);

	it('keeps every invariant over a whole night and morning with user inputs', async () => {
		const s: Scenario = {
			seed: 7,
			startHour: 21,
			steps: 720,
			failsafeRate: 0.03,
			inputs: [
				{ step: 30, input: { type: 'whisper', agent: 'ana-alder', text: '東京で珈琲を飲む 👩‍👩‍👧‍👦' } },
				{ step: 200, input: { type: 'interview', agent: 'ben-brook', interviewer: 'Gandalf Greyhame', question: 'שלום, מה שלומך?' } },
				{ step: 610, input: { type: 'whisper', agent: 'cleo-cole', text: 'x' } }
			]
		};
		const r = await runScenario(s);
		for (const t of ['day_summary', 'inner_voice', 'interview', 'replan']) expect(r.templates).toContain(t);
	}, 120_000);

	it('checks what it says it checks', () => {
		const world = createTestWorld();
		const model = randomAnswerModel({ templates, seed: 1, jsonSchemaFor: outputJsonSchema });
		return Simulation.create(world, { seed: 1 }, model).then(async ({ sim }) => {
			for (let i = 0; i < 5; i++) await sim.step([], model);
			expect(invariantProblems(sim, world)).toEqual([]);
			const a = sim.state.agents[0];
			a.tile = world.collision.indexOf(1);
			const plan = a.plan;
			if (plan) plan.blocks[0].minutes += 1;
			a.action.chatWith = sim.state.agents[1].id;
			sim.state.agents[1].action.chatWith = '';
			const text = invariantProblems(sim, world).join('\n');
			expect(text).toMatch(/not a walkable tile/);
			expect(text).toMatch(/chats with ben-brook, who chats with ""/);
			if (plan && plan.blocks.length > 1) expect(text).toMatch(/block 1 starts at minute/);
		});
	});
});

describe('answers that name what plain objects inherit', () => {
	it('a thought or an activity called "__proto__" or "constructor" gets a real importance and emoji', async () => {
		const world = createTestWorld();
		const model = scriptedModel({
			inner_voice: (r) => ({ thought: r.vars.directive }),
			decompose_task: () => ({ subtasks: [{ activity: 'constructor', minutes: 10 }, { activity: '__proto__', minutes: 10 }, { activity: 'toString', minutes: 10 }] })
		});
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		await sim.step(
			[
				{ type: 'whisper', agent: 'ana-alder', text: '__proto__' },
				{ type: 'whisper', agent: 'ben-brook', text: 'constructor' }
			],
			model
		);
		// past the three 10-minute steps: each has begun and been given its emoji
		for (let i = 0; i < 200; i++) await sim.step([], model);
		const odd = ['__proto__', 'constructor'];
		const thoughts = sim.state.agents.flatMap((a) => sim.stream(a.id).records.filter((m) => odd.includes(m.description)));
		expect(thoughts).toHaveLength(2);
		for (const m of thoughts) expect(typeof m.importance).toBe('number');
		const steps = sim.state.agents.flatMap((a) => a.plan?.blocks.flatMap((b) => b.subtasks ?? []) ?? []);
		const named = steps.filter((s) => ['constructor', '__proto__', 'toString'].includes(s.activity));
		expect(new Set(named.map((s) => s.activity)).size).toBe(3);
		for (const s of named) expect(typeof s.emoji, s.activity).toBe('string');
		for (const a of sim.state.agents) expect(typeof a.action.emoji).toBe('string');
		expect(invariantProblems(sim, world)).toEqual([]);
	});
});
