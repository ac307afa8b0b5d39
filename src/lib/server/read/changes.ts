// What one step changed, like Redux DevTools' action and diff panes: the state after N - 1
// steps and the state after N steps (both exact, restored and replayed), compared, with the
// step's commit line (inputs, events, conversations committed) and its model calls. Read only.

import type { StepChange, StepChangeKind, StepChanges } from '../../api/changes';
import type { ObjectStateView } from '../../api/types';
import type { MemoryRecord } from '../../engine/memory';
import type { AgentView, Simulation } from '../../engine/sim';
import type { AgentState, PlanBlock, SimState } from '../../engine/state';
import type { CallRecord } from '../journal/call-line';
import type { StepLine } from '../journal/commit-line';
import { objectStates } from './objects';
import { dataHome } from '../paths';
import { loadState } from '../run/runner';
import { openRun, runLineage, spanOfStep } from '../store/store';
import { InvalidError } from '../errors';

/** What a comparison needs of one state (a copy: the simulation may step on). */
export interface CapturedState {
	step: number;
	time: number;
	state: SimState;
	views: AgentView[];
	objects: ObjectStateView[];
	/** per agent, memories in the stream */
	sizes: Record<string, number>;
}

export function captureState(sim: Simulation): CapturedState {
	const sizes: Record<string, number> = {};
	for (const a of sim.state.agents) sizes[a.id] = sim.stream(a.id).size;
	return { step: sim.state.step, time: sim.time, state: structuredClone(sim.state), views: sim.view(), objects: objectStates(sim), sizes };
}

/** The memories stored since `sizes` (another state's stream sizes), by agent order. */
export function memoriesSince(sim: Simulation, sizes: Record<string, number>): MemoryRecord[] {
	return sim.state.agents.flatMap((a) => sim.stream(a.id).records.slice(sizes[a.id] ?? 0));
}

/** The commit line and the model calls of journal step `s` (from state s to s + 1), from the lineage run that holds it. */
export function journalOfStep(id: string, s: number, home = dataHome()): { line: StepLine | undefined; calls: CallRecord[] } {
	const span = spanOfStep(runLineage(id, { home }), s);
	if (!span) return { line: undefined, calls: [] };
	const reader = openRun(span.run, home);
	const range = { from: s, to: s + 1 };
	return { line: reader.steps(range).find((l) => l.step === s), calls: reader.calls(range).filter((c) => c.s === s) };
}

/** Order of the kinds in the list: what came in, what the agents thought and did, then the model calls. */
const ORDER: StepChangeKind[] = ['input', 'conversation', 'reaction', 'plan', 'reflection', 'memory', 'noted', 'action', 'object', 'move', 'call'];

/** Everything the step from `before` to `after` did. */
export function diffStates(
	run: string,
	before: CapturedState,
	after: CapturedState,
	stored: readonly MemoryRecord[],
	journal: { line: StepLine | undefined; calls: readonly CallRecord[] }
): StepChanges {
	const out: StepChange[] = [];
	const names = new Map(after.state.agents.map((a) => [a.id, a.name]));
	const name = (id: string | undefined) => (id ? (names.get(id) ?? id) : '');
	const prevAgents = new Map(before.state.agents.map((a) => [a.id, a]));
	const prevViews = new Map(before.views.map((v) => [v.id, v]));

	// inputs applied and events of the commit line
	const line = journal.line;
	for (const e of line?.events ?? []) {
		if (e.kind === 'input') out.push({ kind: 'input', ...(e.agent ? { agent: e.agent } : {}), input: e.input, text: `input: ${e.input}${e.agent ? ` (${name(e.agent)})` : ''}` });
		if (e.kind === 'reaction') {
			out.push({ kind: 'reaction', agent: e.agent, change: 'decided', reaction: e.reaction, ...(e.object ? { object: e.object } : {}), text: `${name(e.agent)} reacts${e.object ? ` to ${e.object}` : ''}: ${e.reaction}` });
		}
	}
	// conversations: begun (a talk under way now that was not before), ended (committed by this step)
	const talksBefore = new Set((before.state.talks ?? []).map((t) => t.id));
	const talksAfter = new Set((after.state.talks ?? []).map((t) => t.id));
	for (const t of after.state.talks ?? []) {
		if (talksBefore.has(t.id)) continue;
		out.push({ kind: 'conversation', change: 'begun', id: t.id, agents: t.agents, address: t.address, text: `${name(t.agents[0])} and ${name(t.agents[1])} begin to talk at ${t.address}` });
	}
	const committed = new Map((line?.conversations ?? []).map((c) => [c.id, c]));
	for (const t of before.state.talks ?? []) {
		if (talksAfter.has(t.id)) continue;
		const c = committed.get(t.id);
		out.push({ kind: 'conversation', change: 'ended', id: t.id, agents: t.agents, address: t.address, ...(c ? { lines: c.lines.length } : {}), text: `${name(t.agents[0])} and ${name(t.agents[1])} end their talk${c ? ` (${c.lines.length} lines)` : ''}` });
	}
	for (const c of committed.values()) {
		if (talksBefore.has(c.id)) continue; // listed above
		out.push({ kind: 'conversation', change: 'ended', id: c.id, agents: c.agents, address: c.address, lines: c.lines.length, text: `${name(c.agents[0])} and ${name(c.agents[1])} end their talk (${c.lines.length} lines)` });
	}

	for (const a of after.state.agents) {
		const p = prevAgents.get(a.id);
		if (!p) continue;
		// reactions noticed (the decision comes later, from the commit line of its step)
		if (a.reacting && (!p.reacting || p.reacting.step !== a.reacting.step)) {
			out.push({ kind: 'reaction', agent: a.id, change: 'noticed', reaction: a.reacting.description, ...(a.reacting.object ? { object: a.reacting.object } : {}), text: `${a.name} notices: ${a.reacting.description}` });
		}
		out.push(...planChanges(p, a));
		// waiting for their importance rating
		const before = new Set(p.pending.map((m) => `${m.created}\u0000${m.description}`));
		for (const m of a.pending) {
			if (before.has(`${m.created}\u0000${m.description}`)) continue;
			out.push({ kind: 'noted', agent: a.id, memoryKind: m.kind, description: m.description, text: `${a.name} notes (${m.kind}, to be rated): ${m.description}` });
		}
		// a new action: another activity, or the same begun again
		if (a.action.activity !== p.action.activity || a.action.start !== p.action.start || a.action.address !== p.action.address) {
			out.push({
				kind: 'action',
				agent: a.id,
				activity: a.action.activity,
				previous: p.action.activity,
				address: a.action.address,
				emoji: a.action.emoji,
				sleeping: a.action.sleeping === true,
				text: `${a.name}: ${a.action.emoji} ${a.action.activity}${a.action.address ? ` @ ${a.action.address}` : ''} (was: ${p.action.activity})`
			});
		}
	}
	for (const m of stored) {
		if (m.kind === 'reflection') {
			out.push({ kind: 'reflection', agent: m.agent, id: m.id, importance: m.importance, description: m.description, evidence: [...(m.evidence ?? [])], text: `${name(m.agent)} reflects (${m.importance}): ${m.description}` });
		} else {
			out.push({ kind: 'memory', agent: m.agent, id: m.id, memoryKind: m.kind, source: m.source, importance: m.importance, description: m.description, text: `${name(m.agent)} remembers (${m.kind}, ${m.importance}): ${m.description}` });
		}
	}
	const prevObjects = new Map(before.objects.map((o) => [o.address, o]));
	for (const o of after.objects) {
		const p = prevObjects.get(o.address);
		if (!p || p.state === o.state) continue;
		out.push({ kind: 'object', address: o.address, name: o.name, from: p.state, to: o.state, ...(o.usedBy ? { by: o.usedBy } : {}), text: `${o.address}: ${p.state} -> ${o.state}${o.usedBy ? ` (${name(o.usedBy)})` : ''}` });
	}
	for (const v of after.views) {
		const p = prevViews.get(v.id);
		if (!p || (p.x === v.x && p.y === v.y)) continue;
		out.push({ kind: 'move', agent: v.id, from: [p.x, p.y], to: [v.x, v.y], text: `${v.name} moves (${p.x},${p.y}) -> (${v.x},${v.y})` });
	}
	for (const c of journal.calls) {
		const tokens = { prompt: c.tokens.prompt, completion: c.tokens.completion };
		out.push({
			kind: 'call',
			...(c.agent ? { agent: c.agent } : {}),
			key: c.key,
			template: c.template,
			tokens,
			latencyMs: c.latencyMs,
			failsafe: c.failsafe,
			cacheHit: c.cacheHit,
			text: `${c.template}${c.agent ? ` for ${name(c.agent)}` : ''}: ${tokens.prompt} + ${tokens.completion} tokens${c.failsafe ? ', fail-safe' : ''}${c.cacheHit ? ', cached' : ''}`
		});
	}
	// stable order: by kind, then as made (agents in state order)
	const rank = new Map(ORDER.map((k, i) => [k, i]));
	const sorted = out.map((c, i) => ({ c, i })).sort((a, b) => (rank.get(a.c.kind) ?? 99) - (rank.get(b.c.kind) ?? 99) || a.i - b.i).map((x) => x.c);
	const counts: StepChanges['counts'] = {};
	for (const c of sorted) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
	return { run, step: after.step, time: after.time, changes: sorted, counts };
}

function blockKey(b: PlanBlock): string {
	return `${b.start}|${b.minutes}|${b.activity}|${b.sleep === true}`;
}

function planChanges(p: AgentState, a: AgentState): StepChange[] {
	if (!a.plan) return [];
	const blocks = (bs: readonly PlanBlock[]) => bs.map((b) => ({ start: b.start, minutes: b.minutes, activity: b.activity }));
	if (!p.plan || p.plan.day !== a.plan.day) {
		return [{ kind: 'plan', agent: a.id, change: 'made', day: a.plan.day, blocks: blocks(a.plan.blocks), text: `${a.name} plans day ${a.plan.day}: ${a.plan.blocks.length} blocks` }];
	}
	const old = new Set(p.plan.blocks.map(blockKey));
	const changed = a.plan.blocks.filter((b) => !old.has(blockKey(b)));
	if (changed.length > 0 || a.plan.blocks.length !== p.plan.blocks.length) {
		const from = changed[0] ? ` from ${clock(changed[0].start)}` : '';
		return [{ kind: 'plan', agent: a.id, change: 'changed', day: a.plan.day, blocks: blocks(changed), text: `${a.name} re-plans${from}: ${changed.map((b) => b.activity).join('; ') || 'blocks removed'}` }];
	}
	// same blocks: an hour block split into steps
	const split = a.plan.blocks.filter((b, i) => b.subtasks && !p.plan?.blocks[i]?.subtasks);
	if (split.length === 0) return [];
	return [{ kind: 'plan', agent: a.id, change: 'decomposed', day: a.plan.day, blocks: blocks(split), text: `${a.name} details ${split.map((b) => `${clock(b.start)} ${b.activity} (${b.subtasks?.length ?? 0} steps)`).join('; ')}` }];
}

function clock(minute: number): string {
	return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** What the step to the state after `step` steps did, restoring both states (the command line). */
export async function stepChanges(id: string, step: number, opts: { home?: string } = {}): Promise<StepChanges> {
	const home = opts.home ?? dataHome();
	if (!Number.isInteger(step) || step < 0) throw new InvalidError(`step must be a whole number, not ${step}`);
	const after = await loadState(id, step, { home });
	if (step === 0 || step <= lineageStart(id, home)) {
		return { run: id, step, time: after.sim.time, changes: [], counts: {} };
	}
	const before = await loadState(id, step - 1, { home });
	const b = captureState(before.sim);
	return diffStates(id, b, captureState(after.sim), memoriesSince(after.sim, b.sizes), journalOfStep(id, step - 1, home));
}

/** The first state of a run's lineage (its root's first step). */
function lineageStart(id: string, home: string): number {
	return runLineage(id, { home })[0]?.from ?? 0;
}
