// The template language's Monarch tokenizer, compiled and run by Monaco's own Monarch code on
// shipped templates: front matter keys and strings, placeholders in the text and in the
// fail-safe, and malformed placeholders.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from 'monaco-editor/editor/standalone/common/monarch/monarchCompile.js';
import { MonarchTokenizer } from 'monaco-editor/editor/standalone/common/monarch/monarchLexer.js';
import { TEMPLATE_LANGUAGE, templateMonarch } from './template-language';

const configuration = {
	getValue: () => 20_000,
	onDidChangeConfiguration: () => ({ dispose() {} })
};

/** Each line's tokens as [text, type] pairs (type without the language postfix). */
function tokenize(text: string): [string, string][][] {
	const tokenizer = new MonarchTokenizer(null, null, TEMPLATE_LANGUAGE, compile(TEMPLATE_LANGUAGE, templateMonarch), configuration);
	let state = tokenizer.getInitialState();
	const out: [string, string][][] = [];
	for (const line of text.split('\n')) {
		const r = tokenizer.tokenize(line, true, state);
		state = r.endState;
		out.push(r.tokens.map((t, i) => [line.slice(t.offset, r.tokens[i + 1]?.offset ?? line.length), t.type.replace(/\.tpl$/, '')]));
	}
	tokenizer.dispose();
	return out;
}

const typesOf = (lines: [string, string][][], text: string) => lines.flat().filter(([t]) => t === text).map(([, type]) => type);

describe('the template tokenizer', () => {
	it('colours the front matter and the placeholders of a shipped template', () => {
		const source = readFileSync(path.resolve('prompts/react.md'), 'utf8');
		const lines = tokenize(source);
		expect(lines[0]).toEqual([['---', 'delimiter.frontmatter']]);
		expect(lines[1]).toContainEqual(['id', 'key']);
		expect(typesOf(lines, 'inputs')).toContain('key');
		// flow-map keys inside {type: text, description: "..."}
		expect(typesOf(lines, 'type')).toContain('key');
		expect(typesOf(lines, 'description')).toContain('key');
		const close = source.split('\n').findIndex((l, i) => i > 0 && l === '---');
		expect(lines[close]).toEqual([['---', 'delimiter.frontmatter']]);
		const body = lines.slice(close + 1);
		expect(typesOf(body, '{{summary}}')).toEqual(['variable.placeholder']);
		expect(typesOf(body, '{{name}}').length).toBeGreaterThan(3);
		expect(new Set(typesOf(body, '{{name}}'))).toEqual(new Set(['variable.placeholder']));
		// the JSON example in the text is plain text, not YAML
		expect(body.flat().some(([, type]) => type === 'key')).toBe(false);
	});

	it('reads an apostrophe inside a plain value as part of the word, and a leading quote as a string', () => {
		const lines = tokenize(['---', "description: the agent's plan", "inputs:", "  a: 'quoted'", '---'].join('\n'));
		expect(typesOf(lines, "agent's")).toEqual(['string.plain']);
		expect(typesOf(lines, 'inputs')).toEqual(['key']);
		expect(lines[3]).toContainEqual(["'", 'string.quote']);
	});

	it('marks malformed and unclosed placeholders, and finds placeholders in YAML strings', () => {
		const lines = tokenize(['---', 'failsafe: {thought: "I keep {{name}} in mind"}', '---', 'Hi {{ bad name }} and {{open', '{{ok}}'].join('\n'));
		expect(typesOf(lines, '{{name}}')).toEqual(['variable.placeholder']);
		expect(typesOf(lines, '{{ bad name }}')).toEqual(['invalid.placeholder']);
		expect(typesOf(lines, '{{')).toEqual(['invalid.placeholder']);
		expect(lines[4]).toEqual([['{{ok}}', 'variable.placeholder']]);
	});

	it('treats a file without front matter as prompt text', () => {
		const lines = tokenize('Rate {{memories}}.\nid: not a key');
		expect(typesOf(lines, '{{memories}}')).toEqual(['variable.placeholder']);
		expect(lines.flat().some(([, type]) => type === 'key')).toBe(false);
	});
});
