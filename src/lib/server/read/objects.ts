// The town's objects at one step of a run, as the debugger shows them: the state everyone
// perceives (a user's state, the state an agent's action sets, or the base state), and where
// it comes from. Read from the exact restored state, like an agent's inspector.

import type { ObjectStateView } from '../../api/types';
import type { Simulation } from '../../engine/sim';

/** Every object of the world at the simulation's step, in the world's order. */
export function objectStates(sim: Simulation): ObjectStateView[] {
	const inUse = sim.objectsInUse();
	const setAt = sim.state.objectsSetAt ?? {};
	// the agent whose action sets each object's state (as `objectsInUse` picks it)
	const users = new Map<string, string>();
	for (const a of sim.state.agents) {
		const o = a.action.object;
		if (!o || a.action.chatWith || !a.action.objectState || users.has(o)) continue;
		if (setAt[o] !== undefined && a.action.start <= setAt[o]) continue;
		users.set(o, a.id);
	}
	const out: ObjectStateView[] = [];
	for (const sector of sim.world.sectors) {
		for (const arena of sector.arenas) {
			for (const o of arena.objects) {
				const base = sim.state.objects[o.address] ?? o.defaultState;
				const used = inUse.get(o.address);
				const view: ObjectStateView = {
					address: o.address,
					name: o.name,
					state: used ?? base,
					base,
					default: o.defaultState
				};
				if (setAt[o.address] !== undefined) view.setByUser = true;
				if (used !== undefined && users.has(o.address)) view.usedBy = users.get(o.address);
				out.push(view);
			}
		}
	}
	return out;
}
