// The simulation state: plain data that a snapshot stores and a restore rebuilds exactly.
// Memory contents are kept in MemoryStream objects beside it (see memory.ts) because they are
// append-only and go to the run's memory log instead of every snapshot.

import type { MemoryKind, MemorySource } from './memory';
import type { RetrievalSettings, RetrievalWeights, Settings } from './types';

// 2: conversations in the state (`talks`), per-object reaction judgements, sleep flags, memory sources.
// 3: reactions under way. 4: subtasks keep their lengths, plans with places, object states seen,
// conversations ask about what the other was doing, acting without a plan (`next_action`).
// 5: the state an agent's own use gives an object is not kept as a state it saw (`seenStates`);
// a reflection retrieves every question's evidence first and answers the questions side by side.
// 6: a planned step's emoji and object state are asked when it begins, not when its block is decomposed.
export const STATE_SCHEMA = 6;

export interface Ablation {
	reflection: boolean;
	planning: boolean;
	observation: boolean;
}

export const NO_ABLATION: Ablation = { reflection: false, planning: false, observation: false };

export interface ActionState {
	/** what the agent does, e.g. "brewing coffee for customers" */
	activity: string;
	emoji: string;
	/** `Sector:Arena` or `Sector:Arena:Object`; '' while unknown */
	address: string;
	/** the object in use, whose state this action sets */
	object: string;
	objectState: string;
	/** game ms */
	start: number;
	end: number;
	/** remaining tiles to walk, next first */
	path: number[];
	/** set while in a conversation */
	chatWith: string;
	/** the plan item this action carries out: `${blockIndex}.${subtaskIndex}`, '' for none */
	planRef: string;
	/** asleep: the action carries out a sleep block of the plan (or the night before waking) */
	sleeping?: boolean;
}

export interface Subtask {
	activity: string;
	minutes: number;
	/** where, chosen when the block is decomposed; with which emoji and object state, asked when the step begins */
	address?: string;
	emoji?: string;
	objectState?: string;
}

export interface PlanBlock {
	/** minute of the day */
	start: number;
	minutes: number;
	activity: string;
	subtasks: Subtask[] | null;
	/** the agent is asleep in this block: the night's sleep (the last block) or a nap */
	sleep?: boolean;
}

export interface DayPlan {
	day: number;
	wakeMinute: number;
	agenda: string[];
	blocks: PlanBlock[];
}

export interface AgentState {
	id: string;
	name: string;
	tile: number;
	action: ActionState;
	plan: DayPlan | null;
	/** identity summary, regenerated once a game day */
	summary: { day: number; text: string } | null;
	/** summary of the previous day, for tomorrow's plan */
	yesterday: string;
	/** what the agent has seen: sector -> arena -> objects */
	spatial: Record<string, Record<string, string[]>>;
	/**
	 * object address -> the state the agent last saw it in, when that is not the object's default
	 * state (absent: seen in its default state, or never seen otherwise). What the agent knows of
	 * its environment may be stale: it changes only when the agent sees the object again. Absent in
	 * snapshots from before objects' states were remembered.
	 */
	seenStates?: Record<string, string>;
	/** bumps whenever `spatial` grows; part of the key of remembered location choices */
	spatialVersion: number;
	importanceSinceReflection: number;
	/** other agent id -> game ms when their last conversation ended */
	lastChat: Record<string, number>;
	/** other agent id -> game ms when the agent last decided whether to react to them */
	lastReact: Record<string, number>;
	/** descriptions of the latest perceived events, newest last (retention) */
	recentEvents: string[];
	/** number of retrievals made so far (ids of retrieval traces) */
	retrievals: number;
	/** answers that cannot change for the same input, kept to skip repeated model calls */
	memo: {
		importance: Record<string, number>;
		place: Record<string, string>;
		emoji: Record<string, string>;
		objectState: Record<string, string>;
	};
	/** memories waiting for their (batched) importance rating; not yet in the stream */
	pending: PendingMemory[];
	/** set by an inner-voice directive or a reaction: regenerate the rest of today's plan */
	replan: string;
	/**
	 * without planning (the `planning` ablation): what a reaction or an inner voice has just
	 * decided, for the choice of the next action (absent otherwise, and in older snapshots)
	 */
	intention?: string;
	/** a reaction under way: something perceived, decided on `perception.reactionMinutes` later */
	reacting?: ReactingState;
	/**
	 * object address -> the state the agent last decided whether to react to; an object is
	 * judged again only when its state differs
	 */
	judged?: Record<string, string>;
	/** per-agent setting overrides */
	settings?: Partial<AgentSettings>;
}

export interface PendingMemory {
	kind: MemoryKind;
	/** absent in snapshots made before memories recorded their source */
	source?: MemorySource;
	description: string;
	created: number;
	evidence?: string[];
	plan?: { address: string; start: number; minutes: number };
	with?: string;
	importance?: number;
}

export interface AgentSettings {
	retrieval: RetrievalSettings;
}

export interface SimState {
	schema: number;
	world: string;
	seed: number;
	step: number;
	settings: Settings;
	ablate: Ablation;
	/** object address -> base state (the world's default, or the last state a user set) */
	objects: Record<string, string>;
	/**
	 * object address -> game ms of the step a user's `set-object` input was applied. Until an
	 * agent begins an action on the object at a later step, the user's state is what everyone
	 * perceives, even while someone uses the object; that later action ends it (the base state
	 * returns to the world's default).
	 */
	objectsSetAt?: Record<string, number>;
	agents: AgentState[];
	/** conversations under way (absent in snapshots from before conversations took game time) */
	talks?: TalkState[];
}

/**
 * A conversation under way. It begins at `step` and takes `conversation.maxTurns` game
 * minutes; its lines, what the two remember and what they do next take effect at `commitStep`.
 * The lines are made from what each speaker recalled when it began (`recall`), so they do not
 * depend on when the model answers, and a state saved in between continues it exactly.
 */
export interface TalkState {
	id: string;
	agents: [string, string];
	address: string;
	step: number;
	time: number;
	commitStep: number;
	/** per agent: how many memories its stream held when the conversation began */
	recall: Record<string, number>;
	/** per agent: what it was doing when the other saw it, before they began to talk (absent in older snapshots) */
	doing?: Record<string, string>;
}

/**
 * A reaction under way. The agent noticed something at `step` and decides whether to react
 * (continue, re-plan or talk) at `commitStep`, `perception.reactionMinutes` of game time later;
 * meanwhile it goes on with what it was doing. The decision is made from what the agent knew
 * when it noticed (its `recall` memories scored as of `time`, its `status` then), so it does
 * not depend on when the model answers, and a state saved in between continues it exactly.
 */
export interface ReactingState {
	/** what was perceived, e.g. "Maria Lopez is reading" or "stove is burning" */
	description: string;
	/** the agent observed (an agent's action) */
	agent?: string;
	agentName?: string;
	activity?: string;
	/** the object observed (`Sector:Arena:Object`) and the state seen */
	object?: string;
	objectName?: string;
	objectState?: string;
	step: number;
	time: number;
	commitStep: number;
	/** the observer's own activity when it noticed */
	status: string;
	/** how many memories the observer's stream held when it noticed */
	recall: number;
	/** game hours since the two last talked, as of then (999: never, or an object) */
	hoursSinceChat: number;
}

/** A retrieval as recorded: enough to rebuild its full score table later. */
export interface RetrievalTrace {
	id: string;
	agent: string;
	step: number;
	time: number;
	purpose: string;
	query: string;
	weights: RetrievalWeights;
	decay: number;
	k: number;
	/** the candidates were this agent's memories with index < streamSize (of `kinds` when given) */
	streamSize: number;
	kinds: MemoryKind[] | null;
	selected: string[];
	scores: number[];
}

export interface ConversationRecord {
	id: string;
	/** the step it began at */
	step: number;
	time: number;
	/** the step it was committed at: when its lines, memories and what the two do next took effect */
	endStep?: number;
	agents: [string, string];
	address: string;
	lines: { speaker: string; text: string }[];
}

export type StepEvent =
	| { kind: 'conversation'; agents: [string, string]; id: string }
	| { kind: 'reflection'; agent: string; memories: string[] }
	| { kind: 'plan'; agent: string; day: number }
	| { kind: 'reaction'; agent: string; reaction: string; /** the object reacted to, when not an agent */ object?: string }
	| { kind: 'failsafe'; agent: string; template: string }
	| { kind: 'input'; input: string; agent?: string };
