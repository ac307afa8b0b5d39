// The human-written column of the interviews table as the server renders it: a stored answer
// with its edit and remove buttons, or the button to write one.

import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import HumanAnswerCell from './HumanAnswerCell.svelte';
import type { InterviewRow } from './tables';

const row: InterviewRow = { agent: 'ann', name: 'Ann Smith', question: 'occupation', category: 'self-knowledge', text: "What's your occupation?", answers: {} };
const api = {
	saveHumanAnswers: () => Promise.reject(new Error('not in this test')),
	removeHumanAnswer: () => Promise.reject(new Error('not in this test'))
};

describe('the human-written answer cell', () => {
	it('shows the answer a person wrote, with edit and remove', () => {
		const human = { agent: 'ann', question: 'occupation', condition: 'human' as const, text: row.text, answer: 'I bake <bread> & cakes.', updated: '2024-01-01T00:00:00.000Z' };
		const { body } = render(HumanAnswerCell, { props: { row: { ...row, human }, run: 'r1', step: 40, api, onsaved: () => {} } });
		expect(body).toContain('data-condition="human"');
		expect(body).toMatch(/data-testid="human-answer"[^>]*>I bake &lt;bread> &amp; cakes\.</);
		expect(body).toContain(`aria-label="Edit Ann Smith's human-written answer"`);
		expect(body).toContain(`aria-label="Remove Ann Smith's human-written answer"`);
		expect(body).not.toContain('human-answer-write');
	});

	it('offers to write one where none was written', () => {
		const { body } = render(HumanAnswerCell, { props: { row, run: 'r1', step: 40, api, onsaved: () => {} } });
		expect(body).toMatch(/data-testid="human-answer-write"[^>]*>write the answer</);
		expect(body).not.toContain('data-testid="human-answer"');
	});
});
