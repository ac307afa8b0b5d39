// Steps and frames in the compare view. A *step* s is the step computed from the state after s
// steps (a model call's step, the first divergence's step); a *frame* N is the state after N
// steps, what the maps draw. What step s did shows on frame s + 1. The shared timeline moves
// over frames `steps.start..steps.end` of the diff; `?step=N` in the address is a frame, as in
// the run debugger.

import type { Differences, DifferenceKind, Divergence, RunDiff } from '$lib/api/diff';

export interface FrameRange {
	start: number;
	end: number;
}

/** The frame that first shows what step `step` did. */
export function frameOfStep(step: number): number {
	return step + 1;
}

/** The step whose outcome frame `frame` shows (the last step before it). */
export function stepOfFrame(frame: number): number {
	return frame - 1;
}

/** What a frame holds, in words: "after step 6", or "before any step" for frame 0. */
export function frameCaption(frame: number): string {
	return frame <= 0 ? 'before any step' : `after step ${stepOfFrame(frame)}`;
}

/** `frame` rounded and kept inside the range. */
export function clampFrame(frame: number, range: FrameRange): number {
	const hi = Math.max(range.start, range.end);
	if (!Number.isFinite(frame)) return range.start;
	return Math.max(range.start, Math.min(hi, Math.round(frame)));
}

/**
 * The frame the timeline goes to for the first divergence: the frame that first shows it,
 * inside the compared range (a divergence at the runs' creation shows on the first frame).
 */
export function divergenceFrame(d: Divergence, range: FrameRange): number {
	return clampFrame(Number.isFinite(d.frame) ? d.frame : frameOfStep(d.step), range);
}

/**
 * The frame to open at: `?step=N` when it is a whole number (kept in the range), otherwise
 * the first divergence's frame, otherwise the start of the range.
 */
export function initialFrame(param: string | null, diff: Pick<RunDiff, 'steps' | 'firstDivergence'>): number {
	if (param !== null && /^\s*-?\d+\s*$/.test(param)) return clampFrame(Number(param), diff.steps);
	if (diff.firstDivergence) return divergenceFrame(diff.firstDivergence, diff.steps);
	return diff.steps.start;
}

export interface DifferenceColumn {
	/** 0..columns-1 */
	column: number;
	/** the first differing frame in the column (where a click goes) */
	frame: number;
	/** how many agents differ somewhere in the column */
	agents: number;
}

/**
 * Where the runs differ, for the strip over the timeline: the range [first, last] cut into
 * `columns` equal slices, each column with the agents whose differing ranges touch it.
 */
export function differenceColumns(
	agents: readonly { differs: readonly (readonly [number, number])[] }[],
	first: number,
	last: number,
	columns: number
): DifferenceColumn[] {
	const cols = Math.max(1, Math.floor(columns));
	const span = Math.max(1, last - first + 1);
	const colOf = (frame: number) => Math.min(cols - 1, Math.max(0, Math.floor(((frame - first) / span) * cols)));
	const count = new Int32Array(cols);
	const firstFrame = new Float64Array(cols).fill(Infinity);
	for (const agent of agents) {
		let lastCol = -1;
		for (const [a, b] of agent.differs) {
			const from = Math.max(first, a);
			const to = Math.min(last, b);
			if (to < from) continue;
			const c0 = colOf(from);
			const c1 = colOf(to);
			for (let c = Math.max(c0, lastCol + 1); c <= c1; c++) count[c]++;
			for (let c = c0; c <= c1; c++) {
				const colStart = first + Math.ceil((c * span) / cols);
				firstFrame[c] = Math.min(firstFrame[c], Math.max(from, colStart));
			}
			lastCol = Math.max(lastCol, c1);
		}
	}
	const out: DifferenceColumn[] = [];
	for (let c = 0; c < cols; c++) if (count[c] > 0) out.push({ column: c, frame: firstFrame[c], agents: count[c] });
	return out;
}

/** The position of `frame` along [first, last] as a share 0..1. */
export function shareOf(frame: number, first: number, last: number): number {
	if (last <= first) return 0;
	return Math.max(0, Math.min(1, (frame - first) / (last - first)));
}

/**
 * The start of the first range beginning after `frame` (dir 1), or of the last range beginning
 * before it (dir -1); null when there is none. `ranges` sorted and merged.
 */
export function adjacentRangeStart(ranges: readonly (readonly [number, number])[], frame: number, dir: 1 | -1): number | null {
	if (dir === 1) return ranges.find(([from]) => from > frame)?.[0] ?? null;
	let best: number | null = null;
	for (const [from] of ranges) {
		if (from >= frame) break;
		best = from;
	}
	return best;
}

/**
 * Where "Next difference" and "Previous difference" stop: the first frame of every range of
 * every kind of difference (moves, reactions, conversations, memories, reflections, calls),
 * sorted, each frame once. A reflection inside a stretch of frames where an agent moves
 * differently is a stop of its own.
 */
export function differenceStops(differences: readonly Pick<Differences, 'frames'>[]): number[] {
	const out = new Set<number>();
	for (const d of differences) for (const [from] of d.frames) out.add(from);
	return [...out].sort((x, y) => x - y);
}

/** The first stop after `frame` (dir 1) or the last one before it (dir -1); null when there is none. */
export function adjacentStop(stops: readonly number[], frame: number, dir: 1 | -1): number | null {
	if (dir === 1) return stops.find((s) => s > frame) ?? null;
	let best: number | null = null;
	for (const s of stops) {
		if (s >= frame) break;
		best = s;
	}
	return best;
}

/** The kinds of difference that show on `frame`. */
export function kindsAt(differences: readonly Pick<Differences, 'kind' | 'frames'>[], frame: number): DifferenceKind[] {
	return differences.filter((d) => d.frames.some(([a, b]) => frame >= a && frame <= b)).map((d) => d.kind);
}
