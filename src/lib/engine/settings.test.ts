import { describe, expect, it } from 'vitest';
import type { RetrievalTrace } from './state';
import { applyOverrides } from './settings';
import { Simulation } from './sim';
import { createTestWorld, scriptedModel } from './testing';
import { DEFAULT_SETTINGS } from './types';

async function traces(overrides: string[], steps = 200) {
	const model = scriptedModel();
	const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, model);
	applyOverrides(sim.state, overrides);
	const all: RetrievalTrace[] = [];
	for (let i = 0; i < steps; i++) all.push(...(await sim.step([], model)).traces);
	const kBy = new Map<string, Set<number>>();
	for (const t of all) kBy.set(t.purpose, new Set([...(kBy.get(t.purpose) ?? []), t.k]));
	return { sim, kBy };
}

describe('retrieval settings per purpose', () => {
	it('are KEY=VALUE overrides, for the run or one agent, whole numbers only', async () => {
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, scriptedModel());
		applyOverrides(sim.state, ['retrieval.k.conversation=20', 'agents.ana-alder.retrieval.k.onMind=3']);
		expect(sim.state.settings.retrieval.k).toEqual({ ...DEFAULT_SETTINGS.retrieval.k, conversation: 20 });
		expect(sim.agent('ana-alder').settings?.retrieval?.k).toEqual({ ...DEFAULT_SETTINGS.retrieval.k, conversation: 20, onMind: 3 });
		expect(() => applyOverrides(sim.state, ['retrieval.k.dialogue=2.5'])).toThrow('setting "retrieval.k.dialogue" takes a whole number, not 2.5');
		expect(() => applyOverrides(sim.state, ['retrieval.topK=0.5'])).toThrow(/whole number/);
		expect(() => applyOverrides(sim.state, ['retrieval.k.gossip=3'])).toThrow('unknown setting "retrieval.k.gossip"');
		expect(() => applyOverrides(sim.state, ['retrieval.k.plan=-1'])).toThrow(/cannot be negative/);
	});

	it('set how many memories each retrieval takes; the extra "on my mind" retrieval is off by default', async () => {
		const { kBy } = await traces([]);
		const k = DEFAULT_SETTINGS.retrieval.k;
		expect(kBy.get('summary description')).toEqual(new Set([k.summary]));
		expect(kBy.get('plan: hourly schedule')).toEqual(new Set([k.plan]));
		expect(kBy.get('reaction')).toEqual(new Set([k.reaction]));
		expect(kBy.get('conversation')).toEqual(new Set([50]));
		expect(kBy.get('conversation: what to say')).toEqual(new Set([15]));
		expect(kBy.has('conversation: what is on my mind')).toBe(false);

		const changed = await traces(['retrieval.k.summary=4', 'retrieval.k.plan=5', 'retrieval.k.reaction=6', 'retrieval.k.conversation=7', 'retrieval.k.dialogue=8', 'retrieval.k.onMind=2']);
		expect(changed.kBy.get('summary description')).toEqual(new Set([4]));
		expect(changed.kBy.get('plan: hourly schedule')).toEqual(new Set([5]));
		expect(changed.kBy.get('reaction')).toEqual(new Set([6]));
		expect(changed.kBy.get('conversation')).toEqual(new Set([7]));
		expect(changed.kBy.get('conversation: what to say')).toEqual(new Set([8]));
		expect(changed.kBy.get('conversation: what is on my mind')).toEqual(new Set([2]));
	});

	it('a snapshot written before the per-purpose settings existed restores with the defaults', async () => {
		const { sim } = await Simulation.create(createTestWorld(), { seed: 1 }, scriptedModel());
		const snap = JSON.parse(JSON.stringify(sim.snapshot()));
		delete snap.state.settings.retrieval.k;
		const restored = Simulation.restore(sim.world, snap, [...sim.streams.values()].flatMap((s) => s.records), 64);
		expect(restored.state.settings.retrieval.k).toEqual(DEFAULT_SETTINGS.retrieval.k);
		applyOverrides(restored.state, ['retrieval.k.onMind=1']);
		expect(restored.state.settings.retrieval.k.onMind).toBe(1);
	});
});
