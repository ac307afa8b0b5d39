// UI state of the run debugger: the run, the step under the cursor (the timeline), live updates
// from the server, the selection and the open panel. The map draws from `agents`, which comes
// from the frame of the current step kept in a FrameStore.

import { createContext } from 'svelte';
import type { AgentDetail, Budget, Frame, Marker, ModelActivity, ObjectStates, ObjectStateView, PauseInfo, RunEvent, RunInfo, RunStatus, Timeline, UsageRow } from '$lib/api/types';
import { createApi, type Api } from '$lib/shared/api';
import { FrameStore, mapAgents } from '../frames';
import type { MapAgent, MapHost, ObjectBadge } from '../map-host';
import { MapViewport } from '$lib/shared/viewport.svelte';
import type { WorldView } from '$lib/shared/world-view';
import { placeQuery, type Place, type Tab } from './place';
import { stepAtTime } from './format';
import { mergeMarkers } from './markers';
import type { RetrievalWeights } from '$lib/api/types';

/** Quiet time after the cursor stops before the inspector loads the exact state. */
export const SETTLE_MS = 300;

export type Connection = 'connecting' | 'open' | 'retrying';

/** A running run without any event for this long is asked for its status. */
export const QUIET_MS = 3000;

export class RunState implements MapHost {
	readonly api: Api;
	readonly world: WorldView;
	readonly viewport = new MapViewport();
	readonly frames: FrameStore;

	info = $state.raw<RunInfo>() as RunInfo;
	status = $state<RunStatus | string>('paused');
	/** the run is being stepped by the server process */
	live = $state(false);
	target = $state(0);
	/** the first step this run computed itself (a fork's steps before it are its parent's) */
	firstStep = $state(0);
	/** the timeline starts at the world's first state, a fork's included */
	readonly minStep = 0;
	/** the newest step there is */
	head = $state(0);
	markers = $state.raw<Marker[]>([]);

	/** the step the screen shows */
	step = $state(0);
	/** the cursor moves with new steps as they arrive */
	following = $state(true);
	/** replaying recorded steps in the browser (the cursor was behind the newest step) */
	replaying = $state(false);
	/** 0: as fast as the run can go */
	stepsPerSecond = $state(0);
	/** true while the timeline thumb is held */
	scrubbing = $state(false);
	/** the step the inspector shows: `step` once it has stayed put for SETTLE_MS */
	settledStep = $state(0);

	selectedAgent = $state<string | null>(null);
	selectedZone = $state<string | null>(null);
	showCollisions = $state(false);
	showZones = $state(false);
	showPath = $state(false);
	tab = $state<Tab>('agent');
	trace = $state<string | null>(null);
	weights = $state.raw<RetrievalWeights | null>(null);

	/** tokens and dollars of the run's own calls so far (live while it steps) */
	usage = $state.raw<UsageRow | null>(null);
	/** what the model is doing while the live run's next step waits for it (null: not waiting) */
	modelActivity = $state.raw<ModelActivity | null>(null);
	budget = $state.raw<Budget | null>(null);
	/** why the run paused by itself (budget reached, model fault) */
	pauseInfo = $state.raw<PauseInfo | null>(null);
	/** the server refused to go on under another model than the run's: its message */
	modelChangeRefused = $state<string | null>(null);

	connection = $state<Connection>('connecting');
	/** the last problem to show (a failed request, a server error event) */
	notice = $state<string | null>(null);
	busy = $state(false);

	detail = $state.raw<AgentDetail | null>(null);
	detailLoading = $state(false);
	detailError = $state<string | null>(null);

	/** the object whose state the user is looking at or changing (`Sector:Arena:Object`) */
	selectedObject = $state<string | null>(null);
	/** the town's objects at the settled step, loaded while they are shown */
	objects = $state.raw<ObjectStates | null>(null);
	objectsLoading = $state(false);
	objectsError = $state<string | null>(null);

	private frameVersion = $state(0);
	/** counts status events, so an answer asked for before the newest one never undoes it */
	private statusEvents = 0;
	/** when the last server-sent event arrived (ms, performance clock) */
	private lastEventAt = 0;
	private settleTimer: ReturnType<typeof setTimeout> | null = null;
	private replayTimer: ReturnType<typeof setTimeout> | null = null;
	// A plain cache: nothing renders from it directly.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	private detailCache = new Map<string, AgentDetail>();
	private detailAbort: AbortController | null = null;
	// A plain cache of committed steps (they never change): nothing renders from it directly.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	private objectsCache = new Map<number, ObjectStates>();
	private objectsAbort: AbortController | null = null;

	constructor(world: WorldView, info: RunInfo, place: Place, api: Api = createApi()) {
		this.api = api;
		this.world = world;
		this.frames = new FrameStore((from, to) => api.frames(info.id, from, Math.min(to, Math.max(this.head, from))), {
			chunk: 250,
			maxChunks: 80
		});
		this.frames.subscribe(() => this.frameVersion++);
		this.head = info.steps;
		this.frames.head = info.steps;
		this.applyInfo(info);
		this.firstStep = info.firstStep;
		this.step = this.clamp(place.step ?? info.steps);
		this.following = place.step === null || place.step >= info.steps;
		this.settledStep = this.step;
		this.selectedAgent = place.agent && info.agents.some((a) => a.id === place.agent) ? place.agent : null;
		this.tab = place.tab;
		this.trace = place.trace;
		this.weights = place.weights;
	}

	get id(): string {
		return this.info.id;
	}

	/**
	 * Takes the run as an answer describes it. `asked` is the number of status events seen when
	 * the request went out: an answer overtaken by a newer status event (answers and events travel
	 * on different connections) keeps only what cannot go stale (the head, the run's fields), so a
	 * run that said "done" is never shown as running again.
	 */
	private applyInfo(info: RunInfo, asked = this.statusEvents): void {
		this.info = info;
		if (asked === this.statusEvents) {
			this.status = info.status;
			this.live = info.live;
			this.target = info.target;
			this.budget = info.budget ?? null;
			this.pauseInfo = info.pause ?? null;
		}
		this.usage = info.usage ?? this.usage;
		this.advanceHead(info.steps);
	}

	/** A newer step exists: the cursor goes along when it follows the run. */
	private advanceHead(steps: number): void {
		if (steps > this.head) this.head = steps;
		this.frames.head = Math.max(this.frames.head, this.head);
		if (this.following && !this.replaying && this.step < this.head) {
			this.step = this.head;
			void this.loadAround(this.step);
			this.scheduleSettle();
		}
	}

	clamp(step: number): number {
		return Math.max(this.minStep, Math.min(this.head, Math.round(step)));
	}

	// ---------------------------------------------------------------- what the map draws

	/** The frame of the current step, or the nearest loaded one while it loads. */
	readonly frame = $derived.by((): Frame | undefined => {
		void this.frameVersion;
		return this.frames.get(this.step) ?? this.frames.nearest(this.step);
	});

	/** Steps whose frames are in memory, as [from, to] ranges. */
	readonly buffered = $derived.by((): [number, number][] => {
		void this.frameVersion;
		return this.frames.loadedRanges();
	});

	get drawnStep(): number | null {
		return this.frame?.step ?? null;
	}

	/** true when the map shows another step than the cursor's (its frame is on its way) */
	get frameLoading(): boolean {
		return this.frame?.step !== this.step;
	}

	get time(): number {
		return this.info.start + this.step * this.info.secondsPerStep * 1000;
	}

	timeAt(step: number): number {
		return this.info.start + step * this.info.secondsPerStep * 1000;
	}

	readonly agents = $derived.by((): MapAgent[] => (this.frame ? mapAgents(this.frame, this.frames, true) : []));

	/** The selected agent as the current frame has it. */
	get selectedView() {
		return this.frame?.agents.find((a) => a.id === this.selectedAgent);
	}

	nameOf(id: string): string {
		return this.info.agents.find((a) => a.id === id)?.name ?? id;
	}

	get playing(): boolean {
		return this.replaying || this.status === 'running';
	}

	get place(): Place {
		return {
			step: this.step,
			agent: this.selectedAgent,
			tab: this.tab,
			trace: this.trace,
			weights: this.weights
		};
	}

	get query(): string {
		return placeQuery(this.place);
	}

	// ---------------------------------------------------------------- selection

	select(id: string | null): void {
		if (id !== this.selectedAgent) {
			this.trace = null;
			this.weights = null;
		}
		this.selectedAgent = id;
		this.selectedZone = null;
		this.selectedObject = null;
	}

	/** A click on an object of the map: its state and a form to change it open over the map. */
	pickObject(address: string | null): void {
		this.selectedObject = address;
		this.selectedZone = address;
	}

	/** Picks an object and brings it to the middle of the map (from a list). */
	focusObject(address: string): void {
		this.pickObject(address);
		const zone = this.world.map.zones.find((z) => z.address === address);
		if (!zone || zone.rects.length === 0) return;
		const r = zone.rects[0];
		const { tileWidth, tileHeight } = this.world.map;
		this.viewport.centerOn({ wx: (r.x + r.w / 2) * tileWidth, wy: (r.y + r.h / 2) * tileHeight }, Math.max(this.viewport.scale, 1.5));
	}

	/** true when a user set an object's state at or before the step on the screen */
	get objectInputsSoFar(): boolean {
		return this.markers.some((m) => m.kind === 'input' && m.step <= this.step && m.agents.length === 0);
	}

	/** The selected object at the settled step (undefined while it loads). */
	get selectedObjectState(): ObjectStateView | undefined {
		if (!this.selectedObject || !this.objects) return undefined;
		return this.objects.objects.find((o) => o.address === this.selectedObject);
	}

	/** Objects whose state the map writes beside them: those a user set, and the selected one. */
	get objectBadges(): ObjectBadge[] {
		const o = this.objects;
		if (!o || o.step !== this.drawnStep) return [];
		return o.objects
			.filter((x) => x.setByUser || x.address === this.selectedObject)
			.map((x) => ({ address: x.address, text: `${x.name}: ${x.state}`, user: x.setByUser === true }));
	}

	focusAgent(id: string): void {
		this.select(id);
		const a = this.frame?.agents.find((x) => x.id === id);
		if (!a) return;
		const scale = Math.max(this.viewport.scale, 1.5);
		this.viewport.centerOn({ wx: (a.x + 0.5) * this.world.map.tileWidth, wy: (a.y + 0.5) * this.world.map.tileHeight }, scale);
	}

	fitMap(): void {
		const { width, height, tileWidth, tileHeight } = this.world.map;
		this.viewport.fit(width * tileWidth, height * tileHeight);
	}

	openTab(tab: Tab): void {
		this.tab = tab;
	}

	openTrace(trace: string | null): void {
		this.trace = trace;
		this.weights = null;
		if (trace) this.tab = 'retrievals';
	}

	// ---------------------------------------------------------------- moving in time

	/** Shows `step` (clamped to the run); frames are loaded when missing. */
	seek(step: number, opts: { keepReplay?: boolean } = {}): void {
		const s = this.clamp(step);
		if (!opts.keepReplay) this.stopReplay();
		this.step = s;
		this.following = s >= this.head;
		void this.loadAround(s);
		this.scheduleSettle();
	}

	private async loadAround(step: number): Promise<void> {
		try {
			await this.frames.ensure(step);
		} catch (err) {
			this.fail(err);
		}
	}

	/** Loads frames around the cursor, then the rest of the run, in the background. */
	async prefetch(): Promise<void> {
		try {
			await this.frames.ensure(this.step);
			await this.frames.prefetch(this.step, this.minStep, this.head);
		} catch (err) {
			this.fail(err);
		}
	}

	private scheduleSettle(): void {
		if (this.settleTimer) clearTimeout(this.settleTimer);
		this.settleTimer = setTimeout(() => {
			this.settleTimer = null;
			if (this.scrubbing) return this.scheduleSettle();
			this.settledStep = this.step;
		}, SETTLE_MS);
	}

	setScrubbing(on: boolean): void {
		this.scrubbing = on;
		if (!on) this.scheduleSettle();
	}

	stepBack(): void {
		this.seek(this.step - 1);
	}

	/** One step forward: the next recorded step, or a new one computed by the server. */
	async stepForward(): Promise<void> {
		if (this.step < this.head) return this.seek(this.step + 1);
		this.following = true;
		await this.control({ action: 'step' });
	}

	/** Plays from the cursor: recorded steps first (at the chosen speed), then live ones. */
	async play(): Promise<void> {
		this.notice = null;
		if (this.step < this.head) {
			this.startReplay();
			return;
		}
		this.following = true;
		await this.control({ action: 'play' });
	}

	async pause(): Promise<void> {
		this.stopReplay();
		if (this.status === 'running' || this.live) await this.control({ action: 'pause' });
	}

	async runSteps(steps: number): Promise<void> {
		if (!Number.isInteger(steps) || steps < 1) {
			this.notice = 'Steps to run must be a whole number of at least 1.';
			return;
		}
		this.stopReplay();
		this.seek(this.head);
		this.following = true;
		await this.control({ action: 'run', steps });
	}

	/** Goes to a game time: seeks when it is recorded, otherwise runs the run up to it. */
	async goToTime(time: number): Promise<void> {
		const step = stepAtTime(time, this.info.start, this.info.secondsPerStep);
		if (step < this.minStep) {
			this.notice = 'That time is before the run began.';
			return;
		}
		if (step <= this.head) return this.seek(step);
		await this.runSteps(step - this.head);
	}

	async setSpeed(stepsPerSecond: number): Promise<void> {
		this.stepsPerSecond = stepsPerSecond;
		if (this.replaying) this.startReplay();
		await this.control({ action: 'speed', stepsPerSecond });
	}

	private startReplay(): void {
		this.stopReplay();
		this.replaying = true;
		this.following = false;
		const tick = async () => {
			if (!this.replaying) return;
			if (this.step >= this.head) {
				this.stopReplay();
				// Caught up with the recording: carry on live unless the run is finished.
				if (this.status !== 'done' || this.head < this.target) {
					this.following = true;
					await this.control({ action: 'play' });
				}
				return;
			}
			const next = this.step + 1;
			// Wait for the frame rather than skipping over it.
			if (!this.frames.has(next)) await this.loadAround(next);
			if (!this.replaying) return;
			this.seek(next, { keepReplay: true });
			// Replaying "as fast as possible" still shows every step, at about 60 a second.
			const perSecond = this.stepsPerSecond > 0 ? this.stepsPerSecond : 60;
			this.replayTimer = setTimeout(tick, 1000 / perSecond);
		};
		void tick();
	}

	private stopReplay(): void {
		this.replaying = false;
		if (this.replayTimer) clearTimeout(this.replayTimer);
		this.replayTimer = null;
	}

	async control(body: Parameters<Api['control']>[1]): Promise<void> {
		this.busy = true;
		const asked = this.statusEvents;
		try {
			this.applyInfo(await this.api.control(this.id, body), asked);
			if ('allowModelChange' in body && body.allowModelChange) this.modelChangeRefused = null;
		} catch (err) {
			// 409 with a model change: the page offers to go on under the new model
			if (err instanceof Error && (err as { status?: number }).status === 409 && /allow-model-change/.test(err.message)) {
				this.modelChangeRefused = err.message;
				return;
			}
			this.fail(err);
		} finally {
			this.busy = false;
		}
	}

	/** Goes on under the model configured now (the change is recorded in the run). */
	async playUnderNewModel(): Promise<void> {
		this.following = true;
		await this.control({ action: 'play', allowModelChange: true });
		if (!this.modelChangeRefused) void this.refresh();
	}

	/** Sets (or with null removes) the run's budget. */
	async setBudget(budget: Budget | null): Promise<void> {
		await this.control({ action: 'budget', budget });
	}

	fail(err: unknown): void {
		if (err instanceof DOMException && err.name === 'AbortError') return;
		this.notice = err instanceof Error ? err.message : String(err);
	}

	// ---------------------------------------------------------------- live updates

	private onEvent(ev: RunEvent): void {
		this.lastEventAt = performance.now();
		switch (ev.type) {
			case 'model':
				this.modelActivity = ev.activity.waitingFor.length > 0 ? ev.activity : null;
				break;
			case 'step': {
				this.modelActivity = null;
				this.frames.put(ev.frame);
				if (ev.usage) this.usage = ev.usage;
				if (ev.markers.length) this.markers = mergeMarkers(this.markers, ev.markers);
				this.advanceHead(ev.step);
				break;
			}
			case 'status': {
				this.statusEvents++;
				this.status = ev.status;
				this.live = ev.live;
				if (!ev.live) this.modelActivity = null;
				if (Number.isFinite(ev.speed)) this.stepsPerSecond = ev.speed;
				this.target = ev.target;
				if (ev.usage) this.usage = ev.usage;
				if (ev.budget !== undefined) this.budget = ev.budget;
				if (ev.pause !== undefined) this.pauseInfo = ev.pause;
				this.advanceHead(ev.steps);
				break;
			}
			case 'error':
				this.notice = ev.message;
				break;
		}
	}

	/** Refreshes what may have been missed while disconnected: the run, its head and markers. */
	async refresh(): Promise<void> {
		const asked = this.statusEvents;
		try {
			const [info, timeline] = await Promise.all([this.api.run(this.id), this.api.timeline(this.id)]);
			this.applyInfo(info, asked);
			this.applyTimeline(timeline);
		} catch (err) {
			this.fail(err);
		}
	}

	applyTimeline(t: Timeline): void {
		this.firstStep = t.firstStep;
		// Live steps may have brought markers newer than this answer.
		this.markers = mergeMarkers(t.markers, this.markers);
		this.advanceHead(t.steps);
	}

	/**
	 * Listens to the run's server-sent events until the returned function is called, reconnecting
	 * with a growing delay when the connection closes.
	 */
	connect(): () => void {
		let source: EventSource | null = null;
		let retry: ReturnType<typeof setTimeout> | null = null;
		let delay = 1000;
		let stopped = false;
		const handle = (e: MessageEvent) => {
			try {
				this.onEvent(JSON.parse(e.data) as RunEvent);
			} catch (err) {
				this.fail(err);
			}
		};
		const open = () => {
			if (stopped) return;
			this.connection = 'connecting';
			source = new EventSource(this.api.eventsUrl(this.id));
			source.onmessage = handle;
			for (const name of ['step', 'status', 'error']) source.addEventListener(name, handle as EventListener);
			source.onopen = () => {
				this.connection = 'open';
				delay = 1000;
				void this.refresh();
			};
			source.onerror = () => {
				if (!source || source.readyState !== EventSource.CLOSED) {
					this.connection = 'retrying';
					return;
				}
				source = null;
				this.connection = 'retrying';
				retry = setTimeout(open, delay);
				delay = Math.min(delay * 2, 15_000);
			};
		};
		open();
		// A running run that has gone quiet (its last status lost with a dropped connection, or the
		// run ended while the page was busy) is asked for again, so the badge never stays stale.
		this.lastEventAt = performance.now();
		const watch = setInterval(() => {
			if (this.status === 'running' && !this.replaying && performance.now() - this.lastEventAt > QUIET_MS) {
				this.lastEventAt = performance.now();
				void this.refresh();
			}
		}, QUIET_MS / 2);
		return () => {
			stopped = true;
			source?.close();
			if (retry) clearTimeout(retry);
			clearInterval(watch);
		};
	}

	// ---------------------------------------------------------------- the inspector

	/** Loads the selected agent at the settled step (cached); stale answers are dropped. */
	async loadDetail(): Promise<void> {
		const agent = this.selectedAgent;
		const step = this.settledStep;
		this.detailAbort?.abort();
		if (!agent) {
			this.detail = null;
			this.detailError = null;
			return;
		}
		const key = `${agent}@${step}`;
		const cached = this.detailCache.get(key);
		if (cached) {
			this.detail = cached;
			this.detailError = null;
			return;
		}
		const abort = new AbortController();
		this.detailAbort = abort;
		this.detailLoading = true;
		try {
			const d = await this.api.agent(this.id, agent, step, abort.signal);
			this.detailCache.set(key, d);
			if (this.detailCache.size > 24) this.detailCache.delete(this.detailCache.keys().next().value as string);
			if (abort.signal.aborted) return;
			this.detail = d;
			this.detailError = null;
		} catch (err) {
			if (abort.signal.aborted) return;
			this.detailError = err instanceof Error ? err.message : String(err);
		} finally {
			if (this.detailAbort === abort) this.detailLoading = false;
		}
	}

	/**
	 * Loads the town's objects at the settled step while they are shown (an object is selected,
	 * or a user set one's state before this step); stale answers are dropped.
	 */
	async loadObjects(): Promise<void> {
		const step = this.settledStep;
		this.objectsAbort?.abort();
		if (!this.selectedObject && !this.objectInputsSoFar) return;
		const cached = this.objectsCache.get(step);
		if (cached) {
			this.objects = cached;
			this.objectsError = null;
			return;
		}
		const abort = new AbortController();
		this.objectsAbort = abort;
		this.objectsLoading = true;
		try {
			const o = await this.api.objects(this.id, step, abort.signal);
			this.objectsCache.set(step, o);
			if (this.objectsCache.size > 24) this.objectsCache.delete(this.objectsCache.keys().next().value as number);
			if (abort.signal.aborted) return;
			this.objects = o;
			this.objectsError = null;
		} catch (err) {
			if (abort.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
			this.objectsError = err instanceof Error ? err.message : String(err);
		} finally {
			if (this.objectsAbort === abort) this.objectsLoading = false;
		}
	}

	dispose(): void {
		this.stopReplay();
		if (this.settleTimer) clearTimeout(this.settleTimer);
		this.detailAbort?.abort();
		this.objectsAbort?.abort();
	}
}

export const [getRunState, setRunState] = createContext<RunState>();
