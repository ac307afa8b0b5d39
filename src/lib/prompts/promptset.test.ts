import { describe, expect, it } from 'vitest';
import { buildPromptSet, getTemplate, parsePromptSet, promptSetVersion, PromptSetError } from './promptset';
import { parseTemplate } from './template';

const file = (id: string, body = 'Hello {{name}}') => ({
	file: `prompts/${id}.md`,
	source: `---\nid: ${id}\ndescription: d\ninputs:\n  name: {type: text, description: n}\noutput: {type: object, properties: {}}\nfailsafe: {}\n---\n${body}\n`
});

describe('prompt sets', () => {
	it('versions a set independently of order and changes when a template changes', () => {
		const a = parsePromptSet([file('one'), file('two')]);
		const b = parsePromptSet([file('two'), file('one')]);
		const c = parsePromptSet([file('one'), file('two', 'Hi {{name}}')]);
		expect(a.version).toMatch(/^[0-9a-f]{12}$/);
		expect(b.version).toBe(a.version);
		expect(c.version).not.toBe(a.version);
		expect(c.versions.one).toBe(a.versions.one);
		expect(promptSetVersion(Object.entries(a.versions))).toBe(a.version);
	});

	it('collects the problems of every file with file and line', () => {
		try {
			parsePromptSet([file('one', 'Hello {{nme}}'), file('two', 'x {{name}} {{y}}')]);
			throw new Error('expected a PromptSetError');
		} catch (e) {
			expect(e).toBeInstanceOf(PromptSetError);
			expect((e as PromptSetError).problems).toEqual([
				expect.stringMatching(/^prompts\/one\.md:5: input "name" is declared but/),
				expect.stringMatching(/^prompts\/one\.md:9: unknown placeholder \{\{nme\}\}/),
				expect.stringMatching(/^prompts\/two\.md:9: unknown placeholder \{\{y\}\}/)
			]);
		}
	});

	it('names the missing engine templates when all are required', () => {
		expect(() => parsePromptSet([file('importance', 'x {{name}}')], true)).toThrow(/missing templates: agent_summary\.md, daily_plan\.md/);
	});

	it('refuses duplicate ids', () => {
		const t = parseTemplate(file('one').source, 'a/one.md');
		const u = parseTemplate(file('one').source, 'b/one.md');
		expect(() => buildPromptSet([t, u])).toThrow(/template id "one" is also used by a\/one\.md/);
	});

	it('names what the set has when a template is missing', () => {
		const set = parsePromptSet([file('one')]);
		expect(getTemplate(set, 'one').id).toBe('one');
		expect(() => getTemplate(set, 'two')).toThrow('no template "two" in the prompt set (have: one)');
	});
});
