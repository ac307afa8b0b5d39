import { describe, expect, it } from 'vitest';
import { fitSubtasks, isSleeping, neighbours, normaliseBlocks } from './agent';
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
		expect(normaliseBlocks(undefined, 6 * 60)).toEqual([{ start: 360, minutes: 18 * 60, activity: 'sleeping', subtasks: null, sleep: true }]);
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

describe('decomposition (5-15 minute steps)', () => {
	const block = { activity: 'working at the cafe counter', minutes: 60 };
	const minutes = (raw: { activity: string; minutes: unknown }[], b = block) => fitSubtasks(raw, b).map((t) => [t.activity, t.minutes]);

	it("keeps each step's length as the model gave it and fills the block by the reference's rule", () => {
		// 3 x 15 in an hour: the steps stay 15 minutes (they were stretched to 20) and the block goes on
		expect(minutes([{ activity: 'a', minutes: 15 }, { activity: 'b', minutes: 15 }, { activity: 'c', minutes: 15 }])).toEqual([
			['a', 15],
			['b', 15],
			['c', 15],
			['working at the cafe counter', 15]
		]);
		// too short: the last step absorbs the remainder up to 15 minutes, then the block's activity
		expect(minutes([{ activity: 'a', minutes: 10 }, { activity: 'b', minutes: 10 }])).toEqual([
			['a', 10],
			['b', 15],
			['working at the cafe counter', 12],
			['working at the cafe counter', 12],
			['working at the cafe counter', 11]
		]);
		// too long: cut where the block ends
		const five = ['a', 'b', 'c', 'd', 'e'].map((activity) => ({ activity, minutes: 15 }));
		expect(minutes(five)).toEqual([
			['a', 15],
			['b', 15],
			['c', 15],
			['d', 15]
		]);
		// a step cut to under 5 minutes shares the time with the one before
		expect(minutes(five, { ...block, minutes: 62 })).toEqual([
			['a', 15],
			['b', 15],
			['c', 15],
			['d', 12],
			['e', 5]
		]);
		expect(minutes(five, { ...block, minutes: 48 })).toEqual([
			['a', 15],
			['b', 15],
			['c', 18 - 5],
			['d', 5]
		]);
		// out-of-range lengths are clamped to 5-15; odd entries are dropped; nothing usable: the block's activity
		expect(minutes([{ activity: 'a', minutes: 40 }, { activity: '', minutes: 5 }, { activity: 'b', minutes: 1 }, { activity: 'c', minutes: 'ten' }], { ...block, minutes: 30 })).toEqual([
			['a', 15],
			['b', 5],
			['c', 10]
		]);
		expect(minutes([], { ...block, minutes: 40 })).toEqual([
			['working at the cafe counter', 14],
			['working at the cafe counter', 13],
			['working at the cafe counter', 13]
		]);
		// a block shorter than 5 minutes is one step
		expect(minutes([{ activity: 'a', minutes: 10 }], { ...block, minutes: 3 })).toEqual([['a', 3]]);
	});

	it('every fill adds up to the block in steps of 5-15 minutes', () => {
		for (let total = 5; total <= 240; total += 1) {
			for (const lengths of [[15], [5, 5], [15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15], [7, 13, 9], [14, 14, 3]]) {
				const steps = fitSubtasks(lengths.map((m, i) => ({ activity: `s${i}`, minutes: m })), { activity: 'x', minutes: total });
				expect(steps.reduce((n, t) => n + t.minutes, 0), `${total} ${lengths}`).toBe(total);
				for (const t of steps) expect([total, t.minutes, t.minutes >= 5 && t.minutes <= 15]).toEqual([total, t.minutes, true]);
			}
		}
	});

	it('a block is decomposed knowing the blocks before and after it, and its steps keep their lengths', async () => {
		const model = scriptedModel({
			decompose_task: () => ({ subtasks: [{ activity: 'a', minutes: 15 }, { activity: 'b', minutes: 15 }, { activity: 'c', minutes: 15 }] })
		});
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		for (let i = 0; i < 70; i++) await sim.step([], model); // 07:00 -> 08:10
		const calls = model.calls.filter((c) => c.template === 'decompose_task' && c.agent === 'ana-alder');
		const first = calls.find((c) => c.vars.activity === 'having breakfast in the kitchen')!;
		expect(first.vars).toMatchObject({ previous: '12:00 am to 7:00 am: sleeping (asleep)', next: '8:00 am to 12:00 pm: working at the cafe counter' });
		const second = calls.find((c) => c.vars.activity === 'working at the cafe counter')!;
		expect(second.vars).toMatchObject({ previous: '7:00 am to 8:00 am: having breakfast in the kitchen', next: '12:00 pm to 1:00 pm: eating lunch at the cafe' });
		const breakfast = sim.agent('ana-alder').plan!.blocks[0];
		expect(breakfast.subtasks!.map((t) => t.minutes)).toEqual([15, 15, 15, 15]);
	});

	it('hour-block plans carry their place once one is chosen: a sleep block its bed, a decomposed block its arena', async () => {
		const model = scriptedModel();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
		for (let i = 0; i < 70; i++) await sim.step([], model); // 07:00 -> 08:10
		const plans = sim.stream('ana-alder').records.filter((m) => m.kind === 'plan');
		const night = plans.find((m) => m.description.startsWith('Ana\'s plan: sleeping from 10:00 pm'))!;
		expect(night.plan!.address).toBe('House:bedroom:bed');
		// the breakfast block, decomposed at 07:00: remembered with the arena its steps happen in
		const breakfast = plans.filter((m) => m.description.startsWith("Ana's plan: having breakfast in the kitchen from 7:00 am to 8:00 am"));
		expect(breakfast.map((m) => m.plan!.address)).toEqual(['', 'House:kitchen']);
		expect(breakfast[1].description).toMatch(/, at House \(kitchen\)$/);
		// every plan memory whose place was chosen has it: the steps, and the blocks after decomposition
		for (const m of plans) if (/ at \d{1,2}:\d\d [ap]m on /.test(m.description)) expect(m.plan!.address, m.description).toMatch(/^\w+:\w+/);
		const decomposed = sim.agent('ana-alder').plan!.blocks.filter((b) => b.subtasks);
		expect(decomposed.length).toBe(2);
		for (const b of decomposed) {
			const withPlace = plans.filter((m) => m.plan!.start === sim.world.start - 7 * 3600_000 + b.start * 60_000 && m.plan!.minutes === b.minutes && m.plan!.address);
			expect(withPlace.length, b.activity).toBeGreaterThan(0);
		}
	});

	it('neighbours: the night before the first block, the block after the last', () => {
		const plan = {
			day: 0,
			wakeMinute: 420,
			agenda: [],
			blocks: [
				{ start: 420, minutes: 60, activity: 'breakfast', subtasks: null },
				{ start: 480, minutes: 960, activity: 'sleeping', subtasks: null, sleep: true }
			]
		};
		expect(neighbours(plan, plan.blocks[0])).toEqual({ previous: '12:00 am to 7:00 am: sleeping (asleep)', next: '8:00 am to 12:00 am: sleeping (asleep)' });
		// a copy of the block (work done ahead) finds its place by start and activity
		expect(neighbours(plan, { ...plan.blocks[0] }).next).toBe('8:00 am to 12:00 am: sleeping (asleep)');
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

describe('sleep follows the plan, not the words', () => {
	const day = [
		{ start: '07:00', minutes: 60, activity: 'having breakfast in the kitchen' },
		{ start: '08:00', minutes: 300, activity: 'working at the cafe counter' },
		{ start: '13:00', minutes: 30, activity: 'take a short nap' },
		{ start: '13:30', minutes: 210, activity: 'working at the cafe counter' },
		{ start: '17:00', minutes: 360, activity: 'relaxing at home' },
		{ start: '23:00', minutes: 60, activity: 'go to bed' }
	];
	const shape = (blocks: ReturnType<typeof normaliseBlocks>) => blocks.map((b) => [b.start / 60, b.minutes, b.activity, b.sleep === true]);

	it('unmarked: a nap is an ordinary block and the day goes on; a last block to midnight is the night', () => {
		expect(shape(normaliseBlocks(day, 7 * 60))).toEqual([
			[7, 60, 'having breakfast in the kitchen', false],
			[8, 300, 'working at the cafe counter', false],
			[13, 30, 'take a short nap', false],
			[13.5, 210, 'working at the cafe counter', false],
			[17, 360, 'relaxing at home', false],
			[23, 60, 'go to bed', true]
		]);
		// a plan that stops early: the night starts at its end, whatever the last block says
		const early = normaliseBlocks([{ start: '07:00', minutes: 600, activity: 'sleeping in late' }], 7 * 60);
		expect(shape(early)).toEqual([
			[7, 600, 'sleeping in late', false],
			[17, 420, 'sleeping', true]
		]);
	});

	it('marked: a nap sleeps for its block only, the night runs to midnight, an awake last block is awake', () => {
		const marked = day.map((b) => ({ ...b, sleep: /nap|bed/.test(b.activity) }));
		expect(shape(normaliseBlocks(marked, 7 * 60))).toEqual([
			[7, 60, 'having breakfast in the kitchen', false],
			[8, 300, 'working at the cafe counter', false],
			[13, 30, 'take a short nap', true],
			[13.5, 210, 'working at the cafe counter', false],
			[17, 360, 'relaxing at home', false],
			[23, 60, 'go to bed', true]
		]);
		// "go to bed" said awake, ending at 23:30: the night is added after it
		const awake = normaliseBlocks([{ start: '07:00', minutes: 60, activity: 'x', sleep: false }, { start: '23:00', minutes: 30, activity: 'go to bed', sleep: false }], 7 * 60);
		expect(shape(awake).slice(-2)).toEqual([
			[23, 30, 'go to bed', false],
			[23.5, 30, 'sleeping', true]
		]);
		// two marked blocks at the end are one night
		const night = normaliseBlocks([{ start: '07:00', minutes: 900, activity: 'x', sleep: false }, { start: '22:00', minutes: 30, activity: 'read in bed', sleep: true }, { start: '22:30', minutes: 90, activity: 'sleep', sleep: true }], 7 * 60);
		expect(shape(night).slice(-1)).toEqual([[22, 120, 'read in bed', true]]);
	});

	it('any schema-valid or odd answer gives a clean day', () => {
		const odd = normaliseBlocks([null, 3, { start: 700, minutes: '60', activity: 'x' }, { start: '09:00', minutes: 'long', activity: 'reading', sleep: 'yes' }] as never, 8 * 60);
		expect(shape(odd)).toEqual([
			[8, 120, 'reading', false],
			[10, 840, 'sleeping', true]
		]);
	});

	async function dayOf(blocks: object[], start: number) {
		const world = createTestWorld();
		world.start = start;
		const model = scriptedModel({ hourly_schedule: () => ({ blocks }) });
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		return { sim, model };
	}

	it('a 13:00 nap ends with its block: awake at 13:30 and doing the next block', async () => {
		const blocks = [
			{ start: '07:00', minutes: 360, activity: 'working at the cafe counter' },
			{ start: '13:00', minutes: 30, activity: 'take a short nap', sleep: true },
			{ start: '13:30', minutes: 270, activity: 'working at the cafe counter' },
			{ start: '18:00', minutes: 360, activity: 'sleeping', sleep: true }
		];
		const { sim, model } = await dayOf(blocks, Date.UTC(2023, 1, 13, 12, 50));
		const ana = () => sim.agent('ana-alder');
		for (let i = 0; i < 15; i++) await sim.step([], model); // 13:05
		expect(ana().action).toMatchObject({ activity: 'take a short nap', sleeping: true });
		expect(ana().action.address).toBe('House:bedroom:bed');
		expect(isSleeping(ana())).toBe(true);
		for (let i = 0; i < 26; i++) await sim.step([], model); // 13:31
		expect(isSleeping(ana())).toBe(false);
		expect(ana().action.activity).toMatch(/^working at the cafe counter/);
		expect(ana().action.planRef).toMatch(/^2\.\d+$/);
		// the rest of the day is still planned after the nap
		expect(ana().plan!.blocks.map((b) => b.activity)).toEqual(blocks.map((b) => b.activity));
	});

	it('a 23:00 "go to bed" sleeps through midnight until the next day\'s wake-up', async () => {
		const blocks = [
			{ start: '07:00', minutes: 960, activity: 'working at the cafe counter' },
			{ start: '23:00', minutes: 60, activity: 'go to bed' }
		];
		const { sim, model } = await dayOf(blocks, Date.UTC(2023, 1, 13, 22, 55));
		const ana = () => sim.agent('ana-alder');
		await sim.step([], model);
		const firstDay = ana().plan!.day;
		const asleepAt: boolean[] = [false];
		// 22:55 -> 07:05 the next day, one step a minute
		for (let i = 1; i < 490; i++) {
			await sim.step([], model);
			asleepAt.push(isSleeping(ana()));
		}
		expect(asleepAt.slice(0, 4).every((x) => !x)).toBe(true);
		// from the end of her conversation with Ben (decided 4 game minutes after they meet at
		// 22:55, then 8 game minutes: one a turn) to 07:00 without a break (the new day's plan is
		// made at midnight)
		expect(asleepAt.slice(12, 485).every((x) => x)).toBe(true);
		expect(asleepAt.at(-1)).toBe(false);
		expect(ana().plan!.day).toBe(firstDay + 1);
		expect(ana().plan!.wakeMinute).toBe(7 * 60);
		// awake and at her plan, or in a conversation begun on waking (eight game minutes)
		expect(ana().action.activity).toMatch(/^(working at the cafe counter|chatting with )/);
		// one memory of falling asleep, not another at midnight
		const sleeps = sim.stream('ana-alder').records.filter((m) => m.kind === 'observation' && /^Ana Alder is (go to bed|sleeping)$/.test(m.description));
		expect(sleeps).toHaveLength(1);
	});
});
