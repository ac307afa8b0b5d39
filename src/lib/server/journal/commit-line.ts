// The commit line: one line of steps.jsonl per committed step, written by the run's writer
// (./journal.ts) and read here only. Its members come in one order, the writer's:
//
//   {"step":N,"time":T,"inputs":[..],"events":[..],"conversations":[..],"agents":[..],"calls":C,"memories":M}
//
// Most readers parse it (`parseCommitLine`, `parseCommitHead`). Readers of thousands of lines
// (the diff, the frame scrubber, the evaluation's scan) cut it instead: `cutCommitLine` finds
// where each member begins without parsing (JSON.stringify never writes an unescaped `"` inside
// a string, so `,"key":` is always a member), and the functions below answer from those offsets
// the raw text of a member, the step, whether there are conversations, a frame, or each agent's
// position and action. The offsets work the same in a UTF-8 string and in a Latin-1 string of
// the bytes (the diff's, where offsets are byte offsets): every key and number is ASCII.

import type { AgentView } from '../../engine/sim';
import type { SimInput } from '../../engine/inputs';
import type { ConversationRecord, StepEvent } from '../../engine/state';
import { intAt } from './log';

/** One committed step as steps.jsonl holds it. */
export interface StepLine {
	step: number;
	time: number;
	inputs: SimInput[];
	events: StepEvent[];
	conversations: ConversationRecord[];
	/** every agent after the step (the map's frame after it) */
	agents: AgentView[];
	/** the model calls the step recorded */
	calls: number;
	/** the memories the step made */
	memories: number;
}

/** What a commit line says before its agents: the step, its time and what happened in it. */
export type StepHead = Pick<StepLine, 'step' | 'time' | 'inputs' | 'events' | 'conversations'>;

/** The commit line of a step, as the writer appends it (members in the order above). */
export function commitLineText(line: StepLine): string {
	const { step, time, inputs, events, conversations, agents, calls, memories } = line;
	return JSON.stringify({ step, time, inputs, events, conversations, agents, calls, memories } satisfies StepLine);
}

/** A commit line parsed. */
export function parseCommitLine(text: string): StepLine {
	return JSON.parse(text) as StepLine;
}

/**
 * Where an indexed reader (../journal/log.ts `LogIndex`) cuts a commit line to keep its head:
 * before the step's `agents`, the last member of that name (conversations name theirs too).
 */
export const COMMIT_HEAD = { stop: 'agents', last: true } as const;

/** The head of a commit line from its members before the agents (`{"step":..,"conversations":[..]}`). */
export function parseCommitHead(json: string): StepHead {
	const l = JSON.parse(json) as StepHead;
	return { step: l.step, time: l.time, inputs: l.inputs ?? [], events: l.events ?? [], conversations: l.conversations ?? [] };
}

const STEP = '{"step":';
const INPUTS = ',"inputs":';
const EVENTS = ',"events":';
const CONVERSATIONS = ',"conversations":';
const AGENTS = ',"agents":';
const CALLS = ',"calls":';
const EMPTY_HEAD = ',"inputs":[],"events":[],"conversations":[]';

/** The step a commit line at `start` of `t` holds, read from its first member; NaN when it does not begin so. */
export function commitLineStep(t: string, start = 0): number {
	return t.startsWith(STEP, start) ? intAt(t, start + STEP.length) : NaN;
}

const MEMORIES = ',"memories":';

/** The memories the step of the commit line at [start, end) of `t` made, read from its last member (0 when it has none). */
export function commitLineMemories(t: string, start = 0, end = t.length): number {
	const at = t.lastIndexOf(MEMORIES, end);
	return at > start ? intAt(t, at + MEMORIES.length) || 0 : 0;
}

/** Where the members of a commit line at [start, end) of a text begin (each at its `,"key":`). */
export interface CommitCuts {
	start: number;
	end: number;
	inputs: number;
	events: number;
	conversations: number;
	agents: number;
	calls: number;
}

/**
 * The members of the commit line at [start, end) of `t`, cut without parsing; null when the
 * line is not as the writer writes it. Only the head and the end of the line are scanned: the
 * agents, most of a line, are skipped.
 */
export function cutCommitLine(t: string, start = 0, end = t.length): CommitCuts | null {
	const inputs = t.indexOf(INPUTS, start);
	const events = inputs < 0 ? -1 : t.indexOf(EVENTS, inputs);
	const conversations = events < 0 ? -1 : t.indexOf(CONVERSATIONS, events);
	// the agents array opens with an agent object; a conversation's `agents` holds two ids
	let agents = t.indexOf(AGENTS + '[{', start);
	if (agents < 0 || agents > end) agents = t.lastIndexOf(AGENTS + '[', end);
	const calls = t.lastIndexOf(CALLS, end);
	if (inputs < start || conversations < 0 || agents < conversations || calls < agents || calls > end) return null;
	return { start, end, inputs, events, conversations, agents, calls };
}

/** [from, to) of the step's agents array (`[...]`) in the line's text. */
export function agentsRange(c: CommitCuts): [number, number] {
	return [c.agents + AGENTS.length, c.calls];
}

/** [from, to) of the step's conversations array in the line's text. */
export function conversationsRange(c: CommitCuts): [number, number] {
	return [c.conversations + CONVERSATIONS.length, c.agents];
}

/** [from, to) of the head (`{"step":..,"conversations":[..]`: close it with `}` to parse it as `parseCommitHead` does). */
export function headRange(c: CommitCuts): [number, number] {
	return [c.start, c.agents];
}

/** Whether the step had no inputs, events or conversations (its head then need not be read). */
export function commitHeadIsEmpty(t: string, c: CommitCuts): boolean {
	return t.startsWith(EMPTY_HEAD, c.agents - EMPTY_HEAD.length);
}

/** Whether a commit line records a conversation (cut, or parsed when it cannot be cut). */
export function commitHasConversations(text: string, c: CommitCuts | null = cutCommitLine(text)): boolean {
	if (!c) return parseCommitLine(text).conversations.length > 0;
	return !text.startsWith(CONVERSATIONS + '[]', c.conversations);
}

/** The raw text of each part of a commit line (what the diff compares when two lines differ). */
export interface CommitParts {
	/** the members after the step, up to the inputs (the time) */
	time: string;
	inputs: string;
	events: string;
	conversations: string;
	agents: string;
	/** the calls and memories counted */
	counts: string;
}

export function commitParts(t: string, c: CommitCuts): CommitParts {
	const afterStep = t.indexOf(',', c.start + STEP.length);
	return {
		time: t.slice(afterStep >= 0 && afterStep < c.inputs ? afterStep : c.inputs, c.inputs),
		inputs: t.slice(c.inputs, c.events),
		events: t.slice(c.events, c.conversations),
		conversations: t.slice(c.conversations, c.agents),
		agents: t.slice(c.agents, c.calls),
		counts: t.slice(c.calls, c.end)
	};
}

/**
 * The frame after a step (`{"step","time","agents","conversations"}` as JSON text) from its
 * commit line: the agents and conversations cut out, not parsed (a scrubber asks for thousands
 * at a time); a line that cannot be cut is parsed. `head` is the line's head as indexed.
 */
export function commitFrameText(text: string, head: Pick<StepHead, 'step' | 'time'> | undefined, secondsPerStep: number): string {
	const c = head ? cutCommitLine(text) : null;
	if (!head || !c) {
		const l = parseCommitLine(text);
		return JSON.stringify({ step: l.step + 1, time: l.time + secondsPerStep * 1000, agents: l.agents, conversations: l.conversations });
	}
	const [a, z] = agentsRange(c);
	const [ca, cz] = conversationsRange(c);
	return `{"step":${head.step + 1},"time":${head.time + secondsPerStep * 1000},"agents":${text.slice(a, z)},"conversations":${text.slice(ca, cz)}}`;
}

/** Each agent's position and action cut out of commit lines' agents arrays, for `n` agents. */
export class AgentCuts {
	readonly x: Int32Array;
	readonly y: Int32Array;
	/** `"activity":...,"emoji":...,"address":...` as in the line: equal texts, equal actions */
	readonly action: string[];

	constructor(readonly n: number) {
		this.x = new Int32Array(n);
		this.y = new Int32Array(n);
		this.action = new Array<string>(n).fill('');
	}

	/** Reads the agents of a line; the field order is agentViews' (id, name, x, y, activity, emoji, address, chatWith, path). */
	read(t: string, c: CommitCuts, where: string): void {
		let p = agentsRange(c)[0] + 1;
		const bad = () => new Error(`${where}: the agents of the commit line are not as written by the engine`);
		for (let k = 0; k < this.n; k++) {
			if (!t.startsWith('{"id":"', p)) throw bad();
			let i = t.indexOf(',"x":', p + 7) + 5;
			if (i < 5 || i > c.calls) throw bad();
			let x = 0;
			for (let ch = t.charCodeAt(i); ch >= 48 && ch <= 57; ch = t.charCodeAt(++i)) x = x * 10 + ch - 48;
			if (!t.startsWith(',"y":', i)) throw bad();
			i += 5;
			let y = 0;
			for (let ch = t.charCodeAt(i); ch >= 48 && ch <= 57; ch = t.charCodeAt(++i)) y = y * 10 + ch - 48;
			if (!t.startsWith(',"activity":', i)) throw bad();
			const chat = t.indexOf(',"chatWith":', i);
			const pathAt = chat < 0 ? -1 : t.indexOf(',"path":[', chat);
			// a path holds numbers only: its first `]}` closes it and the agent
			const close = pathAt < 0 ? -1 : t.indexOf(']}', pathAt + 9);
			if (close < 0 || close > c.calls) throw bad();
			this.x[k] = x;
			this.y[k] = y;
			this.action[k] = t.slice(i + 1, chat);
			p = close + 3;
		}
		if (t.charCodeAt(c.calls - 1) !== 93 || p !== (this.n > 0 ? c.calls : c.calls - 1)) throw bad();
	}

	copy(from: AgentCuts): void {
		this.x.set(from.x);
		this.y.set(from.y);
		for (let k = 0; k < this.n; k++) this.action[k] = from.action[k];
	}
}
