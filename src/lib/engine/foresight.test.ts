// What the lookahead asks ahead is what the steps then ask: with the paper's settings (reactions
// decided when noticed, memories rated when made), foreseen reactions, their conversations and the
// ratings of what agents will see are asked with the very prompts the steps use.

import { beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../prompts/json-schema';
import type { PromptSet } from '../prompts/promptset';
import { createModelGateway, OfflineProvider } from '../server/model';
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

const promptOf = (r: ModelRequest) => `${r.template}|${JSON.stringify(r.vars)}`;

/** `model` as the steps ask it, counting the calls `counts` picks and how many had their prompt asked ahead (in `asked`). */
function stepsPort(model: ModelPort, asked: ReadonlySet<string>, counts: (r: ModelRequest) => boolean) {
	const used = { calls: 0, ahead: 0 };
	const port: ModelPort = {
		dimensions: model.dimensions,
		complete: <T,>(r: ModelRequest) => {
			if (counts(r)) {
				used.calls++;
				if (asked.has(promptOf(r))) used.ahead++;
			}
			return model.complete<T>(r);
		},
		embed: (t) => model.embed(t)
	};
	return { port, used };
}

/** The offline stand-in (its answers depend on the prompt only), and a port for work ahead that keeps the prompts it asks. */
async function offlineAhead() {
	const { gateway } = await createModelGateway({ provider: new OfflineProvider(), cacheDir: false });
	const asked = new Set<string>();
	const ahead: ModelPort = {
		dimensions: gateway.dimensions,
		complete: <T,>(r: ModelRequest) => (asked.add(promptOf(r)), gateway.complete<T>(r)),
		embed: (t) => gateway.embed(t)
	};
	return { gateway, asked, ahead };
}

/** `model` with every decision to talk, each request shown to `see` first. */
function talking(model: ModelPort, see: (r: ModelRequest) => void): ModelPort {
	return {
		dimensions: model.dimensions,
		complete: <T,>(r: ModelRequest) => {
			see(r);
			if (r.template === 'react') return Promise.resolve({ value: { react: false, talk: true, reaction: '' } as T, failsafe: false });
			return model.complete<T>(r);
		},
		embed: (t) => model.embed(t)
	};
}

/** `model`, each request shown to `see` first. */
function watched(model: ModelPort, see: (r: ModelRequest) => void): ModelPort {
	return {
		dimensions: model.dimensions,
		complete: <T,>(r: ModelRequest) => (see(r), model.complete<T>(r)),
		embed: (t) => model.embed(t)
	};
}

/** `model`, each answer `ms` later. */
function later(model: ModelPort, ms: number): ModelPort {
	return {
		dimensions: model.dimensions,
		complete: async <T,>(r: ModelRequest) => {
			await new Promise((done) => setTimeout(done, ms));
			return model.complete<T>(r);
		},
		embed: (t) => model.embed(t)
	};
}

describe('the lookahead with the paper settings', () => {
	it('asks foreseen reactions, conversations and ratings with the prompts the steps then ask', async () => {
		// answers that depend on the prompt only, as an endpoint's (whatever the call's key)
		const base = randomAnswerModel({ templates, seed: 11, jsonSchemaFor: outputJsonSchema });
		const byPrompt = <T,>(r: ModelRequest) => base.complete<T>({ ...r, key: promptOf(r) });
		const asked = new Set<string>();
		// the first lines of conversations asked ahead: step, speaker > the other
		const opened = new Set<string>();
		const ahead: ModelPort = {
			dimensions: base.dimensions,
			complete: <T,>(r: ModelRequest) => {
				asked.add(promptOf(r));
				if (r.template === 'dialogue_turn' && (r.vars.history as string[]).length === 0) opened.add(`${r.key.split('/')[0]}:${r.agent}>${r.vars.other}`);
				return byPrompt<T>(r);
			},
			embed: (t) => base.embed(t)
		};
		const used = new Map<string, { calls: number; ahead: number }>();
		const step: ModelPort = {
			dimensions: base.dimensions,
			complete: <T,>(r: ModelRequest) => {
				const u = used.get(r.template) ?? { calls: 0, ahead: 0 };
				used.set(r.template, { calls: u.calls + 1, ahead: u.ahead + (asked.has(promptOf(r)) ? 1 : 0) });
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
		// (not those an agent makes after a foreseen decision begins a conversation for it: with these
		// random answers, many do)
		expect(share('importance')).toBeGreaterThan(0.25);
		// the step pairs agents in the state's order, each once: no agent is in two conversations
		// asked ahead for one step (two agents foreseen to talk to each other: the conversation is
		// asked the way round the step begins it; two foreseen to talk to one: only the first's)
		const nameOf = new Map(sim.state.agents.map((a) => [a.id, a.name]));
		const inTalks = new Map<string, number>();
		for (const o of opened) {
			const [at, pair] = o.split(':');
			const [x, y] = pair.split('>');
			for (const name of [nameOf.get(x), y]) inTalks.set(`${at}:${name}`, (inTalks.get(`${at}:${name}`) ?? 0) + 1);
		}
		expect(opened.size).toBeGreaterThan(0);
		expect([...inTalks].filter(([, n]) => n > 1)).toEqual([]);
	}, 120_000);

	it('asks the reactions that follow a conversation, from what the conversation made ahead leaves its speakers with', async () => {
		// the offline stand-in: its agents talk often
		const { gateway, asked, ahead } = await offlineAhead();
		// the react calls of speakers at the step their conversation ends
		let ending = new Set<string>();
		const { port: step, used: after } = stepsPort(gateway, asked, (r) => r.template === 'react' && ending.has(r.agent ?? ''));
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const started = new Set<string>();
		for (let i = 0; i < 300; i++) {
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			ending = new Set((sim.state.talks ?? []).filter((t) => t.commitStep === sim.state.step).flatMap((t) => t.agents));
			await sim.step([], step);
		}
		expect(after.calls).toBeGreaterThan(2);
		expect(after.ahead / after.calls).toBeGreaterThan(0.5);
	}, 120_000);

	it('asks the rating of the first action of an hour block it has decomposed ahead', async () => {
		const { gateway, asked, ahead } = await offlineAhead();
		// the ratings the step asks, by agent and what they rate
		const rated = new Map<string, boolean>();
		const step = watched(gateway, (r) => {
			const memories = r.vars.memories as string[];
			if (r.template === 'importance' && memories.length === 1) rated.set(`${r.agent}|${memories[0]}`, asked.has(promptOf(r)));
		});
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const started = new Set<string>();
		const firsts = { all: 0, ahead: 0 };
		for (let i = 0; i < 360; i++) {
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			rated.clear();
			const time = sim.time;
			await sim.step([], step);
			// agents that began the first step of an hour block (not the day's first) in this step
			for (const a of sim.state.agents) {
				if (i === 0 || a.action.start !== time || !/^\d+\.0$/.test(a.action.planRef)) continue;
				const wasAhead = rated.get(`${a.id}|${a.name} is ${a.action.activity}`);
				if (wasAhead === undefined) continue;
				firsts.all++;
				if (wasAhead) firsts.ahead++;
			}
		}
		expect(firsts.all).toBeGreaterThan(5);
		// none before: an agent's course was foreseen only to the end of its decomposed blocks
		expect(firsts.ahead / firsts.all).toBeGreaterThan(0.5);
	}, 120_000);

	it('decomposes an hour block ahead again only when the object states its agent saw where the block goes change', async () => {
		const { gateway, asked, ahead } = await offlineAhead();
		const used = new Set<string>();
		const step = watched(gateway, (r) => used.add(promptOf(r)));
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const started = new Set<string>();
		for (let i = 0; i < 720; i++) {
			// blocks decomposed up to 40 game minutes before they begin, nothing past the last step
			await sim.lookahead(ahead, { horizonSteps: Math.min(120, 719 - i), blockSteps: Math.min(240, 719 - i), started });
			await sim.step([], step);
		}
		const objects = [...asked].filter((p) => p.startsWith('choose_object|'));
		const unused = objects.filter((p) => !used.has(p));
		expect(objects.length).toBeGreaterThan(50);
		// 17% before: asked again whenever the agent saw any object change anywhere, and after
		// its own use of an object, which it took for a state the object was in; 6% before: asked
		// again at each change, while the block was still far enough for more changes to follow
		expect(unused.length / objects.length).toBeLessThan(0.045);
	}, 120_000);

	it("asks an agent's next foreseen reaction as soon as the one before has recalled its memories, not once it is decided", async () => {
		const { gateway, ahead } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const started = new Set<string>();
		let most = 0;
		for (let i = 0; i < 300; i++) {
			if (i % 10 === 5) {
				// work ahead whose decisions are never answered: which reactions does it ask about?
				const steps = new Map<string, Set<string>>();
				const undecided: ModelPort = {
					dimensions: gateway.dimensions,
					complete: <T,>(r: ModelRequest) => {
						if (r.template === 'react') return new Promise<never>(() => undefined);
						if (r.template === 'context_summary' && r.purpose?.startsWith('reaction')) {
							const mine = steps.get(r.agent ?? '') ?? new Set<string>();
							steps.set(r.agent ?? '', mine.add(r.key.split('/')[0]));
						}
						return gateway.complete<T>(r);
					},
					embed: (t) => gateway.embed(t)
				};
				void sim.lookahead(undecided, { horizonSteps: 120, started: new Set() });
				for (let k = 0; k < 20; k++) await new Promise((r) => setTimeout(r, 5));
				most = Math.max(most, ...[...steps.values()].map((x) => x.size));
			}
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			await sim.step([], gateway);
		}
		// 1 before: the next reaction was asked once the one before was decided
		expect(most).toBeGreaterThan(1);
	}, 120_000);

	it('asks the emoji and object state of a planned step as it begins, the lookahead before that', async () => {
		const { gateway, asked, ahead } = await offlineAhead();
		const shows = (r: ModelRequest) => r.template === 'action_emoji' || r.template === 'object_state';
		const { port: step, used } = stepsPort(gateway, asked, shows);
		const first = new Map<string, number>();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		// the first step decomposes the hour blocks the agents are in: one step begun each
		await sim.step([], watched(gateway, (r) => shows(r) && first.set(r.agent ?? '', (first.get(r.agent ?? '') ?? 0) + 1)));
		expect(first.size).toBeGreaterThan(5);
		// before: every step of the block at once
		expect(Math.max(...first.values())).toBeLessThanOrEqual(2);
		const started = new Set<string>();
		for (let i = 0; i < 300; i++) {
			await sim.lookahead(ahead, { horizonSteps: 120, started });
			await sim.step([], step);
		}
		expect(used.calls).toBeGreaterThan(20);
		expect(used.ahead / used.calls).toBeGreaterThan(0.8);
	}, 120_000);

	it('leaves no failure of work ahead unhandled, a foreseen decision failing after its chain has stopped included', async () => {
		const { gateway, ahead } = await offlineAhead();
		// an endpoint's embedder: work ahead gets only what is cached (here, the queries), and
		// decisions that fail late
		const flaky: ModelPort = {
			dimensions: ahead.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				if (r.template !== 'react') return ahead.complete<T>(r);
				await new Promise((done) => setTimeout(done, 5));
				throw new Error('the endpoint failed');
			},
			embed: async (t) => {
				if (t.length > 1) throw new Error('an embedding is not cached');
				return ahead.embed(t);
			}
		};
		const unhandled: unknown[] = [];
		const seen = (e: unknown) => unhandled.push(e);
		process.on('unhandledRejection', seen);
		try {
			const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
			const started = new Set<string>();
			for (let i = 0; i < 300; i++) {
				await sim.lookahead(flaky, { horizonSteps: 120, started }).catch(() => undefined);
				await sim.step([], gateway, { model: flaky, started });
			}
			await new Promise((done) => setTimeout(done, 50));
		} finally {
			process.off('unhandledRejection', seen);
		}
		expect(unhandled).toEqual([]);
	}, 120_000);

	it('makes a conversation begun in a step ahead while the step runs', async () => {
		const { gateway, ahead } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		let stepping = true;
		const during: string[] = [];
		const port = watched(ahead, (r) => stepping && r.purpose?.startsWith('conversation') && during.push(r.key));
		// one agent slow to think: the step goes on after the others are done
		const slow: ModelPort = {
			dimensions: gateway.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				if (r.agent === 'klaus-mueller') await new Promise((done) => setTimeout(done, 100));
				return gateway.complete<T>(r);
			},
			embed: (t) => gateway.embed(t)
		};
		// the offline stand-in's couples greet each other at the first step
		await sim.step([], slow, { model: port, started: new Set() });
		stepping = false;
		expect(sim.state.talks?.length).toBeGreaterThan(0);
		// none before: the conversation was made ahead by the lookahead after the step
		expect(during.length).toBeGreaterThan(0);
	});

	it('asks the rating of the action an agent begins beside its emoji and object state, with the prompt the step then asks', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		// in order: ratings asked ahead, and the step's emoji answers as they arrive
		const events: string[] = [];
		const stepRatings = new Set<string>();
		const ahead = watched(gateway, (r) => r.template === 'importance' && events.push(`ahead ${r.agent} ${promptOf(r)}`));
		const step: ModelPort = {
			dimensions: gateway.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				if (r.template === 'importance') stepRatings.add(promptOf(r));
				const answer = await later(gateway, r.template === 'action_emoji' ? 20 : 0).complete<T>(r);
				if (r.template === 'action_emoji') events.push(`emoji ${r.agent}`);
				return answer;
			},
			embed: (t) => gateway.embed(t)
		};
		await sim.step([], step, { model: ahead, started: new Set() });
		// (those the step has chatting began a conversation after their action)
		const begun = sim.state.agents.filter((a) => a.action.chatWith === '' && events.includes(`emoji ${a.id}`));
		expect(begun.length).toBeGreaterThan(5);
		for (const a of begun) {
			const rating = events.findIndex((e) => e.startsWith(`ahead ${a.id} `) && e.includes(JSON.stringify(`${a.name} is ${a.action.activity}`)));
			expect(rating, a.id).toBeGreaterThanOrEqual(0);
			expect(rating, a.id).toBeLessThan(events.indexOf(`emoji ${a.id}`));
			// and the step asked the same prompt
			expect(stepRatings).toContain(events[rating].split(' ').slice(2).join(' '));
		}
	});

	it("decomposes the hour block an agent begins while it decides a reaction, not after", async () => {
		const { gateway } = await offlineAhead();
		const asked: string[] = [];
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		await sim.step([], watched(gateway, (r) => asked.push(`${r.agent}|${r.template}`)));
		const reacting = [...new Set(asked.filter((x) => x.endsWith('|react')).map((x) => x.split('|')[0]))];
		const both = reacting.filter((id) => asked.includes(`${id}|decompose_task`));
		expect(both.length).toBeGreaterThan(0);
		// before: its decision first, then the decomposition
		for (const id of both) expect(asked.indexOf(`${id}|decompose_task`), id).toBeLessThan(asked.indexOf(`${id}|react`));
	});

	it('asks foreseen reactions with the prompts the steps then ask when its answers arrive after later steps have run', async () => {
		const { gateway } = await createModelGateway({ provider: new OfflineProvider(), cacheDir: false });
		const asked = new Set<string>();
		// the answers of the work ahead begun before a step arrive after the next step has run (a slow endpoint's)
		const aheadUntil = (gate: Promise<void>): ModelPort => ({
			dimensions: gateway.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				asked.add(promptOf(r));
				await gate;
				return gateway.complete<T>(r);
			},
			embed: async (t) => {
				await gate;
				return gateway.embed(t);
			}
		});
		const { port: step, used } = stepsPort(gateway, asked, (r) => r.template === 'context_summary' || r.template === 'react');
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const started = new Set<string>();
		let before: { release: () => void; work: Promise<void> } | null = null;
		for (let i = 0; i < 300; i++) {
			let release!: () => void;
			const gate = new Promise<void>((r) => (release = r));
			const work = sim.lookahead(aheadUntil(gate), { horizonSteps: 120, started });
			await sim.step([], step);
			if (before) {
				before.release();
				await before.work;
			}
			before = { release, work };
		}
		before?.release();
		await before?.work;
		expect(used.calls).toBeGreaterThan(20);
		// 0.62 when no reaction after a conversation was foreseen and work ahead read the streams as
		// the steps had left them since (memories it foresaw stored twice)
		expect(used.ahead / used.calls).toBeGreaterThan(0.75);
	}, 120_000);

	it('asks no line of a foreseen conversation once the step that would begin it has run without it', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const idOf = new Map(sim.state.agents.map((a) => [a.name, a.id]));
		const pairOf = (agents: readonly string[]) => [...agents].sort().join('+');
		const under = () => new Set((sim.state.talks ?? []).map((t) => pairOf(t.agents)));
		let foreseen = 0;
		// lines of conversations not under way, asked after the step that would have begun them
		const late: { pair: string; at: number; key: string }[] = [];
		// every answer a moment later, those ahead later still: steps run while conversations are made ahead
		const ahead: ModelPort = {
			dimensions: gateway.dimensions,
			complete: async <T,>(r: ModelRequest) => {
				if (r.template === 'dialogue_turn') {
					const other = idOf.get(String(r.vars.other)) ?? '';
					const begins = Number(r.key.split('/')[0]);
					const pair = pairOf([r.agent ?? '', other]);
					if (!under().has(pair)) {
						foreseen++;
						if (begins < sim.state.step) late.push({ pair, at: sim.state.step, key: r.key });
					}
				}
				return later(gateway, 4).complete<T>(r);
			},
			embed: (t) => gateway.embed(t)
		};
		const started = new Set<string>();
		const talks: { pair: string; from: number; to: number }[] = [];
		for (let i = 0; i < 300; i++) {
			void sim.lookahead(ahead, { horizonSteps: 120, started }).catch(() => undefined);
			const out = await sim.step([], later(gateway, 1));
			for (const c of out.conversations) talks.push({ pair: pairOf(c.agents), from: c.step, to: c.endStep ?? Infinity });
		}
		expect(foreseen).toBeGreaterThan(0);
		// a conversation's lines asked ahead at the step that commits it are the step's own
		expect(late.filter((l) => !talks.some((t) => t.pair === l.pair && t.from <= l.at && l.at <= t.to))).toEqual([]);
	}, 120_000);

	it('asks nothing more of a foreseen decision once the step that would decide it has run', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		let decided = 0;
		// decisions asked ahead after the step that would have decided them
		const late: string[] = [];
		// every answer a moment later, those ahead later still: steps run while reactions are decided ahead
		const ahead = watched(later(gateway, 4), (r) => {
			if (r.template !== 'react') return;
			decided++;
			if (Number(r.key.split('/')[0]) < sim.state.step) late.push(`${r.key} at ${sim.state.step}`);
		});
		const started = new Set<string>();
		for (let i = 0; i < 300; i++) {
			void sim.lookahead(ahead, { horizonSteps: 120, started }).catch(() => undefined);
			await sim.step([], later(gateway, 1));
		}
		expect(decided).toBeGreaterThan(0);
		expect(late).toEqual([]);
	}, 120_000);

	it("asks the conversation a foreseen decision begins only once the agent's decisions before it have let it go on", async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		let most = 0;
		for (let i = 0; i < 300; i++) {
			if (i % 10 === 5) {
				// every foreseen decision is to talk: which conversations does an agent begin ahead?
				const begun = new Map<string, Set<string>>();
				const talker = talking(gateway, (r) => {
					const at = Number(r.key.split('/')[0]);
					if (r.template === 'dialogue_turn' && (r.vars.history as string[]).length === 0 && at > sim.state.step) {
						begun.set(r.agent ?? '', (begun.get(r.agent ?? '') ?? new Set()).add(String(at)));
					}
				});
				await sim.lookahead(talker, { horizonSteps: 120, started: new Set() });
				most = Math.max(most, ...[...begun.values()].map((x) => x.size));
			}
			await sim.step([], gateway);
		}
		// a foreseen conversation at all, and never a second one after it (up to 3 before: one per
		// reaction foreseen in a row)
		expect(most).toBe(1);
	}, 120_000);

	it('asks nothing more of a foreseen decision once one before it takes its agent, or the one it sees, into a conversation', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const ids = new Map(sim.state.agents.map((a) => [a.name, a.id]));
		const talkSteps = sim.talkSteps();
		const seen = { talks: 0, begun: 0 };
		// calls of decisions for a step at which their agent, or the one it sees, is foreseen in a conversation
		const moot: string[] = [];
		for (let i = 0; i < 300; i++) {
			if (i % 10 === 5) {
				// per agent, the first step at which a decision of its about another agent was asked, and answered: talk
				const asked = new Map<string, number>();
				const talked = new Map<string, number>();
				// the conversations begun ahead: their speakers and step
				const talks: { agents: string[]; step: number }[] = [];
				// every decision about another agent is to talk, about an object to go on; the sooner the
				// step a call is for, the sooner its answer (as the gateway serves them)
				const talker: ModelPort = {
					dimensions: gateway.dimensions,
					complete: async <T,>(r: ModelRequest) => {
						const at = Number(r.key.split('/')[0]);
						const agent = r.agent ?? '';
						if (r.template === 'dialogue_turn' && (r.vars.history as string[]).length === 0 && at > sim.state.step) {
							seen.begun++;
							talks.push({ agents: [agent, ids.get(r.vars.other as string) ?? ''], step: at });
						}
						if (r.purpose?.startsWith('reaction')) {
							const who = [agent, ids.get(r.vars.other as string)];
							const t = talks.find((x) => x.step < at && at < x.step + talkSteps && who.some((id) => id !== undefined && x.agents.includes(id)));
							if ((talked.get(agent) ?? Infinity) < at) moot.push(`${r.template} ${r.key}: ${agent} decided to talk at step ${talked.get(agent)}`);
							// a decision after one about another agent waits for it, and that one talks
							if (r.template === 'react' && (asked.get(agent) ?? Infinity) < at) moot.push(`react ${r.key}: ${agent} decides about another agent at step ${asked.get(agent)}`);
							if (r.template === 'react' && r.vars.other !== '') asked.set(agent, Math.min(at, asked.get(agent) ?? Infinity));
							if (t) moot.push(`${r.template} ${r.key} about ${r.vars.other}: ${t.agents.join(' and ')} talk from step ${t.step}`);
						}
						await new Promise((done) => setTimeout(done, 2 * (at - sim.state.step)));
						if (r.template !== 'react') return gateway.complete<T>(r);
						const talk = r.vars.other !== '';
						if (talk) {
							seen.talks++;
							talked.set(agent, Math.min(at, talked.get(agent) ?? Infinity));
						}
						return { value: { react: false, talk, reaction: '' } as T, failsafe: false };
					},
					embed: (t) => gateway.embed(t)
				};
				await sim.lookahead(talker, { horizonSteps: 120, started: new Set() });
			}
			await sim.step([], gateway);
		}
		expect(seen.talks).toBeGreaterThan(0);
		expect(seen.begun).toBeGreaterThan(0);
		expect(moot).toEqual([]);
	}, 120_000);

	it('makes ahead no conversation whose speakers an agent before them in the state order is foreseen to take first', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const nameOf = new Map(sim.state.agents.map((a) => [a.id, a.name]));
		let conversations = 0;
		const twice: string[] = [];
		for (let i = 0; i < 300; i++) {
			if (i % 10 === 5) {
				// every foreseen decision is to talk: the conversations each agent is in, by step
				const inTalks = new Map<string, number>();
				const talker = talking(gateway, (r) => {
					const at = Number(r.key.split('/')[0]);
					if (r.template !== 'dialogue_turn' || (r.vars.history as string[]).length > 0 || at <= sim.state.step) return;
					conversations++;
					for (const name of [nameOf.get(r.agent ?? ''), r.vars.other]) inTalks.set(`${at}:${name}`, (inTalks.get(`${at}:${name}`) ?? 0) + 1);
				});
				await sim.lookahead(talker, { horizonSteps: 120, started: new Set() });
				twice.push(...[...inTalks].filter(([, n]) => n > 1).map(([k]) => k));
			}
			await sim.step([], gateway);
		}
		expect(conversations).toBeGreaterThan(0);
		// the step pairs agents once each, in the state's order
		expect(twice).toEqual([]);
	}, 120_000);

	it('makes no conversation a foreseen decision begins when told not to, and still asks the decisions', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const asked = { true: { decisions: 0, lines: 0 }, false: { decisions: 0, lines: 0 } };
		for (let i = 0; i < 200; i++) {
			if (i % 10 === 5) {
				for (const talks of [true, false]) {
					// every foreseen decision is to talk
					const talker = talking(gateway, (r) => {
						if (r.template === 'react') asked[`${talks}`].decisions++;
						if (r.template === 'dialogue_turn' && Number(r.key.split('/')[0]) > sim.state.step) asked[`${talks}`].lines++;
					});
					await sim.lookahead(talker, { horizonSteps: 120, talks, started: new Set() });
				}
			}
			await sim.step([], gateway);
		}
		expect(asked.true.lines).toBeGreaterThan(0);
		expect(asked.false.decisions).toBeGreaterThan(0);
		expect(asked.false.lines).toBe(0);
	}, 120_000);

	it('decides no reaction ahead for an agent that will reflect before it', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		const threshold = sim.state.settings.reflection.threshold;
		const deciders = { far: new Set<string>(), reflecting: new Set<string>() };
		for (let i = 0; i < 200; i++) {
			if (i % 10 === 5) {
				const decided = new Set<string>();
				const port = watched(gateway, (r) => {
					if (r.template === 'react') decided.add(r.agent ?? '');
				});
				await sim.lookahead(port, { horizonSteps: 120, started: new Set() });
				for (const id of decided) deciders.far.add(id);
				// the same agents one rating short of reflecting: the step that decides reflects first
				const saved = new Map(sim.state.agents.map((a) => [a.id, a.importanceSinceReflection]));
				for (const a of sim.state.agents) if (decided.has(a.id)) a.importanceSinceReflection = threshold - 1;
				const again = new Set<string>();
				await sim.lookahead(
					watched(gateway, (r) => {
						if (r.template === 'react') again.add(r.agent ?? '');
					}),
					{ horizonSteps: 120, started: new Set() }
				);
				for (const id of again) if (decided.has(id)) deciders.reflecting.add(id);
				for (const a of sim.state.agents) a.importanceSinceReflection = saved.get(a.id) as number;
			}
			await sim.step([], gateway);
		}
		expect(deciders.far.size).toBeGreaterThan(0);
		expect([...deciders.reflecting]).toEqual([]);
	}, 120_000);

	it('decides reactions ahead only for steps within the steps it is given to decide ahead', async () => {
		const { gateway } = await offlineAhead();
		const { sim } = await Simulation.create(world, { seed: 1 }, gateway);
		// how far ahead of the step about to run each foreseen decision is asked for
		const farthest = { near: 0, far: 0 };
		for (let i = 0; i < 200; i++) {
			if (i % 10 === 5) {
				for (const [name, decideSteps] of [['near', 12], ['far', undefined]] as const) {
					const port = watched(gateway, (r) => {
						if (r.template === 'react') farthest[name] = Math.max(farthest[name], Number(r.key.split('/')[0]) - sim.state.step);
					});
					await sim.lookahead(port, { horizonSteps: 120, decideSteps, started: new Set() });
				}
			}
			await sim.step([], gateway);
		}
		expect(farthest.near).toBeGreaterThan(0);
		expect(farthest.near).toBeLessThanOrEqual(12);
		expect(farthest.far).toBeGreaterThan(12);
	}, 120_000);
});
