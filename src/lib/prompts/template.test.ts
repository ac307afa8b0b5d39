import { describe, expect, it } from 'vitest';
import { failsafeFor, parseTemplate, RenderError, renderTemplate, TemplateError, templateVersion, type Template } from './template';

const GOOD = `---
id: choose_room
description: Picks a room.
inputs:
  name: {type: text, description: The agent.}
  age: {type: integer, description: Age.}
  awake: {type: boolean, description: Awake or not.}
  options: {type: list, description: Rooms.}
  memories: {type: numbered, description: Memories.}
output:
  type: object
  required: [choice]
  properties:
    choice: {type: string, enumFrom: options}
failsafe:
  choice: "{{name}}'s room"
sampling: {temperature: 0, max_tokens: 50}
---

{{name}} ({{age}}) awake: {{awake}}
Rooms:
{{options}}
Memories:
{{ memories }}
`;

function issuesOf(source: string, file = 'prompts/choose_room.md'): { line: number; message: string }[] {
	try {
		parseTemplate(source, file);
	} catch (e) {
		expect(e).toBeInstanceOf(TemplateError);
		return (e as TemplateError).issues;
	}
	throw new Error('expected the template to be refused');
}

describe('parseTemplate', () => {
	it('parses front matter and body', () => {
		const t = parseTemplate(GOOD, 'prompts/choose_room.md');
		expect(t.id).toBe('choose_room');
		expect(Object.keys(t.inputs)).toEqual(['name', 'age', 'awake', 'options', 'memories']);
		expect(t.inputs.options).toEqual({ type: 'list', description: 'Rooms.' });
		expect(t.sampling).toEqual({ temperature: 0, max_tokens: 50 });
		expect(t.body.startsWith('{{name}} ({{age}})')).toBe(true);
		expect(t.bodyLine).toBe(20);
	});

	it('reports an unknown placeholder at its line', () => {
		const issues = issuesOf(GOOD.replace('Rooms:', 'Rooms of {{house}}:'));
		expect(issues).toEqual([{ line: 21, message: expect.stringMatching(/unknown placeholder \{\{house\}\}.*declared inputs: name, age/) }]);
	});

	it('reports a declared input the text never uses, at its declaration', () => {
		const issues = issuesOf(GOOD.replace('awake: {{awake}}', ''));
		expect(issues).toEqual([{ line: 7, message: 'input "awake" is declared but the text never uses {{awake}}' }]);
	});

	it('reports bad YAML with the file line', () => {
		const issues = issuesOf(GOOD.replace('description: Picks a room.', 'description: [unclosed'));
		expect(issues.length).toBeGreaterThan(0);
		expect(issues[0].message).toMatch(/^YAML:/);
		expect(issues[0].line).toBeGreaterThanOrEqual(3);
		expect(issues[0].line).toBeLessThanOrEqual(5);
	});

	it('reports a duplicate key at its line', () => {
		const issues = issuesOf(GOOD.replace('description: Picks a room.', 'description: Picks a room.\ndescription: again'));
		expect(issues).toEqual([{ line: 4, message: expect.stringMatching(/^YAML: Map keys must be unique/) }]);
	});

	it('reports an invalid schema at the offending keyword', () => {
		const issues = issuesOf(GOOD.replace('{type: string, enumFrom: options}', '{type: string, minimum: 3}'));
		expect(issues).toEqual([{ line: 14, message: expect.stringMatching(/invalid output schema at output\.properties\.choice\.minimum: keyword "minimum" is not allowed/) }]);
	});

	it('reports a fail-safe that does not validate', () => {
		const issues = issuesOf(GOOD.replace(`choice: "{{name}}'s room"`, 'choice: 3'));
		expect(issues).toEqual([{ line: 15, message: expect.stringMatching(/fail-safe does not validate.*\$\.choice: expected text/) }]);
	});

	it('reports unknown keys, input types and sampling settings', () => {
		const src = GOOD.replace('sampling: {temperature: 0, max_tokens: 50}', 'sampling: {temperature: 5, top_k: 3}\nauthor: me').replace(
			'age: {type: integer, description: Age.}',
			'age: {type: int, description: Age.}'
		);
		const messages = issuesOf(src).map((i) => `${i.line}: ${i.message}`);
		expect(messages).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^6: input "age" has type "int"/),
				expect.stringMatching(/^17: sampling "temperature" must be a number from 0 to 2/),
				expect.stringMatching(/^17: unknown sampling setting "top_k"/),
				expect.stringMatching(/^18: unknown key "author"/)
			])
		);
	});

	it('requires the id to match the file name', () => {
		expect(issuesOf(GOOD, 'prompts/other.md')).toEqual([{ line: 2, message: '"id" is "choose_room" but the file is named "other.md"' }]);
	});

	it('refuses a file without front matter, naming the file', () => {
		expect(() => parseTemplate('just text', 'prompts/x.md')).toThrow('prompts/x.md:1: a template must start with a "---" line');
		expect(() => parseTemplate('---\nid: x\n', 'prompts/x.md')).toThrow(/not closed/);
	});

	it('lists every problem in the message with file and line', () => {
		const src = GOOD.replace('Rooms:', 'Rooms {{a}}:').replace('Memories:', 'Memories {{b}}:');
		expect(() => parseTemplate(src, 'prompts/choose_room.md')).toThrow(/prompts\/choose_room\.md:21: unknown placeholder \{\{a\}\}[\s\S]*prompts\/choose_room\.md:23: unknown placeholder \{\{b\}\}/);
	});

	it('reports malformed and unclosed placeholders', () => {
		const messages = issuesOf(GOOD.replace('Rooms:', 'Rooms {{two words}} {{oops')).map((i) => i.message);
		expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/malformed placeholder \{\{two words\}\}/), expect.stringMatching(/unclosed placeholder/)]));
	});
});

describe('renderTemplate', () => {
	const t = parseTemplate(GOOD, 'prompts/choose_room.md');

	it('renders every type', () => {
		const text = renderTemplate(t, { name: 'Ada', age: 30, awake: true, options: ['kitchen', 'bed\nroom'], memories: ['one', 'two'] });
		expect(text).toBe('Ada (30) awake: yes\nRooms:\n- kitchen\n- bed room\nMemories:\n1. one\n2. two');
	});

	it('renders empty lists as (none)', () => {
		expect(renderTemplate(t, { name: 'Ada', age: 1, awake: false, options: [], memories: [] })).toContain('Rooms:\n(none)\nMemories:\n(none)');
	});

	it('type-checks variables and names the template', () => {
		expect(() => renderTemplate(t, { name: 'Ada', age: 1.5, awake: true, options: [], memories: [] })).toThrow(/template choose_room: "age" must be an integer \(got 1\.5\)/);
		expect(() => renderTemplate(t, { name: 'Ada', age: 1, awake: 'yes', options: [], memories: [] })).toThrow(/"awake" must be true or false/);
		expect(() => renderTemplate(t, { name: 'Ada', age: 1, awake: true, options: 'kitchen', memories: [] })).toThrow(/"options" must be a list/);
		expect(() => renderTemplate(t, { age: 1, awake: true, options: [], memories: [] })).toThrow(/"name" must be text \(got nothing\)/);
		expect(() => renderTemplate(t, { name: 'A', age: 1, awake: true, options: [], memories: [], extra: 'x' })).toThrow(RenderError);
	});

	it('does not expand placeholders inside values', () => {
		expect(renderTemplate(t, { name: '{{age}}', age: 2, awake: true, options: [], memories: [] }).startsWith('{{age}} (2)')).toBe(true);
	});
});

describe('templateVersion', () => {
	it('is stable across line endings and trailing spaces', () => {
		const a = parseTemplate(GOOD);
		const b = parseTemplate(GOOD.replace(/\n/g, '  \r\n') + '\n\n');
		expect(templateVersion(a)).toMatch(/^[0-9a-f]{12}$/);
		expect(templateVersion(b)).toBe(templateVersion(a));
	});

	it('changes with the content', () => {
		const a = parseTemplate(GOOD);
		const b = parseTemplate(GOOD.replace('Rooms:', 'Rooms available:'));
		expect(templateVersion(b)).not.toBe(templateVersion(a));
	});

	it('is a fixed value for a fixed file (same on every machine)', () => {
		// SHA-256 of the normalised text, first 12 hex digits.
		expect(templateVersion({ source: '---\r\nid: x\r\n---\r\nhello' })).toBe('e8e7f4d318bb');
	});
});

describe('failsafeFor', () => {
	const src = `---
id: rate
description: d
inputs:
  name: {type: text, description: n}
  options: {type: list, description: o}
  memories: {type: numbered, description: m}
output:
  type: object
  required: [ratings, choice, cite]
  properties:
    ratings: {type: array, lengthFrom: memories, items: {type: integer, minimum: 1, maximum: 10}}
    choice: {type: string, enumFrom: options}
    cite: {type: integer, indexFrom: memories}
    who: {type: string}
failsafe: {ratings: [3], choice: "{{name}}", cite: 9, who: "{{name}} and {{options}}"}
---
{{name}} {{options}} {{memories}}
`;
	const t: Template = parseTemplate(src);

	it('fits the fail-safe to the call', () => {
		const v = failsafeFor(t, { name: 'kitchen', options: ['hall', 'kitchen'], memories: ['a', 'b', 'c'] });
		expect(v).toEqual({ ratings: [3, 3, 3], choice: 'kitchen', cite: 3, who: 'kitchen and hall, kitchen' });
	});

	it('falls back to the first option and trims arrays', () => {
		const v = failsafeFor(t, { name: 'attic', options: ['hall'], memories: [] }) as Record<string, unknown>;
		expect(v.choice).toBe('hall');
		expect(v.ratings).toEqual([]);
	});

	it('returns a copy, never the template object', () => {
		const v = failsafeFor(t, { name: 'x', options: ['x'], memories: ['a'] }) as { ratings: number[] };
		v.ratings.push(99);
		expect((t.failsafe as { ratings: number[] }).ratings).toEqual([3]);
	});
});
