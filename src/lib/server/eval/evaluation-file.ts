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
import { ProblemList, WorldError } from '../../world/problems';
import { FieldChecker, readJsonFile, showPath } from '../world/manifest';

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
