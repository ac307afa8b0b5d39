// Restored simulations for inspecting a run at any step: the nearest snapshot, then the
// journal's inputs and answers replayed up to the step (as `loadState` does), with a few
// restored states kept per run. Seeking forward from a kept state steps that state on instead
// of restoring again. Each run's states are used one request at a time. A state of a run
// imported from a recording, which has no answers to replay, is restored from its commit lines.

import type { ModelPort } from '../../engine/model';
import { Simulation } from '../../engine/sim';
import { MemoryStore, maxIndexFromSizes } from '../memory/lance-store';
import { replayTo, restoreImported } from '../run/runner';
import type { RunData } from './run-data';

interface Kept {
	step: number;
	sim: Simulation;
}

export class StateCache {
	private readonly kept = new Map<string, Kept[]>();
	private readonly locks = new Map<string, Promise<unknown>>();
	/** restores and replayed steps, for tests and diagnostics */
	readonly stats = { restores: 0, replayed: 0, hits: 0 };

	constructor(
		/** a model for embeddings during replay (answers come from the journal) */
		private readonly embedder: (run: RunData) => Promise<ModelPort>,
		private readonly perRun = 4,
		private readonly maxRuns = 3
	) {}

	/**
	 * Runs `use` on the state of `run` after `step` steps (the run must hold the step itself:
	 * resolve a fork's earlier steps to its parent first). `use` must not keep or change the state.
	 */
	async with<T>(run: RunData, step: number, use: (sim: Simulation) => T | Promise<T>): Promise<T> {
		const prev = this.locks.get(run.id) ?? Promise.resolve();
		const next = prev.then(
			() => this.use(run, step, use),
			() => this.use(run, step, use)
		);
		const settled = next.catch(() => undefined);
		this.locks.set(run.id, settled);
		void settled.then(() => {
			if (this.locks.get(run.id) === settled) this.locks.delete(run.id);
		});
		return next;
	}

	private async use<T>(run: RunData, step: number, use: (sim: Simulation) => T | Promise<T>): Promise<T> {
		const sim = await this.stateAt(run, step);
		return use(sim);
	}

	private async stateAt(run: RunData, step: number): Promise<Simulation> {
		let list = this.kept.get(run.id);
		if (!list) {
			list = [];
			this.kept.set(run.id, list);
			while (this.kept.size > this.maxRuns) this.kept.delete(this.kept.keys().next().value as string);
		} else {
			// most recently used run last
			this.kept.delete(run.id);
			this.kept.set(run.id, list);
		}
		const exact = list.findIndex((k) => k.step === step);
		if (exact >= 0) {
			const [k] = list.splice(exact, 1);
			list.push(k);
			this.stats.hits++;
			return k.sim;
		}
		const base = run.snapshotSteps().filter((s) => s <= step).at(-1);
		if (base === undefined) throw new Error(`run ${run.id} has no snapshot at or before step ${step}`);
		const imported = run.meta.imported;
		if (base < step && imported && step <= imported.steps) {
			// a recording's steps: restored from the snapshot before and the commit lines, never replayed
			const sim = await restoreImported(run.reader(), await run.world(), step, run.meta.dimensions);
			this.stats.restores++;
			list.push({ step, sim });
			while (list.length > this.perRun) list.shift();
			return sim;
		}
		// the kept state nearest below the step, if replaying from it beats the snapshot
		let from: Kept | undefined;
		for (const k of list) if (k.step <= step && k.step >= base && (!from || k.step > from.step)) from = k;
		let sim: Simulation;
		if (from) {
			list.splice(list.indexOf(from), 1);
			sim = from.sim;
		} else {
			const world = await run.world();
			const snap = run.snapshot(base);
			const dimensions = run.meta.dimensions;
			const store = await MemoryStore.open(run.dir, dimensions);
			try {
				sim = Simulation.restore(world, snap, await store.load({ maxIndexByAgent: maxIndexFromSizes(snap.memory) }), dimensions);
			} finally {
				store.close();
			}
			this.stats.restores++;
		}
		const start = sim.state.step;
		if (start < step) {
			// taken out of the list above: a replay that fails leaves a half-stepped state behind
			run.steps.refresh();
			const inputs = (s: number) => run.stepLine(s)?.inputs ?? [];
			await replayTo(sim, step, run.callsBetween(start, step), inputs, await this.embedder(run));
			this.stats.replayed += step - start;
		}
		list.push({ step, sim });
		while (list.length > this.perRun) list.shift();
		return sim;
	}

	/** Drops the kept states of a run (its journal was cut back). */
	forget(id: string): void {
		this.kept.delete(id);
	}

	clear(): void {
		this.kept.clear();
	}
}
