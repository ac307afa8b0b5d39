// Words and figures of the compare view: set-up differences, divergence reasons, fail-safe
// rates and A/B deltas.

import type { AgentDifference, DifferenceKind, DivergenceReason, FailsafeRow, RunChange } from '$lib/api/diff';

export const CHANGE_LABELS: Record<RunChange['kind'], string> = {
	world: 'World',
	seed: 'Seed',
	model: 'Model',
	'prompt-set': 'Prompt set',
	template: 'Template',
	setting: 'Setting',
	override: 'Override',
	ablation: 'Ablation',
	parent: 'Fork of',
	'world-file': 'World file',
	input: 'Input at step'
};

export const REASON_TEXT: Record<DivergenceReason, string> = {
	prompt: 'the prompt differs (template or rendered text)',
	answer: 'the same prompt got another answer',
	call: 'the runs made different calls here (another template)',
	missing: 'a model call made in one run only',
	state: 'the step recorded differs before any model call does'
};

/** A change's value for a table cell: "—" for none. */
export function changeValue(value: string | null): string {
	return value === null || value === '' ? '—' : value;
}

/** "12.5%" (one decimal under 10%, none above); "—" without calls. */
export function rateText(side: { calls: number; rate: number }): string {
	if (side.calls === 0) return '—';
	const pct = side.rate * 100;
	return `${pct === 0 || pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** true when the two runs' fail-safe rates of a template differ (templates called by one run only count). */
export function rateDiffers(row: FailsafeRow): boolean {
	if (row.a.calls === 0 || row.b.calls === 0) return row.a.failsafes + row.b.failsafes > 0;
	return Math.abs(row.a.rate - row.b.rate) > 1e-12;
}

/** "+3", "−2", "0" */
export function delta(a: number, b: number): string {
	const d = b - a;
	if (d === 0) return '0';
	return d > 0 ? `+${d}` : `−${-d}`;
}

/** "7 frames" / "1 frame" */
export function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A set-up difference as the header lists it: `override` when a KEY=VALUE override made it. */
export type ShownChange = RunChange & { override?: true };

/**
 * Set-up differences with each setting that an override changed listed once: the setting's row
 * marked as an override (the override's own row, the same key and values, is dropped).
 */
export function mergeOverrides(changes: readonly RunChange[]): ShownChange[] {
	const settings = new Map(changes.filter((c) => c.kind === 'setting').map((c) => [c.key, c]));
	const merged = new Set<string>();
	for (const c of changes) if (c.kind === 'override' && settings.has(c.key)) merged.add(c.key);
	return changes.flatMap((c): ShownChange[] => {
		if (c.kind === 'override' && merged.has(c.key)) return [];
		if (c.kind === 'setting' && merged.has(c.key)) return [{ ...c, override: true }];
		return [c];
	});
}

/** A kind of difference in a few words, as the timeline and the lanes name it. */
export const KIND_TEXT: Record<DifferenceKind, string> = {
	moves: 'moves',
	reactions: 'reactions',
	conversations: 'conversations',
	memories: 'memories',
	reflections: 'reflections',
	calls: 'model calls'
};

/** "moves, reflections and model calls" */
export function kindList(kinds: readonly DifferenceKind[]): string {
	const words = kinds.map((k) => KIND_TEXT[k]);
	return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * What an agent's lane says of it besides its differing frames: null when nothing of any kind
 * differs ("the same in both runs"), else e.g. "moves the same · reflections (2), model calls (11) differ".
 */
export function agentDifferenceText(differences: readonly AgentDifference[]): string | null {
	if (differences.length === 0) return null;
	const others = differences.filter((d) => d.kind !== 'moves');
	const list = others.map((d) => `${KIND_TEXT[d.kind]} (${d.count.toLocaleString('en-US')})`).join(', ');
	if (others.length === 0) return '';
	const moves = differences.some((d) => d.kind === 'moves');
	return moves ? `${list} differ too` : `moves the same · ${list} differ`;
}
