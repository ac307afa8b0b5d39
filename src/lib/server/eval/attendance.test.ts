// The paper's event measures on a hand-made journal: invited means told by someone who knew of
// the event before (not one's own telling), attended means in the party's arena for a
// meaningful share of it (not passing through its sector).

import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../engine/memory';
import type { AgentView, Simulation } from '../../engine/sim';
import type { ConversationRecord } from '../../engine/state';
import { createTestWorld } from '../../engine/testing';
import { ATTEND_MIN_MINUTES, MemoryIndex, attendanceThreshold, conversationKey, eventArena, eventReport } from './metrics';

const world = createTestWorld();
const T0 = world.start; // 07:00, a step a game minute
const at = (minute: number) => T0 + minute * 60_000;
const stateAt = (ms: number) => Math.ceil((ms - T0) / 60_000);
const fact = {
	id: 'party',
	label: 'the valentine party',
	keywords: ['valentine', 'party'],
	event: { place: 'Cafe', start: '2023-02-13T08:00:00', end: '2023-02-13T09:00:00', host: 'ana-alder' }
};

let n = 0;
function memory(agent: string, description: string, minute: number, extra: Partial<MemoryRecord> = {}): MemoryRecord {
	return { id: `${agent}/m${n}`, agent, index: n++, kind: 'observation', source: 'observed', description, created: at(minute), step: minute, importance: 5, embedding: new Float32Array(1), ...extra };
}

function view(id: string, x: number, y: number): AgentView {
	return { id, name: id, x, y, activity: '', emoji: '', address: '', chatWith: '', path: [] };
}

describe('event measures', () => {
	// Cleo heard of the party before the run; at 07:10 she and Ben talk (committed 07:18): Ben is
	// invited by Cleo, who knew; Cleo's own memory of telling him is no invitation.
	const talk: ConversationRecord = { id: 'c10-ben-brook-cleo-cole', step: 10, time: at(10), endStep: 18, agents: ['ben-brook', 'cleo-cole'], address: 'Street:sidewalk', lines: [] };
	const records: Record<string, MemoryRecord[]> = {
		'ana-alder': [memory('ana-alder', 'Ana Alder is throwing a valentine party at the cafe', 0, { kind: 'thought', source: 'seed' })],
		'ben-brook': [memory('ben-brook', 'Cleo Cole told Ben Brook about the valentine party at the cafe', 18, { kind: 'conversation', source: 'conversation', with: 'cleo-cole' })],
		'cleo-cole': [
			memory('cleo-cole', 'Cleo Cole heard about a valentine party at the cafe', 0, { kind: 'thought', source: 'seed' }),
			memory('cleo-cole', 'Cleo Cole told Ben Brook about the valentine party', 18, { kind: 'conversation', source: 'conversation', with: 'ben-brook' }),
			memory('cleo-cole', 'Cleo Cole plans to mention the valentine party to Ben again', 18, { kind: 'thought', source: 'conversation', with: 'ben-brook' })
		]
	};
	const sim = { state: { agents: world.personas.map((p) => ({ id: p.id })) }, stream: (id: string) => ({ records: records[id] }) } as unknown as Simulation;
	// the party's window, states 60..119: Ana hosts in the seating area; Ben stays 40 minutes;
	// Cleo sits there 7 minutes and spends the rest behind the counter (the same sector)
	const positions = new Map<number, AgentView[]>();
	for (let s = 60; s < 120; s++) {
		positions.set(s, [view('ana-alder', 18, 8), s < 100 ? view('ben-brook', 16, 10) : view('ben-brook', 11, 5), s < 67 ? view('cleo-cole', 16, 7) : view('cleo-cole', 16, 3)]);
	}
	const report = eventReport(fact, sim, world, { conversations: [talk], positions }, new MemoryIndex(world.personas), {
		step: 200,
		stateAt,
		timeOf: at,
		conversations: new Map([[conversationKey(18, 'ben-brook', 'cleo-cole'), talk]])
	});

	it('invited: told by another agent who knew of the event before they talked', () => {
		expect(report.invited.map((i) => [i.agent, i.from, i.conversation])).toEqual([['ben-brook', 'cleo-cole', talk.id]]);
		expect(report.counts.invited).toBe(1);
	});

	it("attended: in the party's arena for at least 30 minutes of it; the rest are listed apart", () => {
		expect(report.attendance).toEqual({ arena: 'Cafe:seating', minMinutes: 30, shorter: [{ agent: 'cleo-cole', minutes: 7 }] });
		expect(report.attended).toEqual([{ agent: 'ben-brook', arrived: '2023-02-13T08:00:00', minutes: 40, knew: true, invited: true, planned: false }]);
		expect(report.hostPresent).toBe(true);
		expect(report.counts).toMatchObject({ attended: 1, attendedRightTimeAndPlace: 1 });
	});

	it('the threshold and the arena', () => {
		expect(ATTEND_MIN_MINUTES).toBe(30);
		expect(attendanceThreshold(120)).toBe(30);
		expect(attendanceThreshold(40)).toBe(20);
		const cafe = world.sectors.find((s) => s.name === 'Cafe')!;
		// no host seen there: the sector's largest arena
		expect(eventArena(cafe, [])).toBe('Cafe:seating');
		const counter = cafe.arenas.find((a) => a.name === 'counter')!;
		expect(eventArena(cafe, [counter.walkable[0], counter.walkable[1], cafe.arenas[1].walkable[0]])).toBe('Cafe:counter');
		expect(eventArena(undefined, [])).toBeNull();
	});
});
