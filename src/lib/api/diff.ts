// The behaviour diff of two runs (GET /api/diff?a=RUN&b=RUN, CLI `diff A B --json`): what
// differs between two runs that start from the same place, and where they first part.
// Plain data only, shared by the server and the browser.
//
// Numbering: a *step* s is the step computed from the state after s steps (a call's or commit
// line's step, as in CallView.step); a *frame* N is the state after N steps (as in Frame.step),
// so what step s did shows on frame s + 1. `firstDivergence` speaks in steps; agents, timeline
// and memories in frames.

import type { Ablation } from '../engine/state';
import type { Settings } from '../engine/types';

/** One side of the diff: what run.json and the journal say about the run. */
export interface DiffRun {
	id: string;
	world: string;
	worldName: string;
	seed: number;
	model: string;
	promptSet: { version: string; templates: Record<string, string> };
	settings: Settings;
	ablate: Ablation;
	overrides: string[];
	parent: { run: string; step: number } | null;
	firstStep: number;
	/** steps committed (the latest frame) */
	steps: number;
	status: string;
}

/**
 * One difference between the runs' set-ups. `a`/`b` are display values (JSON for settings);
 * null when the side has none (a template only one prompt set has, a run that is not a fork).
 * - `world`, `seed`, `model`, `prompt-set` (version), `parent` (key `fork`, value `RUN@STEP`)
 * - `template`: key the template id, values its content version
 * - `setting`: key a settings path such as `retrieval.weights.recency`
 * - `override`: key the KEY of a KEY=VALUE override (includes per-agent `agents.<id>.*`)
 * - `ablation`: key the ablated part
 * - `world-file`: key a file of the run's world copy (personas, scenario, map) whose bytes differ
 * - `input`: key the step; an input given in the compared range by one run only
 */
export interface RunChange {
	kind: 'world' | 'seed' | 'model' | 'prompt-set' | 'template' | 'setting' | 'override' | 'ablation' | 'parent' | 'world-file' | 'input';
	key: string;
	a: string | null;
	b: string | null;
}

export interface CallSide {
	/** the template the call rendered */
	template: string;
	prompt: string;
	answer: string;
	templateVersion: string;
	failsafe: boolean;
}

export type DivergenceReason = 'prompt' | 'answer' | 'call' | 'missing' | 'state';

/**
 * The first place the runs part. Calls are walked in commit order (by step, then key); a step
 * line that differs before any call does is reported as `state` (at the same step, the call
 * wins: it is the cause). `prompt`: the same template rendered another prompt (or another
 * version of it); `answer`: the same prompt got another answer; `call`: the runs made
 * different calls at that key (another template: `a.template`, `b.template`); `missing`: the
 * call exists in one run only (`a` or `b` unset).
 */
export interface Divergence {
	/** the step that made the call or wrote the commit line (-1 or forkStep - 1: the run's creation) */
	step: number;
	/** the frame that first shows it: step + 1 */
	frame: number;
	reason: DivergenceReason;
	agent: string | null;
	/** the call's template; null for `state`, and for `call` (the two are `a.template`, `b.template`) */
	template: string | null;
	/** the call's key, `step/agent/n` */
	callId: string | null;
	a?: CallSide;
	b?: CallSide;
	/** for `state`: the parts of the commit line that differ */
	parts?: ('time' | 'inputs' | 'events' | 'conversations' | 'agents' | 'counts')[];
	/** for `state`: agents whose position or action differs after that step */
	agents?: string[];
}

/**
 * The kinds of difference a diff looks for, each with the frames that show it:
 * - `moves`: the agent's position or action (activity, emoji, address) differs on a frame;
 * - `reactions`: a reaction or a new day's plan recorded in one run only (the commit lines' events);
 * - `conversations`: a conversation held in one run only, or with other lines (the frame of its commit);
 * - `memories`: a memory (not a reflection) one run holds more often than the other (the frame after the step that stored it);
 * - `reflections`: a reflection made in one run only, by its text or by the commit lines' events;
 * - `calls`: a model call whose template, prompt or answer differs, or made in one run only.
 * All but `calls` are behaviour.
 */
export type DifferenceKind = 'moves' | 'reactions' | 'conversations' | 'memories' | 'reflections' | 'calls';

/** Every kind, in the order the verdict and the page name them. */
export const DIFFERENCE_KINDS: readonly DifferenceKind[] = ['moves', 'reactions', 'conversations', 'memories', 'reflections', 'calls'];

/** The kinds that are behaviour: an agent moves or acts differently, a conversation, memory or reflection differs. */
export const BEHAVIOUR_KINDS: readonly DifferenceKind[] = ['moves', 'reactions', 'conversations', 'memories', 'reflections'];

/** One kind of difference over the compared frames. */
export interface Differences {
	kind: DifferenceKind;
	/**
	 * how many: frames in which some agent's position or action differs (`moves`), events
	 * (`reactions`), conversations, memories and reflections in one run only, calls that differ
	 */
	count: number;
	/** agents concerned, in the diff's agent order */
	agents: string[];
	/** where it shows: inclusive frame ranges, sorted and merged where they touch */
	frames: [number, number][];
}

/** One kind of difference of one agent. */
export interface AgentDifference {
	kind: DifferenceKind;
	/** as in Differences.count, for this agent (moves: its differing frames) */
	count: number;
	/** the first frame that shows it */
	first: number;
}

export type VerdictKind = 'identical' | 'same-behaviour' | 'behaviour';

/**
 * What the comparison comes to, from every kind of difference:
 * - `identical`: no model call and no recorded step differs;
 * - `same-behaviour`: no agent moves or acts differently and no conversation, memory or
 *   reflection differs, but model calls (prompts or answers) or other recorded parts do;
 * - `behaviour`: an agent moves or acts differently, or a conversation, memory or reflection differs.
 */
export interface Verdict {
	kind: VerdictKind;
	/** "Identical", "Same behaviour, different model calls" (or "…, different records"), "Behaviour differs" */
	title: string;
	/** what differs, in one sentence */
	detail: string;
}

export interface AgentSideStats {
	/** distinct action addresses over the compared frames */
	placesVisited: number;
	/** conversations held in the compared steps */
	conversations: number;
	/** reflection memories made in the compared steps */
	reflections: number;
}

export interface AgentDiff {
	id: string;
	name: string;
	/** compared frames in which the position, activity, emoji or address differ */
	differingSteps: number;
	/** the first such frame, null when none */
	firstDifferentStep: number | null;
	/** every kind of difference this agent shows (moves included), in DIFFERENCE_KINDS order; empty: the same in both runs */
	differences: AgentDifference[];
	a: AgentSideStats;
	b: AgentSideStats;
}

/** Consecutive frames (inclusive) with the same activity, emoji and address. */
export interface Segment {
	from: number;
	to: number;
	activity: string;
	address: string;
	emoji: string;
}

export interface AgentTimeline {
	id: string;
	a: Segment[];
	/** null when B's lane is A's (the agent did the same things in both runs) */
	b: Segment[] | null;
	/** frame ranges [from, to] (inclusive) where the agent's position or action differs */
	differs: [number, number][];
}

export interface ConversationSummary {
	step: number;
	agents: [string, string];
	names: [string, string];
	address: string;
	/** the first lines (at most 2) */
	lines: { speaker: string; text: string }[];
}

export interface ConversationDiff {
	/** identified by participants + step + first line; lists are capped (totals give the counts) */
	onlyA: ConversationSummary[];
	onlyB: ConversationSummary[];
	onlyATotal: number;
	onlyBTotal: number;
	both: number;
}

export interface MemoryDelta {
	kind: string;
	description: string;
	/** how many more times this run holds it than the other */
	count: number;
	/** the step the first such memory was stored */
	step: number;
}

export interface ReflectionDelta extends MemoryDelta {
	/** descriptions of the memories it cites (at most 5) */
	evidence: string[];
}

export interface AgentMemoryDiff {
	id: string;
	name: string;
	a: { total: number; byKind: Record<string, number> };
	b: { total: number; byKind: Record<string, number> };
	/** memories in one run only, by (kind, description) multiset, capped at 50 */
	onlyA: MemoryDelta[];
	onlyB: MemoryDelta[];
	onlyATotal: number;
	onlyBTotal: number;
	reflections: { onlyA: ReflectionDelta[]; onlyB: ReflectionDelta[]; onlyATotal: number; onlyBTotal: number };
}

export interface MemoryDiff {
	/** the frame the streams are compared at: the last compared frame, or the latest one both stores hold in full */
	step: number;
	/** where the memories come from */
	source: string;
	agents: AgentMemoryDiff[];
}

export interface FactDiff {
	id: string;
	label: string;
	keywords: string[];
	/** agents with a memory mentioning every keyword (the acceptance test's rule) */
	a: string[];
	b: string[];
	onlyA: string[];
	onlyB: string[];
}

export interface SideSummary {
	/** distinct addresses visited by anyone / summed over agents */
	places: number;
	agentPlaces: number;
	conversations: number;
	reflections: number;
	memories: number;
}

export interface FailsafeSide {
	calls: number;
	failsafes: number;
	/** failsafes / calls (0 without calls) */
	rate: number;
}

export interface FailsafeRow {
	template: string;
	a: FailsafeSide;
	b: FailsafeSide;
}

/** GET /api/diff?a=RUN&b=RUN -> RunDiff */
export interface RunDiff {
	a: DiffRun;
	b: DiffRun;
	/** what differs in the runs' set-ups */
	changes: RunChange[];
	/**
	 * The compared range: frames start..end. Frame `start` is the state both start from (a fork
	 * compared with its parent: the fork step; unrelated runs: 0); steps start..end-1 are
	 * compared; `end` is the last frame both runs have.
	 */
	steps: { start: number; end: number };
	/** no call and no commit line in the range differs (verdict.kind is `identical`) */
	identical: boolean;
	/** identical, same behaviour with other model calls, or behaviour differs: the one verdict the CLI and the page show */
	verdict: Verdict;
	/** each kind of difference found (kinds without any left out), in DIFFERENCE_KINDS order */
	differences: Differences[];
	firstDivergence: Divergence | null;
	agents: AgentDiff[];
	/** two lanes per agent over frames start+1..end */
	timeline: { from: number; to: number; agents: AgentTimeline[] };
	conversations: ConversationDiff;
	memories: MemoryDiff;
	summary: { a: SideSummary; b: SideSummary; facts: FactDiff[] };
	/** per template, calls in the compared range (and the creation, for runs created there) */
	failsafe: FailsafeRow[];
}
