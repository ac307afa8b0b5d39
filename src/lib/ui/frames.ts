// Frames (what the map draws at one step) fetched in chunks and kept, so scrubbing the timeline
// draws from memory. Chunks are aligned to multiples of `chunk`; the oldest-used chunks are
// dropped past `maxChunks`. Frames pushed live (server-sent events) join their chunk.

import type { Frame } from '$lib/api/types';
import type { ConversationRecord } from '$lib/engine/state';
import { firstNameOf, type MapAgent } from './map-host';

export interface FrameStoreOptions {
	/** steps per request */
	chunk?: number;
	/** chunks kept in memory */
	maxChunks?: number;
}

export type ChunkLoader = (from: number, to: number) => Promise<Frame[]>;

interface Chunk {
	frames: Map<number, Frame>;
	/** true once the server's answer for the whole chunk arrived */
	complete: boolean;
	used: number;
}

export class FrameStore {
	readonly chunk: number;
	readonly maxChunks: number;
	private chunks = new Map<number, Chunk>();
	private inflight = new Map<number, Promise<void>>();
	private clock = 0;
	/** the latest step that exists; chunks past it are never asked for */
	head = -1;
	/** conversations seen in any frame, by id */
	private conversations = new Map<string, ConversationRecord>();
	private listeners = new Set<() => void>();

	constructor(
		private readonly load: ChunkLoader,
		opts: FrameStoreOptions = {}
	) {
		this.chunk = Math.max(1, opts.chunk ?? 200);
		this.maxChunks = Math.max(2, opts.maxChunks ?? 100);
	}

	/** Called whenever frames arrive. */
	subscribe(fn: () => void): () => void {
		this.listeners.add(fn);
		return () => this.listeners.delete(fn);
	}

	private changed(): void {
		for (const fn of this.listeners) fn();
	}

	private chunkOf(step: number): number {
		return Math.floor(step / this.chunk);
	}

	get(step: number): Frame | undefined {
		const c = this.chunks.get(this.chunkOf(step));
		if (!c) return undefined;
		c.used = ++this.clock;
		return c.frames.get(step);
	}

	has(step: number): boolean {
		return this.chunks.get(this.chunkOf(step))?.frames.has(step) ?? false;
	}

	/** The loaded frame closest to `step` at or before it (then after it), for a stand-in while loading. */
	nearest(step: number): Frame | undefined {
		let best: Frame | undefined;
		let bestDist = Infinity;
		for (const c of this.chunks.values()) {
			for (const f of c.frames.values()) {
				const d = f.step <= step ? step - f.step : f.step - step + 0.5;
				if (d < bestDist) {
					best = f;
					bestDist = d;
				}
			}
		}
		return best;
	}

	/** Adds a frame that arrived on its own (a live step). */
	put(frame: Frame): void {
		const key = this.chunkOf(frame.step);
		let c = this.chunks.get(key);
		if (!c) {
			c = { frames: new Map(), complete: false, used: ++this.clock };
			this.chunks.set(key, c);
		}
		c.frames.set(frame.step, frame);
		this.head = Math.max(this.head, frame.step);
		this.remember(frame);
		this.evict();
		this.changed();
	}

	private remember(frame: Frame): void {
		for (const conv of frame.conversations) this.conversations.set(conv.id, conv);
	}

	/** Loads the chunk holding `step` unless it is loaded or loading. Resolves when it is there. */
	ensure(step: number): Promise<void> {
		if (step < 0 || (this.head >= 0 && step > this.head)) return Promise.resolve();
		const key = this.chunkOf(step);
		const c = this.chunks.get(key);
		// A chunk filled only by live frames may still lack its earlier steps.
		if (c && (c.complete || c.frames.has(step))) return Promise.resolve();
		const pending = this.inflight.get(key);
		if (pending) return pending;
		const from = key * this.chunk;
		// `to` is sent inclusive; a server reading it as exclusive still answers the whole chunk.
		const to = from + this.chunk;
		const job = this.load(from, to)
			.then((frames) => {
				let chunk = this.chunks.get(key);
				if (!chunk) {
					chunk = { frames: new Map(), complete: false, used: ++this.clock };
					this.chunks.set(key, chunk);
				}
				for (const f of frames) {
					this.remember(f);
					if (this.chunkOf(f.step) !== key) continue;
					chunk.frames.set(f.step, f);
				}
				// The last chunk may be growing: it is complete only up to the head known now.
				chunk.complete = from + this.chunk - 1 <= this.head;
				chunk.used = ++this.clock;
				this.evict(key);
				this.changed();
			})
			.finally(() => this.inflight.delete(key));
		this.inflight.set(key, job);
		return job;
	}

	/** Loads the chunks from `around` outwards (nearest first), within [first, last]. */
	async prefetch(around: number, first: number, last: number, limit = this.maxChunks): Promise<void> {
		const lo = this.chunkOf(Math.max(0, first));
		const hi = this.chunkOf(Math.max(0, last));
		const mid = this.chunkOf(Math.min(Math.max(around, first), last));
		const order: number[] = [];
		for (let d = 0; order.length < limit && (mid - d >= lo || mid + d <= hi); d++) {
			if (mid + d <= hi) order.push(mid + d);
			if (d > 0 && mid - d >= lo) order.push(mid - d);
		}
		for (const key of order.slice(0, limit)) {
			await this.ensure(Math.max(first, key * this.chunk));
		}
	}

	private evict(keep?: number): void {
		while (this.chunks.size > this.maxChunks) {
			let oldest: number | null = null;
			let oldestUse = Infinity;
			for (const [key, c] of this.chunks) {
				if (key === keep) continue;
				if (c.used < oldestUse) {
					oldest = key;
					oldestUse = c.used;
				}
			}
			if (oldest === null) return;
			this.chunks.delete(oldest);
		}
	}

	/** The latest conversation of `agent` recorded at or before `step`. */
	conversationOf(agent: string, step: number): ConversationRecord | undefined {
		let best: ConversationRecord | undefined;
		for (const c of this.conversations.values()) {
			if (c.step > step || !c.agents.includes(agent)) continue;
			if (!best || c.step > best.step) best = c;
		}
		return best;
	}

	/**
	 * Loaded steps as sorted, merged [from, to] ranges (inclusive), for a "buffered" bar. Called
	 * on every live step, so full chunks count as one range without looking at their frames.
	 */
	loadedRanges(): [number, number][] {
		const out: [number, number][] = [];
		const add = (from: number, to: number) => {
			const last = out[out.length - 1];
			if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
			else out.push([from, to]);
		};
		for (const key of [...this.chunks.keys()].sort((a, b) => a - b)) {
			const c = this.chunks.get(key)!;
			const from = key * this.chunk;
			if (c.frames.size === this.chunk && c.frames.has(from) && c.frames.has(from + this.chunk - 1)) {
				add(from, from + this.chunk - 1);
				continue;
			}
			for (const s of [...c.frames.keys()].sort((a, b) => a - b)) add(s, s);
		}
		return out;
	}

	get size(): number {
		let n = 0;
		for (const c of this.chunks.values()) n += c.frames.size;
		return n;
	}
}

/**
 * What `agent` says at `step` of a conversation that began at `conv.step`: lines are revealed one
 * per step, and an agent's bubble holds the latest of its revealed lines.
 */
export function speechAt(conv: ConversationRecord, agent: string, step: number): string | undefined {
	const shown = Math.max(0, Math.min(conv.lines.length, step - conv.step + 1));
	for (let i = shown - 1; i >= 0; i--) {
		const line = conv.lines[i];
		if (line.speaker === agent) return line.text;
	}
	return undefined;
}

/**
 * The agents of `frame` as the map draws them, a talking agent with its bubble (its conversation
 * from the frame, or from `store` when it began at an earlier step); `withPaths` adds each one's
 * tiles left to walk.
 */
export function mapAgents(frame: Frame, store: Pick<FrameStore, 'conversationOf'>, withPaths = false): MapAgent[] {
	return frame.agents.map((a) => {
		let speech: string | undefined;
		if (a.chatWith) {
			const conv = frame.conversations.find((c) => c.agents.includes(a.id)) ?? store.conversationOf(a.id, frame.step);
			if (conv) speech = speechAt(conv, a.id, frame.step);
		}
		const agent: MapAgent = { id: a.id, name: a.name, firstName: firstNameOf(a.name), x: a.x, y: a.y, emoji: a.emoji, speech };
		if (withPaths) agent.path = a.path;
		return agent;
	});
}
