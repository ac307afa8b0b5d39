// Shapes of the evaluation API (src/routes/api/runs/[id]/eval/**) and of the files it keeps in
// `<run dir>/evaluations/`; the CLI's `eval` and `interviews` print the same shapes. Plain data,
// and the schemas of the request bodies (their types derived from them), shared by the server and
// the browser.
//
// Steps are states: step N is the state after N steps (as `loadState(run, N)` restores it);
// times are game times written YYYY-MM-DDTHH:MM:SS.

import { CONDITION_IDS, type ConditionId, type HumanCondition, type InterviewQuestion } from '../eval/questions';
import { AGENT_NAME, fields, list, oneOf, optional, text, v, wholeNumber } from './schema';
import type { MemoryKind, MemorySource } from '../engine/memory';
import type { Verdict } from '../eval/classify';

/** A memory as a report cites it. */
export interface MemoryRef {
	id: string;
	kind: MemoryKind;
	/** where it came from (absent in reports stored before memories recorded their source) */
	source?: MemorySource;
	/** the step it was stored at */
	step: number;
	description: string;
}

// ---------------------------------------------------------------------------
// interviews (the controlled evaluation)

/** POST /api/runs/:id/eval/interviews body. */
export const InterviewRequestSchema = fields({
	/** default: the run's last committed step */
	step: optional(wholeNumber()),
	/** agent ids or names; default: every agent */
	agents: optional(list(text({ max: 100, pattern: AGENT_NAME, what: 'an agent id or name' }), 200, 'a list of at most 200 names')),
	/** default: all four conditions */
	conditions: optional(list(oneOf(CONDITION_IDS), 200, 'a list of conditions'))
});
export type InterviewRequest = v.InferOutput<typeof InterviewRequestSchema>;

export interface InterviewAnswerRecord {
	agent: string;
	question: string;
	condition: ConditionId;
	/** the question as asked (`[name]` filled) */
	text: string;
	answer: string;
	/** what the answer was made from, in retrieval order */
	memories: MemoryRef[];
}

/** `<run dir>/evaluations/interviews-<step>.json`; the same run and step give the same content but `created`. */
export interface InterviewSet {
	schema: 1;
	run: string;
	world: string;
	step: number;
	time: string;
	/** wall-clock time the set was made (the only field that differs between two makings) */
	created: string;
	model: string;
	/** `default`, or the evaluation.json the questions were read from */
	questionsFrom: string;
	questions: InterviewQuestion[];
	conditions: ConditionId[];
	agents: { id: string; name: string; named?: string }[];
	/** questions not asked of an agent: `[name]` in a world of one agent */
	skipped: { agent: string; question: string; reason: string }[];
	/** agent, then question, then condition order */
	answers: InterviewAnswerRecord[];
	/**
	 * The human-written answers (condition `human`) for this set's step, kept beside it in
	 * `human-<step>.json` and attached when the set is read; absent from the stored set.
	 */
	human?: HumanAnswerRecord[];
}

/** One answer a person wrote for an agent (the paper's crowdworker condition). */
export interface HumanAnswerRecord {
	agent: string;
	question: string;
	condition: HumanCondition;
	/** the question as asked of the agent (`[name]` filled) */
	text: string;
	answer: string;
	/** wall-clock time it was last written */
	updated: string;
}

/** `<run dir>/evaluations/human-<step>.json`: the human-written answers for the interview set at `step`. */
export interface HumanAnswerSet {
	schema: 1;
	run: string;
	step: number;
	/** agent, then question order (as in the interview set) */
	answers: HumanAnswerRecord[];
}

/** One answer to store: agent id or name, question id, the text a person wrote (checked against the interview set when stored). */
export const HumanAnswerInputSchema = fields({
	agent: v.string('must be text'),
	question: v.string('must be text'),
	answer: v.string('must be text')
});
export type HumanAnswerInput = v.InferOutput<typeof HumanAnswerInputSchema>;

/**
 * PUT /api/runs/:id/eval/human body: answers for the interview set at `step` (default: the
 * newest set); each replaces the one stored for its agent and question. -> HumanAnswerSet
 */
export const HumanAnswersRequestSchema = fields({
	step: optional(wholeNumber()),
	answers: list(HumanAnswerInputSchema, 10_000, 'a list of { agent, question, answer }')
});
export type HumanAnswersRequest = v.InferOutput<typeof HumanAnswersRequestSchema>;

/** GET /api/runs/:id/eval/interviews -> InterviewSetListing[] (step ascending). */
export interface InterviewSetListing {
	step: number;
	time: string;
	created: string;
	agents: number;
	questions: number;
	conditions: ConditionId[];
	answers: number;
	/** human-written answers stored for the set */
	human?: number;
}

// ---------------------------------------------------------------------------
// end-to-end metrics

/** How a knower first came to know a fact: its earliest supporting memory. */
export interface KnowledgeSource {
	/** `seed`: a scenario seed given at the start; otherwise the kind of the memory */
	how: 'seed' | MemoryKind;
	memory: MemoryRef;
	/** the agent it was heard from (a conversation memory or the note taken after one) */
	from?: string;
	/** the logged conversation the memory came from */
	conversation?: { id: string; step: number; time: string; with: string };
}

/** One agent's answer to "Did you know about <fact>?" at one sampled step. */
export interface KnowsAnswer {
	agent: string;
	answer: string;
	verdict: Verdict;
	/** which classification rule decided */
	reason: string;
	/** affirmative and supported by a memory, or a seed holder */
	knows: boolean;
	/** affirmative, and no memory the agent holds mentions any keyword of the fact */
	hallucinated: boolean;
	/** affirmative, memories mention some keywords of the fact but none all of them */
	partial: boolean;
	/** true when the agent holds the fact's scenario seed */
	seedHolder: boolean;
	/** memories up to this step that mention every keyword of the fact */
	supportCount: number;
	/** the earliest and the latest supporting memory */
	support: MemoryRef[];
	/** set when `knows` */
	source?: KnowledgeSource;
}

export interface DiffusionPoint {
	step: number;
	time: string;
	knowers: number;
	share: number;
	affirmative: number;
	hallucinated: number;
	partial: number;
	/** agents with a supporting memory whose answer was not affirmative */
	memoryOnly: number;
	unclear: number;
}

export interface FactDiffusion {
	fact: { id: string; label: string; keywords: string[] };
	question: string;
	seedHolders: string[];
	start: { step: number; knowers: number; share: number };
	end: { step: number; knowers: number; share: number };
	series: DiffusionPoint[];
	/** every agent's answer at every sampled step (series order) */
	answers: { step: number; answers: KnowsAnswer[] }[];
}

export interface RelationshipAnswer {
	agent: string;
	other: string;
	answer: string;
	verdict: Verdict;
	hallucinated: boolean;
	/** memories of `agent` naming `other` (first or full name), up to this step */
	memoryCount: number;
	/** the earliest of them */
	memory?: MemoryRef;
}

export interface NetworkReport {
	step: number;
	time: string;
	agents: number;
	/** 2|E| / (|V|(|V|-1)), an edge when both agents answer "Do you know <other>?" affirmatively */
	density: number;
	edges: [string, string][];
	answers: number;
	affirmative: number;
	/** affirmative answers with no memory naming the other */
	hallucinated: number;
	/** hallucinated / affirmative (0 when nobody answered yes) */
	hallucinationRate: number;
	/** the same network from the memory stream: an edge when both have memories of the other */
	memoryDensity: number;
	memoryEdges: number;
	/** agent, then other, in id order */
	details: RelationshipAnswer[];
}

export interface EventReport {
	fact: string;
	label: string;
	event: { place: string; start: string; end: string; host?: string };
	/** whether the evaluated step reaches the event's window */
	status: 'not-reached' | 'in-progress' | 'complete';
	/**
	 * told about it in a conversation by another agent who knew of it before (the host excluded):
	 * the earliest such memory
	 */
	invited: { agent: string; from: string; step: number; time: string; beforeStart: boolean; memory: MemoryRef; conversation?: string }[];
	/** plan memories mentioning it (the host excluded) */
	planned: { agent: string; memory: MemoryRef; rightTimeAndPlace: boolean }[];
	/**
	 * in the event's arena during the window for at least `attendance.minMinutes`, from the logged
	 * positions (the host excluded)
	 */
	attended: { agent: string; arrived: string; minutes: number; knew: boolean; invited: boolean; planned: boolean }[];
	/**
	 * how attendance was judged: the arena (`Sector:Arena`) the event took place in, the least stay
	 * counted as attending, and who was there for less (absent in reports made before)
	 */
	attendance?: { arena: string; minMinutes: number; shorter: { agent: string; minutes: number }[] };
	/** null when the window was not reached */
	hostPresent: boolean | null;
	counts: {
		invited: number;
		invitedBeforeStart: number;
		planned: number;
		plannedRightTimeAndPlace: number;
		attended: number;
		/** attended and knew about the event when arriving */
		attendedRightTimeAndPlace: number;
	};
}

/** GET /api/runs/:id/eval?step=N; `<run dir>/evaluations/eval-<step>.json`. */
export interface EvalReport {
	schema: 1;
	run: string;
	world: string;
	step: number;
	time: string;
	created: string;
	model: string;
	agents: { id: string; name: string }[];
	/** the steps diffusion was sampled at: the start, every `everySteps`, the end */
	samples: { step: number; time: string }[];
	everySteps: number;
	diffusion: FactDiffusion[];
	relationships: { start: NetworkReport; end: NetworkReport };
	events: EventReport[];
	/** wall time of the evaluation (differs between two makings, like `created`) */
	timings: { totalMs: number; restoreMs: number; interviewMs: number; journalMs: number; restores: number; interviews: number };
}

export type EvalCsvTable = 'diffusion' | 'relationships' | 'attendance' | 'interviews';
export const EVAL_CSV_TABLES: readonly EvalCsvTable[] = ['diffusion', 'relationships', 'attendance', 'interviews'];
