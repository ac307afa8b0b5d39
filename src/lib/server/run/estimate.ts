// What a run will cost before it starts. A new run: the offline stand-in runs the same world
// (seed, settings, ablations, prompt set) in memory for a sample span (the requested span, at
// most one game day); its calls per agent-step and tokens per call, counted on the rendered
// prompts and answers at 4 characters a token, are scaled to the requested span and priced at
// the model that would answer. A fork or a resume with at least an hour of its own recorded
// steps before the point uses those recorded calls instead (method `history`).

import path from 'node:path';
import type { Price, RunEstimate } from '../../api/types';
import { applyOverrides } from '../../engine/settings';
import { profileOverrides } from '../../engine/profiles';
import { Simulation } from '../../engine/sim';
import { NO_ABLATION, type Ablation } from '../../engine/state';
import type { WorldDef } from '../../engine/types';
import type { RunMeta } from '../journal/journal';
import { dataHome } from '../paths';
import { loadWorld } from '../world/load';
import { costOf } from './cost';
import { createModel, type LiveModel, type ModelChoice } from './models';
import { openRun, runWorld } from './runner';
import { InvalidError, invalidFrom } from '../errors';

export interface EstimateOptions {
	world?: string;
	steps: number;
	seed?: number;
	/** a fork: the run and step it starts from */
	from?: { run: string; step: number };
	/** a resume: the run continued from its last committed step */
	resume?: string;
	/** a named profile: its settings, before `set` */
	profile?: string;
	set?: string[];
	ablate?: (keyof Ablation)[];
	promptsDir?: string;
	model?: ModelChoice;
	home?: string;
	/** longest span run by the dry run (default: one game day) */
	sampleSteps?: number;
	/** fewest recorded steps for the history method (default: one game hour) */
	minHistorySteps?: number;
}

interface Measured {
	steps: number;
	agents: number;
	calls: number;
	/** per template */
	templates: Map<string, { calls: number; prompt: number; completion: number }>;
}

function addCall(m: Measured, template: string, tokens: { prompt: number; completion: number }): void {
	m.calls++;
	let t = m.templates.get(template);
	if (!t) m.templates.set(template, (t = { calls: 0, prompt: 0, completion: 0 }));
	t.calls++;
	t.prompt += tokens.prompt;
	t.completion += tokens.completion;
}

/** The offline stand-in runs `world` for `steps` steps in memory; its calls are counted. */
async function dryRun(
	world: WorldDef,
	opts: { seed: number; ablate: Ablation; set: string[]; steps: number; promptsDir?: string; home: string }
): Promise<Measured> {
	const model = await createModel('offline', { home: opts.home, promptsDir: opts.promptsDir, env: { ...process.env, SIMULACRA_OFFLINE_LATENCY_MS: '' } });
	const m: Measured = { steps: opts.steps, agents: world.personas.length, calls: 0, templates: new Map() };
	const drain = () => {
		for (const c of model.drainCalls()) addCall(m, c.template, c.tokens);
	};
	try {
		const { sim } = await Simulation.create(world, { seed: opts.seed, ablate: opts.ablate }, model);
		if (opts.set.length)
			try {
				applyOverrides(sim.state, opts.set);
			} catch (e) {
				// a setting the run could not take
				throw invalidFrom(e);
			}
		drain();
		for (let i = 0; i < opts.steps; i++) {
			await sim.step([], model);
			drain();
		}
	} finally {
		model.close();
	}
	return m;
}

/** The recorded calls of `meta`'s own steps [from, to). */
function history(dir: string, meta: RunMeta, agents: number, from: number, to: number): Measured {
	const m: Measured = { steps: to - from, agents, calls: 0, templates: new Map() };
	for (const c of openRun(meta.id, path.dirname(path.dirname(dir))).calls()) {
		if (c.s >= from && c.s < to) addCall(m, c.template, c.tokens);
	}
	return m;
}

const int = (n: number) => Math.round(n).toLocaleString('en');

/** Tokens and dollars a run of `opts.steps` steps is expected to cost (see the file's head). */
export async function estimateRun(opts: EstimateOptions): Promise<RunEstimate> {
	const home = opts.home ?? dataHome();
	if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new InvalidError(`steps must be a whole number of at least 1, not ${opts.steps}`);
	const base = opts.resume ?? opts.from?.run;
	const reader = base ? openRun(base, home) : null;
	const meta = reader?.meta;
	const choice: ModelChoice = opts.model ?? ((meta?.model.provider as ModelChoice | undefined) ?? 'offline');
	const world = reader ? await runWorld(reader) : (await loadWorld(opts.world ?? 'smallville')).def;
	const promptsDir = opts.promptsDir ?? (reader ? path.join(reader.dir, 'prompts') : undefined);
	const day = Math.max(1, Math.round(86_400 / world.secondsPerStep));
	const sampleCap = Math.max(1, opts.sampleSteps ?? day);
	const minHistory = opts.minHistorySteps ?? Math.round(3600 / world.secondsPerStep);

	let measured: Measured | null = null;
	let method: RunEstimate['method'] = 'dry-run';
	if (reader && meta) {
		const point = opts.resume ? reader.committed() : (opts.from as { step: number }).step;
		const from = Math.max(meta.firstStep, point - sampleCap);
		if (point - from >= minHistory) {
			measured = history(reader.dir, meta, world.personas.length, from, point);
			method = 'history';
		}
	}
	if (!measured) {
		const ablate: Ablation = { ...(meta?.ablate ?? NO_ABLATION) };
		for (const a of opts.ablate ?? []) ablate[a] = true;
		measured = await dryRun(world, {
			seed: opts.seed ?? meta?.seed ?? 1,
			ablate,
			set: [...(meta?.overrides ?? []), ...profileOverrides(opts.profile), ...(opts.set ?? [])],
			steps: Math.min(opts.steps, sampleCap),
			promptsDir,
			home
		});
	}

	// the model that would answer, and its prices
	let model: LiveModel | null = null;
	try {
		model = await createModel(choice, { home, promptsDir });
		const identity = model.identity;
		const languageModel = identity.provider !== 'offline';
		const scale = opts.steps / Math.max(1, measured.steps);
		let prompt = 0;
		let completion = 0;
		let usd: number | null = 0;
		const priceOf = (name: string): Price | null => (languageModel ? (meta?.prices?.[name] ?? model?.price(name) ?? null) : { input: 0, output: 0 });
		for (const [template, t] of measured.templates) {
			const tokens = { prompt: t.prompt * scale, completion: t.completion * scale };
			prompt += tokens.prompt;
			completion += tokens.completion;
			const price = priceOf(identity.routes?.[template]?.model ?? identity.chat.model);
			usd = usd === null || price === null ? null : usd + costOf(tokens, price);
		}
		const calls = measured.calls;
		const agentSteps = Math.max(1, measured.agents * measured.steps);
		const chatPrice = priceOf(identity.chat.model);
		const how =
			method === 'history'
				? `the ${int(measured.steps)} steps before step ${opts.resume ? reader?.committed() : opts.from?.step} of run ${base} as recorded`
				: `a dry run of the offline stand-in on the same world for ${int(measured.steps)} steps, its rendered prompts and answers counted at 4 characters a token`;
		return {
			steps: opts.steps,
			agents: measured.agents,
			method,
			sampleSteps: measured.steps,
			callsPerAgentStep: calls / agentSteps,
			tokensPerCall: { prompt: calls ? promptOf(measured) / calls : 0, completion: calls ? completionOf(measured) / calls : 0 },
			calls: Math.round(calls * scale),
			tokens: { prompt: Math.round(prompt), completion: Math.round(completion) },
			usd,
			model: languageModel ? identity.chat.model : model.label,
			languageModel,
			price: chatPrice,
			note:
				`From ${how}, scaled to ${int(opts.steps)} steps` +
				(languageModel
					? usd === null
						? `; no price is configured for ${identity.chat.model}, so no dollar figure.`
						: ' at the configured prices. A language model writes longer answers than the stand-in and may need repair rounds: expect more.'
					: '; the offline stand-in is not a language model and costs nothing.')
		};
	} finally {
		model?.close();
	}
}

function promptOf(m: Measured): number {
	let n = 0;
	for (const t of m.templates.values()) n += t.prompt;
	return n;
}

function completionOf(m: Measured): number {
	let n = 0;
	for (const t of m.templates.values()) n += t.completion;
	return n;
}
