import { describe, expect, it } from 'vitest';
import { loadWorld } from '$lib/server/world/load';
import { TINY_WORLD_DIR } from '$lib/server/world/testing';
import { worldView } from './world-view';

describe('worldView', () => {
	it('digests a loaded world into plain data for the browser', async () => {
		const loaded = await loadWorld(TINY_WORLD_DIR);
		const view = worldView('tiny', loaded);

		expect(view.id).toBe('tiny');
		expect(view.name).toBe('Tiny Town');
		expect(view.agents.map((a) => a.name).sort()).toEqual(['Alice Chen', 'Bob Diaz']);
		for (const agent of view.agents) {
			const persona = loaded.def.personas.find((p) => p.id === agent.id);
			expect(persona).toBeDefined();
			expect({ x: agent.x, y: agent.y }).toEqual(loaded.def.spawns[persona!.spawn]);
		}
		expect(view.sectors.map((s) => s.name).sort()).toEqual(['Cottage', 'Garden']);
		const objects = view.sectors.flatMap((s) => s.arenas.flatMap((a) => a.objects));
		expect(objects).toHaveLength(5);
		expect(objects.every((o) => o.address.split(':').length === 3 && o.state.length > 0)).toBe(true);

		// Survives JSON, as page data must (no typed arrays, no functions).
		expect(JSON.parse(JSON.stringify(view))).toEqual(view);
	});
});
