// The paper's fifth condition: answers written by a person for the interview set of a short
// offline run, through the HTTP API (written, read, edited, removed), kept across a re-run of
// the model's interviews, exported, imported from a file by the command line, and ranked with
// the model's four conditions.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HumanAnswerSet, InterviewSet, InterviewSetListing } from '../../api/eval';
import { parseRankings } from '../../eval/rankings';
import { analyseRankings } from '../../eval/stats';
import { ANSWER_CONDITIONS, CONDITION_IDS, HUMAN_CONDITION } from '../../eval/questions';
import { projectRoot } from '../paths';
import { openRun, startRun, type RunSummary } from '../run/runner';
import { interviewsCsv } from './csv';
import { parseHumanAnswersFile } from './evaluation-file';
import { checkHumanAnswers, HumanAnswersError, humanAnswersFile } from './human';
import { readInterviewSet, runInterviews } from './interviews';
import * as humanRoute from '../../../routes/api/runs/[id]/eval/human/+server';
import * as interviewsRoute from '../../../routes/api/runs/[id]/eval/interviews/+server';

const dir = mkdtempSync(path.join(tmpdir(), 'eval-human-'));
const home = path.join(dir, 'home');
const worlds = path.join(dir, 'worlds');
process.env.SIMULACRA_HOME = home;
process.env.SIMULACRA_WORLDS = worlds;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STEP = 40;
let run: RunSummary;
let set: InterviewSet;

beforeAll(async () => {
	cpSync(path.join(projectRoot(), 'worlds/the-ville-3'), path.join(worlds, 'the-ville-3'), { recursive: true });
	run = await startRun({ world: 'the-ville-3', steps: STEP, seed: 5, home });
	set = await runInterviews(run.run, { home, step: STEP, agents: ['klaus-mueller', 'Maria Lopez'], conditions: ['full', 'no-observation-reflection-planning'] });
}, 120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any) => Response | Promise<Response>;

async function call(handler: Handler, query = '', method = 'GET', body?: unknown): Promise<Response> {
	const request = new Request(`http://127.0.0.1/api/runs/${run.run}/eval/human${query}`, body === undefined ? { method } : { method, body: JSON.stringify(body) });
	return handler({ params: { id: run.run }, request, url: new URL(request.url) });
}

async function errorOf(res: Response): Promise<string> {
	return ((await res.json()) as { message: string }).message;
}

describe('human-written answers', () => {
	it('round trip through the API: written, read with the set, edited, removed', async () => {
		const empty = await call(humanRoute.GET, `?step=${STEP}`);
		expect(empty.status).toBe(200);
		expect(((await empty.json()) as HumanAnswerSet).answers).toEqual([]);

		const put = await call(humanRoute.PUT, '', 'PUT', {
			step: STEP,
			answers: [
				{ agent: 'maria-lopez', question: 'occupation', answer: '  I study physics at Oak Hill College.  ' },
				{ agent: 'Klaus Mueller', question: 'introduction', answer: "I'm Klaus, I research gentrification." }
			]
		});
		expect(put.status).toBe(200);
		const saved = (await put.json()) as HumanAnswerSet;
		expect(saved.step).toBe(STEP);
		// the set's order (agents by id, then questions), names resolved, text as asked, trimmed
		expect(saved.answers.map((a) => [a.agent, a.question, a.condition, a.answer])).toEqual([
			['klaus-mueller', 'introduction', 'human', "I'm Klaus, I research gentrification."],
			['maria-lopez', 'occupation', 'human', 'I study physics at Oak Hill College.']
		]);
		expect(saved.answers[1].text).toBe("What's your occupation?");
		expect(saved.answers[0].updated).toMatch(/^\d{4}-\d\d-\d\dT/);
		const file = humanAnswersFile(openRun(run.run, home).dir, STEP);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(saved);

		// shown with the set, beside the model's conditions; the listing counts them
		const read = (await (await call(interviewsRoute.GET, `?step=${STEP}`)).json()) as InterviewSet;
		expect(read.human).toEqual(saved.answers);
		expect(read.answers).toEqual(set.answers);
		const listing = (await (await call(interviewsRoute.GET)).json()) as InterviewSetListing[];
		expect(listing.find((l) => l.step === STEP)?.human).toBe(2);

		// editing replaces one answer and keeps the others
		const edited = (await (await call(humanRoute.PUT, '', 'PUT', { answers: [{ agent: 'maria-lopez', question: 'occupation', answer: 'A student.' }] })).json()) as HumanAnswerSet;
		expect(edited.answers.map((a) => a.answer)).toEqual(["I'm Klaus, I research gentrification.", 'A student.']);

		// running the model's interviews again keeps what people wrote
		const again = await runInterviews(run.run, { home, step: STEP, agents: ['klaus-mueller', 'maria-lopez'], conditions: ['full', 'no-observation-reflection-planning'] });
		expect(again.human?.map((a) => a.answer)).toEqual(["I'm Klaus, I research gentrification.", 'A student.']);
		// the stored set itself holds only the model's answers
		expect(JSON.parse(readFileSync(path.join(openRun(run.run, home).dir, 'evaluations', `interviews-${STEP}.json`), 'utf8')).human).toBeUndefined();

		// the CSV export has them as condition human, right after that question's model answers
		const rows = interviewsCsv(readInterviewSet(run.run, STEP, home)).trim().split('\r\n');
		const maria = rows.filter((r) => r.includes(',maria-lopez,occupation,'));
		expect(maria.map((r) => r.split(',')[4])).toEqual(['full', 'no-observation-reflection-planning', 'human']);
		expect(maria[2]).toMatch(/,A student\.,$/);

		const removed = await call(humanRoute.DELETE, `?step=${STEP}&agent=maria-lopez&question=occupation`, 'DELETE');
		expect(((await removed.json()) as HumanAnswerSet).answers.map((a) => a.agent)).toEqual(['klaus-mueller']);
		const gone = await call(humanRoute.DELETE, `?step=${STEP}&agent=maria-lopez&question=occupation`, 'DELETE');
		expect(gone.status).toBe(404);
		expect(await errorOf(gone)).toMatch(/no human-written answer of maria-lopez to "occupation"/);
	}, 60_000);

	it('refuses unknown agents and questions and empty answers, naming each, and stores nothing', async () => {
		const before = readFileSync(humanAnswersFile(openRun(run.run, home).dir, STEP), 'utf8');
		const res = await call(humanRoute.PUT, '', 'PUT', {
			step: STEP,
			answers: [
				{ agent: 'Nobody Here', question: 'occupation', answer: 'x' },
				{ agent: 'maria-lopez', question: 'favourite-colour', answer: 'green' },
				{ agent: 'maria-lopez', question: 'interests', answer: '   ' },
				{ agent: 'isabella-rodriguez', question: 'occupation', answer: 'I run the cafe.' },
				{ agent: 'klaus-mueller', question: 'mayor', answer: 'Sam.' },
				{ agent: 'klaus-mueller', question: 'mayor', answer: 'Sam Moore.' }
			]
		});
		expect(res.status).toBe(400);
		const message = await errorOf(res);
		expect(message).toMatch(/^the human-written answers have 5 problems:/);
		expect(message).toMatch(/answers\[0\]: unknown agent "Nobody Here": the interviews at step 40 asked klaus-mueller \(Klaus Mueller\), maria-lopez \(Maria Lopez\)/);
		expect(message).toMatch(/answers\[1\]: unknown question "favourite-colour": the questions are introduction, occupation/);
		expect(message).toMatch(/answers\[2\]: the answer is empty/);
		// an agent of the town the set did not interview
		expect(message).toMatch(/answers\[3\]: unknown agent "isabella-rodriguez"/);
		expect(message).toMatch(/answers\[5\]: a second answer of klaus-mueller to "mayor" \(the first is at answers\[4\]\)/);
		expect(readFileSync(humanAnswersFile(openRun(run.run, home).dir, STEP), 'utf8')).toBe(before);

		expect((await call(humanRoute.PUT, '', 'PUT', { step: STEP })).status).toBe(400);
		expect(await errorOf(await call(humanRoute.PUT, '', 'PUT', { answers: [{ agent: 'a', question: 'b', answer: 'c', mood: 'd' }] }))).toMatch(/answers\[0\]: unknown field "mood"/);
		expect(await errorOf(await call(humanRoute.PUT, '', 'PUT', { step: 7, answers: [{ agent: 'a', question: 'b', answer: 'c' }] }))).toMatch(/no interviews stored for run .* at step 7/);
		expect((await call(humanRoute.DELETE, '?agent=klaus-mueller', 'DELETE')).status).toBe(400);
		const long = await call(humanRoute.PUT, '', 'PUT', { answers: [{ agent: 'klaus-mueller', question: 'occupation', answer: 'x'.repeat(4001) }] });
		expect(await errorOf(long)).toMatch(/4001 characters; at most 4000/);
	});

	it('are imported from a JSON file by the command line, with problems named by line', () => {
		const cli = (...a: string[]) => {
			const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(projectRoot(), 'src/cli/main.ts'), ...a], {
				cwd: projectRoot(),
				env: { ...process.env, SIMULACRA_HOME: home, SIMULACRA_WORLDS: worlds },
				encoding: 'utf8'
			});
			expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
			return { code: r.status, out: r.stdout, err: r.stderr };
		};
		const good = path.join(dir, 'answers.json');
		writeFileSync(
			good,
			JSON.stringify(
				{ step: STEP, answers: [{ agent: 'Maria Lopez', question: 'interests', answer: 'Physics, and streaming games.' }, { agent: 'klaus-mueller', question: 'mayor', answer: 'I think Sam Moore.' }] },
				null,
				2
			)
		);
		const ok = cli('interviews', run.run, '--human', good, '--json');
		expect(ok.code, ok.err).toBe(0);
		const saved = JSON.parse(ok.out) as HumanAnswerSet;
		expect(saved.answers.map((a) => `${a.agent}/${a.question}`)).toEqual(['klaus-mueller/introduction', 'klaus-mueller/mayor', 'maria-lopez/interests']);
		const text = cli('interviews', run.run, '--human', good);
		expect(text.out).toMatch(/imported 2 answers; 3 human-written answers \(condition human\) of 2 agents/);

		const bad = path.join(dir, 'bad.json');
		writeFileSync(bad, '{\n  "answers": [\n    { "agent": "maria-lopez", "question": "interests", "answer": "ok" },\n    { "agent": "nobody", "question": "interests", "answer": "x" }\n  ]\n}\n');
		const refused = cli('interviews', run.run, '--human', bad);
		expect(refused.code).toBe(1);
		expect(refused.err).toContain(`${bad} (line 4): unknown agent "nobody"`);
		const empty = path.join(dir, 'empty.json');
		writeFileSync(empty, '{\n  "answers": [\n    { "agent": "maria-lopez", "question": "interests", "answer": "" }\n  ]\n}\n');
		const emptyRefused = cli('interviews', run.run, '--human', empty);
		expect(emptyRefused.code).toBe(1);
		expect(emptyRefused.err).toMatch(/empty\.json \(line 3\): "answers\[0\]\.answer" must not be empty/);
		expect(cli('interviews', run.run, '--human', good, '--step', '3').err).toMatch(/is for step 40, but --step 3 was given/);
		expect(cli('interviews', run.run, '--human', path.join(dir, 'absent.json')).err).toMatch(/no file at .*absent\.json/);
		expect(existsSync(humanAnswersFile(openRun(run.run, home).dir, STEP))).toBe(true);
	}, 60_000);

	it('rankings over all five conditions, the human one included, give TrueSkill, Kruskal-Wallis and Dunn', () => {
		expect(ANSWER_CONDITIONS).toEqual([...CONDITION_IDS, HUMAN_CONDITION]);
		// raters rank the five answers to each question of the set; the human answers in the middle
		const questions = set.questions.map((q) => q.id).slice(0, 8);
		const lines = ['rater,question,order'];
		for (const rater of ['r1', 'r2', 'r3'])
			for (const q of questions) {
				const order = rater === 'r3' && q === questions[0] ? 'full>no-reflection=human>no-reflection-planning>no-observation-reflection-planning' : 'full>no-reflection>human>no-reflection-planning>no-observation-reflection-planning';
				lines.push(`${rater},${q},${order}`);
			}
		const parsed = parseRankings(lines.join('\n'), { file: 'rankings.csv' });
		expect(parsed.conditions).toEqual(['full', 'no-reflection', 'human', 'no-reflection-planning', 'no-observation-reflection-planning']);
		const stats = analyseRankings(parsed.rankings);
		expect(stats.conditions).toHaveLength(5);
		expect(stats.kruskal.df).toBe(4);
		expect(stats.dunn).toHaveLength(10);
		expect(stats.trueskill.human.games).toBe(24);
		expect(stats.trueskill.full.mu).toBeGreaterThan(stats.trueskill.human.mu);
		expect(stats.trueskill.human.mu).toBeGreaterThan(stats.trueskill['no-observation-reflection-planning'].mu);
	});

	it('checks a file of answers and the answers against the set without a run', () => {
		expect(() => parseHumanAnswersFile('a.json', '{ "answers": [], "stpe": 3 }')).toThrow(/a\.json \(line 1\): unknown field "stpe"; did you mean "step"\?/);
		expect(() => parseHumanAnswersFile('a.json', '[{ "agent": "x", "question": "y", "answer": "z", "condition": "full" }]')).toThrow(/"\[0\]\.condition" must be "human"/);
		const listed = parseHumanAnswersFile('a.json', '[\n{ "agent": "x", "question": "y", "answer": "z" }\n]');
		expect(listed.answers).toEqual([{ agent: 'x', question: 'y', answer: 'z', where: 'line 2' }]);
		let error: unknown;
		try {
			checkHumanAnswers(set, [], '2024-01-01T00:00:00.000Z');
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(HumanAnswersError);
		expect((error as HumanAnswersError).status).toBe(400);
		expect((error as Error).message).toMatch(/no answers given/);
	});
});
