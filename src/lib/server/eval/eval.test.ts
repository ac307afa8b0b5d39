// The evaluation on a short offline run of The Ville whose scenario has a party in the run's
// window and a picnic after it: the interview under every condition, diffusion traced to
// memories, density from mutual answers, attendance from the logged positions, the HTTP API.

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport, InterviewSet, InterviewSetListing } from '../../api/eval';
import type { MemoryRecord } from '../../engine/memory';
import { parseCommitLine } from '../journal/commit-line';
import { readLogLines } from '../journal/log';
import { mentionsAll, mentionsAny, personKeywords, mentions } from '../../eval/classify';
import { CONDITION_IDS } from '../../eval/questions';
import { projectRoot } from '../paths';
import { loadState, openRun, startRun, stateHash, type RunSummary } from '../run/runner';
import { loadWorld } from '../world/load';
import { interviewSetFile, listInterviewSets, readInterviewSet, runInterviews } from './interviews';
import { evalFile, evaluateRun } from './metrics';
import * as evalRoute from '../../../routes/api/runs/[id]/eval/+server';
import * as interviewsRoute from '../../../routes/api/runs/[id]/eval/interviews/+server';

const dir = mkdtempSync(path.join(tmpdir(), 'eval-'));
const home = path.join(dir, 'home');
const worlds = path.join(dir, 'worlds');
const worldDir = path.join(worlds, 'the-ville-3');
process.env.SIMULACRA_HOME = home;
process.env.SIMULACRA_WORLDS = worlds;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PARTY = { place: 'Hobbs Cafe', start: '2023-02-13T12:00:00', end: '2023-02-13T14:00:00', host: 'isabella-rodriguez' };
// states of the party's window (10 s a step from 07:00)
const FROM = 1800;
const TO = 2520;
const STEPS = 4320;

let run: RunSummary;

beforeAll(async () => {
	cpSync(path.join(projectRoot(), 'worlds/the-ville-3'), worldDir, { recursive: true });
	const scenario = JSON.parse(readFileSync(path.join(worldDir, 'scenario.json'), 'utf8'));
	scenario.facts[0].event = PARTY;
	scenario.facts.push({
		id: 'picnic',
		label: 'the spring picnic in Johnson Park',
		keywords: ['picnic'],
		event: { place: 'Johnson Park', start: '2023-02-20T12:00:00', end: '2023-02-20T14:00:00' }
	});
	writeFileSync(path.join(worldDir, 'scenario.json'), JSON.stringify(scenario, null, '\t'));
	run = await startRun({ world: 'the-ville-3', steps: STEPS, seed: 3, home });
}, 120_000);

const memoriesAt = async (step: number) => {
	const { sim } = await loadState(run.run, step, { home });
	return (agent: string) => sim.stream(agent).records;
};

function stepLines() {
	return readLogLines(openRun(run.run, home).dir, 'steps').map(parseCommitLine);
}

describe('interviews under ablation conditions', () => {
	it('asks every agent every question under every condition from one state, read-only', async () => {
		const set = await runInterviews(run.run, { home, step: 2880 });
		expect(set.questionsFrom).toBe('default');
		expect(set.conditions).toEqual([...CONDITION_IDS]);
		expect(set.agents.map((a) => a.id)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
		expect(set.answers).toHaveLength(3 * 25 * 4);
		expect(set.answers.slice(0, 4).map((a) => [a.agent, a.question, a.condition])).toEqual(CONDITION_IDS.map((c) => ['isabella-rodriguez', 'introduction', c]));
		// [name] filled with a resident the agent knows
		const who = set.answers.find((a) => a.agent === 'maria-lopez' && a.question === 'who-is-name');
		expect(who?.text).toBe('Who is Klaus Mueller?');

		const records = await memoriesAt(2880);
		const byId = new Map<string, MemoryRecord>();
		for (const a of set.agents) for (const m of records(a.id)) byId.set(m.id, m);
		for (const a of set.answers) {
			expect(a.answer.length, `${a.agent} ${a.question} ${a.condition}`).toBeGreaterThan(0);
			for (const m of a.memories) {
				const rec = byId.get(m.id);
				expect(rec, m.id).toBeDefined();
				expect(m).toEqual({ id: rec!.id, kind: rec!.kind, source: rec!.source, step: rec!.step, description: rec!.description });
				expect(m.id.startsWith(`${a.agent}/`)).toBe(true);
			}
			const kinds = new Set(a.memories.map((m) => m.kind));
			if (a.condition !== 'full') expect(kinds.has('reflection')).toBe(false);
			if (a.condition === 'no-reflection-planning' || a.condition === 'no-observation-reflection-planning') expect(kinds.has('plan')).toBe(false);
			// without observation only the seeds (and inner voices) remain: nothing observed, nothing heard,
			// not even the notes taken after a conversation
			if (a.condition === 'no-observation-reflection-planning') {
				expect([...kinds].every((k) => k === 'thought')).toBe(true);
				expect(a.memories.every((m) => m.source === 'seed' || m.source === 'inner-voice'), `${a.agent} ${a.question}`).toBe(true);
			}
		}
		const full = set.answers.filter((a) => a.condition === 'full');
		expect(full.every((a) => a.memories.length > 0)).toBe(true);
		expect(full.some((a) => a.memories.some((m) => m.kind === 'observation'))).toBe(true);
		const blind = set.answers.filter((a) => a.condition === 'no-observation-reflection-planning');
		const differs = blind.filter((b) => full.find((f) => f.agent === b.agent && f.question === b.question)?.answer !== b.answer);
		expect(differs.length).toBeGreaterThan(0);

		// stored, and the same again (but the creation time); the run is unchanged
		const file = interviewSetFile(openRun(run.run, home).dir, 2880);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(set);
		const again = await runInterviews(run.run, { home, step: 2880 });
		expect({ ...again, created: '' }).toEqual({ ...set, created: '' });
		const { sim } = await loadState(run.run, STEPS, { home });
		expect(stateHash(sim)).toBe(run.stateHash);
		expect(listInterviewSets(run.run, home).map((l) => [l.step, l.answers, l.agents])).toEqual([[2880, 300, 3]]);
		expect(readInterviewSet(run.run, undefined, home).step).toBe(2880);
	}, 120_000);

	it('chooses agents by name and conditions by id; refuses unknown ones', async () => {
		const set = await runInterviews(run.run, { home, step: 1000, agents: ['Maria Lopez'], conditions: ['no-reflection', 'full'] });
		expect(set.agents.map((a) => a.id)).toEqual(['maria-lopez']);
		expect(set.conditions).toEqual(['full', 'no-reflection']);
		expect(set.answers).toHaveLength(50);
		await expect(runInterviews(run.run, { home, step: 1000, conditions: ['no-memory'] })).rejects.toThrow(/unknown condition "no-memory"/);
		await expect(runInterviews(run.run, { home, step: 1000, agents: ['Nobody Here'] })).rejects.toThrow(/unknown agent/);
		await expect(runInterviews(run.run, { home, step: STEPS + 1 })).rejects.toThrow(/not among them/);
	}, 60_000);

	it("asks the world's own questions when it has an evaluation.json", async () => {
		const file = path.join(worldDir, 'evaluation.json');
		writeFileSync(file, JSON.stringify({ questions: [{ id: 'party', category: 'memory', text: 'Who is throwing a party?' }] }));
		try {
			const set = await runInterviews(run.run, { home, step: 500, conditions: ['full'] });
			expect(set.questionsFrom).toBe('worlds/the-ville-3/evaluation.json');
			expect(set.answers.map((a) => a.question)).toEqual(['party', 'party', 'party']);
			writeFileSync(file, '{ "questions": [ { "id": "x", "category": "moods", "text": "?" } ] }');
			await expect(runInterviews(run.run, { home, step: 500 })).rejects.toThrow(/evaluation.json \(line 1\): "questions\[0\]\.category" must be one of/);
		} finally {
			rmSync(file);
		}
	}, 60_000);
});

describe('end-to-end measures', () => {
	let report: EvalReport;

	beforeAll(async () => {
		report = await evaluateRun(run.run, { home });
	}, 120_000);

	it('samples the start, every game hour and the end', () => {
		expect(report.step).toBe(STEPS);
		expect(report.everySteps).toBe(360);
		expect(report.samples.map((s) => s.step)).toEqual(Array.from({ length: 13 }, (_, k) => k * 360));
		expect(report.samples[0].time).toBe('2023-02-13T07:00:00');
		expect(report.diffusion.map((d) => d.fact.id)).toEqual(['valentines-party', 'picnic']);
	});

	it('diffusion: every "knows" is an affirmative answer traced to a memory the agent holds', async () => {
		const party = report.diffusion[0];
		expect(party.question).toBe("Did you know about Valentine's Day party at Hobbs Cafe?");
		expect(party.seedHolders).toEqual(['isabella-rodriguez']);
		expect(party.start).toEqual({ step: 0, knowers: 1, share: 0.3333 });
		expect(party.end.knowers).toBeGreaterThanOrEqual(2);
		const keywords = party.fact.keywords;
		for (const [k, at] of party.answers.entries()) {
			const records = await memoriesAt(at.step);
			expect(at.answers.map((a) => a.agent)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
			for (const a of at.answers) {
				const own = records(a.agent);
				const supporting = own.filter((m) => mentionsAll(m.description, keywords));
				expect(a.supportCount, `${a.agent} at ${at.step}`).toBe(supporting.length);
				expect(a.support.map((m) => m.id)).toEqual([...new Set([supporting[0]?.id, supporting.at(-1)?.id].filter(Boolean))]);
				expect(a.knows).toBe(supporting.length > 0 && (a.verdict === 'affirmative' || a.seedHolder));
				expect(a.hallucinated).toBe(a.verdict === 'affirmative' && !own.some((m) => mentionsAny(m.description, keywords)));
				if (a.knows) {
					expect(a.source?.memory.id).toBe(supporting[0].id);
					if (a.seedHolder) expect(a.source?.how).toBe('seed');
				}
			}
			expect(party.series[k].knowers).toBe(at.answers.filter((a) => a.knows).length);
		}
		// the news came through a conversation that the journal logged
		const last = party.answers.at(-1)!.answers;
		const heard = last.filter((a) => a.knows && !a.seedHolder);
		expect(heard.length).toBeGreaterThan(0);
		const conversations = stepLines().flatMap((l) => l.conversations);
		for (const a of heard) {
			if (a.source?.how !== 'conversation' && a.source?.how !== 'thought') continue;
			const c = conversations.find((x) => x.id === a.source?.conversation?.id);
			expect(c, a.agent).toBeDefined();
			expect(c!.agents).toContain(a.agent);
			expect(c!.agents).toContain(a.source.from);
			expect(c!.lines.some((l) => mentionsAny(l.text, keywords))).toBe(true);
		}

		const picnic = report.diffusion[1];
		expect(picnic.seedHolders).toEqual([]);
		expect(picnic.series.every((p) => p.knowers === 0 && p.hallucinated === 0)).toBe(true);
	}, 60_000);

	it('density from mutual answers, hallucination from the memory stream', async () => {
		const { def } = await loadWorld('the-ville-3');
		for (const net of [report.relationships.start, report.relationships.end]) {
			expect(net.answers).toBe(6);
			expect(net.details.map((d) => `${d.agent}>${d.other}`)).toEqual([
				'isabella-rodriguez>klaus-mueller',
				'isabella-rodriguez>maria-lopez',
				'klaus-mueller>isabella-rodriguez',
				'klaus-mueller>maria-lopez',
				'maria-lopez>isabella-rodriguez',
				'maria-lopez>klaus-mueller'
			]);
			const yes = (a: string, b: string) => net.details.find((d) => d.agent === a && d.other === b)?.verdict === 'affirmative';
			const expected = [
				['isabella-rodriguez', 'klaus-mueller'],
				['isabella-rodriguez', 'maria-lopez'],
				['klaus-mueller', 'maria-lopez']
			].filter(([a, b]) => yes(a, b) && yes(b, a));
			expect(net.edges).toEqual(expected);
			expect(net.density).toBeCloseTo((2 * expected.length) / 6, 4);
			const records = await memoriesAt(net.step);
			for (const d of net.details) {
				const other = def.personas.find((p) => p.id === d.other)!;
				const mems = records(d.agent).filter((m) => m.with === other.id || personKeywords(other).some((k) => mentions(m.description, k)));
				expect(d.memoryCount, `${d.agent} > ${d.other}`).toBe(mems.length);
				expect(d.hallucinated).toBe(d.verdict === 'affirmative' && mems.length === 0);
			}
			expect(net.affirmative).toBe(net.details.filter((d) => d.verdict === 'affirmative').length);
			expect(net.hallucinated).toBe(net.details.filter((d) => d.hallucinated).length);
		}
		// at the start the residents know each other from their seed memories
		expect(report.relationships.start.step).toBe(0);
		expect(report.relationships.start.memoryEdges).toBeGreaterThan(0);
		expect(report.relationships.end.step).toBe(STEPS);
	}, 60_000);

	it('attendance: in the arena the host held the event in, for at least 30 minutes of the window', async () => {
		const party = report.events.find((e) => e.fact === 'valentines-party')!;
		expect(party.status).toBe('complete');
		const { def } = await loadWorld('the-ville-3');
		const cafe = def.sectors.find((s) => s.name === 'Hobbs Cafe')!;
		const statesIn = (tiles: Set<number>) => {
			const inside = new Map<string, number[]>();
			for (const line of stepLines()) {
				const state = line.step + 1;
				if (state < FROM || state >= TO) continue;
				for (const a of line.agents) if (tiles.has(a.y * def.width + a.x)) inside.set(a.id, [...(inside.get(a.id) ?? []), state]);
			}
			return inside;
		};
		// the party's arena: where in the cafe the host spent most of the window
		const hostStates = cafe.arenas.map((a) => statesIn(new Set(a.tiles)).get('isabella-rodriguez')?.length ?? 0);
		expect(Math.max(...hostStates)).toBeGreaterThan(0);
		const arena = cafe.arenas[hostStates.indexOf(Math.max(...hostStates))];
		expect(party.attendance?.arena).toBe(arena.address);
		expect(party.attendance?.minMinutes).toBe(30);
		const inside = statesIn(new Set(arena.tiles));
		expect(party.hostPresent).toBe(true);
		// 30 game minutes are 180 states of 10 s
		const guests = [...inside.keys()].filter((a) => a !== 'isabella-rodriguez' && inside.get(a)!.length >= 180).sort();
		const brief = [...inside.keys()].filter((a) => a !== 'isabella-rodriguez' && inside.get(a)!.length < 180).sort();
		expect(party.attended.map((a) => a.agent)).toEqual(guests);
		expect(party.attendance?.shorter.map((a) => a.agent)).toEqual(brief);
		const records = await memoriesAt(STEPS);
		for (const a of party.attended) {
			const states = inside.get(a.agent)!;
			expect(a.minutes).toBeCloseTo((states.length * 10) / 60, 1);
			expect(a.minutes).toBeGreaterThanOrEqual(30);
			const arrived = Date.UTC(2023, 1, 13, 7) + states[0] * 10_000;
			expect(a.arrived).toBe(new Date(arrived).toISOString().slice(0, 19));
			expect(a.knew).toBe(records(a.agent).some((m) => m.created <= arrived && mentionsAll(m.description, ['valentine', 'party'])));
		}
		expect(party.counts.attended).toBe(guests.length);
		expect(party.counts.attendedRightTimeAndPlace).toBe(party.attended.filter((a) => a.knew).length);
		// invitations: a conversation with another agent who knew of the party before it began,
		// never the host's own
		expect(party.invited.some((i) => i.agent === 'isabella-rodriguez')).toBe(false);
		const conversations = stepLines().flatMap((l) => l.conversations);
		for (const i of party.invited) {
			expect(['conversation', 'thought']).toContain(i.memory.kind);
			expect(i.memory.source).toBe('conversation');
			expect(mentionsAll(i.memory.description, ['valentine', 'party'])).toBe(true);
			expect(i.beforeStart).toBe(Date.parse(`${i.time}Z`) < Date.UTC(2023, 1, 13, 12));
			const began = conversations.find((c) => c.id === i.conversation)?.time ?? Date.parse(`${i.time}Z`);
			expect(records(i.from).some((m) => m.created < began && mentionsAll(m.description, ['valentine', 'party'])), `${i.agent} from ${i.from}`).toBe(true);
		}
		// and every conversation memory of the party from someone who knew is counted
		for (const agent of ['klaus-mueller', 'maria-lopez']) {
			const heard = records(agent).some((m) => {
				if (!m.with || !mentionsAll(m.description, ['valentine', 'party']) || !(m.kind === 'conversation' || (m.kind === 'thought' && m.source === 'conversation'))) return false;
				const c = conversations.find((x) => x.agents.includes(agent) && x.agents.includes(m.with!) && (x.endStep ?? x.step) === Math.ceil((m.created - Date.UTC(2023, 1, 13, 7)) / 10_000));
				return records(m.with).some((o) => o.created < (c?.time ?? m.created) && mentionsAll(o.description, ['valentine', 'party']));
			});
			expect(party.invited.some((i) => i.agent === agent), agent).toBe(heard);
		}
		const picnic = report.events.find((e) => e.fact === 'picnic')!;
		expect(picnic).toMatchObject({ status: 'not-reached', attended: [], hostPresent: null });
	}, 60_000);

	it('an evaluation inside the window sees the event in progress, up to that step only', async () => {
		const mid = await evaluateRun(run.run, { home, step: 2000 });
		const party = mid.events.find((e) => e.fact === 'valentines-party')!;
		expect(party.status).toBe('in-progress');
		for (const a of party.attended) expect(a.arrived <= '2023-02-13T12:33:20').toBe(true);
		expect(mid.samples.at(-1)).toEqual({ step: 2000, time: '2023-02-13T12:33:20' });
	}, 60_000);

	it('a fork is evaluated over its lineage: the steps before the fork come from its parent', async () => {
		const fork = await startRun({ home, from: { run: run.run, step: 2000 }, steps: 1000 });
		const forked = await evaluateRun(fork.run, { home });
		expect(forked.step).toBe(3000);
		const parent = await evaluateRun(run.run, { home, step: 2000 });
		const common = parent.samples.filter((s) => s.step < 2000).length;
		expect(common).toBe(6);
		expect(forked.diffusion[0].series.slice(0, common)).toEqual(parent.diffusion[0].series.slice(0, common));
		expect(forked.relationships.start).toEqual(parent.relationships.start);
		// a source is any conversation of the lineage, the parent's included
		const maria = forked.diffusion[0].answers.at(-1)!.answers.find((a) => a.agent === 'maria-lopez')!;
		expect(maria.knows).toBe(true);
		expect(maria.source?.conversation?.id).toMatch(/^c\d+-isabella-rodriguez-maria-lopez$/);
	}, 60_000);

	it('is stored and read back on the next request', async () => {
		const file = evalFile(openRun(run.run, home).dir, STEPS);
		expect(existsSync(file)).toBe(true);
		const again = await evaluateRun(run.run, { home });
		expect(again).toEqual(report);
	});
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any) => Response | Promise<Response>;

async function call(handler: Handler, id: string, query = '', method = 'GET', body?: unknown): Promise<Response> {
	const request = new Request(`http://127.0.0.1/api/runs/${id}/eval${query}`, body === undefined ? { method } : { method, body: JSON.stringify(body) });
	return handler({ params: { id }, request, url: new URL(request.url) });
}

function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (quoted) {
			if (ch === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (ch === '"') quoted = false;
			else field += ch;
		} else if (ch === '"') quoted = true;
		else if (ch === ',') {
			row.push(field);
			field = '';
		} else if (ch === '\r' && text[i + 1] === '\n') {
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
			i++;
		} else field += ch;
	}
	return rows;
}

describe('the HTTP API', () => {
	it('serves the report, CSV tables and interview sets', async () => {
		const res = await call(evalRoute.GET, run.run);
		expect(res.status).toBe(200);
		const report = (await res.json()) as EvalReport;
		expect(report.step).toBe(STEPS);
		expect(report.diffusion[0].end.knowers).toBeGreaterThanOrEqual(2);

		const csv = await call(evalRoute.GET, run.run, '?format=csv&table=diffusion');
		expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
		const rows = parseCsv(await csv.text());
		expect(rows[0]).toEqual(['fact', 'step', 'time', 'knowers', 'share', 'affirmative', 'hallucinated', 'partial', 'memory_only', 'unclear', 'knowing_agents']);
		expect(rows).toHaveLength(1 + 2 * 13);
		expect(rows[1].slice(0, 4)).toEqual(['valentines-party', '0', '2023-02-13T07:00:00', '1']);

		const rel = parseCsv(await (await call(evalRoute.GET, run.run, '?format=csv&table=relationships')).text());
		expect(rel).toHaveLength(1 + 12);
		// answers with commas and quotes survive the round trip
		const endAnswers = report.relationships.end.details.map((d) => d.answer);
		expect(rel.filter((r) => r[0] === 'end').map((r) => r[9])).toEqual(endAnswers);

		const att = parseCsv(await (await call(evalRoute.GET, run.run, '?format=csv&table=attendance')).text());
		expect(att[0].slice(0, 4)).toEqual(['fact', 'status', 'agent', 'invited']);

		const posted = await call(interviewsRoute.POST, run.run, '/interviews', 'POST', { step: 720, agents: ['klaus-mueller'], conditions: ['full', 'no-observation-reflection-planning'] });
		expect(posted.status).toBe(200);
		const set = (await posted.json()) as InterviewSet;
		expect(set.answers).toHaveLength(50);
		const list = (await (await call(interviewsRoute.GET, run.run, '/interviews')).json()) as InterviewSetListing[];
		expect(list.map((l) => l.step)).toContain(720);
		const one = (await (await call(interviewsRoute.GET, run.run, '/interviews?step=720')).json()) as InterviewSet;
		expect(one).toEqual(set);
		const icsv = parseCsv(await (await call(evalRoute.GET, run.run, '?format=csv&table=interviews&step=720')).text());
		expect(icsv[0]).toEqual(['step', 'agent', 'question', 'category', 'condition', 'text', 'answer', 'memory_ids']);
		expect(icsv.slice(1).map((r) => r[6])).toEqual(set.answers.map((a) => a.answer));
	}, 120_000);

	it('answers bad requests with a status and a message', async () => {
		const bad = await call(evalRoute.GET, run.run, '?format=csv&table=people');
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as { message: string }).message).toMatch(/table must be one of diffusion, relationships, attendance, interviews/);
		expect((await call(evalRoute.GET, 'no-such-run')).status).toBe(404);
		expect((await call(evalRoute.GET, run.run, `?step=${STEPS + 5}`)).status).toBe(404);
		expect((await call(evalRoute.GET, run.run, '?format=csv&table=interviews&step=5')).status).toBe(404);
		const wrong = await call(interviewsRoute.POST, run.run, '/interviews', 'POST', { conditions: ['everything'] });
		expect(wrong.status).toBe(400);
		expect(((await wrong.json()) as { message: string }).message).toMatch(/conditions\[0\] must be one of "full", .*not "everything"/);
		expect((await call(interviewsRoute.POST, run.run, '/interviews', 'POST', { agent: 'x' })).status).toBe(400);
	});
});
