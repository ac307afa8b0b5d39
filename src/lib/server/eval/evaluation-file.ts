// Evaluation files read from JSON, every problem named by file and line: a world's own interview
// questions (below) and a file of human-written answers to import (`parseHumanAnswersFile`).
//
// A world's own interview questions: `worlds/<id>/evaluation.json`, optional.
//
//   { "questions": [ { "id": "introduction", "category": "self-knowledge",
//                      "text": "Give an introduction of yourself." }, ... ] }
//
// Every field is checked and every problem names the file and line; without the file the
// paper's bank (src/lib/eval/questions.ts) is used.

import { existsSync } from 'node:fs';
import path from 'node:path';
import {
	DEFAULT_QUESTIONS,
	QUESTION_CATEGORIES,
	QUESTION_ID,
	unknownPlaceholders,
	type InterviewQuestion,
	type QuestionCategory
} from '../../eval/questions';
import type { HumanAnswerInput } from '../../api/eval';
import { ProblemList, WorldError } from '../../world/problems';
import { FieldChecker, parseJsonFile, readJsonFile, showPath } from '../world/manifest';

export const EVALUATION_FILE = 'evaluation.json';

export interface QuestionBank {
	questions: InterviewQuestion[];
	/** where they come from: `default`, or the file read (e.g. `worlds/smallville/evaluation.json`) */
	from: string;
}

/** Checks a world folder's evaluation.json into `problems`; undefined when absent or wrong. */
export async function readEvaluationFile(dir: string, problems: ProblemList): Promise<InterviewQuestion[] | undefined> {
	const f = await readJsonFile(dir, EVALUATION_FILE, problems, true);
	if (!f) return undefined;
	const c = new FieldChecker(problems, f);
	const root = f.doc.value;
	const before = problems.errors.length;
	if (!c.object(root, [], ['questions'], EVALUATION_FILE)) return undefined;
	const list = root.questions;
	if (list === undefined) {
		c.error([], 'missing field "questions" (a list of { "id", "category", "text" })', ['questions']);
		return undefined;
	}
	if (!Array.isArray(list)) {
		c.error(['questions'], '"questions" must be a list of { "id", "category", "text" }');
		return undefined;
	}
	if (list.length === 0) c.error(['questions'], '"questions" is empty: remove the file to use the default questions');
	const seen = new Map<string, number>();
	const out: InterviewQuestion[] = [];
	list.forEach((item, k) => {
		const p = ['questions', k];
		if (!c.object(item, p, ['id', 'category', 'text'], 'question')) return;
		const id = c.string(item, p, 'id', { nonEmpty: true });
		const category = c.string(item, p, 'category', { nonEmpty: true });
		const text = c.string(item, p, 'text', { nonEmpty: true });
		if (id !== undefined) {
			if (!QUESTION_ID.test(id)) c.error([...p, 'id'], `question id "${id}" must be lowercase letters, digits and dashes (at most 64)`);
			else if (seen.has(id)) c.error([...p, 'id'], `question id "${id}" is used twice (also questions[${seen.get(id)}])`);
			else seen.set(id, k);
		}
		if (category !== undefined && !(QUESTION_CATEGORIES as readonly string[]).includes(category))
			c.error([...p, 'category'], `"${showPath([...p, 'category'])}" must be one of ${QUESTION_CATEGORIES.join(', ')} (got "${category}")`);
		if (text !== undefined)
			for (const ph of unknownPlaceholders(text))
				c.error([...p, 'text'], `unknown placeholder ${ph} in "${showPath([...p, 'text'])}"; the only placeholder is [name]`);
		if (id !== undefined && category !== undefined && text !== undefined) out.push({ id, category: category as QuestionCategory, text });
	});
	return problems.errors.length > before ? undefined : out;
}

/**
 * The questions for a run of world `world`: the world folder's evaluation.json (as it is now,
 * so questions can be edited after the run), else the copy the run keeps, else the default bank.
 * Throws WorldError when the file has problems.
 */
export async function questionBank(opts: { worldsDir: string; world: string; runWorldDir?: string }): Promise<QuestionBank> {
	const candidates = [
		// a world id is a folder name; anything else never reaches the disk
		...(/^[\w-][\w.-]*$/.test(opts.world) ? [{ dir: path.join(opts.worldsDir, opts.world), from: `worlds/${opts.world}/${EVALUATION_FILE}` }] : []),
		...(opts.runWorldDir ? [{ dir: opts.runWorldDir, from: `the run's copy of ${EVALUATION_FILE}` }] : [])
	];
	for (const c of candidates) {
		if (!existsSync(path.join(c.dir, EVALUATION_FILE))) continue;
		const problems = new ProblemList();
		const questions = await readEvaluationFile(c.dir, problems);
		if (!questions || problems.errors.length) throw new WorldError(problems.errors, c.from);
		return { questions, from: c.from };
	}
	return { questions: DEFAULT_QUESTIONS.map((q) => ({ ...q })), from: 'default' };
}

// ---------------------------------------------------------------------------
// human-written answers to import

/**
 * A file of answers written by people (the interviews' `human` condition), as the command line's
 * `interviews RUN --human FILE` imports it:
 *
 *   { "step": 120, "answers": [ { "agent": "Isabella Rodriguez", "question": "introduction",
 *                                 "answer": "I run Hobbs Cafe ..." }, ... ] }
 *
 * or a bare list of answers. `step` is optional (the command's --step, else the newest
 * interview set); `agent` is an id or a full name. A file saved from GET .../eval/human (with
 * `schema`, `run` and each answer's `condition`, `text` and `updated`) reads the same way.
 */
export interface HumanAnswersFile {
	step?: number;
	run?: string;
	/** each with the line it starts on, for the checks against the interview set */
	answers: (HumanAnswerInput & { where: string })[];
}

const HUMAN_TOP_KEYS = ['answers', 'step', 'run', 'schema'];
const HUMAN_ANSWER_KEYS = ['agent', 'question', 'answer', 'condition', 'text', 'updated'];

/** Parses and checks the shape of a human-answers file; throws WorldError naming every problem by line. */
export function parseHumanAnswersFile(file: string, text: string): HumanAnswersFile {
	const problems = new ProblemList();
	const f = parseJsonFile(file, text, problems);
	if (!f) throw new WorldError(problems.errors, file);
	const c = new FieldChecker(problems, f);
	const root = f.doc.value;
	let list: unknown = root;
	let base: (string | number)[] = [];
	const out: HumanAnswersFile = { answers: [] };
	if (!Array.isArray(root)) {
		if (!c.object(root, [], HUMAN_TOP_KEYS, file)) throw new WorldError(problems.errors, file);
		list = root.answers;
		base = ['answers'];
		if (list === undefined) c.error([], 'missing field "answers" (a list of { "agent", "question", "answer" })', ['answers']);
		else if (!Array.isArray(list)) c.error(['answers'], '"answers" must be a list of { "agent", "question", "answer" }');
		out.step = c.number(root, [], 'step', { ok: (v) => Number.isInteger(v) && v >= 0, text: 'a whole number of steps' }, false);
		out.run = c.string(root, [], 'run', { required: false, nonEmpty: true });
		if (root.schema !== undefined && root.schema !== 1) c.error(['schema'], `"schema" must be 1, not ${JSON.stringify(root.schema)}`);
	}
	if (Array.isArray(list)) {
		if (list.length === 0) c.error(base, 'there are no answers in the file');
		list.forEach((item, k) => {
			const p = [...base, k];
			if (!c.object(item, p, HUMAN_ANSWER_KEYS, 'answer')) return;
			const agent = c.string(item, p, 'agent', { nonEmpty: true });
			const question = c.string(item, p, 'question', { nonEmpty: true });
			const answer = c.string(item, p, 'answer', { nonEmpty: true });
			if (item.condition !== undefined && item.condition !== 'human') {
				c.error([...p, 'condition'], `"${showPath([...p, 'condition'])}" must be "human" (answers written by a person), not ${JSON.stringify(item.condition)}`);
			}
			if (agent !== undefined && question !== undefined && answer !== undefined) {
				out.answers.push({ agent, question, answer, where: c.where(p) ?? showPath(p) });
			}
		});
	}
	if (problems.errors.length) throw new WorldError(problems.errors, file);
	return out;
}
