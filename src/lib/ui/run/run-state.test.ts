import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ControlRequest, Frame, RunInfo } from '$lib/api/types';
import type { Api } from '$lib/shared/api';
import { TEST_START as START, testRunInfo } from '../testing';
import type { WorldView } from '$lib/shared/world-view';
import { readPlace } from './place';
import { QUIET_MS, RunState, SETTLE_MS } from './run-state.svelte';

/** Run r1, paused at `steps` on its way to step 1000. */
const info = (steps: number, extra: Partial<RunInfo> = {}) => testRunInfo(steps, { target: 1000, status: 'paused', live: true, ...extra });

function frame(step: number, chat = false): Frame {
	return {
		step,
		time: START + step * 10_000,
		agents: [
			{ id: 'ann', name: 'Ann Lee', x: step, y: 1, activity: 'walking', emoji: '🚶', address: 'A:b', chatWith: chat ? 'bob' : '', path: [] },
			{ id: 'bob', name: 'Bob Ray', x: 3, y: 3, activity: 'reading', emoji: '📖', address: 'A:c', chatWith: chat ? 'ann' : '', path: [] }
		],
		conversations: chat
			? [{ id: 'c1', step, time: 0, agents: ['ann', 'bob'], address: 'A:b', lines: [{ speaker: 'ann', text: 'Hello Bob' }] }]
			: []
	};
}

const world = { id: 'town', name: 'Town', map: { width: 10, height: 10, tileWidth: 32, tileHeight: 32 } } as unknown as WorldView;

/** An API over a recorded run of `head` steps; control calls are recorded. */
function fakeApi(head: number) {
	const controls: ControlRequest[] = [];
	const api = {
		frames: vi.fn(async (_id: string, from: number, to: number) => {
			const out: Frame[] = [];
			for (let s = from; s <= Math.min(to, head); s++) out.push(frame(s, s === 7));
			return out;
		}),
		control: vi.fn(async (_id: string, body: ControlRequest) => {
			controls.push(body);
			return info(head, { status: body.action === 'play' || body.action === 'run' ? 'running' : 'paused' });
		}),
		agent: vi.fn(async () => {
			throw new Error('not used');
		}),
		eventsUrl: () => '/events'
	} as unknown as Api;
	return { api, controls };
}

describe('RunState', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('opens at the place in the address, or at the newest step', () => {
		const { api } = fakeApi(50);
		const at = new RunState(world, info(50), readPlace(new URLSearchParams('step=20&agent=bob&tab=plan')), api);
		expect([at.step, at.selectedAgent, at.tab, at.following]).toEqual([20, 'bob', 'plan', false]);
		const fresh = new RunState(world, info(50), readPlace(new URLSearchParams('agent=nobody')), api);
		expect([fresh.step, fresh.selectedAgent, fresh.following]).toEqual([50, null, true]);
		expect(at.query).toBe('?step=20&agent=bob&tab=plan');
	});

	it('seeks within the run, follows again at the newest step, and settles after a pause', async () => {
		const { api } = fakeApi(50);
		const run = new RunState(world, info(50), readPlace(new URLSearchParams('step=10')), api);
		run.seek(-5);
		expect(run.step).toBe(0);
		run.seek(500);
		expect([run.step, run.following]).toEqual([50, true]);
		run.seek(30);
		expect(run.following).toBe(false);
		expect(run.settledStep).toBe(10);
		run.setScrubbing(true);
		await vi.advanceTimersByTimeAsync(SETTLE_MS * 3);
		expect(run.settledStep).toBe(10); // never while the thumb is held
		run.setScrubbing(false);
		await vi.advanceTimersByTimeAsync(SETTLE_MS + 10);
		expect(run.settledStep).toBe(30);
	});

	it('draws the frame of the step, with speech bubbles while agents talk', async () => {
		const { api } = fakeApi(50);
		const run = new RunState(world, info(50), readPlace(new URLSearchParams('step=7')), api);
		await run.prefetch();
		expect(run.drawnStep).toBe(7);
		const ann = run.agents.find((a) => a.id === 'ann');
		expect(ann).toMatchObject({ x: 7, firstName: 'Ann', emoji: '🚶', speech: 'Hello Bob' });
		expect(run.agents.find((a) => a.id === 'bob')?.speech).toBeUndefined();
		run.seek(9);
		expect(run.agents.find((a) => a.id === 'ann')?.speech).toBeUndefined();
	});

	it('steps through the recording, and asks the server for steps past it', async () => {
		const { api, controls } = fakeApi(50);
		const run = new RunState(world, info(50), readPlace(new URLSearchParams('step=48')), api);
		await run.stepForward();
		expect(run.step).toBe(49);
		expect(controls).toEqual([]);
		await run.stepForward();
		await run.stepForward();
		expect(controls).toEqual([{ action: 'step' }]);
		run.stepBack();
		expect(run.step).toBe(49);
	});

	it('plays the recording from the cursor, then carries on live', async () => {
		const { api, controls } = fakeApi(50);
		const run = new RunState(world, info(50), readPlace(new URLSearchParams('step=45')), api);
		await run.setSpeed(10);
		controls.length = 0;
		await run.play();
		expect(run.replaying).toBe(true);
		await vi.advanceTimersByTimeAsync(250);
		expect(run.step).toBeGreaterThan(45);
		expect(run.step).toBeLessThan(50);
		await vi.advanceTimersByTimeAsync(1000);
		expect(run.step).toBe(50);
		expect(run.replaying).toBe(false);
		expect(controls).toEqual([{ action: 'play' }]);
		expect(run.status).toBe('running');
	});

	it('pauses a replay without asking the server when the run is not stepping', async () => {
		const { api, controls } = fakeApi(50);
		const run = new RunState(world, info(50, { live: false }), readPlace(new URLSearchParams('step=10')), api);
		await run.play();
		await vi.advanceTimersByTimeAsync(200);
		await run.pause();
		const at = run.step;
		await vi.advanceTimersByTimeAsync(1000);
		expect(run.step).toBe(at);
		expect(controls).toEqual([]);
	});

	it('goes to a recorded game time by seeking, and to a later one by running up to it', async () => {
		const { api, controls } = fakeApi(50);
		const run = new RunState(world, info(50), readPlace(new URLSearchParams('step=0')), api);
		await run.goToTime(START + 20 * 10_000);
		expect(run.step).toBe(20);
		await run.goToTime(START + 80 * 10_000);
		expect(controls).toEqual([{ action: 'run', steps: 30 }]);
		await run.goToTime(START - 60_000);
		expect(run.notice).toMatch(/before the run began/);
	});

	it('shows "done" when the run ends, even when an older answer arrives after the last status event', async () => {
		const { api } = fakeApi(50);
		let answer: (i: RunInfo) => void = () => {};
		Object.assign(api, {
			run: vi.fn(() => new Promise<RunInfo>((r) => (answer = r))),
			timeline: vi.fn(async () => ({ steps: 50, firstStep: 0, markers: [] }))
		});
		const run = new RunState(world, info(50, { status: 'running' }), readPlace(new URLSearchParams('')), api);
		const refreshing = run.refresh();
		// the run ends: the server says so over the event stream...
		(run as unknown as { onEvent(e: unknown): void }).onEvent({ type: 'status', status: 'done', live: false, speed: 0, steps: 50, target: 50 });
		// ...and then the answer asked for before it comes in, saying "running"
		answer(info(50, { status: 'running', live: false }));
		await refreshing;
		expect(run.status).toBe('done');
		expect(run.playing).toBe(false);
	});

	it('shows what a waiting step waits for until the step arrives', () => {
		const { api } = fakeApi(50);
		const run = new RunState(world, info(50, { status: 'running' }), readPlace(new URLSearchParams('')), api);
		const send = (e: unknown) => (run as unknown as { onEvent(e: unknown): void }).onEvent(e);
		const activity = { inFlight: 12, inFlightAhead: 9, queued: 3, waitingFor: [{ template: 'react', agent: 'a' }] };
		send({ type: 'model', step: 50, activity });
		expect(run.modelActivity).toEqual(activity);
		// calls in flight without a step waiting for them show nothing
		send({ type: 'model', step: 50, activity: { ...activity, waitingFor: [] } });
		expect(run.modelActivity).toBeNull();
		send({ type: 'model', step: 50, activity });
		send({ type: 'step', step: 51, frame: { step: 51, time: 0, agents: [], conversations: [] }, markers: [] });
		expect(run.modelActivity).toBeNull();
	});

	it('asks a running run that went quiet for its status', async () => {
		const { api } = fakeApi(50);
		const run = new RunState(world, info(50, { status: 'running' }), readPlace(new URLSearchParams('')), api);
		const asked = vi.fn(async () => info(50, { status: 'done', live: false }));
		Object.assign(api, { run: asked, timeline: vi.fn(async () => ({ steps: 50, firstStep: 0, markers: [] })) });
		class QuietSource {
			readyState = 0;
			onmessage = null;
			onopen = null;
			onerror = null;
			addEventListener() {}
			close() {}
		}
		vi.stubGlobal('EventSource', QuietSource);
		try {
			const stop = run.connect();
			await vi.advanceTimersByTimeAsync(QUIET_MS * 2);
			expect(asked).toHaveBeenCalled();
			expect(run.status).toBe('done');
			stop();
		} finally {
			vi.unstubAllGlobals();
		}
	});
});
