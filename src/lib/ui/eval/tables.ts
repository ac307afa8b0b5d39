// Table shapes of the evaluation report page, made from the report once: each fact's answers as
// agents x sampled steps, the attendance rows of an event, the relationship network's
// neighbours, the diffusion chart's data table and an interview set's answers per agent x
// question with the conditions side by side. Pure.

import type { EvalReport, EventReport, FactDiffusion, HumanAnswerRecord, InterviewAnswerRecord, InterviewSet, KnowsAnswer, NetworkReport } from '$lib/api/eval';
import type { ConditionId, QuestionCategory } from '$lib/eval/questions';

/** How one answer counts, for the matrix's colours and the filters. */
export type KnowsState = 'knows' | 'hallucinated' | 'partial' | 'memory-only' | 'no' | 'unclear';

export const KNOWS_STATE_TEXT: Record<KnowsState, string> = {
	knows: 'knows',
	hallucinated: 'hallucinated yes',
	partial: 'partial yes',
	'memory-only': 'has the memory, no yes',
	no: 'no',
	unclear: 'unclear'
};

export function knowsState(a: KnowsAnswer): KnowsState {
	if (a.knows) return 'knows';
	if (a.hallucinated) return 'hallucinated';
	if (a.partial) return 'partial';
	if (a.supportCount > 0 && a.verdict !== 'affirmative') return 'memory-only';
	if (a.verdict === 'negative') return 'no';
	return 'unclear';
}

export interface KnowsRow {
	agent: string;
	name: string;
	/** one per sampled step of the fact (its `answers` order); undefined where the agent was not asked */
	cells: (KnowsAnswer | undefined)[];
}

/** One row per agent (the report's order), one cell per sampled step. */
export function knowsMatrix(d: FactDiffusion, agents: readonly { id: string; name: string }[]): KnowsRow[] {
	const at = d.answers.map(({ answers }) => new Map(answers.map((a) => [a.agent, a])));
	return agents.map((a) => ({ agent: a.id, name: a.name, cells: at.map((m) => m.get(a.id)) }));
}

/** The answers at one sampled step (the last when `step` is not sampled). */
export function answersAt(d: FactDiffusion, step: number): { step: number; answers: KnowsAnswer[] } {
	return d.answers.find((s) => s.step === step) ?? d.answers[d.answers.length - 1] ?? { step, answers: [] };
}

export interface AttendanceRow {
	agent: string;
	invited?: EventReport['invited'][number];
	planned?: EventReport['planned'][number];
	attended?: EventReport['attended'][number];
}

/** Every agent invited to, planning for or attending the event, by id. */
export function attendanceRows(e: EventReport): AttendanceRow[] {
	const ids = [...new Set([...e.invited.map((x) => x.agent), ...e.planned.map((x) => x.agent), ...e.attended.map((x) => x.agent)])].sort();
	return ids.map((agent) => ({
		agent,
		invited: e.invited.find((x) => x.agent === agent),
		planned: e.planned.find((x) => x.agent === agent),
		attended: e.attended.find((x) => x.agent === agent)
	}));
}

/** Each agent's neighbours in a network (mutual edges), every agent present. */
export function neighbours(n: Pick<NetworkReport, 'edges'>, agents: readonly string[]): Map<string, string[]> {
	const out = new Map<string, string[]>(agents.map((a) => [a, []]));
	for (const [a, b] of n.edges) {
		if (!out.has(a)) out.set(a, []);
		if (!out.has(b)) out.set(b, []);
		out.get(a)!.push(b);
		out.get(b)!.push(a);
	}
	for (const list of out.values()) list.sort();
	return out;
}

export interface DiffusionTableRow {
	step: number;
	time: string;
	/** per fact (report order): knowers and share at this sample, undefined if not sampled */
	facts: ({ knowers: number; share: number; hallucinated: number } | undefined)[];
}

/** The diffusion chart's data: one row per sampled step, a column per fact. */
export function diffusionTable(r: Pick<EvalReport, 'samples' | 'diffusion'>): DiffusionTableRow[] {
	const series = r.diffusion.map((d) => new Map(d.series.map((p) => [p.step, p])));
	return r.samples.map((s) => ({
		step: s.step,
		time: s.time,
		facts: series.map((m) => {
			const p = m.get(s.step);
			return p && { knowers: p.knowers, share: p.share, hallucinated: p.hallucinated };
		})
	}));
}

export interface InterviewRow {
	agent: string;
	name: string;
	question: string;
	category: QuestionCategory | undefined;
	/** the question as asked of this agent (`[name]` filled) */
	text: string;
	/** the answer under each condition of the set (missing when not asked) */
	answers: Partial<Record<ConditionId, InterviewAnswerRecord>>;
	/** the answer a person wrote (condition human), when one was */
	human?: HumanAnswerRecord;
}

/** One row per agent and question (the set's orders), the conditions' answers side by side. */
export function interviewRows(set: Pick<InterviewSet, 'agents' | 'questions' | 'answers' | 'human'>): InterviewRow[] {
	const human = new Map((set.human ?? []).map((h) => [`${h.agent}\n${h.question}`, h]));
	const byKey = new Map<string, InterviewAnswerRecord[]>();
	for (const a of set.answers) {
		const key = `${a.agent}\n${a.question}`;
		const list = byKey.get(key);
		if (list) list.push(a);
		else byKey.set(key, [a]);
	}
	const rows: InterviewRow[] = [];
	for (const agent of set.agents)
		for (const q of set.questions) {
			const list = byKey.get(`${agent.id}\n${q.id}`);
			if (!list) continue;
			const answers: InterviewRow['answers'] = {};
			for (const a of list) answers[a.condition] = a;
			const written = human.get(`${agent.id}\n${q.id}`);
			rows.push({ agent: agent.id, name: agent.name, question: q.id, category: q.category, text: list[0].text, answers, ...(written ? { human: written } : {}) });
		}
	return rows;
}

/** Rows matching a filter: an agent (or '' for all) and a category (or '' for all). */
export function filterInterviewRows(rows: readonly InterviewRow[], agent: string, category: string): InterviewRow[] {
	return rows.filter((r) => (!agent || r.agent === agent) && (!category || r.category === category));
}
