// CSV exports of an evaluation (GET /api/runs/:id/eval?format=csv&table=...): one row per
// observation, a header row, written by ../../shared/csv.ts (RFC 4180 quoting, CRLF line ends).

import type { EvalCsvTable, EvalReport, InterviewSet } from '../../api/eval';
import { toCsv, type CsvCell } from '../../shared/csv';

/** Diffusion: one row per fact and sampled step. */
export function diffusionCsv(r: EvalReport): string {
	const rows = r.diffusion.flatMap((d) =>
		d.series.map((p, k) => [
			d.fact.id,
			p.step,
			p.time,
			p.knowers,
			p.share,
			p.affirmative,
			p.hallucinated,
			p.partial,
			p.memoryOnly,
			p.unclear,
			d.answers[k].answers
				.filter((a) => a.knows)
				.map((a) => a.agent)
				.join(' ')
		])
	);
	return toCsv(['fact', 'step', 'time', 'knowers', 'share', 'affirmative', 'hallucinated', 'partial', 'memory_only', 'unclear', 'knowing_agents'], rows);
}

/** Relationships: one row per question asked, at the start and at the end. */
export function relationshipsCsv(r: EvalReport): string {
	const rows = (['start', 'end'] as const).flatMap((phase) => {
		const n = r.relationships[phase];
		const edges = new Set(n.edges.map(([a, b]) => `${a}|${b}`));
		return n.details.map((d) => [
			phase,
			n.step,
			d.agent,
			d.other,
			d.verdict,
			d.hallucinated,
			edges.has(d.agent < d.other ? `${d.agent}|${d.other}` : `${d.other}|${d.agent}`),
			d.memoryCount,
			d.memory?.id,
			d.answer
		]);
	});
	return toCsv(['phase', 'step', 'agent', 'other', 'verdict', 'hallucinated', 'mutual_edge', 'memories_of_other', 'first_memory', 'answer'], rows);
}

/** Attendance: one row per event and agent who was invited, planned or came. */
export function attendanceCsv(r: EvalReport): string {
	const rows = r.events.flatMap((e) => {
		const agents = [...new Set([...e.invited.map((x) => x.agent), ...e.planned.map((x) => x.agent), ...e.attended.map((x) => x.agent)])].sort();
		return agents.map((agent) => {
			const inv = e.invited.find((x) => x.agent === agent);
			const plan = e.planned.find((x) => x.agent === agent);
			const came = e.attended.find((x) => x.agent === agent);
			return [
				e.fact,
				e.status,
				agent,
				inv !== undefined,
				inv?.from,
				inv?.time,
				inv?.conversation,
				plan !== undefined,
				plan?.rightTimeAndPlace ?? false,
				came !== undefined,
				came?.arrived,
				came?.minutes,
				came?.knew ?? false
			];
		});
	});
	return toCsv(
		['fact', 'status', 'agent', 'invited', 'invited_by', 'invited_at', 'conversation', 'planned', 'plan_right_time_and_place', 'attended', 'arrived', 'minutes', 'knew'],
		rows
	);
}

/** Interviews: one row per answer; the human-written ones (condition `human`, no memories) after each agent's question's model answers. */
export function interviewsCsv(set: InterviewSet): string {
	const category = new Map(set.questions.map((q) => [q.id, q.category]));
	const human = new Map((set.human ?? []).map((h) => [`${h.agent}\n${h.question}`, h]));
	const rows: CsvCell[][] = [];
	set.answers.forEach((a, k) => {
		rows.push([set.step, a.agent, a.question, category.get(a.question), a.condition, a.text, a.answer, a.memories.map((m) => m.id).join(' ')]);
		const key = `${a.agent}\n${a.question}`;
		const next = set.answers[k + 1];
		const h = human.get(key);
		if (h && (!next || `${next.agent}\n${next.question}` !== key)) {
			rows.push([set.step, h.agent, h.question, category.get(h.question), h.condition, h.text, h.answer, '']);
			human.delete(key);
		}
	});
	return toCsv(['step', 'agent', 'question', 'category', 'condition', 'text', 'answer', 'memory_ids'], rows);
}

export function reportCsv(table: Exclude<EvalCsvTable, 'interviews'>, r: EvalReport): string {
	switch (table) {
		case 'diffusion':
			return diffusionCsv(r);
		case 'relationships':
			return relationshipsCsv(r);
		case 'attendance':
			return attendanceCsv(r);
	}
}
