// Shapes of the IDE's HTTP API (src/routes/api/**), shared by the server and the browser.
// Plain data, and the schema of each request body (./schema.ts: valibot), whose type is derived
// from it. Error answers have the one shape of ./errors.ts.

import type { ReferenceUpdate, ZoneRename } from '../editor/references';
import type { TemplateVars } from '../engine/model';
import type { MemorySource } from '../engine/memory';
import type { ApiInput } from '../engine/inputs';
import type { AgentView } from '../engine/sim';
import type { ConversationRecord, DayPlan, StepEvent } from '../engine/state';
import type { RetrievalWeights, Settings } from '../engine/types';
import type { MapDoc } from '../world/doc';
import type { WorldProblem } from '../world/problems';
import { PROFILE_NAMES } from '../engine/profiles';
import { WORLD_ID } from '../shared/ids';
import { boolean, fields, list, number, oneOf, option, optional, tagged, text, v, wholeNumber } from './schema';

export type RunStatus = 'running' | 'paused' | 'done' | 'interrupted' | 'failed';

// ---- cost, budgets, model identity (runs against real models) ---------------------------------

/** US dollars per million input (prompt) and output (completion) tokens. */
export interface Price {
	input: number;
	output: number;
}

/** A run's spending limit: it pauses between steps once either is reached. */
export const BudgetSchema = fields({
	tokens: optional(wholeNumber({ min: 1 })),
	usd: optional(
		v.pipe(
			v.number('must be a positive number of dollars'),
			v.finite('must be a positive number of dollars'),
			v.gtValue(0, (i) => `must be a positive number of dollars, not ${String(i.input)}`)
		)
	)
});
export type Budget = v.InferOutput<typeof BudgetSchema>;

/** Why a paused run stopped by itself (cleared when it steps again). */
export interface PauseInfo {
	reason: 'budget' | 'fault';
	/** the run's committed steps when it paused */
	step: number;
	/** e.g. "budget reached: 10,240 of 10,000 tokens" or the model fault's message */
	message: string;
}

/** Which models a run talks to; endpoints are host names only (never keys or paths). */
export interface ModelIdentity {
	provider: string;
	chat: { endpoint: string; model: string };
	embed: { endpoint: string; model: string; dimensions: number };
	/** templates sent to another endpoint or model than `chat` */
	routes?: Record<string, { endpoint: string; model: string }>;
}

/** A model change accepted on resume or fork: from step `step` on, `to` answers. */
export interface ModelChange {
	step: number;
	from: ModelIdentity;
	to: ModelIdentity;
}

/** Tokens and dollars of a set of calls. `unpricedTokens`: tokens of models without a price (not in `usd`). */
export interface UsageRow {
	calls: number;
	prompt: number;
	completion: number;
	usd: number;
	unpricedTokens: number;
}

/** A model's share of a run's usage. */
export interface ModelUsage extends UsageRow {
	model: string;
	provider: string;
	price: Price | null;
	/** false for the offline stand-in */
	languageModel: boolean;
}

/** GET /api/runs/:id/usage -> RunUsage: the run's own calls (a fork's parent's are not counted). */
export interface RunUsage {
	total: UsageRow;
	agents: Record<string, UsageRow>;
	templates: Record<string, UsageRow>;
	models: ModelUsage[];
	budget: Budget | null;
	/**
	 * calls made ahead of need that no step used: not part of the run (not in `total`), but paid
	 * for; a budget counts them
	 */
	aheadUnused?: UsageRow;
	/** embedding requests sent to an endpoint (tokens estimated at 4 characters a token); a budget counts them */
	embeddings?: UsageRow;
}

/**
 * POST /api/runs/estimate (body: StartRunRequest) -> RunEstimate: tokens and dollars a run (or
 * fork) of `steps` steps is expected to cost, before it starts. `method` says how it was made.
 */
export interface RunEstimate {
	steps: number;
	agents: number;
	/** `dry-run`: the offline stand-in ran the same world for `sampleSteps`; `history`: the run's recorded calls */
	method: 'dry-run' | 'history';
	sampleSteps: number;
	callsPerAgentStep: number;
	tokensPerCall: { prompt: number; completion: number };
	calls: number;
	tokens: { prompt: number; completion: number };
	/** null when a model that would answer has no price */
	usd: number | null;
	model: string;
	languageModel: boolean;
	price: Price | null;
	/** how the figures were made, in one sentence */
	note: string;
}

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
	/** the prompt-set version the run uses (a stored version when the content was saved) */
	promptSet: string;
	/** true while the server process is stepping it */
	live: boolean;
	/** tokens and dollars of the run's own calls so far (as of its last status write, or live) */
	usage?: UsageRow;
	budget?: Budget | null;
	/** why the run paused by itself (budget reached, model fault) */
	pause?: PauseInfo | null;
}

/** The most steps a request may ask a run to take. */
export const MAX_STEPS = 10_000_000;

/**
 * POST /api/runs body: a new run, or a fork when `from` is set. Answers { id } once the run is
 * created (its first snapshot written); stepping goes on in the background. POST
 * /api/runs/estimate takes the same body (with at least one step).
 */
export const StartRunRequestSchema = fields(
	{
		/** default: smallville; a fork keeps its parent's */
		world: optional(text({ max: 100 })),
		steps: wholeNumber({ max: MAX_STEPS }),
		seed: optional(wholeNumber({ max: 2 ** 31 - 1 })),
		model: optional(oneOf(['offline', 'openai'])),
		from: optional(fields({ run: text({ max: 200 }), step: wholeNumber() })),
		/** a named profile (`paper` or `fast`): its settings, applied before `set` */
		profile: optional(oneOf(PROFILE_NAMES)),
		/** KEY=VALUE setting overrides */
		set: optional(list(text({ max: 200 }), 100, 'a list of KEY=VALUE strings')),
		/** inputs applied at the first step: each is read by the run manager's input parser (../engine/inputs.ts), not here */
		inputs: optional(v.array(v.unknown(), 'must be a list of inputs')),
		/** start paused (the default is to run to `steps`) */
		paused: optional(boolean()),
		/** prompt-set version (id, unique prefix or label) to run with; default: the working copy, or a fork's parent's prompts */
		prompts: optional(text({ max: 100 })),
		/** pause between steps once the run's own calls reach this many tokens or dollars */
		budget: optional(BudgetSchema),
		/** a fork may use another model than its parent (recorded in the fork); refused otherwise */
		allowModelChange: optional(boolean())
	},
	'(see StartRunRequest)'
);
/** The start request; its inputs are the API's inputs (../engine/inputs.ts, `api: true`), which their own parser checks. */
export type StartRunRequest = Omit<v.InferOutput<typeof StartRunRequestSchema>, 'inputs'> & { inputs?: ApiInput[] };

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
	/** the models the run talks to now (absent in runs made before it was recorded) */
	identity?: ModelIdentity;
	/** model changes accepted on resume or fork, oldest first */
	modelChanges?: ModelChange[];
	/**
	 * the recording of the reference implementation the lineage's first steps come from: the
	 * run's own (`run` is its id) or an ancestor's, whose steps before `until` are the recording's
	 */
	imported?: ImportedRecording & { run: string; until: number };
}

/** A run made from a recording of the reference implementation (`runs import`): run.json's `imported`. */
export interface ImportedRecording {
	/** the recording's folder, as given to the import */
	from: string;
	form: 'expanded' | 'compressed';
	/** the recording's folder name */
	simulation: string;
	/** the run's steps are 0..steps */
	steps: number;
	/** what the recording does not hold, so neither does the run (each: what, then why in parentheses) */
	missing: string[];
}

/**
 * POST /api/runs/:id/control body. Answers RunInfo.
 * `play` steps until paused or at the target; a run already at its target (or stopped: done,
 * interrupted, paused) is reopened and its target raised by `steps` (default: one game day).
 * `step` answers after the step is committed; `run` steps `steps` more, then pauses.
 * `speed` is steps per second, 0 = as fast as possible (the default). `budget` sets (or, with
 * null, removes) the run's budget; a run paused at its budget goes on after a higher one.
 * Reopening a stopped run under another model identity than run.json records is refused
 * (409) unless `allowModelChange`, which records the change in the run.
 */
export const ControlRequestSchema = tagged(
	'action',
	[
		option({ action: v.literal('play'), steps: optional(wholeNumber({ min: 1, max: MAX_STEPS })), allowModelChange: optional(boolean()) }),
		option({ action: v.literal('pause') }),
		option({ action: v.literal('step'), allowModelChange: optional(boolean()) }),
		option({ action: v.literal('run'), steps: wholeNumber({ min: 1, max: MAX_STEPS }), allowModelChange: optional(boolean()) }),
		option({ action: v.literal('speed'), stepsPerSecond: number(0, 10_000) }),
		option({ action: v.literal('budget'), budget: v.nullish(BudgetSchema) })
	],
	'{ action: play | pause | step | run | speed | budget }'
);
export type ControlRequest = v.InferOutput<typeof ControlRequestSchema>;

/**
 * Server-sent events on GET /api/runs/:id/events (`data: <json>` lines, one RunEvent each).
 * A `status` event is sent first on connect. `step.frame` equals the journal's frame.
 */
/** What the model is doing while a live run's step is being made. */
export interface ModelActivity {
	/** calls in flight, and of them made ahead of need */
	inFlight: number;
	inFlightAhead: number;
	/** calls waiting for a slot */
	queued: number;
	/** the calls the step is waiting for */
	waitingFor: { template: string; agent: string }[];
}

export type RunEvent =
	| { type: 'step'; step: number; frame: Frame; markers: Marker[]; usage?: UsageRow }
	/** sent while a step waits for the model (at most every 400 ms) */
	| { type: 'model'; step: number; activity: ModelActivity }
	| { type: 'status'; status: RunStatus; steps: number; target: number; live: boolean; speed: number; usage?: UsageRow; budget?: Budget | null; pause?: PauseInfo | null }
	| { type: 'error'; message: string };

/**
 * What the map needs to draw one step: taken from the journal, no restore needed.
 * Frame N is the state after N steps (frame 0: before any step); its conversations are those
 * held during step N - 1. A fork's frames before its first step are its parent's.
 */
export interface Frame {
	/** the state after `step` steps */
	step: number;
	time: number;
	agents: AgentView[];
	conversations: ConversationRecord[];
}

export interface Marker {
	/** the frame that first shows it: something that happened during step n is on frame n + 1 */
	step: number;
	kind: 'conversation' | 'reflection' | 'input' | 'failsafe' | 'plan' | 'reaction';
	agents: string[];
	label: string;
}

/** GET /api/runs/:id/frames?from=A&to=B -> Frame[] (A..B inclusive, at most 2000 per request) */
/**
 * GET /api/runs/:id/timeline -> Timeline. Frames 0..steps can be asked for; a fork's markers
 * before `firstStep` are its parent's.
 */
export interface Timeline {
	firstStep: number;
	steps: number;
	markers: Marker[];
}

export interface MemoryView {
	id: string;
	index: number;
	kind: string;
	/** where the memory came from: seed, observed, conversation, planned, reflected, inner-voice, interview */
	source: MemorySource;
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
	/** object address -> the state the agent last saw it in, where not its default (older servers: absent) */
	seenStates?: Record<string, string>;
	memories: MemoryView[];
	pending: number;
	importanceSinceReflection: number;
	conversations: ConversationRecord[];
}

/** GET /api/runs/:id/retrievals[?agent=X][&step=N] -> TraceSummary[] (see server/run/traces.ts) */
/**
 * GET /api/runs/:id/retrievals/:trace[?weights=r,i,v] -> RetrievalTable; the trace id has a
 * slash (`agent/r12`) and goes in the path as is. Re-scoring with `weights` changes nothing in the run.
 */
/**
 * GET /api/runs/:id/calls?agent=&template=&from=&to=&limit= -> CallView[]: calls of steps
 * from..to (inclusive), newest last, the last `limit` (default 200, at most 2000). `step` is the
 * step that made the call (-1 or the fork step - 1 for the run's creation).
 */
export interface CallView {
	step: number;
	key: string;
	template: string;
	templateVersion: string;
	agent?: string;
	purpose?: string;
	prompt: string;
	/** the template variables the prompt was rendered from (absent in runs recorded before they were kept) */
	vars?: TemplateVars;
	answer: string;
	value: unknown;
	failsafe: boolean;
	latencyMs: number;
	tokens: { prompt: number; completion: number };
	cacheHit: boolean;
	attempts: number;
	error?: string;
}

/**
 * POST /api/runs/:id/interview { agent, step?, question, as? } -> InterviewAnswer. Read-only: the
 * question is put to a restored copy of the state at `step` (default: the latest).
 */
export interface InterviewAnswer {
	agent: string;
	step: number;
	question: string;
	answer: string;
	memories: { id: string; description: string }[];
}

export const InterviewRequestSchema = fields({
	agent: text({ max: 100 }),
	step: optional(wholeNumber()),
	question: text(),
	/** who asks (default: an interviewer) */
	as: optional(text({ max: 200, blank: true }))
});
export type InterviewRequest = v.InferOutput<typeof InterviewRequestSchema>;

/**
 * POST /api/runs/:id/inputs -> InputResult: an inner voice or an object edit at `step`
 * (default: the latest). When the run is live and at that step (or paused there), the inputs
 * are queued for its next step in the same run; otherwise a fork from `step` is started with
 * them, stepping `steps` (default 1) unless `paused`.
 */
export const InputRequestSchema = fields({
	step: optional(wholeNumber()),
	/** each is read by the run manager's input parser (../engine/inputs.ts), not here */
	inputs: v.array(v.unknown(), 'must be a list of inputs'),
	steps: optional(wholeNumber({ min: 1, max: MAX_STEPS })),
	paused: optional(boolean())
});
export type InputRequest = Omit<v.InferOutput<typeof InputRequestSchema>, 'inputs'> & { inputs: NonNullable<StartRunRequest['inputs']> };

export interface InputResult {
	/** the run the inputs went to: this one (queued) or the new fork */
	run: string;
	queued: boolean;
	/** the step at which the inputs apply */
	step: number;
}

/** One object of the town at a step (see GET /api/runs/:id/objects). */
export interface ObjectStateView {
	/** `Sector:Arena:Object` */
	address: string;
	name: string;
	/** what everyone perceives: a user's state, the state an agent's action sets, or the base state */
	state: string;
	/** the state without anyone's action: the world's default or the last state a user set */
	base: string;
	/** the world's default state */
	default: string;
	/** a user's `set-object` state that holds until an agent begins an action on the object */
	setByUser?: true;
	/** the agent whose current action sets `state` */
	usedBy?: string;
}

/**
 * GET /api/runs/:id/objects?step=N -> ObjectStates: every object of the town after `step` steps
 * (default: the latest), from the exact restored state. Set one with a `set-object` input.
 */
export interface ObjectStates {
	step: number;
	objects: ObjectStateView[];
}

// ---- worlds (the world editor) ----------------------------------------------------------------
// Errors of these endpoints answer { message, problems? } (ApiErrorBody) with 400, 404, 409 or 413.

export interface ApiErrorBody {
	message: string;
	/** what is wrong, each with its file, place and (`at`) the place an editor can show */
	problems?: WorldProblem[];
}

/** GET /api/worlds -> WorldListing[] */
export interface WorldListing {
	id: string;
	name: string;
}

/**
 * POST /api/worlds body -> 201 WorldListing. A copy of the world `from`, or an empty map of
 * width x height tiles (default 40x30). `id`: lowercase letters, digits, "-", "_".
 */
const WORLD_ID_RULE = { max: 64, pattern: WORLD_ID, what: '1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit' };
/** The largest side of a new empty map, in tiles. */
export const MAX_MAP_SIDE = 500;

export const CreateWorldRequestSchema = fields({
	id: text(WORLD_ID_RULE),
	name: text({ max: 200 }),
	/** the world to copy */
	from: optional(text({ max: 200 })),
	width: optional(wholeNumber({ min: 1, max: MAX_MAP_SIDE })),
	height: optional(wholeNumber({ min: 1, max: MAX_MAP_SIDE }))
});
export type CreateWorldRequest = v.InferOutput<typeof CreateWorldRequestSchema>;

/**
 * POST /api/worlds/import-reference body -> 201 WorldListing & { report }: the town of a checkout
 * of the reference implementation (a folder on the studio's machine) with the personas of one of
 * its simulations (`storage`) as the world `id`.
 */
export const ReferenceImportRequestSchema = fields({
	checkout: text({ max: 4096 }),
	storage: text({ max: 200 }),
	id: text(WORLD_ID_RULE),
	/** the world's name (default: the town's, with the number of agents) */
	name: optional(text({ max: 200, blank: true }))
});
export type ReferenceImportRequest = v.InferOutput<typeof ReferenceImportRequestSchema>;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** GET /api/worlds/:world/map -> MapResponse; PUT body: MapResponse -> SaveMapResult */
export interface MapResponse {
	doc: MapDoc;
}

/**
 * PUT /api/worlds/:world/map and POST /api/worlds/:world/check body: the map (required to save;
 * to check, the saved map stands for it when absent) and the zones renamed since it was loaded.
 * The doc is a JSON object here; the map reader checks it in full (every field named).
 */
export const MapRequestSchema = fields(
	{
		doc: optional(v.custom<MapDoc>(isObject, 'must be an object (a MapDoc)')),
		renames: optional(
			list(
				fields({ kind: oneOf(['sector', 'arena', 'object', 'spawn']), from: text({ max: 1000 }), to: text({ max: 1000 }) }, '{ kind, from, to } with the old and new addresses'),
				1000,
				'a list of { kind, from, to }'
			)
		)
	},
	'{ doc?: MapDoc, renames?: ZoneRename[] }'
);
export type MapRequest = v.InferOutput<typeof MapRequestSchema> & { renames?: ZoneRename[] };

/** POST /api/worlds/:world/check (body { doc? }) -> WorldChecks: a run's checks of the world */
export interface WorldChecks {
	errors: WorldProblem[];
	warnings: WorldProblem[];
}

/** The map was saved; `ok` when the saved world has no errors, which are listed. */
export interface SaveMapResult extends WorldChecks {
	ok: boolean;
}

/** What saving a map answers: the saved world's checks and the references the renames rewrote. */
export interface SaveMapOutcome extends SaveMapResult {
	/** fields of personas and scenario.json that named a renamed zone, now written with its new address */
	updated: ReferenceUpdate[];
}

/** What checking a map answers: with `renames`, the references they would rewrite on saving. */
export interface CheckOutcome extends WorldChecks {
	references?: ReferenceUpdate[];
}

/**
 * GET/PUT /api/worlds/:world/settings: world.json as it is written (docs/world-format.md).
 * PUT answers SaveSettingsResult; invalid settings answer 400 with problems, file unchanged.
 */
export interface WorldSettingsDoc {
	name?: string;
	map?: string;
	/** YYYY-MM-DDTHH:MM:SS, game time */
	start?: string;
	secondsPerStep?: number;
	defaults?: {
		perception?: Partial<Settings['perception']>;
		retrieval?: { weights?: Partial<RetrievalWeights>; decay?: number; topK?: number };
		reflection?: Partial<Settings['reflection']>;
		conversation?: Partial<Settings['conversation']>;
	};
	[key: string]: unknown;
}

/**
 * PUT /api/worlds/:world/settings body: world.json as it is to be written. A JSON object here; the
 * world's own rules (the loader's check of world.json) check its fields, each problem naming its
 * field for the settings form.
 */
export const WorldSettingsRequestSchema = v.custom<WorldSettingsDoc>(isObject, 'must be a JSON object: the world settings (world.json)');

export interface SaveSettingsResult {
	settings: WorldSettingsDoc;
	warnings: WorldProblem[];
}

/** GET /api/worlds/:world/personas -> PersonaEntry[] (sorted by id) */
export interface PersonaEntry {
	/** the file name without .json */
	id: string;
	/** the file's JSON object as written; null when the file is not a JSON object */
	persona: Record<string, unknown> | null;
}

/**
 * PUT /api/worlds/:world/personas/:id body: the persona file as it is to be written. A JSON object
 * here; the world's own rules (the loader's check of a persona, and its places against the saved
 * map) check its fields, each problem naming its field for the persona form.
 */
export const PersonaRequestSchema = v.custom<Record<string, unknown>>(isObject, 'must be a JSON object: the persona');

/** PUT /api/worlds/:world/personas/:id (body: the persona) -> SavePersonaResult */
export interface SavePersonaResult {
	persona: Record<string, unknown>;
	/** the file did not exist before */
	created: boolean;
	warnings: WorldProblem[];
}

export type { AgentView, ConversationRecord, DayPlan, RetrievalWeights, StepEvent };
