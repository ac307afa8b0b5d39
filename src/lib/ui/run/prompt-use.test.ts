import { describe, expect, it } from 'vitest';
import type { PromptsOverview } from '$lib/api/prompts';
import { promptUse, promptUseText, workingFolder } from './prompt-use';

const overview = (working: string, saved: boolean, shipped: string | null): PromptsOverview => ({
	working: { version: working, saved, templates: [{ id: 'a', file: 'prompts/a.md', source: '', version: 'x' }], problems: [] },
	versions: [],
	labels: { baseline: 'aaaaaaaaaaaa' },
	shipped: shipped ? { version: shipped, commit: 'c' } : null
});

describe('the prompts a run will use', () => {
	it('a new run without a choice: the working folder, and whether it is what the project ships', () => {
		expect(workingFolder(overview('aaaaaaaaaaaa', true, null))).toBe('prompts');
		expect(promptUseText(promptUse(overview('aaaaaaaaaaaa', true, 'aaaaaaaaaaaa'), ''))).toBe(
			'Uses prompt set aaaaaaaa [baseline], the working folder prompts/; the same as the shipped prompts.'
		);
		const edited = promptUse(overview('bbbbbbbbbbbb', false, 'aaaaaaaaaaaa'), '');
		expect(edited).toMatchObject({ version: 'bbbbbbbbbbbb', shipped: 'differs', labels: [] });
		expect(promptUseText(edited)).toBe(
			'Uses prompt set bbbbbbbb, the working folder prompts/, with edits not stored as a version; differs from the shipped prompts (prompts/ as committed).'
		);
	});

	it('a chosen version, a fork\'s parent prompts, and no shipped set to compare with', () => {
		expect(promptUse(overview('bbbbbbbbbbbb', true, 'aaaaaaaaaaaa'), 'aaaaaaaaaaaa')).toMatchObject({ version: 'aaaaaaaaaaaa', shipped: 'same', labels: ['baseline'] });
		expect(promptUse(overview('bbbbbbbbbbbb', true, 'aaaaaaaaaaaa'), '', 'cccccccccccc')).toMatchObject({ from: "the parent run's prompts", shipped: 'differs' });
		expect(promptUseText(promptUse(overview('bbbbbbbbbbbb', true, null), ''))).toBe('Uses prompt set bbbbbbbb, the working folder prompts/.');
		expect(promptUseText(promptUse(null, ''))).toBe('Uses the working folder.');
	});
});
