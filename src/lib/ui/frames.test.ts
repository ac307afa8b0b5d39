import { describe, expect, it } from 'vitest';
import type { Frame } from '$lib/api/types';
import type { ConversationRecord } from '$lib/engine/state';
import { FrameStore, mapAgents, speechAt } from './frames';

function frame(step: number, conversations: ConversationRecord[] = []): Frame {
	return { step, time: step * 10_000, agents: [], conversations };
}

/** A loader over steps 0..last that records its requests; `to` is inclusive. */
function loader(last: number) {
	const calls: [number, number][] = [];
	const load = async (from: number, to: number) => {
		calls.push([from, to]);
		const out: Frame[] = [];
		for (let s = from; s <= Math.min(to, last); s++) out.push(frame(s));
		return out;
	};
	return { load, calls };
}

describe('FrameStore', () => {
	it('loads the chunk around a step once and serves its frames from memory', async () => {
		const { load, calls } = loader(999);
		const store = new FrameStore(load, { chunk: 100 });
		store.head = 999;
		await Promise.all([store.ensure(150), store.ensure(199), store.ensure(100)]);
		expect(calls).toEqual([[100, 200]]);
		expect(store.get(150)?.step).toBe(150);
		expect(store.get(199)?.step).toBe(199);
		// step 200 came with the answer but belongs to the next chunk, which is not loaded
		expect(store.has(200)).toBe(false);
		await store.ensure(120);
		expect(calls).toHaveLength(1);
	});

	it('never asks for steps past the head', async () => {
		const { load, calls } = loader(50);
		const store = new FrameStore(load, { chunk: 100 });
		store.head = 50;
		await store.ensure(80);
		expect(calls).toEqual([]);
		await store.ensure(10);
		expect(store.get(50)?.step).toBe(50);
	});

	it('reloads a growing last chunk for steps it did not have', async () => {
		const { load, calls } = loader(50);
		const store = new FrameStore(load, { chunk: 100 });
		store.head = 50;
		await store.ensure(10);
		store.put(frame(52));
		expect(store.get(52)?.step).toBe(52);
		await store.ensure(52);
		expect(calls).toHaveLength(1);
		// 51 never arrived live: the chunk is asked for again
		await store.ensure(51);
		expect(calls).toHaveLength(2);
	});

	it('drops the least recently used chunks past its limit', async () => {
		const { load } = loader(999);
		const store = new FrameStore(load, { chunk: 10, maxChunks: 2 });
		store.head = 999;
		await store.ensure(5);
		await store.ensure(15);
		store.get(5); // chunk 0 is now used more recently than chunk 1
		await store.ensure(25);
		expect(store.has(5)).toBe(true);
		expect(store.has(15)).toBe(false);
		expect(store.has(25)).toBe(true);
	});

	it('prefetches nearest chunks first', async () => {
		const { load, calls } = loader(999);
		const store = new FrameStore(load, { chunk: 100 });
		store.head = 999;
		await store.prefetch(450, 0, 999, 4);
		expect(calls.map(([from]) => from)).toEqual([400, 500, 300, 600]);
	});

	it('reports loaded steps as merged ranges', async () => {
		const { load } = loader(999);
		const store = new FrameStore(load, { chunk: 10 });
		store.head = 999;
		await store.ensure(0);
		await store.ensure(15);
		await store.ensure(45);
		store.put(frame(60));
		expect(store.loadedRanges()).toEqual([
			[0, 19],
			[40, 49],
			[60, 60]
		]);
	});

	it('finds the nearest loaded frame and tells listeners about arrivals', async () => {
		const { load } = loader(999);
		const store = new FrameStore(load, { chunk: 10 });
		store.head = 999;
		let told = 0;
		store.subscribe(() => told++);
		await store.ensure(3);
		expect(told).toBe(1);
		expect(store.nearest(500)?.step).toBe(9);
		expect(store.nearest(5)?.step).toBe(5);
	});
});

/** A and B talk from step 10, one line revealed per step. */
const conv: ConversationRecord = {
	id: 'c1',
	step: 10,
	time: 0,
	agents: ['a', 'b'],
	address: 'Cafe:cafe',
	lines: [
		{ speaker: 'a', text: 'Hi B!' },
		{ speaker: 'b', text: 'Hello A.' },
		{ speaker: 'a', text: 'Party on Friday?' }
	]
};

describe('speechAt', () => {
	it('reveals one line per step and keeps each speaker on their latest line', () => {
		expect(speechAt(conv, 'a', 10)).toBe('Hi B!');
		expect(speechAt(conv, 'b', 10)).toBeUndefined();
		expect(speechAt(conv, 'b', 11)).toBe('Hello A.');
		expect(speechAt(conv, 'a', 12)).toBe('Party on Friday?');
		expect(speechAt(conv, 'a', 40)).toBe('Party on Friday?');
		expect(speechAt(conv, 'a', 9)).toBeUndefined();
	});

	it('finds the conversation of an agent at a step', () => {
		const store = new FrameStore(async () => []);
		store.put(frame(10, [conv]));
		expect(store.conversationOf('b', 12)?.id).toBe('c1');
		expect(store.conversationOf('b', 9)).toBeUndefined();
		expect(store.conversationOf('c', 12)).toBeUndefined();
	});
});

describe('mapAgents', () => {
	const at = (step: number): Frame => ({
		step,
		time: step * 10_000,
		agents: [
			{ id: 'a', name: 'Ann Lee', x: 1, y: 2, activity: 'talking', emoji: '💬', address: 'Cafe:cafe', chatWith: 'b', path: [[1, 3]] },
			{ id: 'b', name: 'Bob', x: 2, y: 2, activity: 'talking', emoji: '💬', address: 'Cafe:cafe', chatWith: 'a', path: [] },
			{ id: 'c', name: 'Cy Zed', x: 5, y: 5, activity: 'reading', emoji: '📖', address: 'Cafe:cafe', chatWith: '', path: [] }
		],
		conversations: step === 10 ? [conv] : []
	});

	it("draws each agent with its first name and, while talking, the conversation's line of the step", () => {
		const store = new FrameStore(async () => []);
		const agents = mapAgents(at(10), store);
		expect(agents[0]).toEqual({ id: 'a', name: 'Ann Lee', firstName: 'Ann', x: 1, y: 2, emoji: '💬', speech: 'Hi B!' });
		expect(agents[1].speech).toBeUndefined();
		expect(agents[2]).not.toHaveProperty('path');
		// a conversation that began at an earlier step comes from the store
		store.put(at(10));
		expect(mapAgents(at(11), store).map((a) => a.speech)).toEqual(['Hi B!', 'Hello A.', undefined]);
		expect(mapAgents(at(11), new FrameStore(async () => [])).map((a) => a.speech)).toEqual([undefined, undefined, undefined]);
	});

	it('adds the tiles left to walk when asked', () => {
		expect(mapAgents(at(10), new FrameStore(async () => []), true).map((a) => a.path)).toEqual([[[1, 3]], [], []]);
	});
});
