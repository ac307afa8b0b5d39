import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../engine/model';
import { checkTemplateSource } from './check';
import { TEMPLATE_CONTRACT, type OutputShape } from './contract';
import type { Schema } from './schema';
import { parseTemplate } from './template';

const promptsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../prompts');
const shipped = (id: string) => readFileSync(path.join(promptsDir, `${id}.md`), 'utf8');

/** The shape of the properties a schema requires, the way the contract writes it. */
function requiredShape(s: Schema): OutputShape {
	if (s.type === 'object') return Object.fromEntries((s.required ?? []).map((r) => [r, requiredShape(s.properties![r])]));
	if (s.type === 'array') return [requiredShape(s.items!)];
	return s.type;
}

const IMPORTANCE = shipped('importance');
const at = (source: string, line: number) => source.split('\n')[line - 1];
/** The 1-based line of the first line holding `text`. */
const lineWith = (source: string, text: string) => source.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('the engine contract', () => {
	it('matches the shipped templates: their inputs and the fields their outputs require', () => {
		for (const id of TEMPLATE_IDS) {
			const t = parseTemplate(shipped(id), `${id}.md`);
			const inputs = Object.fromEntries(Object.entries(t.inputs).map(([n, s]) => [n, s.type]));
			expect(inputs, id).toEqual(TEMPLATE_CONTRACT[id].inputs);
			expect(requiredShape(t.output), id).toEqual(TEMPLATE_CONTRACT[id].output);
		}
	});
});

describe('checkTemplateSource', () => {
	it('finds nothing in the shipped templates', () => {
		for (const id of TEMPLATE_IDS) expect(checkTemplateSource(shipped(id), id), id).toEqual([]);
	});

	it('locates an undeclared placeholder by line and columns', () => {
		const src = IMPORTANCE.replace('Memories of {{name}}:', 'Memories of {{ person }}:');
		const issues = checkTemplateSource(src, 'importance');
		// {{name}} is still used elsewhere, so the only problem is the new placeholder
		expect(issues).toEqual([
			{ line: 28, column: 13, endColumn: 25, severity: 'error', message: expect.stringMatching(/^unknown placeholder \{\{person\}\} \(declared inputs: name, memories\)/) }
		]);
		expect(at(src, 28).slice(12, 24)).toBe('{{ person }}');
	});

	it('reports a declared input the text never uses at its declaration', () => {
		const src = IMPORTANCE.replace('{{memories}}', 'the memories');
		const issues = checkTemplateSource(src, 'importance');
		expect(issues).toEqual([
			{ line: 6, column: 3, endColumn: 11, severity: 'error', message: 'input "memories" is declared but the text never uses {{memories}}' }
		]);
	});

	it('reports YAML and schema problems as parseTemplate does, with their lines', () => {
		const yaml = checkTemplateSource(IMPORTANCE.replace('required: [ratings]', 'required: [ratings'), 'importance');
		expect(yaml.length).toBeGreaterThan(0);
		expect(yaml.every((i) => i.severity === 'error' && i.line >= 2 && i.line <= 20)).toBe(true);
		expect(yaml[0].message).toMatch(/^YAML:/);

		const schema = checkTemplateSource(IMPORTANCE.replace('items: {type: integer, minimum: 1, maximum: 10}', 'items: {type: integer, minimum: 10, maximum: 1}'), 'importance');
		expect(schema).toEqual([expect.objectContaining({ line: 15, severity: 'error', message: expect.stringMatching(/invalid output schema at output\.properties\.ratings\.items\.minimum/) })]);
	});

	it('refuses inputs the engine does not pass, and misses the ones it does', () => {
		const extra = IMPORTANCE.replace('inputs:\n', 'inputs:\n  mood: {type: text, description: "x"}\n').replace('You are helping', '({{mood}}) You are helping');
		expect(checkTemplateSource(extra, 'importance')).toEqual([
			expect.objectContaining({ line: 5, column: 3, severity: 'error', message: expect.stringMatching(/^the engine does not pass "mood" to importance \(it passes name: text, memories: numbered\)/) })
		]);

		const missing = IMPORTANCE.replace(/ {2}name: \{type: text.*\n/, '').replaceAll('{{name}}', 'the agent');
		expect(checkTemplateSource(missing, 'importance')).toEqual([
			expect.objectContaining({ line: 4, severity: 'error', message: expect.stringMatching(/^the engine passes "name" \(text\) to importance: declare it/) })
		]);
	});

	it('refuses a type the engine does not pass, warns on a list/numbered swap', () => {
		const integer = IMPORTANCE.replace('name: {type: text', 'name: {type: integer');
		expect(checkTemplateSource(integer, 'importance')).toEqual([
			expect.objectContaining({ line: 5, severity: 'error', message: 'input "name" must be of type text: the engine passes text' })
		]);
		const list = IMPORTANCE.replace('memories: {type: numbered', 'memories: {type: list');
		expect(checkTemplateSource(list, 'importance')).toEqual([
			expect.objectContaining({ line: 6, severity: 'warning', message: expect.stringMatching(/is list but the engine's contract says numbered/) })
		]);
	});

	it('refuses an output that drops or retypes a field the engine reads', () => {
		const src = shipped('choose_arena');
		const optional = src.replace('required: [choice]', 'required: []');
		expect(checkTemplateSource(optional, 'choose_arena')).toEqual([
			expect.objectContaining({ line: lineWith(optional, 'required: []'), severity: 'error', message: expect.stringMatching(/"choice" must be listed in output\.required/) })
		]);
		const renamed = src
			.replace('required: [choice]', 'required: [pick]')
			.replace('choice: {type: string', 'pick: {type: string')
			.replace('choice: "{{current}}"', 'pick: "{{current}}"');
		expect(checkTemplateSource(renamed, 'choose_arena')).toEqual([
			expect.objectContaining({ line: lineWith(renamed, 'properties:'), severity: 'error', message: expect.stringMatching(/output\.choice is missing: the engine reads "choice"/) })
		]);
		const nested = shipped('hourly_schedule').replace('required: [start, minutes, activity]', 'required: [start, activity]');
		expect(checkTemplateSource(nested, 'hourly_schedule')).toEqual([
			expect.objectContaining({ line: lineWith(nested, 'required: [start, activity]'), severity: 'error', message: expect.stringMatching(/^"minutes" must be listed in output\.blocks\[\]\.required/) })
		]);
		const retyped = shipped('dialogue_turn').replace('end: {type: boolean', 'end: {type: string').replace(/end: (true|false)/, 'end: "no"');
		expect(checkTemplateSource(retyped, 'dialogue_turn')).toEqual([
			expect.objectContaining({ severity: 'error', message: expect.stringMatching(/^output\.end must be of type boolean/) })
		]);
	});

	it('warns about a text that never mentions JSON and about ids the engine never uses', () => {
		const src = IMPORTANCE.replace(/Answer with only a JSON object[\s\S]*$/, 'Answer briefly.\n');
		expect(checkTemplateSource(src, 'importance')).toEqual([expect.objectContaining({ line: 21, severity: 'warning', message: expect.stringMatching(/never mentions JSON/) })]);
		const other = IMPORTANCE.replace('id: importance', 'id: gossip');
		expect(checkTemplateSource(other)).toEqual([expect.objectContaining({ line: 2, column: 5, severity: 'warning', message: expect.stringMatching(/never asks for a template "gossip"/) })]);
		expect(checkTemplateSource(other, 'importance')).toEqual([expect.objectContaining({ line: 2, severity: 'error', message: '"id" is "gossip" but the file is named "importance.md"' })]);
	});
});
