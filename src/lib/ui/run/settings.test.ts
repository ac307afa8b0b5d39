import { describe, expect, it } from 'vitest';
import { settingLines } from './settings';

describe('settings box', () => {
	it('keeps KEY=VALUE lines and skips blanks and comments', () => {
		expect(settingLines('retrieval.weights.relevance=2\n\n# note\n reflection.threshold = 100 ')).toEqual({
			lines: ['retrieval.weights.relevance=2', 'reflection.threshold = 100'],
			errors: []
		});
	});

	it('names the line of a malformed setting', () => {
		const out = settingLines('retrieval.topK=5\nnonsense');
		expect(out.lines).toEqual(['retrieval.topK=5']);
		expect(out.errors).toEqual(['Settings, line 2: setting "nonsense" is not KEY=VALUE']);
	});
});
