// Re-scoring recorded retrievals under other weights and decays, without the model. Each
// retrieval is scored again over the memories it saw (its agent's first `streamSize`, of its
// kinds), with their last-access times as the run had them (creation, or the latest earlier
// retrieval that returned them) and its query's embedding; its top k is then compared with the
// selection the run recorded. The history stays the recorded one: a retrieval that would have
// returned other memories does not change the last-access times later retrievals see.
//
// A conversation's retrievals are made when it is committed, as of the time it began (its
// trace's time is earlier than its step's); what they return counts as accessed at the commit
// step's time, once the whole conversation is made, so they do not see one another's accesses.
//
// The three raw components and their min-max normalisations are computed once per retrieval
// and decay (`MemoryStream.columns`); every weighting is then a weighted sum and a top k over
// them, with the same arithmetic as the engine, so the run's own weights give back its
// selections bit for bit.

import { MemoryStream, selectTop } from '../../engine/memory';
import type { RetrievalTrace } from '../../engine/state';
import { AccessReplay } from '../run/access';
import { checkSize, type Grid } from './grid';
import type { GridDecay, GridWeights, MemoryMove, RescoreCell, Tally } from '../../api/rescore';

export interface RescoreResult {
	/** retrievals re-scored */
	retrievals: number;
	/** retrievals left out because the memories they saw are not stored yet */
	skipped: number;
	/** retrievals whose rebuild under their own weights and decay differs from the record */
	mismatched: number;
	cells: RescoreCell[];
}

/** A trace to re-score, with the text of its query resolved to a vector. */
export type RescoreTrace = Pick<RetrievalTrace, 'id' | 'agent' | 'step' | 'time' | 'purpose' | 'weights' | 'decay' | 'k' | 'streamSize' | 'kinds' | 'selected'>;

export interface RescoreInput {
	/** every recorded retrieval of the run's lineage, in order (earlier ones set last access) */
	traces: readonly RescoreTrace[];
	/** which traces to count (all when omitted); the others only advance last access */
	counted?: (t: RescoreTrace) => boolean;
	streams: ReadonlyMap<string, MemoryStream>;
	/** game time of a step (a trace made earlier than its step's time is a conversation's) */
	stepTime: (step: number) => number;
	/** the query vector of a trace */
	query: (t: RescoreTrace) => Float32Array;
	grid: Grid;
	/** memories listed per cell in `entered` / `left` (default 10) */
	top?: number;
}

interface CellState {
	weights: GridWeights;
	decay: GridDecay;
	changed: number;
	reordered: number;
	byAgent: Map<string, Tally>;
	byPurpose: Map<string, Tally>;
	entered: Map<string, number>;
	left: Map<string, number>;
}

function bump(map: Map<string, Tally>, key: string, changed: boolean): void {
	let t = map.get(key);
	if (!t) map.set(key, (t = { retrievals: 0, changed: 0 }));
	t.retrievals++;
	if (changed) t.changed++;
}

function memoryIndex(id: string): number {
	return Number(id.slice(id.lastIndexOf('/m') + 2));
}

export function rescore(input: RescoreInput): RescoreResult {
	const { grid, streams } = input;
	checkSize(grid);
	const top = input.top ?? 10;
	const cells: CellState[] = [];
	for (const decay of grid.decays) {
		for (const weights of grid.weights) {
			cells.push({ weights, decay, changed: 0, reordered: 0, byAgent: new Map(), byPurpose: new Map(), entered: new Map(), left: new Map() });
		}
	}
	const nw = grid.weights.length;
	const access = new AccessReplay((agent) => streams.get(agent)?.records.map((m) => m.created), input.stepTime);
	let retrievals = 0;
	let skipped = 0;
	let mismatched = 0;

	for (const t of input.traces) {
		const stream = streams.get(t.agent);
		const last = access.before(t);
		const counted = input.counted ? input.counted(t) : true;
		if (counted && stream && last && stream.size >= t.streamSize && t.streamSize > 0) {
			retrievals++;
			const candidates: number[] = [];
			for (let i = 0; i < t.streamSize; i++) if (!t.kinds || t.kinds.includes(stream.records[i].kind)) candidates.push(i);
			const indexOf = (p: number) => candidates[p];
			const recorded = t.selected;
			const recordedSet = new Set(recorded);
			// the recorded selection as memory indices, and a mark per memory (1 = recorded)
			const recordedIdx = recorded.map(memoryIndex);
			const mark = new Uint8Array(t.streamSize);
			for (const i of recordedIdx) if (i >= 0 && i < mark.length) mark[i] = 1;
			const query = input.query(t);
			const lastOf = (i: number) => last[i];
			const score = new Float64Array(candidates.length);
			let ownChecked = false;
			for (let d = 0; d < grid.decays.length; d++) {
				const decay = grid.decays[d] ?? t.decay;
				const col = stream.columns(query, t.time, { weights: t.weights, decay }, candidates, lastOf);
				const rn = col.recencyNorm;
				const mn = col.importanceNorm;
				const vn = col.relevanceNorm;
				if (!ownChecked && decay === t.decay) {
					ownChecked = true;
					const own = selectTop(col.score, t.k, indexOf);
					if (own.length !== recorded.length || own.some((p, r) => stream.records[candidates[p]].id !== recorded[r])) mismatched++;
				}
				for (let w = 0; w < nw; w++) {
					const cell = cells[d * nw + w];
					const weights = cell.weights ?? t.weights;
					const wr = weights.recency;
					const wi = weights.importance;
					const wv = weights.relevance;
					// the engine's weighted sum, term for term
					for (let c = 0; c < score.length; c++) score[c] = wr * rn[c] + wi * mn[c] + wv * vn[c];
					const picked = selectTop(score, t.k, indexOf);
					let same = picked.length === recordedIdx.length;
					let inOrder = same;
					for (let r = 0; r < picked.length && same; r++) {
						const i = candidates[picked[r]];
						if (mark[i] !== 1) same = false;
						else if (i !== recordedIdx[r]) inOrder = false;
					}
					const changed = !same;
					if (changed) {
						cell.changed++;
						const ids = picked.map((p) => stream.records[candidates[p]].id);
						const now = new Set(ids);
						for (const id of ids) if (!recordedSet.has(id)) cell.entered.set(id, (cell.entered.get(id) ?? 0) + 1);
						for (const id of recorded) if (!now.has(id)) cell.left.set(id, (cell.left.get(id) ?? 0) + 1);
					} else if (!inOrder) cell.reordered++;
					bump(cell.byAgent, t.agent, changed);
					bump(cell.byPurpose, t.purpose, changed);
				}
			}
			if (!ownChecked) {
				const col = stream.columns(query, t.time, { weights: t.weights, decay: t.decay }, candidates, lastOf);
				const own = selectTop(col.score, t.k, indexOf);
				if (own.length !== recorded.length || own.some((p, r) => stream.records[candidates[p]].id !== recorded[r])) mismatched++;
			}
		} else if (counted) skipped++;
		access.after(t);
	}

	const describe = (counts: Map<string, number>): MemoryMove[] =>
		[...counts]
			.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
			.slice(0, top)
			.map(([id, count]) => {
				const agent = id.slice(0, id.lastIndexOf('/m'));
				const m = streams.get(agent)?.byId(id);
				return { id, agent, description: m?.description ?? '', count };
			});
	const tallies = (map: Map<string, Tally>) => Object.fromEntries([...map].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
	return {
		retrievals,
		skipped,
		mismatched,
		cells: cells.map((c) => ({
			weights: c.weights,
			decay: c.decay,
			retrievals,
			changed: c.changed,
			reordered: c.reordered,
			byAgent: tallies(c.byAgent),
			byPurpose: tallies(c.byPurpose),
			entered: describe(c.entered),
			left: describe(c.left)
		}))
	};
}
