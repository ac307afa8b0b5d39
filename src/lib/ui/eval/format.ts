// Words and figures of the evaluation report page: shares as percentages, knowers, densities,
// event attendance, condition names, and the debugger frame a cited memory or conversation
// shows on. The figures' text is what the page's test ids carry, so it is defined here once.

import type { EventReport, FactDiffusion, KnowsAnswer, NetworkReport } from '$lib/api/eval';
import { answerConditionLabel } from '$lib/eval/questions';

/** A share as a percentage: one decimal at most, none when whole ("4%", "33.3%", "100%"); "–" when not a number. */
export function percent(share: number): string {
	if (!Number.isFinite(share)) return '–';
	const tenths = Math.round(share * 1000);
	return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}%`;
}

/** "13 (52%)": agents and their share of the town. */
export function knowersText(point: { knowers: number; share: number }): string {
	return `${point.knowers} (${percent(point.share)})`;
}

/** A network density with three decimals, as `eval` prints it ("0.127"). */
export function densityText(density: number): string {
	return Number.isFinite(density) ? density.toFixed(3) : '–';
}

/** What the report's figures say about one fact's diffusion. */
export interface DiffusionFigures {
	start: string;
	end: string;
	/** affirmative answers with no memory mentioning the fact, at the last sampled step */
	hallucinated: number;
	partial: number;
	/** agents holding a supporting memory who did not say yes, at the last sampled step */
	memoryOnly: number;
}

export function diffusionFigures(d: FactDiffusion): DiffusionFigures {
	const last = d.series[d.series.length - 1];
	return {
		start: knowersText(d.start),
		end: knowersText(d.end),
		hallucinated: last?.hallucinated ?? 0,
		partial: last?.partial ?? 0,
		memoryOnly: last?.memoryOnly ?? 0
	};
}

/** "3 of 40 (7.5%)": hallucinated affirmative answers of all affirmative ones. */
export function hallucinationText(n: NetworkReport): string {
	return `${n.hallucinated} of ${n.affirmative} (${percent(n.hallucinationRate)})`;
}

export const STATUS_TEXT: Record<EventReport['status'], string> = {
	'not-reached': 'not reached',
	'in-progress': 'in progress',
	complete: 'complete'
};

/** The figures of one event: counts as text, attendance "not reached" before the event's window. */
export interface AttendanceFigures {
	status: string;
	invited: string;
	invitedBeforeStart: string;
	planned: string;
	plannedRightTimeAndPlace: string;
	attended: string;
	/** attended and knew of the event on arriving */
	onTime: string;
	host: string;
}

export function attendanceFigures(e: EventReport): AttendanceFigures {
	const c = e.counts;
	const reached = e.status !== 'not-reached';
	return {
		status: STATUS_TEXT[e.status],
		invited: String(c.invited),
		invitedBeforeStart: String(c.invitedBeforeStart),
		planned: String(c.planned),
		plannedRightTimeAndPlace: String(c.plannedRightTimeAndPlace),
		attended: reached ? String(c.attended) : 'not reached',
		onTime: reached ? String(c.attendedRightTimeAndPlace) : 'not reached',
		host: e.hostPresent === null ? (e.event.host ? 'not reached' : 'no host') : e.hostPresent ? 'present' : 'absent'
	};
}

/** A condition's readable name ("no reflection"); the id itself for conditions of other studies. */
export function conditionLabel(id: string): string {
	return answerConditionLabel(id) ?? id;
}

export const VERDICT_TEXT: Record<KnowsAnswer['verdict'], string> = {
	affirmative: 'yes',
	negative: 'no',
	unclear: 'unclear'
};

/**
 * The debugger frame (the state after N steps, `?step=N`) that first shows what step `step`
 * did: a memory stored, a conversation held. Frames past `last` (the evaluated state) are not
 * asked for.
 */
export function frameOf(step: number, last: number): number {
	return Math.max(0, Math.min(step + 1, last));
}

/** The debugger address's query for an agent at a frame. */
export function debuggerQuery(frame: number, agent: string, tab?: 'memories' | 'chats'): string {
	const q = new URLSearchParams({ step: String(frame), agent });
	if (tab) q.set('tab', tab);
	return `?${q}`;
}

/** "12.3 s", "2 min 05 s": a wall-clock duration. */
export function duration(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return ms < 10_000 ? `${(Math.max(0, ms) / 1000).toFixed(1)} s` : `${s} s`;
	return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
