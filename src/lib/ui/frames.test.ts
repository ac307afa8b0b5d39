import { describe, expect, it } from 'vitest';
import type { Frame } from '$lib/api-types';
import type { ConversationRecord } from '$lib/engine/state';
import { FrameStore, speechAt } from './frames';

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

describe('speechAt', () => {
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
