// The behaviour diff of two runs that start from the same place (the same seed and world, or a
// fork and its parent or sibling): where they first part and what differs after.
//
// Every model call has a stable key (`step/agent/n`) and answers are cached by content, so
// calls a change does not reach are byte-identical in both journals, and so are the commit
// lines. The diff reads the logs as they are on disk (journal-text.ts: bytes scanned as
// Latin-1, nothing parsed that is the same on both sides), never restores a state:
// - steps.jsonl: per step, the two commit lines are compared whole; each agent's position and
//   action are cut out of the line (the paths around them are skipped), and only the heads
//   that hold inputs, events or conversations are parsed (../journal/commit-line.ts cuts them);
// - calls.jsonl: both journals walked in commit order (step, then key), template, prompt and
//   answer compared as bytes (every call that differs marked, not only the first); every call
//   counted for the fail-safe table;
// - memories: each run's LanceDB table without embeddings (memories.ts), as of the last
//   compared frame when the stores hold it in full, checked against the latest snapshot's
//   stream sizes and the commit lines' memory counts (else as of that snapshot);
// - set-up: run.json, the world copies' files, the inputs in the range.
// Steps before the runs' lineages part (a fork's parent up to the fork step) are the same
// bytes in the same files and are not compared.
// Every kind of difference found (moves, reactions, conversations, memories, reflections,
// calls) is kept with its frames and agents, and makes the one verdict (`verdictOf`) the CLI
// and the compare page show: identical, the same behaviour with other model calls, or
// behaviour differs.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
	BEHAVIOUR_KINDS,
	DIFFERENCE_KINDS,
	type AgentDiff,
	type AgentDifference,
	type AgentMemoryDiff,
	type AgentTimeline,
	type CallSide,
	type ConversationDiff,
	type ConversationSummary,
	type DiffRun,
	type DifferenceKind,
	type Differences,
	type Divergence,
	type FactDiff,
	type FailsafeRow,
	type MemoryDelta,
	type ReflectionDelta,
	type RunChange,
	type RunDiff,
	type Segment,
	type SideSummary,
	type Verdict
} from '../../api/diff';
import { describeInput, type SimInput } from '../../engine/inputs';
import type { ConversationRecord, StepEvent } from '../../engine/state';
import type { TrackedFact } from '../../engine/types';
import { ProblemList } from '../../world/problems';
import { listSnapshotSteps, readRunMeta, readSnapshot, type RunMeta } from '../journal/journal';
import { callKeyOrder, callLineStep, callLineTemplate, cutCallLine, parseCallLine, type CallCut } from '../journal/call-line';
import { logStamp, readLogBytes } from '../journal/log';
import { AgentCuts, agentsRange, commitHeadIsEmpty, commitLineMemories, commitLineStep, commitParts, cutCommitLine, headRange, parseCommitHead, type CommitCuts } from '../journal/commit-line';
import { lineageSpans, runLineage, spanOfStep } from '../store/store';
import { dataHome } from '../paths';
import { readScenario } from '../world/manifest';
import { JournalText } from './journal-text';
import { readMemories, type StoredMemory } from './memories';
import { validRunId } from '../../shared/ids';
import { mergeRanges } from '../../shared/ranges';
import { InvalidError, NotFoundError } from '../errors';

export interface DiffOptions {
	home?: string;
	/** list caps (defaults: 50 memories per agent, 200 conversations per side) */
	memoriesPerAgent?: number;
	conversationsPerSide?: number;
}

// ---------------------------------------------------------------------------
// runs on disk

/** One run folder: run.json, and its logs read on first use. */
class RunFiles {
	readonly meta: RunMeta;
	private stepsText: JournalText | null = null;
	private callsText: JournalText | null = null;
	private callSteps: Int32Array | null = null;

	constructor(
		readonly id: string,
		readonly dir: string
	) {
		this.meta = readRunMeta(dir);
	}

	get firstStep(): number {
		return this.meta.firstStep;
	}

	get steps(): JournalText {
		return (this.stepsText ??= JournalText.of(`${this.id}/steps`, readLogBytes(this.dir, 'steps')));
	}

	get calls(): JournalText {
		return (this.callsText ??= JournalText.of(`${this.id}/calls`, readLogBytes(this.dir, 'calls')));
	}

	/** Steps committed: the latest frame. */
	get committed(): number {
		return this.firstStep + this.steps.count;
	}

	/** The steps.jsonl line of a step (checked: each line holds the step after the one before). */
	lineOf(step: number): number {
		const i = step - this.firstStep;
		const t = this.steps;
		const at = t.starts[i];
		if (i < 0 || i >= t.count || commitLineStep(t.text(i), at) !== step) {
			throw new Error(`run ${this.id}: steps.jsonl line ${i + 1} is not the commit line of step ${step}`);
		}
		return i;
	}

	/** calls.jsonl lines [lo, hi) of the steps [from, to). */
	callRange(from: number, to: number): [number, number] {
		const s = this.stepsOfCalls();
		const bound = (v: number) => {
			let lo = 0;
			let hi = s.length;
			while (lo < hi) {
				const mid = (lo + hi) >> 1;
				if (s[mid] < v) lo = mid + 1;
				else hi = mid;
			}
			return lo;
		};
		return [bound(from), bound(to)];
	}

	private stepsOfCalls(): Int32Array {
		if (this.callSteps) return this.callSteps;
		const t = this.calls;
		const out = new Int32Array(t.count);
		for (let i = 0; i < t.count; i++) {
			const at = t.starts[i];
			const s = callLineStep(t.text(i), at);
			if (Number.isNaN(s)) throw new Error(`run ${this.id}: calls.jsonl line ${i + 1} does not start with its step`);
			out[i] = s;
		}
		return (this.callSteps = out);
	}
}

/** The runs of one diff, each read once. */
class RunSet {
	private readonly runs = new Map<string, RunFiles>();

	constructor(readonly runsDir: string) {}

	has(id: string): boolean {
		return this.runs.has(id) || (validRunId(id) && existsSync(path.join(this.runsDir, id, 'run.json')));
	}

	get(id: string): RunFiles {
		let r = this.runs.get(id);
		if (!r) {
			const dir = path.join(this.runsDir, id);
			if (!this.has(id)) throw new NotFoundError(`no run "${id}"`);
			r = new RunFiles(id, dir);
			this.runs.set(id, r);
		}
		return r;
	}
}

/** Steps [from, to) of a lineage that `run`'s own journal holds. */
interface Span {
	run: RunFiles;
	from: number;
	to: number;
}

/** Who holds each step of a run's history (the store's lineage walk), with each run's files. */
function lineage(runs: RunSet, id: string): Span[] {
	const node = (r: string) => {
		if (!runs.has(r)) return null;
		const f = runs.get(r);
		return { firstStep: f.firstStep, parent: f.meta.parent, committed: f.committed };
	};
	return lineageSpans(id, node).map((s) => ({ run: runs.get(s.run), from: s.from, to: s.to }));
}

const ownerAt = (spans: Span[], step: number): Span | undefined => spanOfStep(spans, step);

// ---------------------------------------------------------------------------
// commit lines

interface LineRef {
	j: JournalText;
	/** the line's number in the log */
	i: number;
	/** the Latin-1 text that holds the line at cuts.start..cuts.end */
	t: string;
	/** where its members begin (../journal/commit-line.ts) */
	cuts: CommitCuts;
}

function lineRef(run: RunFiles, step: number): LineRef {
	const t = run.steps;
	const i = run.lineOf(step);
	const text = t.text(i);
	const cuts = cutCommitLine(text, t.starts[i], t.ends[i]);
	if (!cuts) throw new Error(`run ${run.id}: the commit line of step ${step} has no agents`);
	return { j: t, i, t: text, cuts };
}

interface Head {
	inputs: SimInput[];
	events: StepEvent[];
	conversations: ConversationRecord[];
}

const NO_HEAD: Head = { inputs: [], events: [], conversations: [] };

function parseHead(l: LineRef): Head {
	if (commitHeadIsEmpty(l.t, l.cuts)) return NO_HEAD;
	const [from, to] = headRange(l.cuts);
	return parseCommitHead(l.j.utf8(l.i, from, to) + '}');
}

type Part = NonNullable<Divergence['parts']>[number];

/** The parts of two differing commit lines that differ. */
function differingParts(a: LineRef, b: LineRef): Part[] {
	const pa = commitParts(a.t, a.cuts);
	const pb = commitParts(b.t, b.cuts);
	return (Object.keys(pa) as Part[]).filter((k) => pa[k] !== pb[k]);
}

/** The same text at [from, to) of two lines. */
function sameText(la: LineRef, lb: LineRef, range: (c: CommitCuts) => [number, number]): boolean {
	const [a0, a1] = range(la.cuts);
	const [b0, b1] = range(lb.cuts);
	return a1 - a0 === b1 - b0 && la.t.slice(a0, a1) === lb.t.slice(b0, b1);
}

/** One run's lane of the timeline: per agent, segments of equal action. */
class Lane {
	readonly segments: { from: number; to: number; action: string }[][];
	private readonly current: string[];
	private readonly from: Int32Array;

	constructor(n: number) {
		this.segments = Array.from({ length: n }, () => []);
		this.current = new Array<string>(n).fill('');
		this.from = new Int32Array(n).fill(-1);
	}

	add(frame: number, cuts: AgentCuts): void {
		for (let k = 0; k < cuts.n; k++) {
			const a = cuts.action[k];
			if (this.from[k] >= 0 && a === this.current[k]) continue;
			if (this.from[k] >= 0) this.segments[k].push({ from: this.from[k], to: frame - 1, action: this.current[k] });
			this.current[k] = a;
			this.from[k] = frame;
		}
	}

	close(last: number): void {
		for (let k = 0; k < this.from.length; k++) {
			if (this.from[k] >= 0) this.segments[k].push({ from: this.from[k], to: last, action: this.current[k] });
			this.from[k] = -1;
		}
	}
}

/** What an action text says (decoded once per distinct text). */
class ActionNames {
	private readonly cache = new Map<string, { activity: string; emoji: string; address: string }>();

	get(action: string): { activity: string; emoji: string; address: string } {
		let v = this.cache.get(action);
		if (!v) {
			const o = JSON.parse(`{${Buffer.from(action, 'latin1').toString('utf8')}}`) as { activity?: string; emoji?: string; address?: string };
			v = { activity: o.activity ?? '', emoji: o.emoji ?? '', address: o.address ?? '' };
			this.cache.set(action, v);
		}
		return v;
	}
}

// ---------------------------------------------------------------------------
// calls

interface CallRef {
	run: RunFiles;
	i: number;
}

/** The calls of steps [start, end) of a lineage (with the creation's, when asked), in commit order. */
function callRefs(spans: Span[], start: number, end: number, creation: boolean): CallRef[] {
	const out: CallRef[] = [];
	for (const sp of spans) {
		const lo = Math.max(sp.from, start);
		const hi = Math.min(sp.to, end);
		if (lo >= hi) continue;
		const from = creation && lo === start && sp.run.firstStep === start ? start - 1 : lo;
		const [a, b] = sp.run.callRange(from, hi);
		for (let i = a; i < b; i++) out.push({ run: sp.run, i });
	}
	return out;
}

/** The call's step, key, template, prompt and answer, cut from its line (../journal/call-line.ts). */
function cutCall(ref: CallRef): CallCut {
	const j = ref.run.calls;
	const c = cutCallLine(j.text(ref.i), j.starts[ref.i], j.ends[ref.i]);
	if (!c) throw new Error(`run ${ref.run.id}: calls.jsonl line ${ref.i + 1} is not a model call record`);
	return c;
}

/** Template and fail-safe flag only (every call of the range is counted). */
function templateOf(ref: CallRef): { template: string; failsafe: boolean } {
	const j = ref.run.calls;
	return callLineTemplate(j.text(ref.i), j.starts[ref.i], j.ends[ref.i]);
}

function callSide(ref: CallRef): CallSide {
	const j = ref.run.calls;
	const c = parseCallLine(j.utf8(ref.i, j.starts[ref.i], j.ends[ref.i]));
	return { template: c.template, prompt: c.prompt, answer: c.answer, templateVersion: c.templateVersion, failsafe: c.failsafe };
}

function agentOfKey(key: string): string {
	return key.split('/')[1] ?? '';
}

/** A call that differs between the runs: its step and its key's agent. */
export interface CallDifference {
	step: number;
	agent: string;
}

/**
 * Both journals' calls walked in commit order (step, then key): the first call that differs,
 * and every call that differs (`each`: a pair at one key with another template, prompt or
 * answer counts once, as does a call made in one run only).
 */
function compareCalls(a: CallRef[], b: CallRef[], each: (d: CallDifference) => void): Divergence | null {
	let first: Divergence | null = null;
	let ia = 0;
	let ib = 0;
	while (ia < a.length || ib < b.length) {
		const ca = ia < a.length ? cutCall(a[ia]) : null;
		const cb = ib < b.length ? cutCall(b[ib]) : null;
		const order = ca && cb ? ca.s - cb.s || callKeyOrder(ca.key, cb.key) : ca ? -1 : 1;
		const only = order < 0 ? ca : order > 0 ? cb : null;
		if (only) {
			each({ step: only.s, agent: agentOfKey(only.key) });
			if (!first) {
				const side = callSide(order < 0 ? a[ia] : b[ib]);
				first = {
					step: only.s,
					frame: only.s + 1,
					reason: 'missing',
					agent: agentOfKey(only.key),
					template: only.template,
					callId: only.key,
					...(order < 0 ? { a: side } : { b: side })
				};
			}
			if (order < 0) ia++;
			else ib++;
			continue;
		}
		const x = ca as CallCut;
		const y = cb as CallCut;
		if (x.template !== y.template || x.prompt !== y.prompt || x.answer !== y.answer) {
			each({ step: x.s, agent: agentOfKey(x.key) });
			if (!first) {
				// another template at the same key: the runs asked for different things, not another version of one
				const reason = x.template !== y.template ? 'call' : x.prompt !== y.prompt ? 'prompt' : 'answer';
				first = {
					step: x.s,
					frame: x.s + 1,
					reason,
					agent: agentOfKey(x.key),
					template: reason === 'call' ? null : x.template,
					callId: x.key,
					a: callSide(a[ia]),
					b: callSide(b[ib])
				};
			}
		}
		ia++;
		ib++;
	}
	return first;
}

function failsafeTable(a: CallRef[], b: CallRef[]): FailsafeRow[] {
	const rows = new Map<string, FailsafeRow>();
	const count = (refs: CallRef[], side: 'a' | 'b') => {
		for (const ref of refs) {
			const { template, failsafe } = templateOf(ref);
			let row = rows.get(template);
			if (!row) rows.set(template, (row = { template, a: { calls: 0, failsafes: 0, rate: 0 }, b: { calls: 0, failsafes: 0, rate: 0 } }));
			row[side].calls++;
			if (failsafe) row[side].failsafes++;
		}
	};
	count(a, 'a');
	count(b, 'b');
	const out = [...rows.values()].sort((x, y) => (x.template < y.template ? -1 : 1));
	for (const r of out) for (const s of [r.a, r.b]) s.rate = s.calls ? s.failsafes / s.calls : 0;
	return out;
}

// ---------------------------------------------------------------------------
// set-up

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
		for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
	} else out.set(prefix, JSON.stringify(value));
}

function mapChanges(kind: RunChange['kind'], a: Map<string, string>, b: Map<string, string>): RunChange[] {
	const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
	return keys.filter((k) => a.get(k) !== b.get(k)).map((k) => ({ kind, key: k, a: a.get(k) ?? null, b: b.get(k) ?? null }));
}

function overrideMap(list: string[]): Map<string, string> {
	const m = new Map<string, string>();
	for (const o of list) {
		const eq = o.indexOf('=');
		if (eq > 0) m.set(o.slice(0, eq).trim(), o.slice(eq + 1).trim());
	}
	return m;
}

/** Files of a folder, by relative path (forward slashes). */
function filesOf(dir: string, rel = '', out = new Map<string, string>()): Map<string, string> {
	if (!existsSync(dir)) return out;
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const r = rel ? `${rel}/${e.name}` : e.name;
		if (e.isDirectory()) filesOf(path.join(dir, e.name), r, out);
		else if (e.isFile()) out.set(r, path.join(dir, e.name));
	}
	return out;
}

function worldFileChanges(a: RunFiles, b: RunFiles): RunChange[] {
	const fa = filesOf(path.join(a.dir, 'world'));
	const fb = filesOf(path.join(b.dir, 'world'));
	const out: RunChange[] = [];
	for (const rel of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
		const pa = fa.get(rel);
		const pb = fb.get(rel);
		const desc = (p: string | undefined) => (p ? `${statSync(p).size} bytes` : null);
		if (pa && pb) {
			if (statSync(pa).size === statSync(pb).size && readFileSync(pa).equals(readFileSync(pb))) continue;
		}
		out.push({ kind: 'world-file', key: rel, a: desc(pa), b: desc(pb) });
	}
	return out;
}

function setupChanges(a: RunFiles, b: RunFiles, inputsA: { step: number; input: SimInput }[], inputsB: { step: number; input: SimInput }[]): RunChange[] {
	const ma = a.meta;
	const mb = b.meta;
	const out: RunChange[] = [];
	const one = (kind: RunChange['kind'], key: string, x: string | null, y: string | null) => {
		if (x !== y) out.push({ kind, key, a: x, b: y });
	};
	one('world', 'world', ma.world, mb.world);
	one('seed', 'seed', String(ma.seed), String(mb.seed));
	one('model', 'model', `${ma.model.provider}/${ma.model.model}`, `${mb.model.provider}/${mb.model.model}`);
	one('prompt-set', 'version', ma.promptSet.version, mb.promptSet.version);
	out.push(...mapChanges('template', new Map(Object.entries(ma.promptSet.templates)), new Map(Object.entries(mb.promptSet.templates))));
	const sa = new Map<string, string>();
	const sb = new Map<string, string>();
	flatten(ma.settings, '', sa);
	flatten(mb.settings, '', sb);
	out.push(...mapChanges('setting', sa, sb));
	out.push(...mapChanges('override', overrideMap(ma.overrides ?? []), overrideMap(mb.overrides ?? [])));
	const aa = new Map<string, string>();
	const ab = new Map<string, string>();
	flatten(ma.ablate, '', aa);
	flatten(mb.ablate, '', ab);
	out.push(...mapChanges('ablation', aa, ab));
	const fork = (m: RunMeta) => (m.parent ? `${m.parent.run}@${m.parent.step}` : null);
	one('parent', 'fork', fork(ma), fork(mb));
	out.push(...worldFileChanges(a, b));
	// inputs given in the compared range by one run only
	const key = (x: { step: number; input: SimInput }) => `${x.step}\u0000${JSON.stringify(x.input)}`;
	const left = new Map<string, number>();
	for (const x of inputsB) left.set(key(x), (left.get(key(x)) ?? 0) + 1);
	const onlyA: { step: number; input: SimInput }[] = [];
	for (const x of inputsA) {
		const n = left.get(key(x)) ?? 0;
		if (n > 0) left.set(key(x), n - 1);
		else onlyA.push(x);
	}
	const onlyB = inputsB.filter((x) => {
		const n = left.get(key(x)) ?? 0;
		if (n > 0) left.set(key(x), n - 1);
		return n > 0;
	});
	for (const x of onlyA) out.push({ kind: 'input', key: String(x.step), a: describeInput(x.input), b: null });
	for (const x of onlyB) out.push({ kind: 'input', key: String(x.step), a: null, b: describeInput(x.input) });
	return out;
}

function diffRun(r: RunFiles): DiffRun {
	const m = r.meta;
	return {
		id: r.id,
		world: m.world,
		worldName: m.worldName,
		seed: m.seed,
		model: m.model.label,
		promptSet: m.promptSet,
		settings: m.settings,
		ablate: m.ablate,
		overrides: m.overrides ?? [],
		parent: m.parent,
		firstStep: m.firstStep,
		steps: r.committed,
		status: m.status
	};
}

// ---------------------------------------------------------------------------
// memories

/**
 * The latest frame <= `end` at which a run's store holds every memory. A snapshot is written
 * only once every memory it counts is stored, so the store holds everything before the latest
 * snapshot at or before `end`; after it, the rows stored from that step on must be as many as
 * the commit lines since report (plus, from the creation, the seed memories of snapshot 0).
 * Else the store is complete as of that snapshot only (a run that is stepping or paused).
 */
function storedThrough(run: RunFiles, end: number, rows: StoredMemory[]): number {
	if (end <= run.firstStep) return end;
	const base = listSnapshotSteps(run.dir)
		.filter((s) => s <= end && s >= run.firstStep)
		.at(-1);
	if (base === undefined) throw new Error(`run ${run.id} has no snapshot at or before step ${end}`);
	let expected = base === 0 ? Object.values(readSnapshot(run.dir, 0).memory).reduce((n, m) => n + m.size, 0) : 0;
	const t = run.steps;
	for (let s = base; s < end; s++) {
		const i = run.lineOf(s);
		expected += commitLineMemories(t.text(i), t.starts[i], t.ends[i]);
	}
	let stored = 0;
	for (const m of rows) if (m.step >= base) stored++;
	return stored === expected ? end : base;
}

/** The streams as of `frame` from the rows stored before step `readAt` (>= frame). */
function streamsAt(run: RunFiles, rows: StoredMemory[], frame: number, readAt: number): StoredMemory[] {
	if (frame === readAt) return rows;
	if (frame >= 1) return rows.filter((m) => m.step < frame);
	// frame 0: the streams the run was created with (seed memories are stored during step 0)
	if (!listSnapshotSteps(run.dir).includes(0)) return rows.filter((m) => m.step < 0);
	const sizes = readSnapshot(run.dir, 0).memory;
	return rows.filter((m) => m.index < (sizes[m.agent]?.size ?? 0));
}

function memKey(m: StoredMemory): string {
	return `${m.kind}\u0000${m.description}`;
}

/** Memories one side holds more often than the other, in stream order. */
interface OnlyGroup {
	first: StoredMemory;
	count: number;
	/** the step each of them was stored at */
	steps: number[];
}

function multisetOnly(mine: StoredMemory[], other: StoredMemory[]): OnlyGroup[] {
	// the streams share their history up to where the runs part: skip the common prefix
	let p = 0;
	const common = Math.min(mine.length, other.length);
	while (p < common && mine[p].kind === other[p].kind && mine[p].description === other[p].description) p++;
	const left = new Map<string, number>();
	for (let i = p; i < other.length; i++) {
		const k = memKey(other[i]);
		left.set(k, (left.get(k) ?? 0) + 1);
	}
	const out = new Map<string, OnlyGroup>();
	for (let i = p; i < mine.length; i++) {
		const m = mine[i];
		const k = memKey(m);
		const n = left.get(k) ?? 0;
		if (n > 0) {
			left.set(k, n - 1);
			continue;
		}
		const e = out.get(k);
		if (e) {
			e.count++;
			e.steps.push(m.step);
		} else out.set(k, { first: m, count: 1, steps: [m.step] });
	}
	return [...out.values()];
}

function byKind(list: StoredMemory[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const m of list) out[m.kind] = (out[m.kind] ?? 0) + 1;
	return out;
}

async function readFacts(run: RunFiles): Promise<TrackedFact[]> {
	const dir = path.join(run.dir, 'world');
	if (!existsSync(dir)) return [];
	return (await readScenario(dir, new ProblemList())).facts;
}

// ---------------------------------------------------------------------------
// the diff

interface SideAcc {
	/** each conversation with the step whose commit line holds it */
	conversations: { c: ConversationRecord; at: number }[];
	reflections: Map<string, number>;
	inputs: { step: number; input: SimInput }[];
}

function accumulate(acc: SideAcc, step: number, h: Head): void {
	for (const i of h.inputs) acc.inputs.push({ step, input: i });
	for (const c of h.conversations) acc.conversations.push({ c, at: step });
	for (const e of h.events) if (e.kind === 'reflection') acc.reflections.set(e.agent, (acc.reflections.get(e.agent) ?? 0) + e.memories.length);
}

function conversationKey(c: ConversationRecord): string {
	return `${c.agents[0]}|${c.agents[1]}|${c.step}|${c.lines[0]?.text ?? ''}`;
}

type HeldConversation = SideAcc['conversations'][number];

/** Conversations held in one run only (by participants, start and first line), and how many in both. */
function unmatchedConversations(a: HeldConversation[], b: HeldConversation[]): { onlyA: HeldConversation[]; onlyB: HeldConversation[]; both: number } {
	const left = new Map<string, number>();
	for (const x of b) left.set(conversationKey(x.c), (left.get(conversationKey(x.c)) ?? 0) + 1);
	const onlyA: HeldConversation[] = [];
	let both = 0;
	for (const x of a) {
		const n = left.get(conversationKey(x.c)) ?? 0;
		if (n > 0) {
			left.set(conversationKey(x.c), n - 1);
			both++;
		} else onlyA.push(x);
	}
	const onlyB = b.filter((x) => {
		const n = left.get(conversationKey(x.c)) ?? 0;
		if (n > 0) left.set(conversationKey(x.c), n - 1);
		return n > 0;
	});
	return { onlyA, onlyB, both };
}

function conversationDiff(u: ReturnType<typeof unmatchedConversations>, names: Map<string, string>, cap: number): ConversationDiff {
	const summary = ({ c }: HeldConversation): ConversationSummary => ({
		step: c.step,
		agents: [c.agents[0], c.agents[1]],
		names: [names.get(c.agents[0]) ?? c.agents[0], names.get(c.agents[1]) ?? c.agents[1]],
		address: c.address,
		lines: c.lines.slice(0, 2).map((l) => ({ speaker: l.speaker, text: l.text }))
	});
	return {
		onlyA: u.onlyA.slice(0, cap).map(summary),
		onlyB: u.onlyB.slice(0, cap).map(summary),
		onlyATotal: u.onlyA.length,
		onlyBTotal: u.onlyB.length,
		both: u.both
	};
}

/** Events of one step that one run recorded and the other did not (a multiset by their JSON). */
function oneSidedEvents(a: StepEvent[], b: StepEvent[]): { onlyA: StepEvent[]; onlyB: StepEvent[] } {
	const key = (e: StepEvent) => JSON.stringify(e);
	const left = new Map<string, number>();
	for (const e of b) left.set(key(e), (left.get(key(e)) ?? 0) + 1);
	const onlyA: StepEvent[] = [];
	for (const e of a) {
		const n = left.get(key(e)) ?? 0;
		if (n > 0) left.set(key(e), n - 1);
		else onlyA.push(e);
	}
	const onlyB = b.filter((e) => {
		const n = left.get(key(e)) ?? 0;
		if (n > 0) left.set(key(e), n - 1);
		return n > 0;
	});
	return { onlyA, onlyB };
}

// ---------------------------------------------------------------------------
// kinds of difference and the verdict

/** Where each kind of difference shows, per agent: counts, first frames and frame ranges. */
class DifferenceLog {
	private readonly count = new Map<DifferenceKind, number>();
	private readonly ranges = new Map<DifferenceKind, [number, number][]>();
	private readonly perAgent: Map<DifferenceKind, { count: number; first: number }>[];
	private readonly index: Map<string, number>;

	constructor(
		readonly agents: { id: string }[],
		/** the compared frames: marks are kept inside them */
		readonly first: number,
		readonly last: number
	) {
		this.index = new Map(agents.map((a, k) => [a.id, k]));
		this.perAgent = agents.map(() => new Map());
	}

	/**
	 * `count` differences of `kind` over frames from..to, each concerning every one of `agents`
	 * (those of the town; a conversation concerns both speakers and counts once).
	 */
	add(kind: DifferenceKind, agents: string | readonly string[], from: number, to = from, count = 1): void {
		const lo = Math.max(this.first, Math.min(this.last, from));
		const hi = Math.max(lo, Math.min(this.last, to));
		this.count.set(kind, (this.count.get(kind) ?? 0) + count);
		let r = this.ranges.get(kind);
		if (!r) this.ranges.set(kind, (r = []));
		r.push([lo, hi]);
		for (const agent of typeof agents === 'string' ? [agents] : agents) {
			const k = this.index.get(agent);
			if (k === undefined) continue;
			const mine = this.perAgent[k].get(kind);
			if (mine) {
				mine.count += count;
				mine.first = Math.min(mine.first, lo);
			} else this.perAgent[k].set(kind, { count, first: lo });
		}
	}

	/** Every kind found, in DIFFERENCE_KINDS order. */
	all(): Differences[] {
		return DIFFERENCE_KINDS.filter((kind) => this.count.has(kind)).map((kind) => {
			const frames = mergeRanges(this.ranges.get(kind) ?? []);
			return {
				kind,
				// moves: the frames in which any agent differs (each agent's frames were added)
				count: kind === 'moves' ? frames.reduce((n, [a, b]) => n + b - a + 1, 0) : (this.count.get(kind) ?? 0),
				agents: this.agents.filter((_, k) => this.perAgent[k].has(kind)).map((a) => a.id),
				frames
			};
		});
	}

	has(kind: DifferenceKind, agent: string): boolean {
		const k = this.index.get(agent);
		return k !== undefined && this.perAgent[k].has(kind);
	}

	of(agent: number): AgentDifference[] {
		const mine = this.perAgent[agent];
		return DIFFERENCE_KINDS.filter((kind) => mine.has(kind)).map((kind) => ({ kind, ...(mine.get(kind) as { count: number; first: number }) }));
	}
}


const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function listWords(items: string[]): string {
	return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The one verdict, from every kind of difference: behaviour differs when an agent moves or acts
 * differently or a conversation, memory or reflection differs; the same behaviour when only
 * model calls (or other recorded parts) differ; identical when nothing does.
 */
export function verdictOf(
	differences: readonly Differences[],
	ctx: { agents: number; steps: { start: number; end: number }; firstDivergence: Divergence | null }
): Verdict {
	const { start, end } = ctx.steps;
	const of = (kind: DifferenceKind) => differences.find((d) => d.kind === kind);
	const behaviour = differences.filter((d) => BEHAVIOUR_KINDS.includes(d.kind));
	const calls = of('calls');
	const callsText = calls ? `${count(calls.count, 'model call')} ${calls.count === 1 ? 'differs' : 'differ'} (prompt, answer or template)` : '';
	if (behaviour.length > 0) {
		const parts: string[] = [];
		const moves = of('moves');
		if (moves) parts.push(`${count(moves.agents.length, 'agent')} of ${ctx.agents} ${moves.agents.length === 1 ? 'moves or acts' : 'move or act'} differently`);
		const reactions = of('reactions');
		if (reactions) parts.push(`${count(reactions.count, 'reaction or plan', 'reactions or plans')} recorded in one run only`);
		const what: string[] = [];
		const counted = [of('conversations'), of('memories'), of('reflections')];
		const [conversations, memories, reflections] = counted;
		if (conversations) what.push(count(conversations.count, 'conversation'));
		if (memories) what.push(count(memories.count, 'memory', 'memories'));
		if (reflections) what.push(count(reflections.count, 'reflection'));
		// "1 reflection differs", "2 memories and 1 reflection differ"
		const one = what.length === 1 && counted.find((d) => d)?.count === 1;
		if (what.length) parts.push(`${listWords(what)} ${one ? 'differs' : 'differ'}`);
		if (callsText) parts.push(callsText);
		return { kind: 'behaviour', title: 'Behaviour differs', detail: `${parts.join('; ')}.` };
	}
	const f = ctx.firstDivergence;
	if (calls || f) {
		const same = 'No agent moves or acts differently, and no conversation, memory or reflection differs';
		if (calls) {
			const at = f && f.reason !== 'state' ? `, the first at step ${f.step}` : '';
			return { kind: 'same-behaviour', title: 'Same behaviour, different model calls', detail: `${same}; ${callsText}${at}.` };
		}
		const parts = f?.parts?.length ? f.parts.join(', ') : 'the record';
		return { kind: 'same-behaviour', title: 'Same behaviour, different records', detail: `${same}; the recorded steps differ in ${parts}, the first at step ${f?.step}.` };
	}
	return {
		kind: 'identical',
		title: 'Identical',
		detail: start < end ? `No model call and no recorded step differs over frames ${start}–${end}.` : `Nothing to compare: both runs hold the same steps up to frame ${end}.`
	};
}

function pushRange(ranges: [number, number][], frame: number): void {
	const last = ranges[ranges.length - 1];
	if (last && last[1] === frame - 1) last[1] = frame;
	else ranges.push([frame, frame]);
}

/** Agent ids and names from a commit line, or from the run's first snapshot. */
function agentList(run: RunFiles, step: number | null): { id: string; name: string }[] {
	if (step !== null) {
		const l = lineRef(run, step);
		const [from, to] = agentsRange(l.cuts);
		const views = JSON.parse(l.j.utf8(l.i, from, to)) as { id: string; name: string }[];
		return views.map((v) => ({ id: v.id, name: v.name }));
	}
	return readSnapshot(run.dir, run.firstStep).state.agents.map((a) => ({ id: a.id, name: a.name }));
}

/** The behaviour diff of runs `aId` and `bId`. */
export async function computeDiff(aId: string, bId: string, opts: DiffOptions = {}): Promise<RunDiff> {
	const runs = new RunSet(path.join(opts.home ?? dataHome(), 'runs'));
	const capMemories = opts.memoriesPerAgent ?? 50;
	const capConversations = opts.conversationsPerSide ?? 200;
	const runA = runs.get(aId);
	const runB = runs.get(bId);
	const spansA = lineage(runs, aId);
	const spansB = lineage(runs, bId);

	// the compared range: from the first step the lineages' journals differ, to the last both have
	const end = Math.min(runA.committed, runB.committed);
	const bounds = [...new Set([0, ...spansA.map((s) => s.from), ...spansB.map((s) => s.from)])].filter((s) => s < end).sort((x, y) => x - y);
	const start = bounds.find((s) => ownerAt(spansA, s)?.run !== ownerAt(spansB, s)?.run) ?? end;

	const agentsA = agentList(start < end ? (ownerAt(spansA, start) as Span).run : runA, start < end ? start : null);
	const agentsB = agentList(start < end ? (ownerAt(spansB, start) as Span).run : runB, start < end ? start : null);
	if (agentsA.map((x) => x.id).join('\n') !== agentsB.map((x) => x.id).join('\n')) {
		throw new InvalidError(`runs ${aId} and ${bId} have different agents; a diff compares runs of the same town`);
	}
	const n = agentsA.length;
	const names = new Map(agentsA.map((x) => [x.id, x.name]));

	// ---- commit lines
	const cutsA = new AgentCuts(n);
	const cutsB = new AgentCuts(n);
	const laneA = new Lane(n);
	const laneB = new Lane(n);
	const differing = new Int32Array(n);
	const firstDiff = new Int32Array(n).fill(-1);
	const ranges: [number, number][][] = Array.from({ length: n }, () => []);
	const accA: SideAcc = { conversations: [], reflections: new Map(), inputs: [] };
	const accB: SideAcc = { conversations: [], reflections: new Map(), inputs: [] };
	const found = new DifferenceLog(agentsA, Math.min(start + 1, end), end);
	/** reflection events of one run only: the frame, the agent and the memories only it made */
	const reflectionEvents: { frame: number; agent: string; memories: number }[] = [];
	let stateDivergence: Divergence | null = null;
	for (let s = start; s < end; s++) {
		const oa = (ownerAt(spansA, s) as Span).run;
		const ob = (ownerAt(spansB, s) as Span).run;
		const la = lineRef(oa, s);
		const lb = lineRef(ob, s);
		const frame = s + 1;
		const same = sameText(la, lb, (c) => [c.start, c.end]);
		cutsA.read(la.t, la.cuts, `run ${oa.id}, step ${s}`);
		const agentsSame = same || sameText(la, lb, (c) => [c.agents, c.calls]);
		if (agentsSame) cutsB.copy(cutsA);
		else cutsB.read(lb.t, lb.cuts, `run ${ob.id}, step ${s}`);
		laneA.add(frame, cutsA);
		laneB.add(frame, cutsB);
		const differ: string[] = [];
		if (!agentsSame) {
			for (let k = 0; k < n; k++) {
				if (cutsA.x[k] === cutsB.x[k] && cutsA.y[k] === cutsB.y[k] && cutsA.action[k] === cutsB.action[k]) continue;
				differing[k]++;
				if (firstDiff[k] < 0) firstDiff[k] = frame;
				pushRange(ranges[k], frame);
				differ.push(agentsA[k].id);
			}
		}
		// heads: inputs, events, conversations (parsed once when both sides wrote the same)
		const headSame = same || sameText(la, lb, headRange);
		const ha = parseHead(la);
		const hb = headSame ? ha : parseHead(lb);
		accumulate(accA, s, ha);
		accumulate(accB, s, hb);
		if (!headSame) {
			// reactions, plans and reflections recorded in one run only (conversations are matched over the range)
			const { onlyA, onlyB } = oneSidedEvents(ha.events, hb.events);
			const ids = (list: StepEvent[], agent: string) => list.flatMap((e) => (e.kind === 'reflection' && e.agent === agent ? e.memories : []));
			for (const e of [...onlyA, ...onlyB]) {
				if (e.kind === 'plan' || e.kind === 'reaction') found.add('reactions', e.agent, frame);
			}
			for (const agent of new Set([...onlyA, ...onlyB].flatMap((e) => (e.kind === 'reflection' ? [e.agent] : [])))) {
				// the memories one side's reflection made that the other's did not
				const x = ids(onlyA, agent);
				const y = ids(onlyB, agent);
				const memories = x.filter((id) => !y.includes(id)).length + y.filter((id) => !x.includes(id)).length;
				reflectionEvents.push({ frame, agent, memories });
			}
		}
		if (!same && !stateDivergence) {
			stateDivergence = { step: s, frame, reason: 'state', agent: null, template: null, callId: null, parts: differingParts(la, lb), agents: differ };
		}
	}
	laneA.close(end);
	laneB.close(end);

	// ---- calls
	const ownerStartA = start < end ? ownerAt(spansA, start)?.run : undefined;
	const ownerStartB = start < end ? ownerAt(spansB, start)?.run : undefined;
	const creation = !!ownerStartA && !!ownerStartB && ownerStartA !== ownerStartB && ownerStartA.firstStep === start && ownerStartB.firstStep === start;
	const refsA = start < end ? callRefs(spansA, start, end, creation) : [];
	const refsB = start < end ? callRefs(spansB, start, end, creation) : [];
	const callDivergence = compareCalls(refsA, refsB, (c) => found.add('calls', c.agent, c.step + 1));
	const firstDivergence = callDivergence && (!stateDivergence || callDivergence.step <= stateDivergence.step) ? callDivergence : stateDivergence;

	// ---- timeline and agents
	const actions = new ActionNames();
	const segmentsOf = (lane: Lane, k: number): Segment[] =>
		lane.segments[k].map((g) => {
			const v = actions.get(g.action);
			return { from: g.from, to: g.to, activity: v.activity, address: v.address, emoji: v.emoji };
		});
	const sameLane = (k: number) => {
		const x = laneA.segments[k];
		const y = laneB.segments[k];
		return x.length === y.length && x.every((g, i) => g.from === y[i].from && g.to === y[i].to && g.action === y[i].action);
	};
	const timeline: AgentTimeline[] = agentsA.map((ag, k) => ({ id: ag.id, a: segmentsOf(laneA, k), b: sameLane(k) ? null : segmentsOf(laneB, k), differs: ranges[k] }));
	const conversationsOf = (acc: SideAcc, id: string) => acc.conversations.filter((x) => x.c.agents.includes(id)).length;
	for (let k = 0; k < n; k++) for (const [from, to] of ranges[k]) found.add('moves', agentsA[k].id, from, to, to - from + 1);
	const conversationsOnly = unmatchedConversations(accA.conversations, accB.conversations);
	for (const x of [...conversationsOnly.onlyA, ...conversationsOnly.onlyB]) {
		found.add('conversations', x.c.agents, x.at + 1);
	}
	const places = (segs: Segment[]) => new Set(segs.map((g) => g.address).filter(Boolean));
	const agentDiffs: Omit<AgentDiff, 'differences'>[] = agentsA.map((ag, k) => ({
		id: ag.id,
		name: ag.name,
		differingSteps: differing[k],
		firstDifferentStep: firstDiff[k] < 0 ? null : firstDiff[k],
		a: { placesVisited: places(timeline[k].a).size, conversations: conversationsOf(accA, ag.id), reflections: accA.reflections.get(ag.id) ?? 0 },
		b: { placesVisited: places(timeline[k].b ?? timeline[k].a).size, conversations: conversationsOf(accB, ag.id), reflections: accB.reflections.get(ag.id) ?? 0 }
	}));

	// ---- memories, as of the last compared frame when both stores hold it
	const [rowsA, rowsB] = end >= 1 ? await Promise.all([readMemories(runA.dir, end), readMemories(runB.dir, end)]) : [[], []];
	const heldA = end >= 1 ? storedThrough(runA, end, rowsA) : end;
	const heldB = end >= 1 ? storedThrough(runB, end, rowsB) : end;
	const memFrame = Math.min(heldA, heldB);
	const memA = streamsAt(runA, rowsA, memFrame, end);
	const memB = streamsAt(runB, rowsB, memFrame, end);
	const groupBy = (list: StoredMemory[]) => {
		const m = new Map<string, StoredMemory[]>();
		for (const x of list) {
			let g = m.get(x.agent);
			if (!g) m.set(x.agent, (g = []));
			g.push(x);
		}
		return m;
	};
	const byAgentA = groupBy(memA);
	const byAgentB = groupBy(memB);
	const descA = new Map(memA.map((m) => [m.id, m.description]));
	const descB = new Map(memB.map((m) => [m.id, m.description]));
	const delta = (e: { first: StoredMemory; count: number }): MemoryDelta => ({ kind: e.first.kind, description: e.first.description, count: e.count, step: e.first.step });
	const reflectionDelta = (desc: Map<string, string>) => (e: { first: StoredMemory; count: number }): ReflectionDelta => ({
		...delta(e),
		evidence: (e.first.evidence ?? []).slice(0, 5).map((id) => desc.get(id) ?? id)
	});
	const memoryAgents: AgentMemoryDiff[] = agentsA.map((ag) => {
		const ma = byAgentA.get(ag.id) ?? [];
		const mb = byAgentB.get(ag.id) ?? [];
		const onlyA = multisetOnly(ma, mb);
		const onlyB = multisetOnly(mb, ma);
		const reflA = onlyA.filter((e) => e.first.kind === 'reflection');
		const reflB = onlyB.filter((e) => e.first.kind === 'reflection');
		const total = (l: { count: number }[]) => l.reduce((x, e) => x + e.count, 0);
		// every memory one run holds more often, on the frame after the step that stored it
		for (const e of [...onlyA, ...onlyB]) for (const step of e.steps) found.add(e.first.kind === 'reflection' ? 'reflections' : 'memories', ag.id, step + 1);
		return {
			id: ag.id,
			name: ag.name,
			a: { total: ma.length, byKind: byKind(ma) },
			b: { total: mb.length, byKind: byKind(mb) },
			onlyA: onlyA.slice(0, capMemories).map(delta),
			onlyB: onlyB.slice(0, capMemories).map(delta),
			onlyATotal: total(onlyA),
			onlyBTotal: total(onlyB),
			reflections: {
				onlyA: reflA.slice(0, capMemories).map(reflectionDelta(descA)),
				onlyB: reflB.slice(0, capMemories).map(reflectionDelta(descB)),
				onlyATotal: total(reflA),
				onlyBTotal: total(reflB)
			}
		};
	});

	// reflections the commit lines record in one run only: counted here when the memories were not
	// compared that far (or told nothing), and always a place to step to
	for (const e of reflectionEvents) {
		const counted = e.frame <= memFrame && found.has('reflections', e.agent);
		found.add('reflections', e.agent, e.frame, e.frame, counted ? 0 : e.memories);
	}
	const agents: AgentDiff[] = agentDiffs.map((ag, k) => ({ ...ag, differences: found.of(k) }));
	const differences = found.all();
	const steps = { start, end };
	const verdict = verdictOf(differences, { agents: n, steps, firstDivergence });

	// ---- who knows what
	const factsA = await readFacts(runA);
	const factsB = await readFacts(runB);
	const facts = [...factsA, ...factsB.filter((f) => !factsA.some((g) => g.id === f.id))];
	const knowers = (byAgent: Map<string, StoredMemory[]>, fact: TrackedFact) => {
		const words = fact.keywords.map((k) => k.toLowerCase());
		return agentsA
			.filter((ag) => (byAgent.get(ag.id) ?? []).some((m) => {
				const d = m.description.toLowerCase();
				return words.every((w) => d.includes(w));
			}))
			.map((ag) => ag.id);
	};
	const factDiffs: FactDiff[] = facts.map((f) => {
		const a = knowers(byAgentA, f);
		const b = knowers(byAgentB, f);
		return { id: f.id, label: f.label, keywords: f.keywords, a, b, onlyA: a.filter((x) => !b.includes(x)), onlyB: b.filter((x) => !a.includes(x)) };
	});
	const sideSummary = (lane: Lane, acc: SideAcc, mem: StoredMemory[]): SideSummary => {
		const all = new Set<string>();
		let agentPlaces = 0;
		lane.segments.forEach((segs) => {
			const own = new Set(segs.map((g) => actions.get(g.action).address).filter(Boolean));
			agentPlaces += own.size;
			for (const p of own) all.add(p);
		});
		return {
			places: all.size,
			agentPlaces,
			conversations: acc.conversations.length,
			reflections: [...acc.reflections.values()].reduce((x, y) => x + y, 0),
			memories: mem.length
		};
	};

	const snapshotNote = (held: number, run: RunFiles) => (held < end ? `; ${run.id}'s store holds its streams up to frame ${held} only (later memories are not stored yet)` : '');
	return {
		a: diffRun(runA),
		b: diffRun(runB),
		changes: setupChanges(runA, runB, accA.inputs, accB.inputs),
		steps,
		identical: verdict.kind === 'identical',
		verdict,
		differences,
		firstDivergence,
		agents,
		timeline: { from: Math.min(start + 1, end), to: end, agents: timeline },
		conversations: conversationDiff(conversationsOnly, names, capConversations),
		memories: {
			step: memFrame,
			source: `each run's LanceDB memory table (text columns, no embeddings): the memories stored before step ${memFrame}, checked against the latest snapshot's stream sizes and the commit lines' memory counts${snapshotNote(heldA, runA)}${snapshotNote(heldB, runB)}`,
			agents: memoryAgents
		},
		summary: { a: sideSummary(laneA, accA, memA), b: sideSummary(laneB, accB, memB), facts: factDiffs },
		failsafe: failsafeTable(refsA, refsB)
	};
}

// ---------------------------------------------------------------------------
// cached diffs (the server)

/** What changes when a run grows or stores memories: sizes and times of its lineage's files. */
function stamp(runsDir: string, id: string): string {
	let runs: string[];
	try {
		runs = runLineage(id, { home: path.dirname(runsDir) }).map((s) => s.run);
	} catch {
		return `${id}:none`;
	}
	return runs
		.map((run) => {
			const dir = path.join(runsDir, run);
			const part = (f: string) => {
				try {
					const s = statSync(path.join(dir, f));
					return `${s.size}:${s.mtimeMs}`;
				} catch {
					return '-';
				}
			};
			// the logs' tails and sealed blocks (see ../journal/log.ts)
			return [run, part('run.json'), logStamp(dir, 'steps'), logStamp(dir, 'calls'), part('lance/memories.lance/_versions')].join('|');
		})
		.join(';');
}

const cache = new Map<string, { stamp: string; diff: Promise<RunDiff> }>();
const CACHED = 4;

/** computeDiff, answered from memory while neither run's files changed. */
export function cachedDiff(aId: string, bId: string, opts: DiffOptions = {}): Promise<RunDiff> {
	const runsDir = path.join(opts.home ?? dataHome(), 'runs');
	const key = `${runsDir}\u0000${aId}\u0000${bId}`;
	const now = `${stamp(runsDir, aId)}#${stamp(runsDir, bId)}`;
	const hit = cache.get(key);
	if (hit && hit.stamp === now) {
		cache.delete(key);
		cache.set(key, hit);
		return hit.diff;
	}
	const diff = computeDiff(aId, bId, opts);
	cache.set(key, { stamp: now, diff });
	diff.catch(() => cache.delete(key));
	while (cache.size > CACHED) cache.delete(cache.keys().next().value as string);
	return diff;
}
