import { describe, expect, it } from 'vitest';
import { importedNotice, shortMissing } from './imported';

const imported = {
	from: '/data/compressed_storage/July1',
	form: 'compressed' as const,
	simulation: 'July1',
	steps: 8655,
	missing: [
		'model calls and retrieval traces (the call inspector, retrieval tables and re-scoring have nothing to show before the recording ends)',
		'day plans (each state has no plan; a fork plans its day anew)',
		"objects' states (the recording keeps only the agents)"
	]
};

describe('the notice of an imported run', () => {
	it('says what the run lacks, in short, and keeps why', () => {
		expect(shortMissing(imported.missing[0])).toBe('model calls and retrieval traces');
		const n = importedNotice({ id: 'r1', imported: { ...imported, run: 'r1', until: 8655 } });
		expect(n?.summary).toBe("Imported from the reference implementation (July1, steps 0–8,655): no model calls and retrieval traces, no day plans, no objects' states.");
		expect(n?.missing).toEqual(imported.missing);
		expect(n?.own).toBe(true);
	});

	it('tells a fork which of its steps are the recording\'s', () => {
		const n = importedNotice({ id: 'fork', imported: { ...imported, run: 'r1', until: 8000 } });
		expect(n?.summary).toBe(
			"Steps 0–8,000 come from a recording imported from the reference implementation (July1): no model calls and retrieval traces, no day plans, no objects' states before step 8,000."
		);
		expect(n?.own).toBe(false);
		expect(importedNotice({ id: 'plain' })).toBeNull();
	});
});
