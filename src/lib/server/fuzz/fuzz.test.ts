// Fuzz tests over the readers of outside data (./fuzz.ts): every mutated or random
// input is read or refused with a clear error, none takes more than a few seconds, and the
// process stays within the stated memory bound. A fixed seed keeps `npm test` repeatable;
// `npm run bench -- --only fuzz` runs many more inputs with fresh seeds.

import { describe, expect, it } from 'vitest';
import { applyMutations, FUZZ_BOUNDS, FUZZ_TARGETS } from './fuzz';

const RUNS: Record<string, number> = { xml: 300, tmx: 150, tsx: 100, tmj: 100, world: 100, templates: 60 };

describe('fuzzing the readers of outside data', () => {
	for (const [name, target] of Object.entries(FUZZ_TARGETS))
		it(`${name}: every input is read or refused with a clear error, within ${FUZZ_BOUNDS.maxMs} ms and ${FUZZ_BOUNDS.maxRssMb} MB`, { timeout: 60_000 }, async () => {
			const report = await target(RUNS[name], 13);
			expect(report.inputs).toBe(RUNS[name]);
			// the mutations reach both sides: some inputs still load, others are refused
			expect(report.refused).toBeGreaterThan(0);
			expect(report.accepted).toBeGreaterThan(0);
			expect(report.slowestMs).toBeLessThan(FUZZ_BOUNDS.maxMs);
		});

	it('mutations insert, delete, repeat and renumber', () => {
		expect(applyMutations('<a w="12"/>', [{ kind: 'number', nth: 0, value: '-1' }])).toBe('<a w="-1"/>');
		expect(applyMutations('abc', [{ kind: 'insert', at: 1, text: 'X' }, { kind: 'delete', at: 0, len: 1 }])).toBe('Xbc');
		expect(applyMutations('ab', [{ kind: 'repeat', at: 0, len: 1, times: 3 }])).toBe('aaab');
	});
});
