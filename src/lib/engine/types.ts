// Shared data shapes of the engine. Plain data only: everything here can be serialised,
// hashed and restored, which is what makes a run replayable.

/** A tile coordinate (column, row) on the map grid; never a pixel position. */
export interface TilePoint {
	readonly x: number;
	readonly y: number;
}

// ---------------------------------------------------------------------------
// World definition (produced by the loader in src/lib/server/world from worlds/<id>/)

export interface PerceptionSettings {
	visionRadius: number;
	attentionBandwidth: number;
	retention: number;
	/**
	 * game minutes between noticing something and the decision whether to react to it (0: the
	 * same step, as in the paper); meanwhile the agent goes on, and the model's answer has that
	 * long to arrive
	 */
	reactionMinutes: number;
}

/** When and how new memories are rated for importance (the paper: each when it is made). */
export interface ImportanceSettings {
	/**
	 * game minutes a new memory may wait, not yet retrievable, to be rated together with the
	 * memories made after it (0: rated when it is made)
	 */
	waitMinutes: number;
	/**
	 * most memories one rating call covers (0: all those stored together, e.g. a day's plan or
	 * what is seen at one step; 1: a call per memory)
	 */
	perCall: number;
	/** the rating sleeping and idle events get without a call (0: the model rates them) */
	mundane: number;
}

export interface RetrievalWeights {
	recency: number;
	importance: number;
	relevance: number;
}

/**
 * How many memories each kind of retrieval puts into its prompt (per query where a purpose asks
 * several). 0 turns a retrieval off where the flow can do without it (`onMind`).
 */
export interface RetrievalK {
	/** the summary description, per query (three queries, once a game day) */
	summary: number;
	/** the day's plan: commitments and intentions for the hour-level schedule */
	plan: number;
	/** the context of a reaction decision, per query (two queries) */
	reaction: number;
	/** the relationship context at the start of a conversation, per query (two per speaker) */
	conversation: number;
	/** each dialogue turn: memories relevant to the last line */
	dialogue: number;
	/** each speaker's news, plans and intentions, once per conversation; 0 = not retrieved */
	onMind: number;
}

export interface RetrievalSettings {
	weights: RetrievalWeights;
	/** recency = decay ^ (game hours since last access) */
	decay: number;
	/** memories per query for reflection evidence (per question) and interviews */
	topK: number;
	/** memories per query for each other purpose */
	k: RetrievalK;
}

export interface Settings {
	perception: PerceptionSettings;
	retrieval: RetrievalSettings;
	importance: ImportanceSettings;
	reflection: { threshold: number };
	conversation: { maxTurns: number; cooldownMinutes: number };
}

export interface ObjectDef {
	name: string;
	/** `Sector:Arena:Object` */
	address: string;
	defaultState: string;
	/** tiles covered by the object's rectangles (row-major indices y * width + x) */
	tiles: number[];
	/** walkable tiles in the same arena from which the object is used */
	access: number[];
}

export interface ArenaDef {
	name: string;
	/** `Sector:Arena` */
	address: string;
	tiles: number[];
	/** walkable tiles of the arena */
	walkable: number[];
	objects: ObjectDef[];
}

export interface SectorDef {
	name: string;
	kind: string;
	tiles: number[];
	arenas: ArenaDef[];
}

export interface PersonaDef {
	id: string;
	name: string;
	firstName: string;
	lastName: string;
	age: number;
	innate: string;
	learned: string;
	currently: string;
	lifestyle: string;
	dailyPlanRequirement: string;
	/** `Sector:Arena` */
	home: string;
	spawn: string;
	knownPlaces: string[];
	/** seed memories as plain text: thoughts made when the run starts, rated by the model */
	seedMemories: string[];
	/** seed memories with what a memory stream keeps of each (before `seedMemories` in the stream) */
	memories?: SeedMemoryDef[];
	perception?: Partial<PerceptionSettings>;
}

/**
 * A seed memory as a memory stream holds it (personas/<id>.json `memories`): its kind, when it
 * was made, its importance and the earlier memories a reflection cites. Stored when the run
 * starts, with the source `seed`.
 */
export interface SeedMemoryDef {
	/** names it for `evidence`; unique in the persona */
	id?: string;
	kind: 'observation' | 'reflection' | 'plan' | 'conversation' | 'thought';
	description: string;
	/** game ms, at or before the world's start; absent: the start */
	created?: number;
	/** 1..10; absent: rated by the model when the run starts */
	importance?: number;
	/** ids of earlier memories of the same list (a reflection's evidence) */
	evidence?: string[];
	/** the other party of a conversation, a persona id */
	with?: string;
	/** kept from the source (the reference's keywords); retrieval does not use them */
	keywords?: string[];
}

/**
 * Stored vectors of the personas' structured seed memories (a world's `personas/<id>.vectors`),
 * read when a run starts: a memory with a vector of the run's dimension is stored with it, not
 * embedded. Reading never fails: a file that cannot be used gives no vectors.
 */
export interface SeedVectors {
	/** per entry of the persona's `memories`, its stored vector (or undefined); undefined: none of `dimensions` */
	read(persona: string, dimensions: number): Promise<readonly (Float32Array | undefined)[] | undefined>;
}

export interface ScenarioSeed {
	id: string;
	agent: string;
	memory: string;
}

export interface TrackedFact {
	id: string;
	label: string;
	keywords: string[];
}

export interface WorldDef {
	id: string;
	name: string;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	/** 1 = blocked, row-major, length width * height */
	collision: Uint8Array;
	sectors: SectorDef[];
	spawns: Record<string, TilePoint>;
	personas: PersonaDef[];
	seeds: ScenarioSeed[];
	facts: TrackedFact[];
	/** game start as milliseconds of a UTC calendar (game time has no zone) */
	start: number;
	secondsPerStep: number;
	settings: Settings;
	/** the stored vectors of the personas' `memories`, when the world has any (read only by `Simulation.create`) */
	seedVectors?: SeedVectors;
}

/** The paper's settings (the studio's faster trade-offs are the `fast` profile, `profiles.ts`). */
export const DEFAULT_SETTINGS: Settings = {
	perception: { visionRadius: 8, attentionBandwidth: 8, retention: 8, reactionMinutes: 0 },
	// The paper's flow: 30 per focal point (reflection, and the reference's default), 50 for a
	// conversation's context, 15 per dialogue turn (the reference's utterance retrieval); the
	// "on my mind" retrieval is not in the paper and is off.
	retrieval: {
		weights: { recency: 1, importance: 1, relevance: 1 },
		decay: 0.995,
		topK: 30,
		k: { summary: 30, plan: 30, reaction: 30, conversation: 50, dialogue: 15, onMind: 0 }
	},
	importance: { waitMinutes: 0, perCall: 0, mundane: 0 },
	reflection: { threshold: 150 },
	conversation: { maxTurns: 8, cooldownMinutes: 60 }
};
