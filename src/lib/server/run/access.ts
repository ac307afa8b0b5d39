// Last-access times as a run had them, replayed from its recorded retrievals in order: a
// memory's last access is its creation, or the latest earlier retrieval that returned it. A
// conversation's retrievals are made when it is committed, as of the time it began (a trace's
// time earlier than its step's); what they return counts as accessed at the commit step's time,
// once the whole conversation is made, so they do not see one another's accesses. The
// debugger's score tables and the re-scoring of a run both read last access through this.

import type { RetrievalTrace } from '../../engine/state';

type Trace = Pick<RetrievalTrace, 'agent' | 'step' | 'time' | 'selected'>;

function memoryIndex(id: string): number {
	return Number(id.slice(id.lastIndexOf('/m') + 2));
}

export class AccessReplay {
	private readonly last = new Map<string, Float64Array>();
	/** per agent: a conversation's accesses, applied once its retrievals are all made */
	private readonly deferred = new Map<string, { step: number; at: number; ids: string[] }>();

	constructor(
		/** creation times of an agent's memories, by index (undefined: not known) */
		private readonly created: (agent: string) => ArrayLike<number> | undefined,
		/** game time of a step */
		private readonly stepTime: (step: number) => number
	) {}

	private touch(last: Float64Array, ids: readonly string[], at: number): void {
		for (const id of ids) {
			const i = memoryIndex(id);
			if (i >= 0 && i < last.length && at > last[i]) last[i] = at;
		}
	}

	/** The last-access times of the agent's memories as retrieval `t` saw them. */
	before(t: Trace): Float64Array | undefined {
		let last = this.last.get(t.agent);
		if (!last) {
			const created = this.created(t.agent);
			if (!created) return undefined;
			last = Float64Array.from(created);
			this.last.set(t.agent, last);
		}
		const pending = this.deferred.get(t.agent);
		if (pending && (t.time >= this.stepTime(t.step) || pending.step !== t.step)) {
			this.touch(last, pending.ids, pending.at);
			this.deferred.delete(t.agent);
		}
		return last;
	}

	/** Counts what `t` returned as accessed, for the retrievals after it (call after `before(t)`). */
	after(t: Trace): void {
		const at = this.stepTime(t.step);
		if (t.time < at) {
			const d = this.deferred.get(t.agent);
			if (d) d.ids.push(...t.selected);
			else this.deferred.set(t.agent, { step: t.step, at, ids: [...t.selected] });
			return;
		}
		const last = this.last.get(t.agent);
		if (last) this.touch(last, t.selected, t.time);
	}
}
