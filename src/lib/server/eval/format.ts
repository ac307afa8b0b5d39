// Plain-text views of an evaluation report and an interview set, for the command line.

import type { EvalReport, HumanAnswerSet, InterviewSet } from '../../api/eval';

const pct = (x: number) => `${(x * 100).toFixed(x === 0 || x === 1 ? 0 : 1)}%`;

export function formatEvalReport(r: EvalReport): string {
	const lines = [`evaluation of run ${r.run} (${r.world}) at step ${r.step}, ${r.time}; ${r.agents.length} agents; model ${r.model}`];
	lines.push(`  sampled ${r.samples.length} steps, every ${r.everySteps} steps`);
	for (const d of r.diffusion) {
		const last = d.series[d.series.length - 1];
		lines.push(
			`  diffusion "${d.fact.label}": ${d.start.knowers} (${pct(d.start.share)}) -> ${d.end.knowers} (${pct(d.end.share)}) agents; ` +
				`at the end ${last.affirmative} yes, ${last.hallucinated} hallucinated, ${last.partial} partial, ${last.memoryOnly} with the memory but no yes`
		);
		lines.push(`    series: ${d.series.map((p) => p.knowers).join(' ')}`);
	}
	for (const phase of ['start', 'end'] as const) {
		const n = r.relationships[phase];
		lines.push(
			`  relationships at ${phase} (step ${n.step}): density ${n.density.toFixed(3)} (${n.edges.length} edges), ` +
				`${n.affirmative} of ${n.answers} answers yes, ${n.hallucinated} hallucinated (${pct(n.hallucinationRate)}); memory-based density ${n.memoryDensity.toFixed(3)}`
		);
	}
	for (const e of r.events) {
		const c = e.counts;
		lines.push(`  event "${e.label}" at ${e.event.place}, ${e.event.start} to ${e.event.end}: ${e.status === 'not-reached' ? 'not reached by this step' : e.status}`);
		lines.push(
			`    invited ${c.invited} (${c.invitedBeforeStart} before the start), planned ${c.planned} (${c.plannedRightTimeAndPlace} at the right time and place), ` +
				`attended ${c.attended} (${c.attendedRightTimeAndPlace} knowing of it)${e.attendance?.arena ? ` (at least ${e.attendance.minMinutes} min in ${e.attendance.arena}; ${e.attendance.shorter.length} there for less)` : ''}` +
				`${e.hostPresent === null ? '' : `, host ${e.hostPresent ? 'present' : 'absent'}`}`
		);
	}
	const t = r.timings;
	lines.push(`  ${t.interviews} interviews, ${t.restores} restores; ${(t.totalMs / 1000).toFixed(1)} s (restoring ${(t.restoreMs / 1000).toFixed(1)} s, interviews ${(t.interviewMs / 1000).toFixed(1)} s, journal ${(t.journalMs / 1000).toFixed(1)} s)`);
	return lines.join('\n');
}

export function formatInterviewSet(set: InterviewSet, file?: string): string {
	const lines = [
		`interviews of run ${set.run} at step ${set.step}, ${set.time}: ${set.agents.length} agents x ${set.questions.length} questions x ${set.conditions.length} conditions = ${set.answers.length} answers`,
		`  questions: ${set.questionsFrom}; conditions: ${set.conditions.join(', ')}`
	];
	if (file) lines.push(`  stored in ${file}`);
	if (set.human?.length) lines.push(`  ${set.human.length} human-written answers (condition human)`);
	for (const s of set.skipped) lines.push(`  skipped ${s.question} for ${s.agent}: ${s.reason}`);
	const first = set.answers.slice(0, set.conditions.length);
	for (const a of first) lines.push(`  ${a.agent} / ${a.question} / ${a.condition}: ${a.answer.slice(0, 160)}${a.answer.length > 160 ? '...' : ''} (${a.memories.length} memories)`);
	return lines.join('\n');
}

export function formatHumanAnswers(set: HumanAnswerSet, file?: string, imported?: number): string {
	const agents = new Set(set.answers.map((a) => a.agent)).size;
	const lines = [
		`${imported === undefined ? '' : `imported ${imported} answers; `}${set.answers.length} human-written answers (condition human) of ${agents} agents for the interviews of run ${set.run} at step ${set.step}`
	];
	if (file) lines.push(`  stored in ${file}`);
	return lines.join('\n');
}
