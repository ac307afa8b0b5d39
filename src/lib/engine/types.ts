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
}

export interface RetrievalWeights {
	recency: number;
	importance: number;
	relevance: number;
}

export interface RetrievalSettings {
	weights: RetrievalWeights;
	/** recency = decay ^ (game hours since last access) */
	decay: number;
	/** how many memories go into a prompt */
	topK: number;
}

export interface Settings {
	perception: PerceptionSettings;
	retrieval: RetrievalSettings;
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
	seedMemories: string[];
	perception?: Partial<PerceptionSettings>;
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
}

export const DEFAULT_SETTINGS: Settings = {
	perception: { visionRadius: 8, attentionBandwidth: 8, retention: 8 },
	retrieval: { weights: { recency: 1, importance: 1, relevance: 1 }, decay: 0.995, topK: 30 },
	reflection: { threshold: 150 },
	conversation: { maxTurns: 8, cooldownMinutes: 60 }
};
