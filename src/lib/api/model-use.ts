// Shapes of a run's model use over time (GET /api/runs/:id/model-use), shared by server and browser.

/** Model calls of one game hour (of one template, or all). */
export interface ModelUseBucket {
	calls: number;
	/** prompt and completion tokens */
	prompt: number;
	completion: number;
	/** sum and largest of the calls' wall latency (ms) */
	latencyMs: number;
	maxLatencyMs: number;
	failsafes: number;
	cacheHits: number;
}

/**
 * GET /api/runs/:id/model-use -> ModelUse: the lineage's model calls per game hour and per
 * template. `hours[i]` is the game time (ms) an hour starts; every series has one bucket per hour.
 */
export interface ModelUse {
	run: string;
	/** steps the counts cover (the lineage's committed steps) */
	steps: number;
	secondsPerStep: number;
	/** the first step of each hour (clamped to the run's first step) and its game time */
	hours: { step: number; time: number }[];
	total: ModelUseBucket[];
	/** templates by calls, most first */
	templates: { template: string; calls: number; prompt: number; completion: number; latencyMs: number; p50LatencyMs: number; p95LatencyMs: number }[];
	byTemplate: Record<string, ModelUseBucket[]>;
}
