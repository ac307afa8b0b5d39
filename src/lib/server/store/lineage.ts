// A run's history across forks: which run's own files hold which steps. A fork holds the
// steps from its fork step on; before that, its parent (up to the fork step), and so on up
// to the root. This is the one place that walks `parent` links, and the one loop check.

import { ConflictError, NotFoundError } from '../errors';

/** What the walk needs of a run: where it starts, its parent, how far it got. */
export interface LineageNode {
	firstStep: number;
	parent: { run: string; step: number } | null;
	/** steps committed: the state after this many steps is the run's latest */
	committed: number;
}

/**
 * Steps [from, to) of a lineage that `run`'s own files hold: its commit lines of those steps,
 * and the states after `from` .. `to` steps (the state after `from` steps is its first snapshot
 * for a fork).
 */
export interface Span {
	run: string;
	from: number;
	to: number;
}

/**
 * The spans of a run's lineage, root first, up to `until` steps (default: as far as the run
 * got). Ancestors' empty spans are left out (a fork at its parent's first step). Throws on a
 * parent that does not exist and on parents forming a loop.
 */
export function lineageSpans(id: string, node: (id: string) => LineageNode | null, until = Infinity): Span[] {
	const spans: Span[] = [];
	const seen = new Set<string>();
	let run = id;
	let to = until;
	let child: string | null = null;
	for (;;) {
		if (seen.has(run)) throw new ConflictError(`run ${id}: run ${run} is its own ancestor (run.json parents form a loop)`);
		seen.add(run);
		const n = node(run);
		if (!n) throw child ? new ConflictError(`run ${child} is a fork of ${run}, which is not among the runs`) : new NotFoundError(`no run "${run}"`);
		const span = { run, from: n.firstStep, to: Math.min(to, n.committed) };
		// the run asked about keeps its span when it has no steps of its own yet (its first state)
		if (span.to > span.from || (child === null && span.to === span.from)) spans.unshift(span);
		if (!n.parent) break;
		child = run;
		to = Math.min(to, n.parent.step);
		run = n.parent.run;
	}
	return spans;
}

/** The span whose run holds the commit line of step `s` (the step from state s to s + 1). */
export function spanOfStep<T extends { from: number; to: number }>(spans: readonly T[], s: number): T | undefined {
	for (const span of spans) if (s >= span.from && s < span.to) return span;
	return undefined;
}

/**
 * The run whose own files hold the state after `step` steps: the last span starting at or
 * before it (a state at a fork step is the fork's first snapshot).
 */
export function spanOfState<T extends { from: number }>(spans: readonly T[], step: number): T | undefined {
	for (let i = spans.length - 1; i >= 0; i--) if (spans[i].from <= step) return spans[i];
	return undefined;
}
