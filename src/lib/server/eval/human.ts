// The paper's fifth condition: interview answers written by a person (a crowdworker) instead of
// the model. A person writes an agent's answer to a question of the interview set at a step;
// the answers are kept beside the set as `<run dir>/evaluations/human-<step>.json` (so running
// the model's interviews again keeps them), shown beside the model's conditions and ranked
// with them as condition `human`.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HumanAnswerInput, HumanAnswerRecord, HumanAnswerSet, HumanAnswersRequest, InterviewSet } from '../../api/eval';
import { HUMAN_ANSWER_MAX, HUMAN_CONDITION } from '../../eval/questions';
import { ConflictError, InvalidError, NotFoundError } from '../errors';
import { dataHome } from '../paths';
import { openRun } from '../run/runner';
import { readInterviewSet } from './interviews';
import { evaluationsDir, readJson, writeJsonFile } from './sources';

export function humanAnswersFile(runDir: string, step: number): string {
	return path.join(evaluationsDir(runDir), `human-${step}.json`);
}

/** The stored human-written answers for the set at `step`; undefined when none were written. */
export function readHumanAnswers(runDir: string, step: number): HumanAnswerSet | undefined {
	const file = humanAnswersFile(runDir, step);
	if (!existsSync(file)) return undefined;
	const set = readJson<HumanAnswerSet>(file);
	if (!set || set.schema !== 1 || !Array.isArray(set.answers)) {
		throw new ConflictError(`${file} is not a file of human-written answers (schema 1); move it away to start again`);
	}
	return set;
}

export function humanAnswerCount(runDir: string, step: number): number {
	return readHumanAnswers(runDir, step)?.answers.length ?? 0;
}

/** A problem with one answer: where (`answers[2]`, or a line of an imported file) and why. */
export interface HumanAnswerProblem {
	where: string;
	message: string;
}

/** Answers refused (`invalid`): every problem is listed in the message, and as the error's issues. */
export class HumanAnswersError extends InvalidError {
	constructor(
		readonly answerProblems: HumanAnswerProblem[],
		what = 'the human-written answers'
	) {
		const n = answerProblems.length;
		super(`${what} ${n === 1 ? 'have a problem' : `have ${n} problems`}:\n${answerProblems.map((p) => `  ${p.where}: ${p.message}`).join('\n')}`, {
			issues: answerProblems.map((p) => ({ path: p.where, message: p.message }))
		});
		this.name = 'HumanAnswersError';
	}
}

/** At most this many problems are listed; the rest are counted. */
const MAX_PROBLEMS = 20;

/**
 * Checks answers against an interview set: the agent (id or full name) is one the set
 * interviewed, the question one of its questions that was asked of that agent, the answer not
 * empty and not longer than HUMAN_ANSWER_MAX, no agent and question twice. Returns the records
 * (question text as asked of the agent); throws HumanAnswersError listing every problem.
 */
export function checkHumanAnswers(
	set: InterviewSet,
	inputs: readonly (HumanAnswerInput & { where?: string })[],
	updated: string
): HumanAnswerRecord[] {
	const problems: HumanAnswerProblem[] = [];
	let extra = 0;
	const problem = (where: string, message: string) => {
		if (problems.length < MAX_PROBLEMS) problems.push({ where, message });
		else extra++;
	};
	const agents = new Map<string, string>();
	for (const a of set.agents) {
		agents.set(a.id, a.id);
		agents.set(a.name.toLowerCase(), a.id);
	}
	const questions = new Set(set.questions.map((q) => q.id));
	const asked = new Map<string, string>();
	for (const a of set.answers) asked.set(`${a.agent}\n${a.question}`, a.text);
	const skipped = new Map(set.skipped.map((s) => [`${s.agent}\n${s.question}`, s.reason]));
	const seen = new Map<string, string>();
	const out: HumanAnswerRecord[] = [];
	if (inputs.length === 0) problem('answers', 'no answers given');
	inputs.forEach((input, k) => {
		const where = input.where ?? `answers[${k}]`;
		const agentText = typeof input.agent === 'string' ? input.agent.trim() : '';
		const agent = agents.get(agentText) ?? agents.get(agentText.toLowerCase());
		let ok = true;
		if (!agentText) {
			problem(where, 'the agent is missing');
			ok = false;
		} else if (!agent) {
			problem(where, `unknown agent "${agentText.slice(0, 60)}": the interviews at step ${set.step} asked ${set.agents.map((a) => `${a.id} (${a.name})`).join(', ')}`);
			ok = false;
		}
		const question = typeof input.question === 'string' ? input.question.trim() : '';
		if (!question) {
			problem(where, 'the question is missing');
			ok = false;
		} else if (!questions.has(question)) {
			problem(where, `unknown question "${question.slice(0, 60)}": the questions are ${set.questions.map((q) => q.id).join(', ')}`);
			ok = false;
		}
		const answer = typeof input.answer === 'string' ? input.answer.trim() : '';
		if (typeof input.answer !== 'string') {
			problem(where, 'the answer must be text');
			ok = false;
		} else if (!answer) {
			problem(where, 'the answer is empty: write what the agent would say (remove an answer with DELETE, or the page\'s Remove)');
			ok = false;
		} else if (answer.length > HUMAN_ANSWER_MAX) {
			problem(where, `the answer has ${answer.length} characters; at most ${HUMAN_ANSWER_MAX} are kept`);
			ok = false;
		}
		if (!ok || !agent) return;
		const key = `${agent}\n${question}`;
		const reason = skipped.get(key);
		const text = asked.get(key);
		if (reason !== undefined || text === undefined) {
			problem(where, `"${question}" was not asked of ${agent} at step ${set.step}${reason ? ` (${reason})` : ''}`);
			return;
		}
		const before = seen.get(key);
		if (before !== undefined) {
			problem(where, `a second answer of ${agent} to "${question}" (the first is at ${before})`);
			return;
		}
		seen.set(key, where);
		out.push({ agent, question, condition: HUMAN_CONDITION, text, answer, updated });
	});
	if (extra) problems.push({ where: 'answers', message: `and ${extra} more problem${extra === 1 ? '' : 's'}` });
	if (problems.length) throw new HumanAnswersError(problems);
	return out;
}

/** Answers in the set's order: agent, then question. */
function ordered(set: InterviewSet, answers: HumanAnswerRecord[]): HumanAnswerRecord[] {
	const agentAt = new Map(set.agents.map((a, i) => [a.id, i]));
	const questionAt = new Map(set.questions.map((q, i) => [q.id, i]));
	const at = (m: Map<string, number>, id: string) => m.get(id) ?? Number.MAX_SAFE_INTEGER;
	return [...answers].sort(
		(a, b) =>
			at(agentAt, a.agent) - at(agentAt, b.agent) ||
			at(questionAt, a.question) - at(questionAt, b.question) ||
			(a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.question < b.question ? -1 : a.question > b.question ? 1 : 0)
	);
}

export interface HumanOptions {
	home?: string;
	/** the wall-clock time written as `updated` (default: now) */
	now?: () => Date;
}

/**
 * Stores answers for the interview set at `step` (default: the newest set): each replaces the
 * answer stored for its agent and question; others are kept. Returns everything stored.
 */
export function saveHumanAnswers(runId: string, req: HumanAnswersRequest & { answers: (HumanAnswerInput & { where?: string })[] }, opts: HumanOptions = {}): HumanAnswerSet {
	const home = opts.home ?? dataHome();
	const reader = openRun(runId, home);
	const set = readInterviewSet(runId, req.step, home);
	const fresh = checkHumanAnswers(set, req.answers, (opts.now ?? (() => new Date()))().toISOString());
	const stored = readHumanAnswers(reader.dir, set.step);
	const byKey = new Map((stored?.answers ?? []).map((a) => [`${a.agent}\n${a.question}`, a]));
	for (const a of fresh) byKey.set(`${a.agent}\n${a.question}`, a);
	const next: HumanAnswerSet = { schema: 1, run: runId, step: set.step, answers: ordered(set, [...byKey.values()]) };
	writeJsonFile(humanAnswersFile(reader.dir, set.step), next);
	return next;
}

/** The human-written answers for the set at `step` (default: the newest set); none written is an empty list. */
export function humanAnswers(runId: string, step: number | undefined, home = dataHome()): HumanAnswerSet {
	const set = readInterviewSet(runId, step, home);
	return { schema: 1, run: runId, step: set.step, answers: set.human ?? [] };
}

/** Removes one agent's answer to one question; an answer never written is a 404. */
export function deleteHumanAnswer(runId: string, step: number | undefined, agent: string, question: string, home = dataHome()): HumanAnswerSet {
	const reader = openRun(runId, home);
	const set = readInterviewSet(runId, step, home);
	const id = set.agents.find((a) => a.id === agent.trim() || a.name.toLowerCase() === agent.trim().toLowerCase())?.id ?? agent.trim();
	const stored = readHumanAnswers(reader.dir, set.step);
	const answers = stored?.answers ?? [];
	const kept = answers.filter((a) => !(a.agent === id && a.question === question));
	if (kept.length === answers.length) {
		throw new NotFoundError(`no human-written answer of ${id.slice(0, 60)} to "${question.slice(0, 60)}" is stored for step ${set.step}`);
	}
	const next: HumanAnswerSet = { schema: 1, run: runId, step: set.step, answers: kept };
	writeJsonFile(humanAnswersFile(reader.dir, set.step), next);
	return next;
}
