// UI state of the compare view: the behaviour diff of two runs, the one frame both maps show
// (the shared timeline), the shared selection and the one viewport both maps pan and zoom.
// Each map is a `SideMap` (a MapHost) drawing its run's frame from its own FrameStore, which
// loads only the chunk around the frame on screen (one request in flight per run).

import { createContext } from 'svelte';
import type { AgentDiff, DifferenceKind, RunDiff } from '$lib/api/diff';
import type { Frame, RunInfo } from '$lib/api/types';
import { createApi, type Api } from '$lib/shared/api';
import { FrameStore, mapAgents } from '../frames';
import type { MapAgent, MapHost } from '../map-host';
import { MapViewport } from '$lib/shared/viewport.svelte';
import type { WorldView } from '$lib/shared/world-view';
import { sortAgents } from './lanes';
import { adjacentStop, clampFrame, differenceStops, divergenceFrame, kindsAt } from './steps';
import { mergeRanges } from '$lib/shared/ranges';

/** frames per request: a 25-agent frame is about 5 KB */
export const FRAME_CHUNK = 50;

export type SideKey = 'a' | 'b';

export interface SideInput {
	info: RunInfo;
	world: WorldView;
}

/** One run's map: its world, its frames, the shared frame, viewport and selection. */
export class SideMap implements MapHost {
	readonly world: WorldView;
	readonly frames: FrameStore;
	private version = $state(0);
	private wanted: number | null = null;
	private pumping = false;

	constructor(
		private readonly owner: CompareState,
		readonly key: SideKey,
		readonly info: RunInfo,
		world: WorldView,
		api: Api
	) {
		this.world = world;
		const head = Math.max(0, info.steps);
		this.frames = new FrameStore((from, to) => api.frames(info.id, from, Math.min(to, Math.max(head, from))), {
			chunk: FRAME_CHUNK,
			maxChunks: 40
		});
		this.frames.head = head;
		this.frames.subscribe(() => this.version++);
	}

	get viewport(): MapViewport {
		return this.owner.viewport;
	}

	get id(): string {
		return this.info.id;
	}

	/** The frame at the shared step, or the nearest loaded one while it loads. */
	readonly frame = $derived.by((): Frame | undefined => {
		void this.version;
		const step = this.owner.step;
		return this.frames.get(step) ?? this.frames.nearest(step);
	});

	get drawnStep(): number | null {
		return this.frame?.step ?? null;
	}

	/** true when the map shows another frame than the timeline's (its frame is on its way) */
	get loading(): boolean {
		return this.frame?.step !== this.owner.step;
	}

	readonly agents = $derived.by((): MapAgent[] => (this.frame ? mapAgents(this.frame, this.frames) : []));

	get selectedAgent(): string | null {
		return this.owner.selectedAgent;
	}
	set selectedAgent(id: string | null) {
		this.owner.selectedAgent = id;
	}
	get selectedZone(): string | null {
		return this.owner.selectedZone;
	}
	set selectedZone(zone: string | null) {
		this.owner.selectedZone = zone;
	}
	get showCollisions(): boolean {
		return this.owner.showCollisions;
	}
	set showCollisions(on: boolean) {
		this.owner.showCollisions = on;
	}
	get showZones(): boolean {
		return this.owner.showZones;
	}
	set showZones(on: boolean) {
		this.owner.showZones = on;
	}

	select(id: string | null): void {
		this.owner.select(id);
	}

	fitMap(): void {
		this.owner.fitMap();
	}

	/** The agent as this run's frame on screen has it. */
	agentView(id: string) {
		return this.frame?.agents.find((a) => a.id === id);
	}

	/**
	 * Loads the chunk holding `frame`. While a request is out, only the latest wish is kept, so
	 * a timeline drag asks for the chunks it stops at, not every chunk it crosses.
	 */
	want(frame: number): void {
		if (this.frames.has(frame)) return;
		this.wanted = frame;
		if (!this.pumping) void this.pump();
	}

	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.wanted !== null) {
				const f = this.wanted;
				this.wanted = null;
				if (!this.frames.has(f)) await this.frames.ensure(f);
			}
		} catch (err) {
			this.owner.fail(err);
		} finally {
			this.pumping = false;
		}
	}

	/** Loads the chunk after the one on screen, so stepping on does not wait. */
	prefetchAhead(frame: number, last: number): void {
		const next = (Math.floor(frame / this.frames.chunk) + 1) * this.frames.chunk;
		if (next <= last && !this.pumping) void this.frames.ensure(next).catch(() => undefined);
	}
}

export class CompareState {
	readonly diff: RunDiff;
	readonly viewport = new MapViewport();
	readonly a: SideMap;
	readonly b: SideMap;

	/** the frame both maps show (the shared timeline) */
	step = $state(0);
	selectedAgent = $state<string | null>(null);
	selectedZone = $state<string | null>(null);
	showCollisions = $state(false);
	showZones = $state(false);
	/** the last problem to show (a failed frame request) */
	notice = $state<string | null>(null);

	/** agents with the most differing frames first */
	readonly agents: AgentDiff[];
	/** frames where any agent moves or acts differently, merged */
	readonly differing: [number, number][];
	/** where Next / Previous difference stop: the start of every range of every kind of difference */
	readonly stops: number[];
	readonly divergenceFrame: number | null;
	private readonly names: Map<string, string>;

	constructor(diff: RunDiff, a: SideInput, b: SideInput, initial: number, api: Api = createApi()) {
		this.diff = diff;
		this.a = new SideMap(this, 'a', a.info, a.world, api);
		this.b = new SideMap(this, 'b', b.info, b.world, api);
		this.agents = sortAgents(diff.agents);
		this.differing = mergeRanges(diff.timeline.agents.flatMap((t) => t.differs));
		this.stops = differenceStops(diff.differences);
		this.divergenceFrame = diff.firstDivergence ? divergenceFrame(diff.firstDivergence, diff.steps) : null;
		// fixed for the life of the view: nothing reacts to it
		// eslint-disable-next-line svelte/prefer-svelte-reactivity
		this.names = new Map(diff.agents.map((x) => [x.id, x.name]));
		this.step = clampFrame(initial, diff.steps);
	}

	get first(): number {
		return this.diff.steps.start;
	}

	get last(): number {
		return Math.max(this.diff.steps.start, this.diff.steps.end);
	}

	nameOf(id: string): string {
		return this.names.get(id) ?? id;
	}

	/** Game time of `frame` on run A's calendar. */
	timeAt(frame: number): number {
		const info = this.a.info;
		return info.start + frame * info.secondsPerStep * 1000;
	}

	/** Both maps show `frame` (kept inside the compared range). */
	seek(frame: number): void {
		this.step = clampFrame(frame, this.diff.steps);
		this.load();
	}

	goToDivergence(): void {
		if (this.divergenceFrame !== null) this.seek(this.divergenceFrame);
	}

	/**
	 * The next (dir 1) or previous (dir -1) place the runs differ, of any kind: where agents start
	 * to move or act differently, a reaction, conversation, memory or reflection of one run only,
	 * a model call that differs.
	 */
	adjacentDifference(dir: 1 | -1): number | null {
		return adjacentStop(this.stops, this.step, dir);
	}

	/** The kinds of difference on the frame on screen. */
	get kindsHere(): DifferenceKind[] {
		return kindsAt(this.diff.differences, this.step);
	}

	/** Loads both runs' frames around the shared frame. */
	load(): void {
		this.a.want(this.step);
		this.b.want(this.step);
	}

	/** Once the frame is on screen: the next chunk of both runs. */
	prefetch(): void {
		this.a.prefetchAhead(this.step, Math.min(this.last, this.a.frames.head));
		this.b.prefetchAhead(this.step, Math.min(this.last, this.b.frames.head));
	}

	/** true when both maps have the frames of the shared step */
	get framesReady(): boolean {
		return !this.a.loading && !this.b.loading;
	}

	select(id: string | null): void {
		this.selectedAgent = id;
		this.selectedZone = null;
	}

	/** Shows the whole of the larger map in both views. */
	fitMap(): void {
		const size = (w: WorldView) => ({ w: w.map.width * w.map.tileWidth, h: w.map.height * w.map.tileHeight });
		const sa = size(this.a.world);
		const sb = size(this.b.world);
		this.viewport.fit(Math.max(sa.w, sb.w), Math.max(sa.h, sb.h));
	}

	/** Centres both maps on the agent (as run A has it) and selects it. */
	focusAgent(id: string): void {
		this.select(id);
		const view = this.a.agentView(id) ?? this.b.agentView(id);
		if (!view) return;
		const map = this.a.world.map;
		const scale = Math.max(this.viewport.scale, 1.5);
		this.viewport.centerOn({ wx: (view.x + 0.5) * map.tileWidth, wy: (view.y + 0.5) * map.tileHeight }, scale);
	}

	fail(err: unknown): void {
		if (err instanceof DOMException && err.name === 'AbortError') return;
		this.notice = err instanceof Error ? err.message : String(err);
	}
}

export const [getCompareState, setCompareState] = createContext<CompareState>();
