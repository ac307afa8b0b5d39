// Rules that hold after every step of any run, whatever the model answered: one well-formed
// current action per agent that has not run out, positions and paths on walkable tiles of the
// map, a plan that covers the day from waking to midnight without gaps or overlaps, and memory
// ids that are unique. Used by the property tests and the acceptance bench.

import type { Simulation } from './sim';
import type { WorldDef } from './types';
import { splitAddress } from './world-index';

const DAY_MINUTES = 24 * 60;

/** Memory ids seen so far, so that a long run checks only each step's new memories. */
export interface MemoryTracker {
	ids: Set<string>;
	/** per agent, how many of its memories were checked */
	checked: Map<string, number>;
}

export function memoryTracker(): MemoryTracker {
	return { ids: new Set(), checked: new Map() };
}

/**
 * What must hold after every step, whatever the model said. Returns the broken rules, each
 * naming the step and the agent. With a tracker kept across calls, memories already checked
 * are not checked again.
 */
export function invariantProblems(sim: Simulation, world: WorldDef = sim.world, seen: MemoryTracker = memoryTracker()): string[] {
	const problems: string[] = [];
	const say = (text: string) => problems.push(`step ${sim.state.step}: ${text}`);
	const size = world.width * world.height;
	const walkable = (t: number) => Number.isInteger(t) && t >= 0 && t < size && world.collision[t] === 0;
	const ids = sim.state.agents.map((a) => a.id);
	if (new Set(ids).size !== ids.length) say(`agents listed twice: ${ids.join(', ')}`);
	const now = sim.time;
	for (const a of sim.state.agents) {
		// position
		if (!walkable(a.tile)) say(`${a.id} stands on tile ${a.tile}, which is not a walkable tile of the map`);
		// exactly one current action, well formed and not run out
		const act = a.action;
		if (!act || typeof act.activity !== 'string' || act.activity.trim() === '') say(`${a.id} has no current activity (${JSON.stringify(act?.activity)})`);
		else {
			if (!(act.end >= now)) say(`${a.id}'s action "${act.activity}" ended at ${act.end}, before now (${now})`);
			if (!(act.start <= now)) say(`${a.id}'s action starts in the future`);
			let prev = a.tile;
			for (const t of act.path) {
				if (!walkable(t)) say(`${a.id}'s path crosses tile ${t}, which is not walkable`);
				const dx = Math.abs((t % world.width) - (prev % world.width));
				const dy = Math.abs(Math.floor(t / world.width) - Math.floor(prev / world.width));
				if (dx + dy !== 1) say(`${a.id}'s path jumps from tile ${prev} to ${t}`);
				prev = t;
			}
			if (act.address) {
				const parts = splitAddress(act.address);
				if (!sim.index.arena(`${parts[0]}:${parts[1]}`)) say(`${a.id}'s action is at an unknown place "${act.address}"`);
				if (parts.length > 2 && !sim.index.objects.has(act.address)) say(`${a.id}'s action uses an unknown object "${act.address}"`);
			}
			if (act.chatWith) {
				const other = sim.state.agents.find((b) => b.id === act.chatWith);
				if (!other || other.id === a.id) say(`${a.id} chats with "${act.chatWith}", who is not another agent`);
				else if (other.action.chatWith !== a.id) say(`${a.id} chats with ${other.id}, who chats with "${other.action.chatWith}"`);
			}
		}
		// the day covered by the plan
		const plan = a.plan;
		if (plan && !sim.state.ablate.planning) {
			const blocks = plan.blocks;
			if (blocks.length === 0) say(`${a.id}'s plan for day ${plan.day} has no blocks`);
			else {
				if (blocks[0].start > plan.wakeMinute) say(`${a.id}'s plan starts at minute ${blocks[0].start}, after waking (${plan.wakeMinute})`);
				blocks.forEach((b, i) => {
					if (!Number.isInteger(b.minutes) || b.minutes <= 0) say(`${a.id}'s block ${i} ("${b.activity}") lasts ${b.minutes} minutes`);
					if (!b.activity.trim()) say(`${a.id}'s block ${i} has no activity`);
					if (i > 0 && b.start !== blocks[i - 1].start + blocks[i - 1].minutes) {
						say(`${a.id}'s block ${i} starts at minute ${b.start}, but block ${i - 1} ends at ${blocks[i - 1].start + blocks[i - 1].minutes}`);
					}
					if (b.subtasks) {
						const sum = b.subtasks.reduce((n, s) => n + s.minutes, 0);
						if (b.subtasks.length === 0 || sum < b.minutes) say(`${a.id}'s block ${i} (${b.minutes} min) has steps of ${sum} min`);
						if (b.subtasks.some((s) => !(s.minutes > 0) || !s.activity.trim())) say(`${a.id}'s block ${i} has an empty or zero-length step`);
					}
				});
				const last = blocks[blocks.length - 1];
				if (last.start + last.minutes !== DAY_MINUTES) say(`${a.id}'s plan ends at minute ${last.start + last.minutes}, not at midnight`);
			}
		}
		// unique memory ids, indexes in order
		const records = sim.stream(a.id).records;
		for (let i = seen.checked.get(a.id) ?? 0; i < records.length; i++) {
			const m = records[i];
			if (seen.ids.has(m.id)) say(`memory id ${m.id} is used twice`);
			seen.ids.add(m.id);
			if (m.index !== i) say(`${a.id}'s memory ${m.id} has index ${m.index} at position ${i}`);
			if (!m.description.trim()) say(`${a.id}'s memory ${m.id} is empty`);
			if (!(m.importance >= 1 && m.importance <= 10)) say(`${a.id}'s memory ${m.id} has importance ${m.importance}`);
		}
		seen.checked.set(a.id, records.length);
	}
	return problems;
}
