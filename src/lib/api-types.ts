// Shapes of the IDE's HTTP API (src/routes/api/**), shared by the server and the browser.
// Plain data only.

import type { AgentView } from './engine/sim';
import type { ConversationRecord, DayPlan, StepEvent } from './engine/state';
import type { RetrievalWeights, Settings } from './engine/types';

export type RunStatus = 'running' | 'paused' | 'done' | 'interrupted' | 'failed';

/** GET /api/runs -> RunListing[] */
export interface RunListing {
	id: string;
	world: string;
	steps: number;
	target: number;
	model: string;
	created: string;
	status: RunStatus | string;
	parent: { run: string; step: number } | null;
	/** true while the server process is stepping it */
	live: boolean;
}

/** POST /api/runs body: a new run, or a fork when `from` is set. Answers { id }. */
export interface StartRunRequest {
	world?: string;
	steps: number;
	seed?: number;
	model?: 'offline' | 'openai';
	from?: { run: string; step: number };
	/** KEY=VALUE setting overrides */
	set?: string[];
	inputs?: (
		| { type: 'whisper'; agent: string; text: string }
		| { type: 'set-object'; address: string; state: string }
	)[];
	/** start paused (the default is to run to `steps`) */
	paused?: boolean;
}

/** GET /api/runs/:id -> RunInfo */
export interface RunInfo extends RunListing {
	worldName: string;
	seed: number;
	settings: Settings;
	overrides: string[];
	firstStep: number;
	start: number;
	secondsPerStep: number;
	/** game ms of step n = start + n * secondsPerStep * 1000 */
	agents: { id: string; name: string }[];
}

/** POST /api/runs/:id/control body. Answers RunInfo. */
export type ControlRequest =
	| { action: 'play' }
	| { action: 'pause' }
	| { action: 'step' }
	| { action: 'run'; steps: number }
	| { action: 'speed'; stepsPerSecond: number };

/** Server-sent events on GET /api/runs/:id/events */
export type RunEvent =
	| { type: 'step'; step: number; frame: Frame; markers: Marker[] }
	| { type: 'status'; status: RunStatus; steps: number; target: number }
	| { type: 'error'; message: string };

/** What the map needs to draw one step: taken from the journal, no restore needed. */
export interface Frame {
	/** the state after `step` steps */
	step: number;
	time: number;
	agents: AgentView[];
	conversations: ConversationRecord[];
}

export interface Marker {
	step: number;
	kind: 'conversation' | 'reflection' | 'input' | 'failsafe' | 'plan' | 'reaction';
	agents: string[];
	label: string;
}

/** GET /api/runs/:id/frames?from=A&to=B -> Frame[] (at most 2000 per request) */
/** GET /api/runs/:id/timeline -> { steps: number; markers: Marker[] } */
export interface Timeline {
	firstStep: number;
	steps: number;
	markers: Marker[];
}

export interface MemoryView {
	id: string;
	index: number;
	kind: string;
	description: string;
	created: number;
	step: number;
	importance: number;
	lastAccess: number;
	evidence?: string[];
	with?: string;
}

/** GET /api/runs/:id/agents/:agent?step=N -> AgentDetail (restores the exact state at N) */
export interface AgentDetail {
	step: number;
	time: number;
	persona: Record<string, unknown>;
	view: AgentView;
	plan: DayPlan | null;
	/** `${block}.${subtask}` of the plan item being carried out */
	planRef: string;
	summary: string;
	spatial: Record<string, Record<string, string[]>>;
	memories: MemoryView[];
	pending: number;
	importanceSinceReflection: number;
	conversations: ConversationRecord[];
}

/** GET /api/runs/:id/retrievals?agent=X[&step=N] -> TraceSummary[] (see server/run/traces.ts) */
/** GET /api/runs/:id/retrievals/:trace[?weights=r,i,v] -> RetrievalTable */
/** GET /api/runs/:id/calls?agent=&template=&from=&to=&limit= -> CallView[] */
export interface CallView {
	step: number;
	key: string;
	template: string;
	templateVersion: string;
	agent?: string;
	purpose?: string;
	prompt: string;
	answer: string;
	value: unknown;
	failsafe: boolean;
	latencyMs: number;
	tokens: { prompt: number; completion: number };
	cacheHit: boolean;
	attempts: number;
	error?: string;
}

/** POST /api/runs/:id/interview { agent, step, question, as? } -> InterviewAnswer */
export interface InterviewAnswer {
	agent: string;
	step: number;
	question: string;
	answer: string;
	memories: { id: string; description: string }[];
}

export type { RetrievalWeights, StepEvent };
