import { describe, expect, it } from 'vitest';
import type { DayPlan } from '$lib/engine/state';
import { parsePlanRef, planRows } from './plan';

describe('plan view', () => {
	const plan: DayPlan = {
		day: 1,
		wakeMinute: 360,
		agenda: ['wake up at 6:00 am', 'open the cafe at 8:00 am'],
		blocks: [
			{ start: 360, minutes: 60, activity: 'morning routine', subtasks: null },
			{
				start: 480,
				minutes: 30,
				activity: 'open the cafe',
				subtasks: [
					{ activity: 'unlock the door', minutes: 5 },
					{ activity: 'turn on the coffee machine', minutes: 10 }
				]
			}
		]
	};

	it('reads plan refs', () => {
		expect(parsePlanRef('1.0')).toEqual({ block: 1, subtask: 0 });
		expect(parsePlanRef('3')).toEqual({ block: 3, subtask: -1 });
		expect(parsePlanRef('')).toBeNull();
	});

	it('marks the current block and subtask with their clock times', () => {
		const rows = planRows(plan, '1.1');
		expect(rows.map((r) => [r.start, r.end, r.current])).toEqual([
			['6:00 am', '7:00 am', false],
			['8:00 am', '8:30 am', true]
		]);
		expect(rows[1].subtasks.map((s) => [s.start, s.current])).toEqual([
			['8:00 am', false],
			['8:05 am', true]
		]);
	});

	it('marks the block of the hour when the action comes from no plan item', () => {
		const rows = planRows(plan, '', 6 * 60 + 20);
		expect(rows.map((r) => r.current)).toEqual([true, false]);
		expect(rows[0].subtasks.every((s) => !s.current)).toBe(true);
		expect(planRows(plan, '', 23 * 60).some((r) => r.current)).toBe(false);
	});
});
