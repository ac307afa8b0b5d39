// The grid a recorded run is re-scored under: weightings (recency, importance, relevance) and
// decays, each either a value or the run's own ("run": every retrieval its recorded value).

import type { RetrievalWeights } from '../../engine/types';
import type { GridDecay, GridWeights } from '../../api/rescore';
import { InvalidError } from '../errors';


export interface Grid {
	weights: GridWeights[];
	decays: GridDecay[];
}

/** At most this many cells (weightings x decays) in one re-scoring. */
export const MAX_CELLS = 2000;
const MAX_WEIGHT = 1000;

/** `R,I,V` (three non-negative numbers) or `run`; `where` names the flag or field for errors. */
export function parseWeighting(raw: string, where = 'weights'): GridWeights {
	const text = raw.trim();
	if (text === 'run') return null;
	const parts = text.split(',').map((p) => p.trim());
	const w = parts.map((p) => (/^\d+(\.\d+)?$|^\.\d+$/.test(p) ? Number(p) : NaN));
	if (w.length !== 3 || w.some((x) => !Number.isFinite(x) || x > MAX_WEIGHT)) {
		throw new InvalidError(`${where}: "${text.slice(0, 60)}" is not three numbers from 0 to ${MAX_WEIGHT} "recency,importance,relevance" (or "run")`);
	}
	return { recency: w[0], importance: w[1], relevance: w[2] };
}

/** A decay per game hour in (0, 1], or `run`. */
export function parseDecay(raw: string, where = 'decay'): GridDecay {
	const text = raw.trim();
	if (text === 'run') return null;
	const d = /^\d*(\.\d+)?$/.test(text) && text !== '' && text !== '.' ? Number(text) : NaN;
	if (!(d > 0 && d <= 1)) throw new InvalidError(`${where}: "${text.slice(0, 60)}" is not a decay per game hour above 0 and at most 1 (or "run")`);
	return d;
}

/**
 * A grid from lists of text values; a list may be a range `from:to:step` of values for each
 * component given separately (see `weightRange`). Defaults: the run's own weights and decay.
 */
export function parseGrid(weights: readonly string[], decays: readonly string[] = []): Grid {
	const grid: Grid = {
		weights: weights.length ? weights.map((w, i) => parseWeighting(w, `weights #${i + 1}`)) : [null],
		decays: decays.length ? decays.map((d, i) => parseDecay(d, `decay #${i + 1}`)) : [null]
	};
	checkSize(grid);
	return grid;
}

export function checkSize(grid: Grid): void {
	if (grid.weights.length === 0) throw new InvalidError('re-scoring needs at least one weighting');
	if (grid.decays.length === 0) throw new InvalidError('re-scoring needs at least one decay');
	const cells = grid.weights.length * grid.decays.length;
	if (cells > MAX_CELLS) throw new InvalidError(`a re-scoring grid of ${cells} cells is more than the ${MAX_CELLS} allowed`);
}

/** Every combination of the given values per component, recency slowest. */
export function weightProduct(recency: readonly number[], importance: readonly number[], relevance: readonly number[]): RetrievalWeights[] {
	const out: RetrievalWeights[] = [];
	for (const r of recency) for (const i of importance) for (const v of relevance) out.push({ recency: r, importance: i, relevance: v });
	return out;
}

/** `0,0.5,1` as numbers from 0 to 1000, for one component of a grid. */
export function parseValues(raw: string, where: string): number[] {
	const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
	const values = parts.map((p) => (/^\d+(\.\d+)?$|^\.\d+$/.test(p) ? Number(p) : NaN));
	if (values.length === 0 || values.some((x) => !Number.isFinite(x) || x > MAX_WEIGHT)) {
		throw new InvalidError(`${where}: "${raw.slice(0, 60)}" is not a list of numbers from 0 to ${MAX_WEIGHT}`);
	}
	return [...new Set(values)];
}

export function weightsLabel(w: GridWeights): string {
	return w ? `${w.recency},${w.importance},${w.relevance}` : 'run';
}
