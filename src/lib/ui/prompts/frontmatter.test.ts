// The form view of template front matter: reading it, and form edits that change only what
// they edit (checked on the shipped templates with the same parser the gateway uses).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTemplateSource } from '$lib/prompts/check';
import { parseTemplate } from '$lib/prompts/template';
import { applyFormEdit, FormEditError, minimalEdit, readForm, splitSource } from './frontmatter';

const dir = path.resolve('prompts');
const source = (id: string) => readFileSync(path.join(dir, `${id}.md`), 'utf8');
const ids = readdirSync(dir)
	.filter((f) => f.endsWith('.md') && f !== 'README.md')
	.map((f) => f.slice(0, -3));

/** The lines of `after` that differ from `before` (same line count assumed). */
function changedLines(before: string, after: string): string[] {
	const a = before.split('\n');
	return after.split('\n').filter((l, i) => l !== a[i]);
}

describe('readForm', () => {
	it('reads every shipped template as the parser does', () => {
		expect(ids.length).toBe(21);
		for (const id of ids) {
			const form = readForm(source(id));
			const t = parseTemplate(source(id), `${id}.md`);
			expect(form.ok, id).toBe(true);
			if (!form.ok) continue;
			expect(form.id).toBe(id);
			expect(form.description).toBe(t.description);
			expect(form.inputs.map((i) => [i.name, i.type])).toEqual(Object.entries(t.inputs).map(([n, s]) => [n, s.type]));
			expect(JSON.parse(form.output)).toEqual(t.output);
			expect(JSON.parse(form.failsafe)).toEqual(t.failsafe);
			expect(form.sampling).toEqual(t.sampling);
		}
	});

	it('says why a front matter cannot be shown', () => {
		expect(readForm('no front matter')).toMatchObject({ ok: false, message: expect.stringContaining('"---"') });
		expect(readForm('---\nid: x\n')).toMatchObject({ ok: false, message: expect.stringContaining('not closed') });
		const broken = readForm('---\nid: x\ninputs: {a: [\n---\nbody');
		expect(broken.ok).toBe(false);
		expect(!broken.ok && broken.message).toMatch(/line \d+/);
	});
});

describe('applyFormEdit', () => {
	it('changes one sampling value and nothing else', () => {
		const before = source('react');
		const after = applyFormEdit(before, { kind: 'sampling', key: 'temperature', value: 0.7 });
		expect(changedLines(before, after)).toEqual(['sampling: {temperature: 0.7, max_tokens: 150}']);
		expect(parseTemplate(after, 'react.md').sampling).toEqual({ temperature: 0.7, max_tokens: 150 });
	});

	it('adds and removes sampling settings', () => {
		const before = source('react');
		const added = applyFormEdit(before, { kind: 'sampling', key: 'top_p', value: 0.9 });
		expect(parseTemplate(added, 'react.md').sampling).toEqual({ temperature: 0.2, max_tokens: 150, top_p: 0.9 });
		let none = applyFormEdit(before, { kind: 'sampling', key: 'temperature', value: undefined });
		none = applyFormEdit(none, { kind: 'sampling', key: 'max_tokens', value: undefined });
		expect(none).not.toMatch(/^sampling/m);
		const back = applyFormEdit(none, { kind: 'sampling', key: 'seed', value: 4 });
		expect(back).toMatch(/^sampling: \{seed: 4\}$/m);
		expect(parseTemplate(back, 'react.md').sampling).toEqual({ seed: 4 });
	});

	it('changes an input type in place, keeping its description', () => {
		const before = source('react');
		const after = applyFormEdit(before, { kind: 'input-type', name: 'hours_since_chat', type: 'text' });
		const changed = changedLines(before, after);
		expect(changed).toHaveLength(1);
		expect(changed[0]).toMatch(/^ {2}hours_since_chat: \{type: text, description: "Game hours since/);
	});

	it('renames an input and its placeholders; adding one it never uses is flagged by the checker', () => {
		const before = source('action_emoji');
		const form = readForm(before);
		const first = form.ok ? form.inputs[0].name : '';
		const renamed = applyFormEdit(before, { kind: 'input-rename', name: first, to: 'doing' });
		expect(renamed).not.toContain(`{{${first}}}`);
		expect(renamed).toContain('{{doing}}');
		const t = parseTemplate(renamed, 'action_emoji.md');
		expect(Object.keys(t.inputs)).toEqual(['doing']);

		const added = applyFormEdit(before, { kind: 'input-add', name: 'mood', type: 'text' });
		expect(added).toMatch(/^ {2}mood: \{type: text, description: ""\}$/m);
		const issues = checkTemplateSource(added, 'action_emoji');
		const line = added.split('\n').findIndex((l) => l.startsWith('  mood:')) + 1;
		expect(issues).toContainEqual(expect.objectContaining({ line, message: expect.stringContaining('input "mood" is declared but the text never uses {{mood}}') }));

		const removed = applyFormEdit(added, { kind: 'input-remove', name: 'mood' });
		expect(removed).toBe(before);
	});

	it('refuses bad names, taken names and unknown inputs', () => {
		const before = source('react');
		expect(() => applyFormEdit(before, { kind: 'input-add', name: '2nd', type: 'text' })).toThrow(FormEditError);
		expect(() => applyFormEdit(before, { kind: 'input-add', name: 'name', type: 'text' })).toThrow(/already an input "name"/);
		expect(() => applyFormEdit(before, { kind: 'input-rename', name: 'time', to: 'status' })).toThrow(/already an input "status"/);
		expect(() => applyFormEdit(before, { kind: 'input-remove', name: 'nothing' })).toThrow(/no input "nothing"/);
		expect(() => applyFormEdit('---\nid: [\n---\nx', { kind: 'description', value: 'd' })).toThrow(/cannot be edited from the form/);
	});

	it('writes an edited output schema and fail-safe from JSON, keeping the text after the front matter', () => {
		const before = source('action_emoji');
		const t = parseTemplate(before, 'action_emoji.md');
		const output = structuredClone(t.output) as { properties: Record<string, { maxLength?: number }> };
		const field = Object.keys(output.properties)[0];
		output.properties[field].maxLength = 4;
		const after = applyFormEdit(before, { kind: 'output', json: JSON.stringify(output) });
		const t2 = parseTemplate(after, 'action_emoji.md');
		expect(t2.output).toEqual(output);
		expect(t2.body).toBe(t.body);
		expect(splitSource(after)).toMatchObject({ rest: (splitSource(before) as { rest: string }).rest });

		expect(() => applyFormEdit(before, { kind: 'output', json: '{"type": ' })).toThrow(/output schema is not valid JSON/);
		expect(() => applyFormEdit(before, { kind: 'output', json: '[1]' })).toThrow(/must be a JSON object/);
		const failsafe = applyFormEdit(before, { kind: 'failsafe', json: JSON.stringify({ [field]: '🙂' }) });
		expect(parseTemplate(failsafe, 'action_emoji.md').failsafe).toEqual({ [field]: '🙂' });
	});

	it('writes an invalid schema the checker then reports with its line', () => {
		const before = source('react');
		const after = applyFormEdit(before, { kind: 'output', json: JSON.stringify({ type: 'object', properties: { react: { type: 'maybe' } } }) });
		const issues = checkTemplateSource(after, 'react');
		expect(issues.some((i) => i.severity === 'error' && /invalid output schema/.test(i.message) && after.split('\n')[i.line - 1].includes('type: maybe'))).toBe(true);
	});
});

describe('minimalEdit', () => {
	it('finds the one changed span', () => {
		expect(minimalEdit('abc', 'abc')).toBeNull();
		expect(minimalEdit('temperature: 0.2,', 'temperature: 0.75,')).toEqual({ start: 15, end: 16, text: '75' });
		expect(minimalEdit('aaa', 'aaaa')).toEqual({ start: 3, end: 3, text: 'a' });
		expect(minimalEdit('abcd', 'ad')).toEqual({ start: 1, end: 3, text: '' });
		const before = 'x'.repeat(50) + 'old' + 'y'.repeat(50);
		const e = minimalEdit(before, 'x'.repeat(50) + 'new text' + 'y'.repeat(50));
		expect(e && before.slice(0, e.start) + e.text + before.slice(e.end)).toBe('x'.repeat(50) + 'new text' + 'y'.repeat(50));
	});
});
