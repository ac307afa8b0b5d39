// The default towns shipped in worlds/ must always pass `world check` cleanly.
import { describe, expect, it } from 'vitest';
import { checkWorld } from './check';
import { loadWorld } from './load';

describe.each(['smallville', 'the-ville-3'])('the default town %s', (name) => {
	it('has no errors or warnings', async () => {
		const r = await checkWorld(name);
		expect(r.errors).toEqual([]);
		expect(r.warnings).toEqual([]);
		expect(r.ok).toBe(true);
		expect(r.counts.personas).toBeGreaterThan(0);
	});

	it('loads with its personas', async () => {
		const w = await loadWorld(name);
		expect(w.def.personas.length).toBeGreaterThan(0);
	});
});
