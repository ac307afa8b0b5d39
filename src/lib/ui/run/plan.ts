// The plan hierarchy of a day (agenda -> hour blocks -> 5-15 minute subtasks) with the item
// being carried out marked.

import type { DayPlan } from '$lib/engine/state';
import { formatClock12 } from '$lib/engine/clock';

export interface PlanRow {
	block: number;
	start: string;
	end: string;
	activity: string;
	current: boolean;
	subtasks: { start: string; activity: string; minutes: number; current: boolean }[];
}

/** `${block}.${subtask}` -> indices; subtask -1 when the ref names only a block. */
export function parsePlanRef(ref: string): { block: number; subtask: number } | null {
	const m = /^(\d+)(?:\.(-?\d+))?$/.exec(ref.trim());
	if (!m) return null;
	return { block: Number(m[1]), subtask: m[2] === undefined ? -1 : Number(m[2]) };
}

/**
 * The plan as rows. The current block is the one the action carries out (`planRef`); when the
 * action comes from no plan item (a conversation, a reaction), the block whose time covers
 * `minute` (of the day) is marked instead.
 */
export function planRows(plan: DayPlan, planRef: string, minute?: number): PlanRow[] {
	let at = parsePlanRef(planRef);
	if (!at && minute !== undefined) {
		const block = plan.blocks.findIndex((b) => minute >= b.start && minute < b.start + b.minutes);
		if (block >= 0) at = { block, subtask: -1 };
	}
	return plan.blocks.map((b, i) => {
		let minute = b.start;
		const subtasks = (b.subtasks ?? []).map((s, j) => {
			const row = { start: formatClock12(minute % (24 * 60)), activity: s.activity, minutes: s.minutes, current: at?.block === i && at.subtask === j };
			minute += s.minutes;
			return row;
		});
		return {
			block: i,
			start: formatClock12(b.start % (24 * 60)),
			end: formatClock12((b.start + b.minutes) % (24 * 60)),
			activity: b.activity,
			current: at?.block === i,
			subtasks
		};
	});
}
