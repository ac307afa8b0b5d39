// The shipped prompt templates against the contract in docs/templates.md.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../../engine/model';
import type { PromptSet } from '../../prompts/promptset';
import { validateOutput } from '../../prompts/schema';
import { failsafeFor, renderTemplate } from '../../prompts/template';
import { projectRoot } from '../paths';
import { loadPromptSet } from './load';
import { SAMPLE_VARS } from './testing/sample-vars';

let set: PromptSet;
beforeAll(async () => {
	set = await loadPromptSet();
});

/** Input names and types per template from the table in docs/templates.md. */
function contractInputs(): Map<string, Record<string, string>> {
	const doc = readFileSync(path.join(projectRoot(), 'docs', 'templates.md'), 'utf8');
	const out = new Map<string, Record<string, string>>();
	for (const line of doc.split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		if (cells.length < 5 || !/^[a-z_]+$/.test(cells[1]) || cells[1] === 'id') continue;
		const inputs: Record<string, string> = {};
		let pending: string[] = [];
		for (const part of cells[2].split(',').map((p) => p.trim())) {
			const [name, type] = part.split(':').map((x) => x.trim());
			if (!type) {
				pending.push(name);
				continue;
			}
			// Shorthand: "a, b: text" types both; "a, b: integer" types only b (a is text).
			for (const n of pending) inputs[n] = 'text';
			inputs[name] = type;
			pending = [];
		}
		for (const n of pending) inputs[n] = 'text';
		out.set(cells[1], inputs);
	}
	return out;
}

describe('prompts/', () => {
	it('has one template per engine template id, and no others', () => {
		expect([...set.templates.keys()].sort()).toEqual([...TEMPLATE_IDS].sort());
	});

	it('declares exactly the inputs docs/templates.md lists, with their types', () => {
		const contract = contractInputs();
		expect(contract.size).toBe(TEMPLATE_IDS.length);
		for (const id of TEMPLATE_IDS) {
			const declared = Object.fromEntries(Object.entries(set.templates.get(id)!.inputs).map(([n, s]) => [n, s.type]));
			expect(declared, id).toEqual(contract.get(id));
		}
	});

	it('every fail-safe, fitted to realistic variables, validates', () => {
		for (const id of TEMPLATE_IDS) {
			const t = set.templates.get(id)!;
			const vars = SAMPLE_VARS[id];
			const value = failsafeFor(t, vars);
			expect(validateOutput(t.output, value, vars).errors, id).toEqual([]);
		}
	});

	it('every template renders the sample variables without leftover placeholders and asks for JSON', () => {
		for (const id of TEMPLATE_IDS) {
			const text = renderTemplate(set.templates.get(id)!, SAMPLE_VARS[id]);
			expect(text, id).not.toMatch(/\{\{/);
			expect(text, id).toMatch(/JSON object/);
		}
	});

	it('keeps the paper wording where it matters', () => {
		const body = (id: string) => set.templates.get(id)!.body;
		expect(body('importance')).toMatch(/1 to 10/);
		expect(body('importance')).toMatch(/mundane/);
		expect(body('reflection_questions')).toMatch(/3 most salient high-level questions/);
		expect(body('reflection_insights')).toMatch(/5 high-level insights/);
		expect(body('reflection_insights')).toMatch(/because of 1, 5, 3/);
		expect(body('react')).toMatch(/Should \{\{name\}\} react to the observation/);
	});

	it('has a stable prompt-set version', async () => {
		const again = await loadPromptSet();
		expect(again.version).toBe(set.version);
		expect(Object.keys(set.versions).length).toBe(TEMPLATE_IDS.length);
	});
});
