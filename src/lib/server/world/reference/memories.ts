// A reference memory stream (nodes.json) in the engine's terms: events are observations, chats
// conversations, thoughts plans (the day's plan, "This is X's plan for ..."), notes taken after a
// conversation (thoughts citing only chats: `with` the other party), reflections (thoughts citing
// other memories) or plain thoughts. Importance is the node's poignancy (1..10).

import type { MemoryKind, MemorySource } from '../../../engine/memory';
import type { RefNode } from './simulation';

export interface ImportedMemory {
	kind: MemoryKind;
	source: MemorySource;
	description: string;
	/** game ms */
	created: number;
	importance: number;
	/** positions in the same list of the memories a reflection cites */
	evidence: number[];
	/** the other party of a conversation (a persona name) */
	with?: string;
	node: RefNode;
}

/** The other party of a chat node: its object, else the first speaker who is not `self`. */
function chatPartner(n: RefNode, self: string): string | undefined {
	if (n.object && n.object !== self && !n.object.includes(':')) return n.object;
	return n.lines.find(([speaker]) => speaker !== self)?.[0];
}

/** The memories of one persona (`self` is its name), oldest first; `nodes` as readNodes gives them. */
export function memoriesOf(nodes: readonly RefNode[], self: string, start: number): ImportedMemory[] {
	const index = new Map(nodes.map((n, i) => [n.key, i]));
	return nodes.map((n) => {
		const evidence = n.evidence.map((e) => index.get(e)).filter((i): i is number => i !== undefined && nodes[i] !== n);
		const base = { description: n.description, created: n.created, importance: Math.min(10, Math.max(1, Math.round(n.poignancy))), evidence: [] as number[], node: n };
		if (n.type === 'event') return { ...base, kind: 'observation', source: 'observed' };
		if (n.type === 'chat') {
			const other = chatPartner(n, self);
			return { ...base, kind: 'conversation', source: 'conversation', ...(other ? { with: other } : {}) };
		}
		const cited = evidence.map((i) => nodes[i]);
		if (cited.length && cited.every((c) => c.type === 'chat')) {
			const other = chatPartner(cited[cited.length - 1], self);
			return { ...base, kind: 'thought', source: 'conversation', evidence, ...(other ? { with: other } : {}) };
		}
		if (n.predicate === 'plan' && cited.length === 0) return { ...base, kind: 'plan', source: 'planned' };
		if (cited.length) return { ...base, kind: 'reflection', source: 'reflected', evidence };
		return { ...base, kind: 'thought', source: n.created <= start ? 'seed' : 'inner-voice' };
	});
}
