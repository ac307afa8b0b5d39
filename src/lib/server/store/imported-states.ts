// The states of a run imported from a recording of the reference implementation (`runs import`,
// ./import-run.ts) between its snapshots. Such a run has no model answers to replay, but its
// states follow from its commit lines alone: every agent's tile, action, address, emoji and
// conversation partner is in each line, the memories a step made are the next rows of the
// memory table (by their step), and the rest of an agent's state is kept by the nearest
// snapshot. `ImportedReplay` carries a snapshot forward line by line; the import makes every
// snapshot it writes with it too (one every `snapshotEvery` steps and the last), so a state
// restored between two snapshots is exactly the one the import would have written there.
//
// An agent's action begins at the step its view (tile, activity, emoji, address, partner)
// changes or it begins a conversation, and ends at the next such step (the recording's end when
// there is none); a conversation ends (`lastChat`) when the partner changes; importance since
// the last reflection adds up the memories made, back to 0 at a step that makes a reflection.

import type { MemoryRecord } from '../../engine/memory';
import { agentViews, type AgentView, type Snapshot } from '../../engine/sim';
import { NO_ABLATION, STATE_SCHEMA, type AgentState, type SimState } from '../../engine/state';
import { timeAtStep } from '../../engine/clock';
import type { WorldDef } from '../../engine/types';
import type { StepLine } from '../journal/commit-line';

/** What the replay reads of a commit line. */
export type ImportedLine = Pick<StepLine, 'step' | 'agents' | 'conversations' | 'memories'>;

interface AgentBits {
	id: string;
	name: string;
	view: AgentView;
	/** the step its current action began */
	began: number;
	lastChat: Record<string, number>;
	/** memories in the state */
	size: number;
	importanceSinceReflection: number;
	spatial: Record<string, Record<string, string[]>>;
}

const same = (a: AgentView, b: AgentView) =>
	a.x === b.x && a.y === b.y && (a.activity || 'idle') === (b.activity || 'idle') && a.emoji === b.emoji && a.address === b.address && a.chatWith === b.chatWith;

/** Whether an agent's action changes at step `line.step + 1`: what it shows, or a conversation it begins. */
export function changesAt(before: AgentView, line: ImportedLine, agent: string): boolean {
	const after = line.agents.find((v) => v.id === agent);
	if (!after) throw new Error(`the commit line of step ${line.step} has no agent "${agent}"`);
	return !same(before, after) || line.conversations.some((c) => c.agents.includes(agent));
}

export class ImportedReplay {
	private constructor(
		private readonly world: WorldDef,
		/** per agent, oldest first (all the run's memories, or at least those up to the steps replayed) */
		private readonly records: ReadonlyMap<string, readonly MemoryRecord[]>,
		private readonly agents: AgentBits[],
		/** the state is the one after this many steps */
		public step: number
	) {}

	/** The first state of an import: every action begun at step 0, no conversation ended yet. */
	static begin(
		world: WorldDef,
		records: ReadonlyMap<string, readonly MemoryRecord[]>,
		agents: { id: string; name: string; view: AgentView; size: number; importanceSinceReflection: number; spatial: Record<string, Record<string, string[]>> }[]
	): ImportedReplay {
		return new ImportedReplay(
			world,
			records,
			agents.map((a) => ({ ...a, view: { ...a.view }, began: 0, lastChat: {} })),
			0
		);
	}

	/**
	 * Carries on from a snapshot written by the import; `views` are the agents as the map showed
	 * them then (the commit line before it, or for step 0 the snapshot's own views).
	 */
	static resume(world: WorldDef, snap: Snapshot, views: readonly AgentView[], records: ReadonlyMap<string, readonly MemoryRecord[]>): ImportedReplay {
		const stepOf = (ms: number) => Math.round((ms - world.start) / (world.secondsPerStep * 1000));
		const agents = snap.state.agents.map((a) => {
			const view = views.find((v) => v.id === a.id);
			if (!view) throw new Error(`the views of step ${snap.state.step} have no agent "${a.id}"`);
			return {
				id: a.id,
				name: a.name,
				view: { ...view },
				began: stepOf(a.action.start),
				lastChat: { ...a.lastChat },
				size: snap.memory[a.id]?.size ?? 0,
				importanceSinceReflection: a.importanceSinceReflection,
				spatial: a.spatial
			};
		});
		return new ImportedReplay(world, records, agents, snap.state.step);
	}

	/** The agents as the map shows them now. */
	views(): AgentView[] {
		return this.agents.map((a) => ({ ...a.view }));
	}

	private timeOf(step: number): number {
		return timeAtStep(this.world.start, this.world.secondsPerStep, step);
	}

	/** Takes the commit line of the current step: the state after one step more. */
	apply(line: ImportedLine): void {
		if (line.step !== this.step) throw new Error(`the replay of an imported run is at step ${this.step} but was given the commit line of step ${line.step}`);
		const n = line.step + 1;
		const now = this.timeOf(n);
		let made = 0;
		for (const a of this.agents) {
			const view = line.agents.find((v) => v.id === a.id) as AgentView;
			if (changesAt(a.view, line, a.id)) a.began = n;
			if (a.view.chatWith && a.view.chatWith !== view?.chatWith) a.lastChat[a.view.chatWith] = now;
			a.view = { ...view };
			// the memories made by this step: the next rows whose step is this one (or earlier)
			const list = this.records.get(a.id) ?? [];
			let reflected = false;
			let sum = 0;
			while (a.size < list.length && list[a.size].step <= line.step) {
				const m = list[a.size++];
				made++;
				if (m.kind === 'reflection') reflected = true;
				else sum += m.importance;
			}
			a.importanceSinceReflection = reflected ? 0 : a.importanceSinceReflection + sum;
		}
		if (made !== line.memories)
			throw new Error(`the commit line of step ${line.step} says ${line.memories} memories were made, but the memory table holds ${made} of that step`);
		this.step = n;
	}

	/**
	 * The state now. `ends` gives each agent's step at which its action ends (the next change, or
	 * the recording's end); `importance` replaces importance since reflection (the recording's
	 * own count at its end).
	 */
	snapshot(ends: (agent: string) => number, importance?: ReadonlyMap<string, number>): Snapshot {
		const world = this.world;
		const now = this.timeOf(this.step);
		const objects: Record<string, string> = {};
		for (const s of world.sectors) for (const ar of s.arenas) for (const o of ar.objects) objects[o.address] = o.defaultState;
		const memory: Snapshot['memory'] = {};
		const agents: AgentState[] = this.agents.map((a) => {
			const v = a.view;
			const list = this.records.get(a.id) ?? [];
			memory[a.id] = { size: a.size, lastAccess: list.slice(0, a.size).map((m) => m.created) };
			const parts = v.address.startsWith('<') ? [] : v.address.split(':');
			const object = parts.length >= 3 ? parts.slice(0, 3).join(':') : '';
			return {
				id: a.id,
				name: a.name,
				tile: v.y * world.width + v.x,
				action: {
					activity: v.activity || 'idle',
					emoji: v.emoji,
					address: v.address,
					object: object && Object.hasOwn(objects, object) ? object : '',
					objectState: '',
					start: Math.min(now, this.timeOf(a.began)),
					end: Math.max(now, this.timeOf(ends(a.id))),
					path: [],
					chatWith: v.chatWith,
					planRef: '',
					sleeping: !v.chatWith && /\bsleep/i.test(v.activity)
				},
				plan: null,
				summary: null,
				yesterday: '',
				spatial: structuredClone(a.spatial),
				spatialVersion: 1,
				importanceSinceReflection: importance?.get(a.id) ?? a.importanceSinceReflection,
				lastChat: { ...a.lastChat },
				lastReact: {},
				recentEvents: [],
				retrievals: 0,
				memo: { importance: {}, place: {}, emoji: {}, objectState: {} },
				pending: [],
				replan: ''
			};
		});
		const state: SimState = {
			schema: STATE_SCHEMA,
			world: world.id,
			seed: 1,
			step: this.step,
			settings: world.settings,
			ablate: { ...NO_ABLATION },
			objects,
			agents,
			talks: []
		};
		return { schema: STATE_SCHEMA, state, memory };
	}
}

/** What `restoreImported` reads of a run: its snapshots and commit lines. */
export interface ImportedJournal {
	snapshotSteps(): number[];
	snapshot(step: number): Snapshot;
	/** the commit lines of steps [from, to) */
	steps(range: { from: number; to: number }): ImportedLine[];
}

/**
 * The snapshot of an imported run after `step` steps, made from the nearest snapshot before it
 * and the commit lines up to the next one (which says how long the actions then under way
 * last). `records` are the run's memories per agent, oldest first.
 */
export function importedSnapshotAt(journal: ImportedJournal, world: WorldDef, step: number, records: ReadonlyMap<string, readonly MemoryRecord[]>): Snapshot {
	const snaps = journal.snapshotSteps();
	const base = snaps.filter((s) => s <= step).at(-1);
	if (base === undefined) throw new Error(`the imported run has no snapshot at or before step ${step}`);
	if (base === step) return journal.snapshot(step);
	const next = snaps.find((s) => s > step);
	if (next === undefined) throw new Error(`the imported run has no snapshot after step ${step} (the import writes one at the recording's last step)`);
	const lines = journal.steps({ from: Math.max(0, base - 1), to: next });
	const at = new Map(lines.map((l) => [l.step, l]));
	const line = (s: number): ImportedLine => {
		const l = at.get(s);
		if (!l) throw new Error(`the imported run has no commit line of step ${s}`);
		return l;
	};
	const snap = journal.snapshot(base);
	const replay = ImportedReplay.resume(world, snap, base === 0 ? agentViews(snap.state, world.width) : line(base - 1).agents, records);
	for (let s = base; s < step; s++) replay.apply(line(s));
	// each action lasts to the next change before the next snapshot, or as long as it says there
	const after = journal.snapshot(next);
	const ends = new Map<string, number>();
	for (const v of replay.views()) {
		let view = v;
		for (let s = step; s < next && !ends.has(v.id); s++) {
			const l = line(s);
			if (changesAt(view, l, v.id)) ends.set(v.id, s + 1);
			view = l.agents.find((x) => x.id === v.id) as AgentView;
		}
		if (!ends.has(v.id)) {
			const a = after.state.agents.find((x) => x.id === v.id);
			ends.set(v.id, a ? Math.round((a.action.end - world.start) / (world.secondsPerStep * 1000)) : next);
		}
	}
	return replay.snapshot((id) => ends.get(id) as number);
}

/** A run's memory rows per agent, oldest first. */
export function recordsByAgent(rows: Iterable<MemoryRecord>): Map<string, MemoryRecord[]> {
	const out = new Map<string, MemoryRecord[]>();
	for (const r of rows) {
		let list = out.get(r.agent);
		if (!list) out.set(r.agent, (list = []));
		list[r.index] = r;
	}
	return out;
}
