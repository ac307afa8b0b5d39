// Where the user is in a run, as the page address holds it: /runs/<id>?step=N&agent=ID&tab=...
// so a reload (or a shared link) brings back the same step, agent and panel.

import type { RetrievalWeights } from '$lib/api/types';

export const TABS = ['agent', 'plan', 'memories', 'reflections', 'spatial', 'chats', 'retrievals', 'calls', 'talk'] as const;
export type Tab = (typeof TABS)[number];

export const TAB_LABELS: Record<Tab, string> = {
	agent: 'Agent',
	plan: 'Plan',
	memories: 'Memories',
	reflections: 'Reflections',
	spatial: 'Spatial',
	chats: 'Chats',
	retrievals: 'Retrievals',
	calls: 'Model calls',
	talk: 'Talk'
};

export interface Place {
	/** null: follow the newest step */
	step: number | null;
	agent: string | null;
	tab: Tab;
	/** open retrieval trace */
	trace: string | null;
	/** weights to re-score the open retrieval with */
	weights: RetrievalWeights | null;
}

export function isTab(value: string | null): value is Tab {
	return value !== null && (TABS as readonly string[]).includes(value);
}

/** `r,i,v` (three non-negative numbers) or null. */
export function parseWeights(text: string | null): RetrievalWeights | null {
	if (!text) return null;
	const parts = text.split(',').map((p) => Number(p.trim()));
	if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n) || n < 0)) return null;
	return { recency: parts[0], importance: parts[1], relevance: parts[2] };
}

export function readPlace(params: URLSearchParams): Place {
	const stepText = params.get('step');
	const step = stepText !== null && /^\d+$/.test(stepText) ? Number(stepText) : null;
	const tab = params.get('tab');
	return {
		step,
		agent: params.get('agent') || null,
		tab: isTab(tab) ? tab : 'agent',
		trace: params.get('trace') || null,
		weights: parseWeights(params.get('weights'))
	};
}

/** The query string for a place; parameters at their defaults are left out. */
export function placeQuery(place: Place): string {
	const q = new URLSearchParams();
	if (place.step !== null) q.set('step', String(place.step));
	if (place.agent) q.set('agent', place.agent);
	if (place.tab !== 'agent') q.set('tab', place.tab);
	if (place.trace) q.set('trace', place.trace);
	if (place.weights) q.set('weights', `${place.weights.recency},${place.weights.importance},${place.weights.relevance}`);
	const s = q.toString();
	return s ? `?${s}` : '';
}
