// Per-agent, per-step working context: the agent's own state, its memory stream, the model,
// and what the step produces. Cognition code touches nothing else, which is what lets agents
// think concurrently without changing the outcome.

import { HOUR, MINUTE } from './clock';
import {
	MEMORY_KINDS,
	MemoryStream,
	SOURCE_OF_KIND,
	hiddenMask,
	hiddenSources,
	selectTop,
	type MemoryKind,
	type MemoryRecord,
	type MemorySource
} from './memory';
import type { ModelAnswer, ModelPort, TemplateId, TemplateVars } from './model';
import { rngFor } from './rng';
import type {
	Ablation,
	AgentState,
	ConversationRecord,
	PendingMemory,
	RetrievalTrace,
	SimState,
	StepEvent
} from './state';
import type { RetrievalSettings } from './types';
import type { WorldIndex } from './world-index';
import type { PathFinder } from './path';

export interface StepOutput {
	/** the step that was carried out (the state is now at step + 1) */
	step: number;
	time: number;
	memories: MemoryRecord[];
	traces: RetrievalTrace[];
	conversations: ConversationRecord[];
	events: StepEvent[];
}

export function emptyOutput(step: number, time: number): StepOutput {
	return { step, time, memories: [], traces: [], conversations: [], events: [] };
}

/**
 * With `importance.waitMinutes`, a rating due at a step covers the memories that were waiting this
 * long before it (at least the oldest), so the call is known, and can be asked, that much game
 * time ahead.
 */
export const RATE_LEAD_MS = 2 * 60_000;
/** With `importance.waitMinutes`, this many waiting memories are rated without waiting longer. */
const FULL_BATCH = 16;

/**
 * A memory to store. Its `source` defaults from the kind (observation: observed, reflection:
 * reflected, plan: planned, conversation: conversation); a thought may come from a seed, a
 * conversation or an inner voice, so a thought names its source.
 */
export type NewMemory = NewMemoryFields &
	({ kind: Exclude<MemoryKind, 'thought'>; source?: MemorySource } | { kind: 'thought'; source: MemorySource });

interface NewMemoryFields {
	description: string;
	evidence?: string[];
	plan?: { address: string; start: number; minutes: number };
	with?: string;
	/** a fixed rating, skipping the model (used for trivially mundane events) */
	importance?: number;
	/** game ms it was made at (a seed memory from before the start); absent: now */
	created?: number;
}

/**
 * What a conversation recalls: the memories its speaker had when it began, scored as of then.
 * Its retrievals leave last access alone until the conversation is committed (`touched`).
 */
export interface RecallScope {
	size: number;
	at: number;
	touched: number[];
}

/**
 * How many of the waiting memories a step at game time `now` rates and stores: none until the
 * oldest has waited `waitMs` (or FULL_BATCH wait and the last of those has waited RATE_LEAD_MS),
 * and then those that were already waiting RATE_LEAD_MS before, so the rating is known that much
 * game time ahead (`dueAhead`).
 */
export function dueBatch(pending: readonly { created: number }[], now: number, waitMs: number): number {
	if (pending.length === 0) return 0;
	const full = pending.length >= FULL_BATCH && now - pending[FULL_BATCH - 1].created >= RATE_LEAD_MS;
	if (!full && now - pending[0].created < waitMs) return 0;
	let n = 0;
	while (n < pending.length && pending[n].created <= now - RATE_LEAD_MS) n++;
	return n;
}

/**
 * The rating a later step at game time `at` will ask, when its memories are all known before
 * game time `now` (and no more can join it): how many, or 0.
 */
export function dueAhead(pending: readonly { created: number }[], at: number, now: number, waitMs: number): number {
	const n = dueBatch(pending, at, waitMs);
	if (n === 0 || pending[n - 1].created >= now) return 0;
	return n;
}

type MemoTable = keyof AgentState['memo'];
type MemoValue<K extends MemoTable> = AgentState['memo'][K][string];

/**
 * An agent's memo as one line of work sees it. The agent's own context writes straight to the
 * agent; a branch of a fan-out (`AgentContext.fanOut`) sees the memo as it was when the fan-out
 * began plus its own writes, which are merged in branch order when every branch is done.
 */
class MemoLayer {
	private readonly writes = new Map<MemoTable, Map<string, string | number>>();

	constructor(
		private readonly agent: AgentState,
		private readonly below?: MemoLayer
	) {}

	get<K extends MemoTable>(table: K, key: string): MemoValue<K> | undefined {
		const own = this.writes.get(table);
		if (own?.has(key)) return own.get(key) as MemoValue<K>;
		if (this.below) return this.below.get(table, key);
		const t = this.agent.memo[table] as Record<string, MemoValue<K>>;
		// own keys only: a key may be any text, "constructor" or "__proto__" too
		return Object.hasOwn(t, key) ? t[key] : undefined;
	}

	set<K extends MemoTable>(table: K, key: string, value: MemoValue<K>): void {
		if (!this.below) {
			(this.agent.memo[table] as Record<string, MemoValue<K>>)[key] = value;
			return;
		}
		let own = this.writes.get(table);
		if (!own) this.writes.set(table, (own = new Map()));
		own.set(key, value);
	}

	/** Adds what this layer learned to the one below, keeping what that one already knows. */
	merge(): void {
		for (const [table, entries] of this.writes) {
			for (const [key, value] of entries) if (this.below?.get(table, key) === undefined) this.below?.set(table, key, value as never);
		}
	}
}

/**
 * An agent's memories being stored in one step, shared by its context and the branches: each
 * flush asks its ratings when the memories are made, and adds its records after the flushes
 * begun before it, whenever the answers come.
 */
interface Storing {
	/** settles when the records of every flush begun so far are added (failed ones too) */
	added: Promise<void>;
	/** flushes begun and not yet settled (retrievals wait for them) */
	unsettled: number;
	/** the flushes begun, for `settled` */
	flushes: Promise<unknown>[];
	/** ratings asked and not yet answered, by description: a later flush takes theirs */
	rating: Map<string, Promise<number>>;
}

/** Thrown by a context for work ahead (see `needed`) asked to call once its step has run. */
export class StepPassed extends Error {}

export class AgentContext {
	private calls = 0;
	private storing: Storing = { added: Promise.resolve(), unsettled: 0, flushes: [], rating: new Map() };
	private memoLayer: MemoLayer;
	/** set on branches: calls made concurrently get keys of their own (`.../b0.3`) */
	private keyPath = '';
	/** retrievals limited to a conversation's recall (see RecallScope) */
	recall?: RecallScope;
	/**
	 * Work done ahead of need on a copy of the agent: its calls are asked (so their answers are
	 * ready when a step needs them) but nothing is stored.
	 */
	speculative = false;
	/**
	 * Set on work ahead whose stream is a private copy (a foreseen stream): its retrievals update
	 * the copy's last access as the step would, so what follows sees the same recency.
	 */
	foreseen = false;
	/**
	 * Set on work ahead for a given step: whether that step still needs it (it has not run).
	 * Once it is false, the context asks nothing more: its calls would go unused.
	 */
	needed?: () => boolean;
	/** the port for work ahead while a step looks ahead (see `rateSoon`) */
	ahead?: ModelPort;
	/** vectors given with waiting memories (`memorize`'s `vectors`), kept out of the state */
	private readonly given = new WeakMap<PendingMemory, Float32Array>();

	constructor(
		readonly agent: AgentState,
		readonly stream: MemoryStream,
		readonly sim: { state: SimState; index: WorldIndex; pathfinder: PathFinder },
		readonly model: ModelPort,
		/** call-key prefix: the step number, or e.g. "init" or "interview" */
		readonly keyPrefix: string,
		readonly now: number,
		readonly out: StepOutput,
		/** false for read-only questions (interviews): retrievals do not update last access */
		readonly recordAccess = true,
		/** an ablation condition that overrides the run's, for interviews */
		readonly condition?: Ablation
	) {
		this.memoLayer = new MemoLayer(agent);
	}

	/**
	 * A context for work done concurrently with its siblings: its calls are keyed under the
	 * branch's own name and counter, so their keys do not depend on which answer comes first.
	 */
	branch(label: string): AgentContext {
		return this.fork(label, this.out, this.memoLayer);
	}

	private fork(label: string, out: StepOutput, memo: MemoLayer): AgentContext {
		const b = new AgentContext(this.agent, this.stream, this.sim, this.model, this.keyPrefix, this.now, out, this.recordAccess, this.condition);
		b.keyPath = `${this.keyPath}${this.calls++}${label}.`;
		b.recall = this.recall;
		b.speculative = this.speculative;
		b.foreseen = this.foreseen;
		b.needed = this.needed;
		b.ahead = this.ahead;
		b.memoLayer = memo;
		b.storing = this.storing;
		return b;
	}

	/** A branch whose retrievals recall only what `scope` allows (a conversation's speaker). */
	recalling(scope: RecallScope, label: string): AgentContext {
		const b = this.branch(label);
		b.recall = scope;
		return b;
	}

	/**
	 * Work done side by side, a branch each. Nothing a branch does depends on when its siblings'
	 * answers arrive: each sees the memo as it was when they began plus its own writes, and
	 * writes its events to an output of its own; both are merged in branch order when all are
	 * done. Branches neither retrieve nor store memories (ids would follow arrival order).
	 */
	async fanOut<T>(labels: readonly string[], work: (b: AgentContext, i: number) => Promise<T>): Promise<T[]> {
		const branches = labels.map((label) => this.aside(label));
		const results = await Promise.all(branches.map((b, i) => work(b.ctx, i)));
		for (const b of branches) b.keep();
		return results;
	}

	/**
	 * A branch with a memo layer and an output of its own, for work done beside this context's:
	 * what it memoised and its events join this context's when `keep` is called (dropped if not).
	 */
	aside(label: string): { ctx: AgentContext; keep: () => void } {
		const b = this.fork(label, emptyOutput(this.out.step, this.out.time), new MemoLayer(this.agent, this.memoLayer));
		return {
			ctx: b,
			keep: () => {
				b.memoLayer.merge();
				this.out.events.push(...b.out.events);
			}
		};
	}

	/** A value the agent has memoised (see `AgentState.memo`), as this line of work sees it. */
	memoGet<K extends MemoTable>(table: K, key: string): MemoValue<K> | undefined {
		return this.memoLayer.get(table, key);
	}

	memoSet<K extends MemoTable>(table: K, key: string, value: MemoValue<K>): void {
		this.memoLayer.set(table, key, value);
	}

	get state(): SimState {
		return this.sim.state;
	}

	get name(): string {
		return this.agent.name;
	}

	rng(label: string): () => number {
		return rngFor(this.state.seed, this.keyPrefix, this.agent.id, this.keyPath, label, this.calls);
	}

	retrievalSettings(): RetrievalSettings {
		return { ...this.state.settings.retrieval, ...this.agent.settings?.retrieval };
	}

	async ask<T>(template: TemplateId, vars: TemplateVars, purpose: string): Promise<ModelAnswer<T>> {
		const key = `${this.keyPrefix}/${this.agent.id}/${this.keyPath}${this.calls++}`;
		if (this.needed?.() === false) throw new StepPassed(`${template} (call ${key}) is no longer needed: its step has run`);
		const answer = await this.model.complete<T>({ template, vars, key, agent: this.agent.id, purpose });
		if (answer.failsafe) this.out.events.push({ kind: 'failsafe', agent: this.agent.id, template });
		return answer;
	}

	/**
	 * Memory sources hidden from retrieval by the run's ablation (or the condition an interview
	 * is asked under): see `hiddenSources`. Without observation the agent has also heard nothing
	 * (conversations, the notes taken from them, remembered interviews).
	 */
	hiddenSources(): MemorySource[] {
		return hiddenSources(this.condition ?? this.state.ablate);
	}

	/**
	 * The memories of the stream hidden under the ablation: 1 where hidden (hidden sources and
	 * reflections citing only hidden memories); null when nothing is hidden. Pass it to
	 * `stream.recent` to leave them out.
	 */
	hiddenMemories(): Uint8Array | null {
		const hidden = this.hiddenSources();
		if (hidden.length === 0) return null;
		return maskFor(this.stream, hidden);
	}

	/**
	 * Retrieval as in the paper: recency, importance and relevance, each min-max normalised
	 * over the candidates, weighted, top k. Records a trace that can rebuild the full table.
	 * Memories still waiting for their rating are not candidates.
	 */
	async retrieve(query: string, purpose: string, k?: number): Promise<MemoryRecord[]> {
		// memories made and still being rated are retrieved once stored
		if (this.storing.unsettled > 0) await this.storing.added;
		const recall = this.recall;
		const stream = this.stream;
		const size = recall ? Math.min(recall.size, stream.size) : stream.size;
		if (size === 0) return [];
		const now = recall ? recall.at : this.now;
		const settings = this.retrievalSettings();
		const limit = k ?? settings.topK;
		const hidden = this.hiddenSources();
		const mask = hidden.length > 0 ? maskFor(stream, hidden) : null;
		let candidates: number[] | undefined;
		if (mask || size < stream.size) {
			candidates = [];
			for (let i = 0; i < size; i++) if (!mask || mask[i] !== 1) candidates.push(i);
			if (candidates.length === 0) return [];
		}
		const [vector] = await this.model.embed([query]);
		const col = stream.columns(vector, now, settings, candidates);
		const picked = selectTop(col.score, limit, candidates ? (p) => candidates[p] : (p) => p);
		const indices = candidates ? picked.map((p) => candidates[p]) : picked;
		const kinds = hidden.length > 0 ? allKindsExcept(kindsHiddenBy(hidden)) : null;
		if (this.foreseen || (this.recordAccess && !this.speculative)) {
			if (recall) recall.touched.push(...indices);
			else stream.touch(indices, this.now);
		}
		if (this.recordAccess && !this.speculative) {
			this.out.traces.push({
				id: `${this.agent.id}/r${this.agent.retrievals++}`,
				agent: this.agent.id,
				step: this.state.step,
				time: now,
				purpose,
				query,
				weights: { ...settings.weights },
				decay: settings.decay,
				k: limit,
				streamSize: size,
				kinds,
				selected: indices.map((i) => stream.records[i].id),
				scores: picked.map((p) => col.score[p])
			});
		}
		return indices.map((i) => stream.records[i]);
	}

	/**
	 * Adds memories. As in the paper, a memory is rated and stored when it is made. With
	 * `importance.waitMinutes` (the fast profile) and `defer`, memories wait (not yet retrievable)
	 * until a step's `flushDue` rates them together (see there). A flush costs one embedding call
	 * (for the memories without a vector) and a rating call per `importance.perCall` memories
	 * without a rating. `vectors` (per item, stored without asking the embedder: a world's seed
	 * vectors) are only for memories stored at once. With `background` the agent goes on while
	 * they are rated (nothing is returned): its retrievals, and the step (`settled`), wait for them.
	 */
	async memorize(
		items: NewMemory[],
		opts: { defer?: boolean; vectors?: readonly (Float32Array | undefined)[]; background?: boolean } = {}
	): Promise<MemoryRecord[]> {
		const defer = opts.defer === true && this.state.settings.importance.waitMinutes > 0;
		if (this.speculative) {
			// ahead of need: ask the rating the flush would ask, store nothing; what follows in the
			// chain does not wait for it (it reads no rating)
			if (!defer) this.rateAhead([...this.agent.pending, ...items]).catch(() => undefined);
			return [];
		}
		const pending = this.agent.pending;
		items.forEach((item, n) => {
			const p: PendingMemory = { ...item, created: item.created ?? this.now };
			const v = defer ? undefined : opts.vectors?.[n];
			if (v) this.given.set(p, v);
			pending.push(p);
		});
		if (defer) return [];
		const made = this.flush();
		// stored while the agent goes on: `settled` (the step) and retrievals wait for it
		if (opts.background) return [];
		return made;
	}

	/** Waits until every memory made in this context (and its branches) is stored; throws a flush's error. */
	async settled(): Promise<void> {
		await Promise.all(this.storing.flushes);
	}

	/** Rates and stores the waiting memories due at this step (see `dueBatch`). */
	async flushDue(): Promise<MemoryRecord[]> {
		const n = dueBatch(this.agent.pending, this.now, this.state.settings.importance.waitMinutes * MINUTE);
		return n > 0 ? this.flush(n) : [];
	}

	/** The rating a later step will ask for the first `count` waiting memories (see `dueAhead`). */
	async rateDueAhead(count: number): Promise<void> {
		await this.rateAhead(this.agent.pending.slice(0, count));
	}

	/**
	 * With a port for work ahead (`ahead`, a step looking ahead), does now on it what work ahead
	 * does for `memorize(items, { defer: true })`: asks the rating storing them will ask, so that
	 * it is under way beside this context's other calls; stores nothing.
	 */
	rateSoon(items: NewMemory[]): void {
		if (!this.ahead || this.speculative) return;
		const twin = new AgentContext(this.agent, this.stream, this.sim, this.ahead, this.keyPrefix, this.now, emptyOutput(this.out.step, this.out.time), false);
		twin.speculative = true;
		twin.memoLayer = this.memoLayer;
		void twin.memorize(items, { defer: true });
	}

	/** Asks ahead the ratings (and embeddings) storing these memories will ask; resolves with the ratings. */
	async rateAhead(items: Pick<NewMemory, 'description' | 'importance'>[]): Promise<number[]> {
		if (items.some((i) => i.importance === undefined && this.memoGet('importance', i.description) === undefined)) {
			await this.model.embed(items.map((i) => i.description));
		}
		return this.rate(items);
	}

	/**
	 * The importance of each memory: its fixed rating, the agent's memo, or the model's, asked
	 * `importance.perCall` memories a call (0: all in one), the calls side by side. A rating
	 * the model did not give is the template's fail-safe (3), never remembered.
	 */
	private rate(items: Pick<NewMemory, 'description' | 'importance'>[]): Promise<number[]> {
		const ratings: (number | Promise<number> | undefined)[] = items.map((i) => i.importance ?? this.memoGet('importance', i.description));
		// the same memory made again while an earlier flush of the step is rating it: that rating
		const inFlight = this.storing.rating;
		const unrated: number[] = [];
		for (let n = 0; n < items.length; n++) {
			if (ratings[n] !== undefined) continue;
			const earlier = inFlight.get(items[n].description);
			if (earlier) ratings[n] = earlier;
			else unrated.push(n);
		}
		if (unrated.length > 0) {
			const per = this.state.settings.importance.perCall || unrated.length;
			const calls: number[][] = [];
			for (let i = 0; i < unrated.length; i += per) calls.push(unrated.slice(i, i + per));
			const ask = (ctx: AgentContext, call: number[]) =>
				ctx.ask<{ ratings: number[] }>('importance', { name: this.name, memories: call.map((n) => items[n].description) }, 'importance of new memories');
			// asked now (the calls' keys follow the order memories are made), answered whenever
			const answers = calls.length === 1 ? ask(this, calls[0]).then((a) => [a]) : this.fanOut(calls.map(() => 'r'), (b, i) => ask(b, calls[i]));
			calls.forEach((call, c) =>
				call.forEach((n, j) => {
					const rating = answers.then((all) => {
						const raw = all[c].value.ratings?.[j];
						const value = Number.isFinite(raw) ? Math.min(10, Math.max(1, Math.round(raw))) : 3;
						if (!all[c].failsafe && !this.speculative) this.memoSet('importance', items[n].description, value);
						return value;
					});
					ratings[n] = rating;
					if (!this.speculative) {
						inFlight.set(items[n].description, rating);
						const forget = () => {
							if (inFlight.get(items[n].description) === rating) inFlight.delete(items[n].description);
						};
						rating.then(forget, forget);
					}
				})
			);
		}
		return Promise.all(ratings as (number | Promise<number>)[]);
	}

	/** Rates and stores the first `count` waiting memories (default all); returns the stored records. */
	flush(count = this.agent.pending.length): Promise<MemoryRecord[]> {
		if (this.speculative) return Promise.resolve([]);
		const items = this.agent.pending.slice(0, count);
		if (items.length === 0) return Promise.resolve([]);
		this.agent.pending = this.agent.pending.slice(count);
		// the ratings asked now; one embedding call for the memories without a given vector (all
		// of them but a world's seeds); the records added after those of earlier flushes
		const ratings = this.rate(items);
		const asking = items.filter((i) => !this.given.has(i));
		const asked = asking.length ? this.model.embed(asking.map((i) => i.description)) : Promise.resolve([]);
		const storing = this.storing;
		const before = storing.added;
		storing.unsettled++;
		const made = Promise.all([ratings, asked, before]).then(([r, v]) => this.add(items, r, v));
		const done = () => {
			storing.unsettled--;
		};
		storing.added = made.then(done, done);
		storing.flushes.push(made);
		return made;
	}

	private add(items: PendingMemory[], ratings: number[], asked: Float32Array[]): MemoryRecord[] {
		let k = 0;
		const vectors = items.map((i) => this.given.get(i) ?? asked[k++]);
		const records = items.map((item, n) => {
			const rec = this.stream.add({
				kind: item.kind,
				// a pending memory kept in a snapshot from before sources were recorded has none
				source: item.source ?? (item.kind === 'thought' ? undefined : SOURCE_OF_KIND[item.kind]),
				description: item.description,
				created: item.created,
				step: this.state.step,
				importance: ratings[n] as number,
				evidence: item.evidence,
				plan: item.plan,
				with: item.with,
				embedding: vectors[n]
			});
			if (item.kind !== 'plan' && item.kind !== 'reflection') {
				this.agent.importanceSinceReflection += rec.importance;
			}
			return rec;
		});
		for (const r of records) this.out.memories.push(r);
		return records;
	}

	hoursSince(ms: number | undefined): number {
		return ms === undefined ? 999 : Math.floor((this.now - ms) / HOUR);
	}
}

function allKindsExcept(hidden: MemoryKind[]): MemoryKind[] {
	return MEMORY_KINDS.filter((k) => !hidden.includes(k));
}

/**
 * The kinds a retrieval trace records as its candidates' kinds: those whose memories the hidden
 * sources hide (a run's ablation is fixed when it starts, so in a run's own retrievals these
 * kinds and the hidden sources leave out the same memories).
 */
function kindsHiddenBy(hidden: readonly MemorySource[]): MemoryKind[] {
	return (Object.keys(SOURCE_OF_KIND) as Exclude<MemoryKind, 'thought'>[]).filter((k) => hidden.includes(SOURCE_OF_KIND[k]));
}

/** Hidden-memory masks per stream and hidden set, extended as a stream grows (streams only grow). */
const masks = new WeakMap<MemoryStream, Map<string, { mask: Uint8Array; size: number }>>();

function maskFor(stream: MemoryStream, hidden: readonly MemorySource[]): Uint8Array {
	let byKey = masks.get(stream);
	if (!byKey) masks.set(stream, (byKey = new Map()));
	const key = hidden.join(',');
	const kept = byKey.get(key);
	if (kept && kept.size === stream.size) return kept.mask;
	const mask = hiddenMask(stream.records, hidden, kept?.size ?? 0, kept?.mask);
	byKey.set(key, { mask, size: stream.size });
	return mask;
}
