// Timeline markers (conversations, reflections, user inputs, fail-safes, ...) grouped into
// columns of the timeline strip, and found by step for the "next/previous event" buttons.

import type { Marker } from '$lib/api/types';

export type MarkerKind = Marker['kind'];

export const MARKER_KINDS: readonly MarkerKind[] = ['conversation', 'reflection', 'input', 'failsafe', 'reaction', 'plan'];

/** Shown on the timeline by default: the events worth stopping at. */
export const DEFAULT_KINDS: readonly MarkerKind[] = ['conversation', 'reflection', 'input', 'failsafe'];

export const MARKER_LABELS: Record<MarkerKind, string> = {
	conversation: 'Conversations',
	reflection: 'Reflections',
	input: 'User inputs',
	failsafe: 'Fail-safes',
	reaction: 'Reactions',
	plan: 'Plans'
};

export const MARKER_COLORS: Record<MarkerKind, string> = {
	conversation: '#2563eb',
	reflection: '#9333ea',
	input: '#059669',
	failsafe: '#dc2626',
	reaction: '#d97706',
	plan: '#64748b'
};

export interface MarkerBucket {
	kind: MarkerKind;
	/** column index, 0..columns-1 */
	column: number;
	/** first step in the column (where a click jumps) */
	step: number;
	count: number;
	/** a readable summary for a tooltip */
	title: string;
}

/** Groups markers of `kinds` into `columns` equal slices of [first, last]. */
export function bucketMarkers(
	markers: readonly Marker[],
	first: number,
	last: number,
	columns: number,
	kinds: readonly MarkerKind[]
): MarkerBucket[] {
	const span = Math.max(1, last - first);
	const cols = Math.max(1, Math.floor(columns));
	const buckets = new Map<string, MarkerBucket & { labels: string[] }>();
	for (const m of markers) {
		if (!kinds.includes(m.kind) || m.step < first || m.step > last) continue;
		const column = Math.min(cols - 1, Math.floor(((m.step - first) / span) * cols));
		const key = `${m.kind}:${column}`;
		let b = buckets.get(key);
		if (!b) {
			b = { kind: m.kind, column, step: m.step, count: 0, title: '', labels: [] };
			buckets.set(key, b);
		}
		b.count++;
		b.step = Math.min(b.step, m.step);
		if (b.labels.length < 3) b.labels.push(`step ${m.step}: ${m.label}`);
	}
	return [...buckets.values()]
		.map(({ labels, ...b }) => ({
			...b,
			title: labels.join('\n') + (b.count > labels.length ? `\n… and ${b.count - labels.length} more` : '')
		}))
		.sort((a, b) => a.column - b.column || MARKER_KINDS.indexOf(a.kind) - MARKER_KINDS.indexOf(b.kind));
}

/** The step of the nearest marker of `kinds` strictly after (dir 1) or before (dir -1) `step`. */
export function adjacentMarker(
	markers: readonly Marker[],
	step: number,
	dir: 1 | -1,
	kinds: readonly MarkerKind[]
): Marker | null {
	let best: Marker | null = null;
	for (const m of markers) {
		if (!kinds.includes(m.kind)) continue;
		if (dir === 1 ? m.step <= step : m.step >= step) continue;
		if (!best || (dir === 1 ? m.step < best.step : m.step > best.step)) best = m;
	}
	return best;
}

/** `existing` plus those of `incoming` it lacks (a timeline fetched meanwhile may hold them). */
export function mergeMarkers(existing: readonly Marker[], incoming: readonly Marker[]): Marker[] {
	const key = (m: Marker) => `${m.step}|${m.kind}|${m.label}|${m.agents.join(',')}`;
	const known = new Set(existing.map(key));
	const fresh = incoming.filter((m) => !known.has(key(m)));
	return fresh.length ? [...existing, ...fresh] : [...existing];
}
