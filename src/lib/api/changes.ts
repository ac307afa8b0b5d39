// Shapes of what one step changed (GET /api/runs/:id/changes, `simulacra inspect --changes`),
// shared by server and browser.

import type { MemoryKind, MemorySource } from '../engine/memory';

/**
 * One thing a step did. Every change has `text`, one line with agents' names, for lists.
 * `agent` is the agent it concerns (absent for an object or an input without one).
 */
export type StepChange = { text: string } & (
	| { kind: 'move'; agent: string; from: [number, number]; to: [number, number] }
	| { kind: 'action'; agent: string; activity: string; previous: string; address: string; emoji: string; sleeping: boolean }
	| { kind: 'memory'; agent: string; id: string; memoryKind: MemoryKind; source: MemorySource; importance: number; description: string }
	| { kind: 'reflection'; agent: string; id: string; importance: number; description: string; evidence: string[] }
	/** noticed, waiting (not yet retrievable) for its importance rating */
	| { kind: 'noted'; agent: string; memoryKind: MemoryKind; description: string }
	/** `made`: a new day's plan; `changed`: blocks re-planned; `decomposed`: an hour block split into steps */
	| { kind: 'plan'; agent: string; change: 'made' | 'changed' | 'decomposed'; day: number; blocks: { start: number; minutes: number; activity: string }[] }
	| { kind: 'object'; address: string; name: string; from: string; to: string; by?: string }
	| { kind: 'conversation'; change: 'begun' | 'ended'; id: string; agents: [string, string]; address: string; lines?: number }
	/** `noticed`: something seen, to decide on later; `decided`: the decision */
	| { kind: 'reaction'; agent: string; change: 'noticed' | 'decided'; reaction: string; object?: string }
	| { kind: 'input'; agent?: string; input: string }
	| {
			kind: 'call';
			agent?: string;
			key: string;
			template: string;
			tokens: { prompt: number; completion: number };
			latencyMs: number;
			failsafe: boolean;
			cacheHit: boolean;
	  }
);

export type StepChangeKind = StepChange['kind'];

/**
 * GET /api/runs/:id/changes?step=N -> StepChanges: what the step from the state after N - 1
 * steps to the state after N steps did (the step the journal numbers N - 1). Nothing for N = 0.
 */
export interface StepChanges {
	run: string;
	/** the state after this many steps */
	step: number;
	/** game time after the step (ms) */
	time: number;
	changes: StepChange[];
	/** how many changes of each kind */
	counts: Partial<Record<StepChangeKind, number>>;
}
