import { describe, expect, it } from 'vitest';
import { chooseLocation } from './agent';
import { AgentContext, emptyOutput } from './context';
import { Simulation, type Snapshot } from './sim';
import { createTestWorld, scriptedModel, digestOf } from './testing';
import type { MemoryRecord } from './memory';
import type { AgentState } from './state';
import { profileOverrides } from './profiles';
import { applyOverrides } from './settings';

async function runFor(steps: number, seed = 1) {
	const world = createTestWorld();
	const model = scriptedModel();
	const { sim, output } = await Simulation.create(world, { seed }, model);
	const memories: MemoryRecord[] = [...output.memories];
	const snapshots = new Map<number, Snapshot>();
	for (let i = 0; i < steps; i++) {
		if (i % 50 === 0) snapshots.set(i, sim.snapshot());
		const out = await sim.step([], model);
		memories.push(...out.memories);
	}
	return { world, sim, model, memories, snapshots };
}

describe('Simulation', () => {
	it('is deterministic: the same seed and answers give the same state', async () => {
		const a = await runFor(240);
		const b = await runFor(240);
		expect(digestOf(a.sim)).toBe(digestOf(b.sim));
		expect(a.sim.state.step).toBe(240);
	});

	it('restoring a snapshot and continuing equals running straight through', async () => {
		const full = await runFor(200);
		const half = await runFor(100);
		const snap = half.sim.snapshot();
		const restored = Simulation.restore(half.world, JSON.parse(JSON.stringify(snap)), half.memories, 64);
		expect(digestOf(restored)).toBe(digestOf(half.sim));
		const model = scriptedModel();
		for (let i = 0; i < 100; i++) await restored.step([], model);
		expect(digestOf(restored)).toBe(digestOf(full.sim));
	});

	it('agents plan, move along walkable tiles and store memories of several kinds', async () => {
		const { sim, world } = await runFor(180);
		for (const a of sim.state.agents) {
			expect(a.plan?.blocks.length).toBeGreaterThan(2);
			expect(world.collision[a.tile]).toBe(0);
			const kinds = new Set(sim.stream(a.id).records.map((m) => m.kind));
			expect(kinds.has('plan')).toBe(true);
			expect(kinds.has('observation')).toBe(true);
		}
		// by 10:00 the cafe workers are at the cafe
		const atCafe = sim.state.agents.filter((a) => sim.index.addressOf(a.tile).startsWith('Cafe'));
		expect(atCafe.length).toBeGreaterThan(0);
	});

	it('news passes through conversations', async () => {
		const { sim } = await runFor(300);
		const knows = sim.state.agents.filter((a) => sim.stream(a.id).records.some((m) => /picnic/.test(m.description)));
		expect(knows.length).toBeGreaterThan(1);
	});

	it("a conversation asks about what the other was doing when seen, not about their chat", async () => {
		const world = createTestWorld();
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const queries: string[] = [];
		const begun = new Map<string, Record<string, string>>();
		for (let i = 0; i < 300; i++) {
			const out = await sim.step([], model);
			for (const t of sim.state.talks ?? []) if (!begun.has(t.id)) begun.set(t.id, { ...t.doing });
			queries.push(...out.traces.filter((r) => r.purpose === 'conversation').map((r) => r.query));
		}
		expect(begun.size).toBeGreaterThan(0);
		const about = queries.filter((q) => !/relationship with/.test(q));
		expect(about.length).toBeGreaterThan(0);
		for (const q of about) expect(q).not.toMatch(/is chatting with/);
		// each names the activity the other had when the conversation began
		const activities = new Set([...begun.values()].flatMap((d) => Object.values(d)));
		for (const q of about) expect([...activities].some((act) => q.endsWith(` is ${act}`))).toBe(true);
	});

	it('applies inputs: a set object state is perceived, a whisper becomes a thought', async () => {
		const world = createTestWorld();
		const model = scriptedModel();
		const { sim } = await Simulation.create(world, { seed: 3 }, model);
		expect(sim.validateInput({ type: 'set-object', address: 'Nowhere:x:y', state: 'on fire' })).toMatch(/unknown object/);
		expect(sim.validateInput({ type: 'set-object', address: 'toString', state: 'on fire' })).toMatch(/unknown object/);
		await sim.step([{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }, { type: 'whisper', agent: 'ana-alder', text: 'visit the street' }], model);
		// as in the paper, what is seen is rated and stored when it is seen
		const ana = sim.stream('ana-alder').records;
		expect(ana.some((m) => m.description === 'desk is on fire')).toBe(true);
		expect(ana.some((m) => m.description === 'I should visit the street')).toBe(true);
		expect(sim.agent('ana-alder').pending).toEqual([]);
		// memories stored together are rated by one call, or each by its own with importance.perCall=1
		const sizes = (m: ReturnType<typeof scriptedModel>, from = 0) => m.calls.slice(from).filter((c) => c.template === 'importance').map((c) => (c.vars.memories as string[]).length);
		expect(Math.max(...sizes(model))).toBeGreaterThan(1);
		const single = scriptedModel();
		const one = (await Simulation.create(world, { seed: 3 }, single)).sim;
		applyOverrides(one.state, ['importance.perCall=1']);
		const from = single.calls.length;
		await one.step([{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }], single);
		expect(sizes(single, from).length).toBeGreaterThan(1);
		expect(new Set(sizes(single, from))).toEqual(new Set([1]));
		await expect(sim.step([{ type: 'whisper', agent: 'nobody', text: 'x' }], model)).rejects.toThrow(/unknown agent/);
	});

	it('with the fast profile, observations wait for a batched rating; a whisper is stored at once', async () => {
		const model = scriptedModel();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 3 }, model);
		applyOverrides(sim.state, profileOverrides('fast'));
		await sim.step([{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }, { type: 'whisper', agent: 'ana-alder', text: 'visit the street' }], model);
		await sim.step([], model);
		// the observation waits for its rating (five game minutes, or the end of a conversation)
		const ana = sim.stream('ana-alder').records.map((m) => m.description);
		expect(sim.agent('ana-alder').pending.some((m) => m.description === 'desk is on fire')).toBe(true);
		for (let i = 0; i < 10; i++) await sim.step([], model);
		expect(sim.stream('ana-alder').records.some((m) => m.description === 'desk is on fire')).toBe(true);
		expect(ana.some((d) => d === 'I should visit the street')).toBe(true);
		expect(model.calls.some((c) => c.template === 'importance' && (c.vars.memories as string[]).length > 1)).toBe(true);
	});
});

describe('interviews', () => {
	it('answer from memory without changing the state, under any ablation condition', async () => {
		const { sim } = await runFor(120);
		const before = digestOf(sim);
		const model = scriptedModel();
		const full = await sim.interview('ana-alder', 'a reporter', 'Are you organising a picnic?', model);
		expect(full.memories.some((m) => /picnic/.test(m.description))).toBe(true);
		const ablated = await sim.interview('ana-alder', 'a reporter', 'What are your plans?', model, {
			condition: { reflection: true, planning: true, observation: true }
		});
		expect(ablated.memories.every((m) => m.kind === 'thought')).toBe(true);
		const noPlans = await sim.interview('ana-alder', 'a reporter', 'What are your plans?', model, {
			condition: { reflection: true, planning: true, observation: false }
		});
		expect(noPlans.memories.some((m) => m.kind === 'plan' || m.kind === 'reflection')).toBe(false);
		// under a condition the agent's summary is made from what that condition can retrieve,
		// not taken from the day's cache the full run built
		const summaries = model.calls.filter((c) => c.template === 'agent_summary');
		expect(summaries).toHaveLength(2);
		expect((summaries[0].vars.memories as string[]).length).toBeGreaterThan(0);
		expect(full.output.traces).toEqual([]);
		expect(digestOf(sim)).toBe(before);
		// asked to remember it, the agent answers during a step and keeps the exchange
		const out = await sim.step([{ type: 'interview', agent: 'ana-alder', interviewer: 'a reporter', question: 'Are you organising a picnic?' }], model);
		expect(out.events).toContainEqual({ kind: 'input', input: 'interview', agent: 'ana-alder' });
		expect(sim.stream('ana-alder').records.some((m) => m.kind === 'conversation' && /a reporter asked Ana Alder "Are you organising a picnic\?"/.test(m.description))).toBe(true);
	});
});

describe('reactions to the world', () => {
	const STOVE = 'House:kitchen:stove';
	/** Reacts to anything burning, to nothing else; never starts a conversation. */
	const alarmed = () =>
		scriptedModel({
			react: (r) =>
				r.vars.other === '' && /burning/.test(String(r.vars.observation))
					? { react: true, talk: false, reaction: 'put out the fire on the stove' }
					: { react: false, talk: false, reaction: '' }
		});

	async function untilSomeoneCooks(sim: Simulation, model: ReturnType<typeof scriptedModel>) {
		for (let i = 0; i < 60; i++) {
			const cooks = sim.state.agents.filter((a) => a.action.object === STOVE && a.action.path.length === 0 && sim.index.addressOf(a.tile) === 'House:kitchen');
			if (cooks.length > 0) return cooks;
			await sim.step([], model);
		}
		throw new Error('nobody came to the stove');
	}

	it('a burning stove set by the user is reacted to when it is seen (the paper), with a re-plan from now', async () => {
		const model = alarmed();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		const cooks = await untilSomeoneCooks(sim, model);
		const t = sim.state.step;
		const out = await sim.step([{ type: 'set-object', address: STOVE, state: 'burning' }], model);
		const reactions = out.events.filter((e) => e.kind === 'reaction');
		expect(reactions.map((r) => (r as { agent: string }).agent)).toEqual(expect.arrayContaining(cooks.map((c) => c.id)));
		for (const r of reactions) expect(sim.agent((r as { agent: string }).agent).action.start).toBe(sim.world.start + t * 60_000);
		expect(sim.state.agents.filter((a) => a.reacting)).toEqual([]);
	});

	it('with the fast profile, a burning stove gets one reaction decision per agent, reactionMinutes later, and a re-plan from then', async () => {
		const model = alarmed();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		applyOverrides(sim.state, profileOverrides('fast'));
		const cooks = await untilSomeoneCooks(sim, model);
		// someone else's action on the stove was seen and judged, without a reaction
		const judgedBefore = sim.state.agents.filter((a) => a.judged?.[STOVE] !== undefined);
		expect(judgedBefore.length).toBeGreaterThan(0);
		const before = model.calls.length;
		const noticed = await sim.step([{ type: 'set-object', address: STOVE, state: 'burning' }], model);
		// noticed now, decided `perception.reactionMinutes` later (a step is a game minute here);
		// meanwhile the cooks go on
		expect(noticed.events.filter((e) => e.kind === 'reaction')).toEqual([]);
		expect(model.calls.slice(before).filter((c) => c.template === 'react')).toEqual([]);
		const later = sim.state.settings.perception.reactionMinutes;
		expect(later).toBeGreaterThan(1);
		for (const c of cooks) expect(sim.agent(c.id).reacting).toMatchObject({ object: STOVE, objectState: 'burning', commitStep: noticed.step + later });
		for (let i = 1; i < later; i++) await sim.step([], model);
		const burning = () => model.calls.slice(before).filter((c) => c.template === 'react' && c.vars.observation === 'stove is burning');
		expect(burning()).toEqual([]);
		const t = sim.state.step;
		const out = await sim.step([], model);
		const reactions = out.events.filter((e) => e.kind === 'reaction');
		expect(reactions.length).toBeGreaterThan(0);
		for (const r of reactions) expect(r).toMatchObject({ kind: 'reaction', reaction: 'put out the fire on the stove', object: STOVE });
		expect(reactions.map((r) => (r as { agent: string }).agent)).toEqual(expect.arrayContaining(cooks.map((c) => c.id)));
		const replans = model.calls.slice(before).filter((c) => c.template === 'replan');
		expect(replans.map((c) => c.agent).sort()).toEqual(reactions.map((r) => (r as { agent: string }).agent).sort());
		expect(replans[0].vars.reaction).toBe('put out the fire on the stove');
		// the re-plan starts now: the reacting agents have a new action from this step
		for (const r of reactions) expect(sim.agent((r as { agent: string }).agent).action.start).toBe(sim.world.start + t * 60_000);
		for (let i = 0; i < 20; i++) await sim.step([], model);
		// the same unchanged state is judged once per agent
		const asked = model.calls.filter((c) => c.template === 'react' && c.vars.observation === 'stove is burning');
		expect(asked.length).toBe(new Set(asked.map((c) => c.agent)).size);
		// a new input is news again, even with the same text
		const again = await sim.step([{ type: 'set-object', address: STOVE, state: 'burning' }], model);
		const inKitchen = sim.state.agents.filter((a) => sim.index.addressOf(a.tile) === 'House:kitchen');
		if (inKitchen.length > 0) expect(model.calls.filter((c) => c.template === 'react' && c.vars.observation === 'stove is burning').length).toBeGreaterThan(asked.length);
		expect(again.events).toContainEqual({ kind: 'input', input: 'set-object' });
	});

	it('each agent remembers the state it last saw an object in, and shows it when it picks an object there', async () => {
		const model = alarmed();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		const [cook] = await untilSomeoneCooks(sim, model);
		// someone out of the house (sent to the street when all are in)
		const other = sim.state.agents.find((a) => a.id !== cook.id) as AgentState;
		if (sim.state.agents.every((a) => sim.index.addressOf(a.tile).startsWith('House:'))) {
			other.tile = sim.world.collision.findIndex((c, t) => c === 0 && !sim.index.addressOf(t).startsWith('House:'));
			other.action.path = [];
		}
		const away = sim.state.agents.filter((a) => !sim.index.addressOf(a.tile).startsWith('House:')).map((a) => a.id);
		await sim.step([{ type: 'set-object', address: STOVE, state: 'burning' }], model);
		// the cook in the kitchen saw it burning; those out of the house know nothing of it
		expect(sim.agent(cook.id).seenStates?.[STOVE]).toBe('burning');
		expect(away.length).toBeGreaterThan(0);
		for (const id of away) expect(sim.agent(id).seenStates?.[STOVE], id).not.toBe('burning');
		// it is part of the state a snapshot keeps
		const snap = sim.snapshot();
		expect(snap.state.agents.find((a) => a.id === cook.id)!.seenStates).toEqual({ [STOVE]: 'burning' });
		// picking an object in the kitchen, the agent is told what it saw
		const a = structuredClone(sim.agent(cook.id));
		const ctx = new AgentContext(a, sim.stream(a.id), sim, model, 'test', sim.time, emptyOutput(0, sim.time), false);
		const before = model.calls.length;
		await chooseLocation(ctx, 'making breakfast for breakfast');
		const object = model.calls.slice(before).find((c) => c.template === 'choose_object' && c.vars.arena === 'House:kitchen');
		expect(object?.vars.states).toEqual(['stove: burning']);
	});

	it('an agent does not take the state its own use gives an object for a state it saw the object in', async () => {
		const model = alarmed();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		const [cook] = await untilSomeoneCooks(sim, model);
		expect(cook.action.objectState).not.toBe('');
		await sim.step([], model);
		// it uses the stove (its action gives the stove a state others see) and remembers none
		expect(sim.objectsInUse().get(STOVE)).toBe(cook.action.objectState);
		expect(sim.agent(cook.id).seenStates?.[STOVE]).toBeUndefined();
	});

	it("a user's state stays what everyone sees until an agent begins an action on the object at a later step", async () => {
		const model = scriptedModel({ react: () => ({ react: false, talk: false, reaction: '' }) });
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		const [cook] = await untilSomeoneCooks(sim, model);
		const using = cook.action.objectState;
		expect(sim.objectState(STOVE)).toBe(using);
		await sim.step([{ type: 'set-object', address: STOVE, state: 'burning' }], model);
		// the actions that began before the input do not hide it
		const setAt = sim.state.objectsSetAt?.[STOVE];
		expect(setAt).toBeDefined();
		let seen: string | undefined;
		for (let i = 0; i < 120 && sim.state.objectsSetAt?.[STOVE] !== undefined; i++) {
			expect(sim.objectState(STOVE)).toBe('burning');
			await sim.step([], model);
			seen = sim.objectState(STOVE);
		}
		// an action on the stove begun after the input took it over; its base state is the default again
		expect(sim.state.objectsSetAt?.[STOVE]).toBeUndefined();
		const user = sim.state.agents.find((a) => a.action.object === STOVE && a.action.start > (setAt as number));
		expect(user).toBeDefined();
		expect(seen).toBe(user!.action.objectState);
		expect(sim.state.objects[STOVE]).toBe('idle');
	});
});

describe('without planning (the planning ablation)', () => {
	it('agents act from moment to moment, never idle: each next action is chosen from who they are, the time and what they perceive', async () => {
		const model = scriptedModel({
			next_action: (r) => {
				const hour = Number(/(\d\d):\d\d$/.exec(String(r.vars.time))?.[1]);
				if (r.vars.intention) return { activity: String(r.vars.intention), minutes: 20, sleep: false };
				return hour >= 22 ? { activity: 'going to sleep', minutes: 540, sleep: true } : { activity: hour < 8 ? 'having breakfast in the kitchen' : 'working at the cafe counter', minutes: 45, sleep: false };
			}
		});
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1, ablate: { reflection: false, planning: true, observation: false } }, model);
		let idle = 0;
		let agentSteps = 0;
		for (let i = 0; i < 120; i++) {
			await sim.step([], model);
			for (const a of sim.state.agents) {
				agentSteps++;
				if (a.action.activity === 'idle') idle++;
			}
		}
		expect(idle / agentSteps).toBeLessThan(0.05);
		// no plan for the day, no plan memories, no decomposition: one call per action instead
		for (const a of sim.state.agents) {
			expect(a.plan!.blocks).toEqual([]);
			expect(sim.stream(a.id).records.filter((m) => m.kind === 'plan')).toEqual([]);
		}
		const templates = new Set(model.calls.map((c) => c.template));
		for (const t of ['daily_plan', 'hourly_schedule', 'decompose_task'] as const) expect(templates.has(t), t).toBe(false);
		const moments = model.calls.filter((c) => c.template === 'next_action');
		expect(moments.length).toBeGreaterThanOrEqual(3 * 3);
		// asked with the agent's summary, the time, where it is, what it was doing and what it saw
		const later = moments.filter((c) => c.agent === 'ana-alder').at(-1)!;
		expect((later.vars.perceived as string[]).length).toBeGreaterThan(0);
		expect(later.vars).toMatchObject({ name: 'Ana Alder', summary: expect.stringContaining('Ana Alder'), time: expect.stringMatching(/\d\d:\d\d$/) });
		expect(String(later.vars.place)).not.toBe('');
		expect(String(later.vars.previous)).not.toBe('idle');
		// 07:00-08:00 breakfast, then work, each action where the model's tree walk put it
		expect(sim.agent('ana-alder').action.activity).toBe('working at the cafe counter');
		expect(sim.agent('ana-alder').action.address).toMatch(/^Cafe:counter/);
	});

	it('a reaction or an inner voice becomes the next action at once', async () => {
		const model = scriptedModel({ react: () => ({ react: false, talk: false, reaction: '' }) });
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1, ablate: { reflection: false, planning: true, observation: false } }, model);
		for (let i = 0; i < 5; i++) await sim.step([], model);
		await sim.step([{ type: 'whisper', agent: 'ben-brook', text: 'buy flowers for Ana' }], model);
		const ben = sim.agent('ben-brook');
		expect(ben.action.activity).toBe('I should buy flowers for Ana');
		expect(ben.intention).toBeUndefined();
		expect(model.calls.filter((c) => c.template === 'replan')).toEqual([]);
	});
});
