// What an evaluation reads from a run and its ancestors: restored states at sampled steps
// (restoring many steps is the slow part, so a run's memory store is read once and every
// snapshot step is rebuilt from it) and the commit lines of the steps log (conversations, and
// agents' positions in chosen windows), read once and only parsed where needed.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MemoryRecord } from '../../engine/memory';
import { Simulation, type AgentView } from '../../engine/sim';
import type { ConversationRecord } from '../../engine/state';
import type { WorldDef } from '../../engine/types';
import { writeFileAtomic } from '../fs/atomic';
import { committedSteps, type RunReader } from '../journal/journal';
import { commitHasConversations, commitLineStep, parseCommitLine, type StepLine } from '../journal/commit-line';
import { readLogText } from '../journal/log';
import { MemoryStore } from '../memory/lance-store';
import type { LiveModel } from '../run/models';
import { loadState, runWorld } from '../run/runner';
import { openRun, runLineage, spanOfState } from '../store/store';

/** `<run dir>/evaluations/`, where reports and interview sets are kept. */
export function evaluationsDir(runDir: string): string {
	return path.join(runDir, 'evaluations');
}

/** Writes a JSON file whole or not at all. */
export function writeJsonFile(file: string, value: unknown): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileAtomic(file, JSON.stringify(value));
}

export function readJson<T>(file: string): T | undefined {
	if (!existsSync(file)) return undefined;
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		// a torn or foreign file is made again
		return undefined;
	}
}

/** The run and its ancestors, root first, each with the steps it holds itself. */
export interface LineageRun {
	reader: RunReader;
	/** the first state this run holds (its fork step; 0 for the root) */
	from: number;
	/** states up to this one come from this run (a child's fork step, or the evaluated step) */
	to: number;
}

export function lineageOf(runId: string, home: string, step: number): LineageRun[] {
	const spans = runLineage(runId, { home });
	return spans.map((span, i) => ({ reader: openRun(span.run, home), from: span.from, to: i === spans.length - 1 ? step : span.to }));
}

/** The last committed state of a run (without reading the whole journal). */
export function lastStep(reader: RunReader): number {
	return committedSteps(reader.dir, reader.meta);
}

export interface RestoreStats {
	restores: number;
	ms: number;
}

/**
 * Restored states of one lineage. A step with a snapshot in the run that holds it is rebuilt
 * from that snapshot and the run's memories (read once); any other step is restored by
 * `loadState` (the nearest snapshot, then the journal replayed).
 */
export class StateSource {
	private readonly memories = new Map<string, MemoryRecord[]>();
	private readonly worlds = new Map<string, WorldDef>();
	private readonly snapshots = new Map<string, Set<number>>();
	readonly stats: RestoreStats = { restores: 0, ms: 0 };

	constructor(
		private readonly lineage: LineageRun[],
		private readonly home: string,
		private readonly model: LiveModel
	) {}

	owner(step: number): LineageRun {
		return spanOfState(this.lineage, step) ?? this.lineage[0];
	}

	async world(reader: RunReader): Promise<WorldDef> {
		let w = this.worlds.get(reader.meta.id);
		if (!w) {
			w = await runWorld(reader);
			this.worlds.set(reader.meta.id, w);
		}
		return w;
	}

	async at(step: number): Promise<Simulation> {
		const t0 = performance.now();
		try {
			const { reader } = this.owner(step);
			const id = reader.meta.id;
			let snaps = this.snapshots.get(id);
			if (!snaps) this.snapshots.set(id, (snaps = new Set(reader.snapshotSteps())));
			if (!snaps.has(step)) return (await loadState(id, step, { home: this.home, model: this.model })).sim;
			let memories = this.memories.get(id);
			if (!memories) {
				const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
				try {
					memories = await store.load();
				} finally {
					store.close();
				}
				this.memories.set(id, memories);
			}
			return Simulation.restore(await this.world(reader), reader.snapshot(step), memories, reader.meta.dimensions);
		} finally {
			this.stats.restores++;
			this.stats.ms += performance.now() - t0;
		}
	}
}

/** What the evaluation needs from the commit lines. */
export interface JournalScan {
	/** every logged conversation before the evaluated step, in step order */
	conversations: ConversationRecord[];
	/** agents' positions after each step: state n -> agents (for the windows asked) */
	positions: Map<number, AgentView[]>;
}

/**
 * Reads the lineage's steps logs once. Lines are parsed only when they hold a
 * conversation or end in one of `windows` (states [from, to), the state after a line's step).
 */
export function scanJournal(lineage: LineageRun[], windows: [number, number][]): JournalScan {
	const conversations: ConversationRecord[] = [];
	const positions = new Map<number, AgentView[]>();
	const inWindow = (state: number) => windows.some(([a, b]) => state >= a && state < b);
	for (const { reader, from, to } of lineage) {
		const text = readLogText(reader.dir, 'steps');
		let start = 0;
		for (;;) {
			const end = text.indexOf('\n', start);
			// a torn last line (a crash) is not committed
			if (end < 0) break;
			const line = text.slice(start, end);
			start = end + 1;
			if (!line) continue;
			let step = commitLineStep(line);
			let parsed: StepLine | undefined;
			if (Number.isNaN(step)) {
				parsed = parseCommitLine(line);
				step = parsed.step;
			}
			// this run holds the steps that make states (from, to]
			if (step < from || step >= to) continue;
			const talk = commitHasConversations(line);
			const window = inWindow(step + 1);
			if (!talk && !window) continue;
			parsed ??= parseCommitLine(line);
			if (talk) conversations.push(...parsed.conversations);
			if (window) positions.set(step + 1, parsed.agents);
		}
	}
	conversations.sort((a, b) => a.step - b.step || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return { conversations, positions };
}
