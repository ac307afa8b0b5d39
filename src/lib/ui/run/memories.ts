// The memory stream browser: filters, orderings, and reflections as a tree of the memories
// they cite (a reflection may cite other reflections).

import type { MemoryView } from '$lib/api/types';
import type { MemorySource } from '$lib/engine/memory';

export type MemorySort = 'newest' | 'oldest' | 'importance' | 'access';

export interface MemoryFilter {
	/** '' for every kind */
	kind: string;
	/** '' for every source */
	source?: string;
	text: string;
	/** game ms bounds on creation; null for open */
	from: number | null;
	to: number | null;
	sort: MemorySort;
}

export const ANY_MEMORY: MemoryFilter = { kind: '', source: '', text: '', from: null, to: null, sort: 'newest' };

export function filterMemories(memories: readonly MemoryView[], f: MemoryFilter): MemoryView[] {
	const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
	const out = memories.filter(
		(m) =>
			(!f.kind || m.kind === f.kind) &&
			(!f.source || m.source === f.source) &&
			(f.from === null || m.created >= f.from) &&
			(f.to === null || m.created <= f.to) &&
			words.every((w) => m.description.toLowerCase().includes(w))
	);
	const order: Record<MemorySort, (a: MemoryView, b: MemoryView) => number> = {
		newest: (a, b) => b.index - a.index,
		oldest: (a, b) => a.index - b.index,
		importance: (a, b) => b.importance - a.importance || b.index - a.index,
		access: (a, b) => b.lastAccess - a.lastAccess || b.index - a.index
	};
	return out.sort(order[f.sort]);
}

export function memoryKinds(memories: readonly MemoryView[]): string[] {
	return [...new Set(memories.map((m) => m.kind))].sort();
}

/** How the memory panel names each source. */
export const SOURCE_TEXT: Record<MemorySource, string> = {
	seed: 'seed',
	observed: 'observed',
	conversation: 'heard in conversation',
	planned: 'planned',
	reflected: 'reflected',
	'inner-voice': 'inner voice',
	interview: 'interview'
};

/** The sources present, in the order of SOURCE_TEXT. */
export function memorySources(memories: readonly MemoryView[]): MemorySource[] {
	const present = new Set(memories.map((m) => m.source));
	return (Object.keys(SOURCE_TEXT) as MemorySource[]).filter((s) => present.has(s));
}

export interface CitationNode {
	id: string;
	/** null when the cited memory is not in the stream given */
	memory: MemoryView | null;
	cites: CitationNode[];
}

/**
 * Reflections with the memories they cite, recursively. The roots are reflections that no
 * other reflection cites, newest first; a memory already on the current branch is not expanded
 * again (evidence never loops in a valid run, but the view must not hang if it did).
 */
export function reflectionTree(memories: readonly MemoryView[], maxDepth = 6): CitationNode[] {
	const byId = new Map(memories.map((m) => [m.id, m]));
	const cited = new Set<string>();
	for (const m of memories) if (m.kind === 'reflection') for (const e of m.evidence ?? []) cited.add(e);
	const build = (id: string, branch: Set<string>, depth: number): CitationNode => {
		const memory = byId.get(id) ?? null;
		const expand = memory && depth < maxDepth && !branch.has(id);
		const next = new Set(branch).add(id);
		return {
			id,
			memory,
			cites: expand ? (memory.evidence ?? []).map((e) => build(e, next, depth + 1)) : []
		};
	};
	return memories
		.filter((m) => m.kind === 'reflection' && !cited.has(m.id))
		.sort((a, b) => b.index - a.index)
		.map((m) => build(m.id, new Set(), 0));
}
