// What the IDE reads from a run's journal, indexed once and kept up to date as the run grows:
// the step lines (frames, markers, inputs, conversations) and the model calls.
// Frame N is the state after N steps: frame `firstStep` comes from the run's first snapshot
// (or, for a fork, its parent's frame at the fork step), frame N > firstStep from the commit
// line of step N - 1, which records the agents as they were after it.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { RunReader, committedSteps, listSnapshotSteps, readRunMeta, readSnapshot, type RunMeta } from '../journal/journal';
import { CALL_HEAD, parseCallHead, parseCallLine, type CallHead, type CallRecord } from '../journal/call-line';
import { LogIndex } from '../journal/log';
import { COMMIT_HEAD, commitFrameText, parseCommitHead, parseCommitLine, type StepHead } from '../journal/commit-line';
import { agentViews, type Snapshot } from '../../engine/sim';
import { describeInput } from '../../engine/inputs';
import type { WorldDef } from '../../engine/types';
import type { Frame, Marker, RunUsage } from '../../api/types';
import { runWorld } from '../run/runner';
import type { UsageCounter } from '../run/cost';
import { countCalls, usageCounter } from '../run/usage';
import { validRunId } from '../../shared/ids';
import { notFound } from '../errors';

/** The head of a call line: step, key, template, agent, and (in runs written since) tokens and model. */
export type CallSummary = CallHead;

/** A run's folder, or a 404 naming the run (never the server's paths). */
export function runDir(runsDir: string, id: string): string {
	if (!validRunId(id)) throw notFound(`no run "${id}"`);
	const dir = path.join(runsDir, id);
	if (!existsSync(path.join(dir, 'run.json'))) throw notFound(`no run "${id}"`);
	return dir;
}

/** The committed step count, without reading the whole steps log. */
export { committedSteps };

/** Agent views of a stored state (the same as `Simulation.view()` would give). */
export const viewOf = agentViews;

/** Timeline markers of one committed step; they show on frame `line.step + 1`. */
export function markersOf(line: StepHead, names: Map<string, string>): Marker[] {
	const name = (id: string | undefined) => (id === undefined ? '' : (names.get(id) ?? id));
	const step = line.step + 1;
	const out: Marker[] = [];
	let input = 0;
	for (const e of line.events) {
		switch (e.kind) {
			case 'conversation':
				out.push({ step, kind: 'conversation', agents: [...e.agents], label: `${name(e.agents[0])} talks with ${name(e.agents[1])}` });
				break;
			case 'reflection':
				out.push({ step, kind: 'reflection', agents: [e.agent], label: `${name(e.agent)} reflects (${e.memories.length} insight${e.memories.length === 1 ? '' : 's'})` });
				break;
			case 'plan':
				out.push({ step, kind: 'plan', agents: [e.agent], label: `${name(e.agent)} plans the day` });
				break;
			case 'reaction':
				out.push({ step, kind: 'reaction', agents: [e.agent], label: `${name(e.agent)} reacts: ${e.reaction}` });
				break;
			case 'failsafe':
				out.push({ step, kind: 'failsafe', agents: [e.agent], label: `${name(e.agent)}: fail-safe answer for ${e.template}` });
				break;
			case 'input': {
				const given = line.inputs[input++];
				const label = given ? describeInput(given, name) : `${e.input}${e.agent ? ` to ${name(e.agent)}` : ''}`;
				out.push({ step, kind: 'input', agents: e.agent ? [e.agent] : [], label });
				break;
			}
		}
	}
	return out;
}

/** One run's journal, indexed for the IDE. */
export class RunData {
	readonly steps: LogIndex<StepHead>;
	readonly calls: LogIndex<CallSummary>;
	private worldP: Promise<WorldDef> | null = null;
	private markerList: Marker[] = [];
	private marked = 0;
	private markedGeneration = 0;
	private names: Map<string, string> | null = null;

	constructor(
		readonly id: string,
		readonly dir: string
	) {
		const meta = this.meta;
		// the agents (most of a commit line) are read back only when a frame is asked for
		this.steps = new LogIndex(dir, 'steps', parseCommitHead, COMMIT_HEAD);
		this.calls = new LogIndex(dir, 'calls', parseCallHead, CALL_HEAD);
		this.firstStep = meta.firstStep;
		this.parent = meta.parent;
	}

	readonly firstStep: number;
	readonly parent: RunMeta['parent'];

	/** run.json as it is now (status and target change while a run is live). */
	get meta(): RunMeta {
		return readRunMeta(this.dir);
	}

	reader(): RunReader {
		return new RunReader(this.dir);
	}

	/** The world as the run saw it (its copy), loaded once. */
	world(): Promise<WorldDef> {
		if (!this.worldP) {
			this.worldP = runWorld(this.reader());
			this.worldP.catch(() => (this.worldP = null));
		}
		return this.worldP;
	}

	async agentNames(): Promise<Map<string, string>> {
		if (!this.names) this.names = new Map((await this.world()).personas.map((p) => [p.id, p.name]));
		return this.names;
	}

	/** Steps committed (the latest frame). */
	committed(): number {
		return this.firstStep + this.steps.refresh().count;
	}

	snapshotSteps(): number[] {
		return listSnapshotSteps(this.dir);
	}

	snapshot(step: number): Snapshot {
		return readSnapshot(this.dir, step);
	}

	/** The summary of the commit line of `step` (the step that leads to frame step + 1). */
	stepLine(step: number): StepHead | undefined {
		const i = step - this.firstStep;
		const s = this.steps.summaries[i];
		return s && s.step === step ? s : undefined;
	}

	/** Own frames [from, to] (from > firstStep), straight from the commit lines. */
	framesFromLines(from: number, to: number, secondsPerStep: number): Frame[] {
		const lines = this.steps.lines(from - 1 - this.firstStep, to - this.firstStep);
		return lines.map((text) => {
			const l = parseCommitLine(text);
			return { step: l.step + 1, time: l.time + secondsPerStep * 1000, agents: l.agents, conversations: l.conversations };
		});
	}

	/**
	 * The same frames as JSON texts, cut out of the commit lines without parsing them (a
	 * scrubber asks for thousands at a time). Falls back to parsing a line it cannot cut.
	 */
	frameTextsFromLines(from: number, to: number, secondsPerStep: number): string[] {
		const first = from - 1 - this.firstStep;
		const lines = this.steps.lines(first, to - this.firstStep);
		return lines.map((text, i) => commitFrameText(text, this.steps.summaries[first + i], secondsPerStep));
	}

	/** Markers of the run's own steps, computed once per line. */
	async ownMarkers(): Promise<Marker[]> {
		const names = await this.agentNames();
		this.steps.refresh();
		if (this.markedGeneration !== this.steps.generation || this.marked > this.steps.count) {
			this.markedGeneration = this.steps.generation;
			this.markerList = [];
			this.marked = 0;
		}
		for (; this.marked < this.steps.count; this.marked++) this.markerList.push(...markersOf(this.steps.summaries[this.marked], names));
		return this.markerList;
	}

	/** Calls recorded for steps [from, to), in journal order. */
	callsBetween(from: number, to: number): CallRecord[] {
		this.calls.refresh();
		const a = this.calls.lowerBound(from, (c) => c.s);
		const b = this.calls.lowerBound(to, (c) => c.s);
		return this.calls.lines(a, b).map(parseCallLine);
	}

	private usageCount: { counter: UsageCounter; counted: number; generation: number } | null = null;

	/** Tokens and dollars of the run's own calls (counted once per line). */
	usage(): RunUsage {
		const meta = this.meta;
		this.calls.refresh();
		let u = this.usageCount;
		if (!u || u.generation !== this.calls.generation || u.counted > this.calls.count) {
			u = this.usageCount = { counter: usageCounter(meta), counted: 0, generation: this.calls.generation };
		}
		u.counted = countCalls(this.calls, u.counter, u.counted);
		return u.counter.usage(meta.budget ?? null);
	}

	/** Forget every index (the journal was cut back, e.g. by a resume). */
	invalidate(): void {
		this.usageCount = null;
		this.steps.reset();
		this.calls.reset();
		this.markerList = [];
		this.marked = 0;
	}
}
