// Choosing what to compare and what to run with: which of two picked runs is A (the parent, or
// the older one) and the compare page's address; the prompt versions offered by the start form
// and the fork dialog.

import type { RunListing } from '$lib/api/types';
import type { PromptsOverview } from '$lib/api/prompts';

/** The compare page's address (path and query; `step` is a frame). */
export function compareHref(base: string, a: string, b: string, step?: number | null): string {
	const q = new URLSearchParams({ a, b });
	if (step !== undefined && step !== null && Number.isFinite(step)) q.set('step', String(Math.round(step)));
	return `${base}?${q}`;
}

/**
 * The two picked runs as [A, B]: a run and its fork (at any depth) put the ancestor first;
 * otherwise the older run is A. Ties keep the order of picking.
 */
export function compareOrder(runs: readonly Pick<RunListing, 'id' | 'created' | 'parent'>[], picked: readonly [string, string]): [string, string] {
	const [x, y] = picked;
	const byId = new Map(runs.map((r) => [r.id, r]));
	const isAncestor = (older: string, run: string): boolean => {
		let cur = byId.get(run);
		for (let depth = 0; cur?.parent && depth < 100; depth++) {
			if (cur.parent.run === older) return true;
			cur = byId.get(cur.parent.run);
		}
		return false;
	};
	if (isAncestor(y, x)) return [y, x];
	if (isAncestor(x, y)) return [x, y];
	const tx = Date.parse(byId.get(x)?.created ?? '');
	const ty = Date.parse(byId.get(y)?.created ?? '');
	if (Number.isFinite(tx) && Number.isFinite(ty) && ty < tx) return [y, x];
	return [x, y];
}

/** Toggles `id` in a pick of at most two runs; a third pick drops the earliest one. */
export function togglePick(picked: readonly string[], id: string, on: boolean): string[] {
	const rest = picked.filter((p) => p !== id);
	if (!on) return rest;
	return [...rest, id].slice(-2);
}

export interface PromptOption {
	/** what goes into StartRunRequest.prompts ('' = leave it out) */
	value: string;
	label: string;
	disabled?: boolean;
}

/** A stored version as the selects show it: labels first, then its message and short id. */
export function versionLabel(v: { version: string; message: string; labels: readonly string[] }): string {
	const labels = v.labels.length ? `${v.labels.join(', ')} · ` : '';
	const message = v.message.trim() || 'no message';
	return `${labels}${message} (${v.version.slice(0, 8)})`;
}

/**
 * The prompt versions a new run may use: the working copy (the default: nothing is sent),
 * then the stored versions, newest first.
 */
export function runPromptOptions(overview: PromptsOverview | null): PromptOption[] {
	const working = overview?.working;
	const state = working ? (working.saved ? `, stored as ${working.version.slice(0, 8)}` : ', unsaved edits') : '';
	return [{ value: '', label: `Working copy (default${state})` }, ...storedOptions(overview)];
}

/**
 * The prompt versions a fork may use. Without a choice a fork keeps its parent's prompts, so
 * that is the default; the working copy can be chosen when its content is a stored version
 * (the server runs stored versions only), and that version says so.
 */
export function forkPromptOptions(overview: PromptsOverview | null): PromptOption[] {
	const out: PromptOption[] = [{ value: '', label: "Parent run's prompts (default)" }];
	const working = overview?.working;
	const stored = storedOptions(overview);
	if (working && !working.saved) {
		out.push({ value: '#working', label: 'Working copy: has unsaved edits; store it as a version first', disabled: true });
	} else if (working) {
		const same = stored.find((o) => o.value === working.version);
		if (same) same.label = `Working copy = ${same.label}`;
		else out.push({ value: working.version, label: `Working copy (${working.version.slice(0, 8)})` });
	}
	return [...out, ...stored];
}

function storedOptions(overview: PromptsOverview | null): PromptOption[] {
	return (overview?.versions ?? []).map((v) => ({ value: v.version, label: versionLabel(v) }));
}

/** The labels naming `version` in the overview (empty when none or unknown). */
export function labelsOf(overview: PromptsOverview | null, version: string): string[] {
	if (!overview) return [];
	return Object.entries(overview.labels)
		.filter(([, v]) => v === version)
		.map(([label]) => label)
		.sort();
}
