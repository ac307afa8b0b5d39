import { describe, expect, it } from 'vitest';
import { runModelInfo } from './model-info';

describe('a run\'s own model as pages show it', () => {
	it('labels the offline stand-in as not a language model, and names any other model', () => {
		expect(runModelInfo('offline stand-in, not a language model')).toMatchObject({ offline: true, detail: expect.stringMatching(/not a language model/) });
		expect(runModelInfo('gpt-4o-mini (OpenAI-compatible, api.openai.com)')).toEqual({
			label: 'gpt-4o-mini (OpenAI-compatible, api.openai.com)',
			offline: false,
			detail: 'This run was made with gpt-4o-mini (OpenAI-compatible, api.openai.com).'
		});
	});
});
