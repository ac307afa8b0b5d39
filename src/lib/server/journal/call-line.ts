// The call line: one line of calls.jsonl per model call a step (or the run's creation, step -1)
// recorded, written by the run's writer (./journal.ts) and read here only. The writer puts the
// step, the key, the template and the tokens first, then the record's other members as the
// gateway made it (../model/gateway.ts `RecordedCall`):
//
//   {"s":S,"key":"S/agent/n","template":"T","tokens":{..},"templateVersion":..,"agent":..,"purpose":..,
//    "provider":..,"endpoint":..,"model":..,"prompt":"..","vars":{..},"answer":"..","value":..,"failsafe":B,..}
//
// (members absent in older runs: tokens, vars, provider, endpoint, model). Readers parse a line
// (`parseCallLine`), or only its head up to the prompt (`CALL_HEAD`, `parseCallHead`: what an
// index of thousands of calls keeps). The diff, which compares every call of two runs, cuts
// lines instead (`cutCallLine`, `callLineTemplate`, `callLineStep`): JSON.stringify never writes
// an unescaped `"` inside a string, so `,"key":` is always a member; keys and template ids hold
// no escapes. The offsets work the same in a UTF-8 string and in a Latin-1 string of the bytes
// (the diff's): every key and number is ASCII.

import type { CallView } from '../../api/types';
import { intAt } from './log';

/**
 * One model call as the journal keeps it (the API adds the step), with who answered it:
 * provider, endpoint host and model (absent in runs recorded before they were kept).
 */
export type CallRecord = Omit<CallView, 'step'> & { provider?: string; endpoint?: string; model?: string };

/** One line of calls.jsonl: a call and the step that commits it. */
export type CallLine = CallRecord & { s: number };

/** The call line of a call committed by step `s`, as the writer appends it (tokens ahead of the prompt, for readers of heads). */
export function callLineText(s: number, call: CallRecord): string {
	const { key, template, tokens, ...rest } = call;
	return JSON.stringify({ s, key, template, tokens, ...rest });
}

/** A call line parsed. */
export function parseCallLine(text: string): CallLine {
	return JSON.parse(text) as CallLine;
}

/** The head of a call line: step, key, template, agent, and (in runs written since) tokens and model. */
export interface CallHead {
	s: number;
	key: string;
	template: string;
	agent?: string;
	tokens?: { prompt: number; completion: number };
	provider?: string;
	model?: string;
}

/** Where an indexed reader (./log.ts `LogIndex`) cuts a call line to keep its head: before the prompt. */
export const CALL_HEAD = { stop: 'prompt' } as const;

/** The head of a call line from its members before the prompt (`{"s":..,"model":".."}`). */
export function parseCallHead(json: string): CallHead {
	const c = JSON.parse(json) as CallHead;
	return {
		s: c.s,
		key: c.key,
		template: c.template,
		agent: c.agent,
		...(c.tokens && { tokens: c.tokens }),
		...(c.provider !== undefined && { provider: c.provider }),
		...(c.model !== undefined && { model: c.model })
	};
}

/** Compares call keys `step/agent/n[label.m...]` as the journal orders a step's calls (numeric parts as numbers). */
export function callKeyOrder(a: string, b: string): number {
	const pa = a.split('/');
	const pb = b.split('/');
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const x = pa[i] ?? '';
		const y = pb[i] ?? '';
		if (x === y) continue;
		const nx = Number(x);
		const ny = Number(y);
		if (Number.isFinite(nx) && Number.isFinite(ny)) return nx - ny;
		return x < y ? -1 : 1;
	}
	return 0;
}

const STEP = '{"s":';
const KEY = ',"key":"';
const TEMPLATE = ',"template":"';
const PROMPT = ',"prompt":';
const VARS = ',"vars":';
const ANSWER = ',"answer":';
const FAILSAFE = ',"failsafe":';
const FAILSAFE_TRUE = ',"failsafe":true';

/** The step of the call line at `start` of `t`, read from its first member; NaN when it does not begin so. */
export function callLineStep(t: string, start = 0): number {
	return t.startsWith(STEP, start) ? intAt(t, start + STEP.length) : NaN;
}

/** A quoted member `,"name":"...` of the line at [from, end): its value and where it closes (-1 when absent). */
function plainMember(t: string, tag: string, from: number, end: number): { value: string; at: number } {
	const at = t.indexOf(tag, from);
	if (at < 0 || at > end) return { value: '', at: -1 };
	const v = at + tag.length;
	const close = t.indexOf('"', v);
	return { value: t.slice(v, close), at: close };
}

/** What the diff compares of a call line, cut out of its text. */
export interface CallCut {
	s: number;
	key: string;
	template: string;
	/** the prompt member (`,"prompt":"..."`), without the recorded variables that follow it */
	prompt: string;
	/** the answer member and the parsed value, up to the fail-safe flag */
	answer: string;
	failsafe: boolean;
}

/**
 * The step, key, template, prompt and answer of the call line at [start, end) of `t`, cut
 * without parsing; null when the line is not as the writer writes it. The recorded variables
 * (between prompt and answer) are left out: the prompt is their rendering, and runs made before
 * variables were recorded have none.
 */
export function cutCallLine(t: string, start = 0, end = t.length): CallCut | null {
	const key = plainMember(t, KEY, start, end);
	const template = plainMember(t, TEMPLATE, key.at, end);
	const promptAt = t.indexOf(PROMPT, template.at);
	const answerAt = promptAt < 0 ? -1 : t.indexOf(ANSWER, promptAt);
	const failsafeAt = t.lastIndexOf(FAILSAFE, end);
	const varsAt = promptAt < 0 ? -1 : t.indexOf(VARS, promptAt);
	if (key.at < 0 || template.at < 0 || promptAt < 0 || promptAt > end || answerAt < 0 || answerAt > end || failsafeAt < answerAt) return null;
	return {
		s: callLineStep(t, start),
		key: key.value,
		template: template.value,
		prompt: t.slice(promptAt, varsAt > promptAt && varsAt < answerAt ? varsAt : answerAt),
		answer: t.slice(answerAt, failsafeAt),
		failsafe: t.startsWith(FAILSAFE_TRUE, failsafeAt)
	};
}

/** The template and the fail-safe flag of the call line at [start, end) of `t` (what a count of fail-safes needs). */
export function callLineTemplate(t: string, start = 0, end = t.length): { template: string; failsafe: boolean } {
	const template = plainMember(t, TEMPLATE, start, end);
	const failsafeAt = t.lastIndexOf(FAILSAFE, end);
	return { template: template.value, failsafe: failsafeAt > start && t.startsWith(FAILSAFE_TRUE, failsafeAt) };
}
