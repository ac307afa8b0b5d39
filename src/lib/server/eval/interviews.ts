// The controlled evaluation's interviews: every chosen agent answers every question under every
// ablation condition, read-only, from one restored state, so the answers differ only by the
// memory each condition lets the agent use. Kept as `<run dir>/evaluations/interviews-<step>.json`.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { InterviewAnswerRecord, InterviewSet, InterviewSetListing, MemoryRef } from '../../api/eval';
import { formatIso } from '../../engine/clock';
import type { MemoryRecord } from '../../engine/memory';
import type { Simulation } from '../../engine/sim';
import {
	CONDITION_IDS,
	CONDITIONS,
	conditionOf,
	fillQuestion,
	namedPersona,
	needsName,
	type ConditionId,
	type InterviewQuestion
} from '../../eval/questions';
import { InvalidError, notFound } from '../errors';
import { dataHome, worldsDir } from '../paths';
import { createModel, type LiveModel, type ModelChoice } from '../run/models';
import { loadState, openRun } from '../run/runner';
import { questionBank } from './evaluation-file';
import { humanAnswerCount, readHumanAnswers } from './human';
import { evaluationsDir, lastStep, readJson, writeJsonFile } from './sources';

export const INTERVIEWER = 'an interviewer';

/** How many interviews wait on the model at once (a hosted model answers in parallel). */
export const INTERVIEW_CONCURRENCY = 6;

export function memoryRef(m: MemoryRecord): MemoryRef {
	return { id: m.id, kind: m.kind, source: m.source, step: m.step, description: m.description };
}

/** Runs `work` over `items` with at most `limit` at a time; results in item order. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
	const out = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const i = next++;
			out[i] = await work(items[i], i);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return out;
}

/** The run's own model (provider and prompt set), for questions asked after the fact. */
export async function runModel(runDir: string, provider: string, home: string): Promise<LiveModel> {
	return createModel(provider as ModelChoice, { home, promptsDir: path.join(runDir, 'prompts') });
}

export function checkConditions(list: readonly string[] | undefined): ConditionId[] {
	if (list === undefined) return [...CONDITION_IDS];
	if (list.length === 0) throw new InvalidError(`name at least one condition (${CONDITION_IDS.join(', ')})`);
	const out: ConditionId[] = [];
	for (const c of list) {
		if (!conditionOf(c)) throw new InvalidError(`unknown condition "${c}" (conditions: ${CONDITION_IDS.join(', ')})`);
		if (!out.includes(c as ConditionId)) out.push(c as ConditionId);
	}
	// the paper's order, whatever order they were asked in
	return CONDITIONS.map((c) => c.id).filter((id) => out.includes(id));
}

/** Agent ids for names or ids as typed (every agent when none is given), in id order. */
export function chooseAgents(sim: Simulation, agents: readonly string[] | undefined): string[] {
	const ids = agents?.length ? [...new Set(agents.map((a) => sim.agent(a.trim()).id))] : sim.state.agents.map((a) => a.id);
	return ids.sort();
}

export interface InterviewOptions {
	step?: number;
	agents?: string[];
	conditions?: string[];
	/** instead of the world's questions */
	questions?: InterviewQuestion[];
	home?: string;
	/** where the world's current evaluation.json is looked for (default: the worlds folder) */
	worldsDir?: string;
}

export function interviewSetFile(runDir: string, step: number): string {
	return path.join(evaluationsDir(runDir), `interviews-${step}.json`);
}

/** Asks the questions and stores the set (replacing one stored before for the same step). */
export async function runInterviews(runId: string, opts: InterviewOptions = {}): Promise<InterviewSet> {
	const home = opts.home ?? dataHome();
	const reader = openRun(runId, home);
	const step = opts.step ?? lastStep(reader);
	const conditions = checkConditions(opts.conditions);
	const bank = opts.questions
		? { questions: opts.questions, from: 'request' }
		: await questionBank({ worldsDir: opts.worldsDir ?? worldsDir(), world: reader.meta.world, runWorldDir: path.join(reader.dir, 'world') });
	const model = await runModel(reader.dir, reader.meta.model.provider, home);
	try {
		const { sim, world } = await loadState(runId, step, { home, model });
		const agents = chooseAgents(sim, opts.agents);
		const skipped: InterviewSet['skipped'] = [];
		const tasks: { agent: string; q: InterviewQuestion; text: string; condition: ConditionId }[] = [];
		const agentList: InterviewSet['agents'] = [];
		for (const id of agents) {
			const named = namedPersona(id, world.personas);
			agentList.push({ id, name: sim.agent(id).name, ...(named ? { named: named.id } : {}) });
			for (const q of bank.questions) {
				if (needsName(q.text) && !named) {
					skipped.push({ agent: id, question: q.id, reason: 'the question names another resident and the world has no other' });
					continue;
				}
				const text = fillQuestion(q.text, named?.name);
				for (const condition of conditions) tasks.push({ agent: id, q, text, condition });
			}
		}
		const answers = await pool(tasks, INTERVIEW_CONCURRENCY, async (t): Promise<InterviewAnswerRecord> => {
			const ablation = (conditionOf(t.condition) as (typeof CONDITIONS)[number]).ablation;
			const r = await sim.interview(t.agent, INTERVIEWER, t.text, model, { condition: ablation });
			return { agent: t.agent, question: t.q.id, condition: t.condition, text: t.text, answer: r.answer, memories: r.memories.map(memoryRef) };
		});
		model.drainCalls();
		const set: InterviewSet = {
			schema: 1,
			run: runId,
			world: reader.meta.world,
			step,
			time: formatIso(sim.time),
			created: new Date().toISOString(),
			model: reader.meta.model.label,
			questionsFrom: bank.from,
			questions: bank.questions.map((q) => ({ id: q.id, category: q.category, text: q.text })),
			conditions,
			agents: agentList,
			skipped,
			answers
		};
		writeJsonFile(interviewSetFile(reader.dir, step), set);
		// answers people wrote for this step are kept across re-runs of the model's interviews
		return withHuman(set, reader.dir);
	} finally {
		model.close();
	}
}

/** The stored interview sets of a run, step ascending. */
export function listInterviewSets(runId: string, home = dataHome()): InterviewSetListing[] {
	const reader = openRun(runId, home);
	const dir = evaluationsDir(reader.dir);
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	const out: InterviewSetListing[] = [];
	for (const n of names) {
		const m = /^interviews-(\d+)\.json$/.exec(n);
		if (!m) continue;
		const set = readJson<InterviewSet>(path.join(dir, n));
		if (!set || set.schema !== 1) continue;
		out.push({
			step: set.step,
			time: set.time,
			created: set.created,
			agents: set.agents.length,
			questions: set.questions.length,
			conditions: set.conditions,
			answers: set.answers.length,
			human: humanAnswerCount(reader.dir, set.step)
		});
	}
	return out.sort((a, b) => a.step - b.step);
}

/** One stored set; the newest step's when `step` is not given. Throws "no interviews ..." when there is none. */
export function readInterviewSet(runId: string, step: number | undefined, home = dataHome()): InterviewSet {
	const reader = openRun(runId, home);
	const at = step ?? listInterviewSets(runId, home).at(-1)?.step;
	const set = at === undefined ? undefined : readJson<InterviewSet>(interviewSetFile(reader.dir, at));
	if (!set || set.schema !== 1) {
		throw notFound(`no interviews stored for run ${runId}${step === undefined ? '' : ` at step ${step}`}: run them first (POST /api/runs/${runId}/eval/interviews or the CLI's interviews command)`);
	}
	return withHuman(set, reader.dir);
}

/** The set with the human-written answers stored for its step (none written: the set as stored). */
function withHuman(set: InterviewSet, runDir: string): InterviewSet {
	const stored = readHumanAnswers(runDir, set.step);
	return stored?.answers.length ? { ...set, human: stored.answers } : set;
}
