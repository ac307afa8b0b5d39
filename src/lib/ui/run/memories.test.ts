import { describe, expect, it } from 'vitest';
import type { MemoryView } from '$lib/api/types';
import { ANY_MEMORY, filterMemories, memorySources, reflectionTree } from './memories';

const SOURCE: Record<string, MemoryView['source']> = { observation: 'observed', reflection: 'reflected', conversation: 'conversation', plan: 'planned', thought: 'seed' };

function mem(index: number, kind: string, description: string, extra: Partial<MemoryView> = {}): MemoryView {
	return { id: `m${index}`, index, kind, source: SOURCE[kind], description, created: index * 1000, step: index, importance: index % 10, lastAccess: index * 1000, ...extra };
}

describe('memory browser', () => {
	const stream = [
		mem(0, 'observation', 'Klaus is reading at the library'),
		mem(1, 'observation', 'the cafe is busy', { importance: 9 }),
		mem(2, 'reflection', 'Klaus loves research', { evidence: ['m0'] }),
		mem(3, 'reflection', 'Klaus is dedicated', { evidence: ['m2', 'm1', 'gone'] }),
		mem(4, 'conversation', 'talked with Maria about the party')
	];

	it('filters by kind, words and creation time, newest first', () => {
		expect(filterMemories(stream, { ...ANY_MEMORY, kind: 'observation' }).map((m) => m.id)).toEqual(['m1', 'm0']);
		expect(filterMemories(stream, { ...ANY_MEMORY, text: 'klaus LIBRARY' }).map((m) => m.id)).toEqual(['m0']);
		expect(filterMemories(stream, { ...ANY_MEMORY, from: 1000, to: 3000 }).map((m) => m.id)).toEqual(['m3', 'm2', 'm1']);
	});

	it('filters by source: a note taken after a conversation is found with the conversations', () => {
		const withNote = [...stream, mem(5, 'thought', 'plans to go to the party', { source: 'conversation', with: 'maria' })];
		expect(filterMemories(withNote, { ...ANY_MEMORY, source: 'conversation' }).map((m) => m.id)).toEqual(['m5', 'm4']);
		expect(filterMemories(withNote, { ...ANY_MEMORY, kind: 'thought', source: 'seed' })).toEqual([]);
		expect(memorySources(withNote)).toEqual(['observed', 'conversation', 'reflected']);
	});

	it('orders by importance or last access', () => {
		expect(filterMemories(stream, { ...ANY_MEMORY, sort: 'importance' })[0].id).toBe('m1');
		expect(filterMemories(stream, { ...ANY_MEMORY, sort: 'access' })[0].id).toBe('m4');
	});

	it('builds reflections into a tree of what they cite', () => {
		const tree = reflectionTree(stream);
		expect(tree.map((n) => n.id)).toEqual(['m3']);
		const [root] = tree;
		expect(root.cites.map((c) => c.id)).toEqual(['m2', 'm1', 'gone']);
		expect(root.cites[0].cites.map((c) => c.id)).toEqual(['m0']);
		expect(root.cites[2].memory).toBeNull();
	});

	it('does not loop on evidence that cites itself', () => {
		const loop = [mem(0, 'reflection', 'a', { evidence: ['m1'] }), mem(1, 'reflection', 'b', { evidence: ['m0'] })];
		// both are cited, so neither is a root
		expect(reflectionTree(loop)).toEqual([]);
		const self = [mem(0, 'reflection', 'x', { evidence: ['m0'] })];
		expect(reflectionTree(self)).toEqual([]);
	});
});
