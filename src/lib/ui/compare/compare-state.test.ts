// The compare view's state: both maps follow one frame inside the compared range, each run's
// frames come from its own frames API (only the chunk on screen, the latest wish winning
// while a request is out), the selection and viewport are shared, and the divergence and
// difference buttons land on the right frames.

import { describe, expect, it, vi } from 'vitest';
import type { AgentTimeline, RunDiff } from '$lib/api/diff';
import type { Frame } from '$lib/api/types';
import type { Api } from '$lib/shared/api';
import { TEST_START as START, testRunInfo } from '../testing';
import type { WorldView } from '$lib/shared/world-view';
import { CompareState, FRAME_CHUNK } from './compare-state.svelte';

const info = (id: string, steps: number) => testRunInfo(steps, { id });

/** Run "b" puts Ann one tile further right than run "a" does. */
function frame(run: string, step: number): Frame {
	return {
		step,
		time: START + step * 10_000,
		agents: [
			{ id: 'ann', name: 'Ann Lee', x: run === 'b' ? 2 : 1, y: 1, activity: 'walking', emoji: '🚶', address: 'A:b', chatWith: '', path: [] },
			{ id: 'bob', name: 'Bob Ray', x: 3, y: 3, activity: 'reading', emoji: '📖', address: 'A:c', chatWith: '', path: [] }
		],
		conversations: []
	};
}

function fakeApi() {
	const gates: (() => void)[] = [];
	let hold = false;
	const frames = vi.fn(async (id: string, from: number, to: number) => {
		if (hold) await new Promise<void>((r) => gates.push(r));
		const out: Frame[] = [];
		for (let s = from; s <= to; s++) out.push(frame(id, s));
		return out;
	});
	return {
		api: { frames } as unknown as Api,
		frames,
		hold(on: boolean) {
			hold = on;
		},
		release() {
			for (const g of gates.splice(0)) g();
		}
	};
}

const world = { id: 'town', name: 'Town', map: { width: 10, height: 8, tileWidth: 32, tileHeight: 32 } } as unknown as WorldView;

const lane = (id: string, differs: [number, number][]): AgentTimeline => ({
	id,
	a: [{ from: 1, to: 400, activity: 'walking', address: 'A:b', emoji: '' }],
	b: null,
	differs
});

function diff(extra: RunDiff['differences'] = []): RunDiff {
	const side = (id: string) => ({
		id,
		world: 'town',
		worldName: 'Town',
		seed: 1,
		model: 'offline',
		promptSet: { version: 'abc', templates: {} },
		settings: {} as RunDiff['a']['settings'],
		ablate: {} as RunDiff['a']['ablate'],
		overrides: [],
		parent: null,
		firstStep: 0,
		steps: 400,
		status: 'done'
	});
	return {
		a: side('a'),
		b: side('b'),
		changes: [],
		steps: { start: 0, end: 400 },
		identical: false,
		verdict: { kind: 'behaviour', title: 'Behaviour differs', detail: '2 agents of 2 move or act differently.' },
		differences: [
			{
				kind: 'moves',
				count: 11,
				agents: ['ann', 'bob'],
				frames: [
					[120, 125],
					[200, 204]
				]
			},
			...extra
		],
		firstDivergence: { step: 119, frame: 120, reason: 'answer', agent: 'ann', template: 'react', callId: '119/ann/2' },
		agents: [
			{ id: 'ann', name: 'Ann Lee', differingSteps: 5, firstDifferentStep: 120, differences: [{ kind: 'moves', count: 5, first: 120 }], a: { placesVisited: 1, conversations: 0, reflections: 0 }, b: { placesVisited: 1, conversations: 0, reflections: 0 } },
			{ id: 'bob', name: 'Bob Ray', differingSteps: 9, firstDifferentStep: 200, differences: [{ kind: 'moves', count: 9, first: 200 }], a: { placesVisited: 1, conversations: 0, reflections: 0 }, b: { placesVisited: 1, conversations: 0, reflections: 0 } }
		],
		timeline: {
			from: 1,
			to: 400,
			agents: [
				lane('ann', [[120, 124]]),
				lane('bob', [
					[122, 125],
					[200, 204]
				])
			]
		},
		conversations: { onlyA: [], onlyB: [], onlyATotal: 0, onlyBTotal: 0, both: 0 },
		memories: { step: 400, source: 'test', agents: [] },
		summary: { a: { places: 1, agentPlaces: 2, conversations: 0, reflections: 0, memories: 0 }, b: { places: 1, agentPlaces: 2, conversations: 0, reflections: 0, memories: 0 }, facts: [] },
		failsafe: []
	};
}

function make(initial: number, extra: RunDiff['differences'] = []) {
	const fake = fakeApi();
	const cmp = new CompareState(diff(extra), { info: info('a', 400), world }, { info: info('b', 400), world }, initial, fake.api);
	return { cmp, ...fake };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('compare state', () => {
	it('starts inside the compared range and draws each run from its own frames', async () => {
		const { cmp, frames } = make(9999);
		expect(cmp.step).toBe(400);
		cmp.load();
		await settle();
		await settle();
		expect(frames.mock.calls.map((c) => c[0]).sort()).toEqual(['a', 'b']);
		// only the chunk holding the frame, clipped to the run's last frame
		for (const [, from, to] of frames.mock.calls) {
			expect(from).toBe(400);
			expect(to).toBe(400);
		}
		expect(cmp.a.drawnStep).toBe(400);
		expect(cmp.a.agents.find((x) => x.id === 'ann')?.x).toBe(1);
		expect(cmp.b.agents.find((x) => x.id === 'ann')?.x).toBe(2);
		expect(cmp.framesReady).toBe(true);
	});

	it('moves both maps with one seek, clamped to the range', async () => {
		const { cmp } = make(0);
		cmp.seek(-50);
		expect(cmp.step).toBe(0);
		cmp.seek(130);
		await settle();
		await settle();
		expect(cmp.a.drawnStep).toBe(130);
		expect(cmp.b.drawnStep).toBe(130);
		expect(cmp.a.loading).toBe(false);
	});

	it('keeps only the latest wish while a request is out', async () => {
		const { cmp, frames, hold, release } = make(0);
		hold(true);
		cmp.seek(10);
		cmp.seek(3 * FRAME_CHUNK + 5);
		cmp.seek(6 * FRAME_CHUNK + 5);
		expect(frames).toHaveBeenCalledTimes(2);
		expect(cmp.a.loading).toBe(true);
		expect(cmp.framesReady).toBe(false);
		hold(false);
		release();
		for (let i = 0; i < 6; i++) await settle();
		const asked = frames.mock.calls.filter((c) => c[0] === 'a').map((c) => c[1]);
		expect(asked).toEqual([0, 6 * FRAME_CHUNK]);
		expect(cmp.a.drawnStep).toBe(6 * FRAME_CHUNK + 5);
	});

	it('goes to the divergence and from difference to difference', () => {
		const { cmp } = make(0);
		cmp.goToDivergence();
		expect(cmp.step).toBe(120);
		expect(cmp.differing).toEqual([
			[120, 125],
			[200, 204]
		]);
		expect(cmp.adjacentDifference(1)).toBe(200);
		expect(cmp.adjacentDifference(-1)).toBeNull();
		cmp.seek(300);
		expect(cmp.adjacentDifference(-1)).toBe(200);
	});

	it('steps through every kind of difference, not only moves: reflections, conversations, memories, calls', () => {
		// a reflection inside a stretch where agents move differently, a conversation, memories and calls after it
		const { cmp } = make(0, [
			{ kind: 'conversations', count: 1, agents: ['ann', 'bob'], frames: [[260, 260]] },
			{ kind: 'memories', count: 2, agents: ['bob'], frames: [[300, 300]] },
			{ kind: 'reflections', count: 3, agents: ['ann'], frames: [[122, 122]] },
			{
				kind: 'calls',
				count: 4,
				agents: ['ann'],
				frames: [
					[118, 119],
					[350, 350]
				]
			}
		]);
		const visited: number[] = [];
		for (let next = cmp.adjacentDifference(1); next !== null; next = cmp.adjacentDifference(1)) {
			cmp.seek(next);
			visited.push(cmp.step);
		}
		expect(visited).toEqual([118, 120, 122, 200, 260, 300, 350]);
		expect(cmp.adjacentDifference(-1)).toBe(300);
		cmp.seek(122);
		expect(cmp.kindsHere).toEqual(['moves', 'reflections']);
		cmp.seek(119);
		expect(cmp.kindsHere).toEqual(['calls']);
		cmp.seek(140);
		expect(cmp.kindsHere).toEqual([]);
	});

	it('steps to reflections when no agent moves differently', () => {
		const d = diff();
		d.differences = [{ kind: 'reflections', count: 12, agents: ['bob'], frames: [[291, 291]] }];
		d.timeline.agents = [lane('ann', []), lane('bob', [])];
		const cmp = new CompareState(d, { info: info('a', 400), world }, { info: info('b', 400), world }, 0, fakeApi().api);
		expect(cmp.differing).toEqual([]);
		expect(cmp.adjacentDifference(1)).toBe(291);
		cmp.seek(291);
		expect(cmp.adjacentDifference(1)).toBeNull();
		expect(cmp.adjacentDifference(-1)).toBeNull();
	});

	it('lists the agents that differ most first and shares the selection and viewport', () => {
		const { cmp } = make(0);
		expect(cmp.agents.map((x) => x.id)).toEqual(['bob', 'ann']);
		cmp.a.select('bob');
		expect(cmp.b.selectedAgent).toBe('bob');
		cmp.b.showZones = true;
		expect(cmp.a.showZones).toBe(true);
		expect(cmp.a.viewport).toBe(cmp.b.viewport);
		cmp.viewport.resize(400, 300);
		cmp.a.fitMap();
		expect(cmp.viewport.scale).toBeCloseTo(Math.min((400 - 32) / 320, (300 - 32) / 256));
	});

	it('tells the time of a frame on run A\'s calendar and the name of an agent', () => {
		const { cmp } = make(0);
		expect(cmp.timeAt(360)).toBe(START + 3_600_000);
		expect(cmp.nameOf('ann')).toBe('Ann Lee');
		expect(cmp.nameOf('zed')).toBe('zed');
	});
});
