// Diagnostics for one template's file as it is edited: everything `parseTemplate` refuses
// (YAML, keys, inputs, output schema, fail-safe, placeholders, declared inputs the text never
// uses), each with its line and, where a place on the line is known, its columns; then, for a
// template the engine uses, the contract (src/lib/prompts/contract.ts): the inputs the engine
// passes and the answer fields it reads. Pure and quick: the browser runs it on every edit and
// the server runs the same checks before it stores a prompt-set version.

import { TEMPLATE_IDS, type TemplateId } from '../engine/model';
import { TEMPLATE_CONTRACT, type OutputShape } from './contract';
import type { Schema } from './schema';
import { frontMatterLocator, normaliseSource, parseTemplate, TemplateError, type Template } from './template';

export type IssueSeverity = 'error' | 'warning';

export interface TemplateCheckIssue {
	/** 1-based line of the file */
	line: number;
	/** 1-based first column of the problem on that line, when known */
	column?: number;
	/** 1-based column just after the problem (exclusive), when known */
	endColumn?: number;
	message: string;
	/** an error keeps the template from being stored or used; a warning does not */
	severity: IssueSeverity;
}

const isEngineTemplate = (id: string): id is TemplateId => (TEMPLATE_IDS as readonly string[]).includes(id);

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The columns of `pattern`'s first match on `line`, if any. */
function span(line: string | undefined, pattern: RegExp | string): { column: number; endColumn: number } | undefined {
	if (line === undefined) return undefined;
	const re = typeof pattern === 'string' ? new RegExp(escapeRegExp(pattern)) : pattern;
	const m = re.exec(line);
	return m ? { column: m.index + 1, endColumn: m.index + 1 + m[0].length } : undefined;
}

/** Where on its line a problem reported by parseTemplate is, from what its message names. */
function columnsOf(message: string, line: string | undefined): { column: number; endColumn: number } | undefined {
	let m = /^unknown placeholder \{\{(\w+)\}\}/.exec(message);
	if (m) return span(line, new RegExp(`\\{\\{\\s*${m[1]}\\s*\\}\\}`));
	m = /^malformed placeholder (\{\{[^{}]*\}\})/.exec(message);
	if (m) return span(line, m[1]);
	if (message.startsWith('unclosed placeholder')) {
		const at = line?.replace(/\{\{[^{}]*\}\}/g, (x) => ' '.repeat(x.length)).indexOf('{{') ?? -1;
		return at >= 0 && line ? { column: at + 1, endColumn: line.length + 1 } : undefined;
	}
	m = /^input "(\w+)"/.exec(message) ?? /^unknown (?:key|sampling setting) "([^"]+)"/.exec(message) ?? /^sampling "([^"]+)"/.exec(message);
	if (m) return span(line, new RegExp(`\\b${escapeRegExp(m[1])}\\b`));
	return undefined;
}

function shapeName(shape: OutputShape): string {
	if (typeof shape === 'string') return shape === 'string' ? 'text' : shape;
	if (Array.isArray(shape)) return 'an array';
	return 'an object';
}

/** Problems of a parsed schema against the shape the engine reads; `path` is the schema's place in the front matter. */
function shapeIssues(schema: Schema, shape: OutputShape, path: (string | number)[], where: string, out: { path: (string | number)[]; message: string }[]): void {
	if (typeof shape === 'string') {
		const ok = schema.type === shape || (shape === 'number' && schema.type === 'integer');
		if (!ok) out.push({ path: [...path, 'type'], message: `${where} must be of type ${shape}: the engine reads it as ${shapeName(shape)} (the schema says ${schema.type})` });
		return;
	}
	if (Array.isArray(shape)) {
		if (schema.type !== 'array') out.push({ path: [...path, 'type'], message: `${where} must be an array: the engine reads a list there (the schema says ${schema.type})` });
		else if (schema.items) shapeIssues(schema.items, shape[0], [...path, 'items'], `${where}[]`, out);
		return;
	}
	if (schema.type !== 'object') {
		out.push({ path: [...path, 'type'], message: `${where} must be an object with ${Object.keys(shape).join(', ')}: the engine reads those (the schema says ${schema.type})` });
		return;
	}
	for (const [name, sub] of Object.entries(shape)) {
		const at = `${where}.${name}`;
		const prop = schema.properties?.[name];
		if (!prop) {
			out.push({ path: [...path, 'properties'], message: `${at} is missing: the engine reads "${name}" from the answer, so the output must declare it (${shapeName(sub)}) and require it` });
			continue;
		}
		if (!(schema.required ?? []).includes(name)) {
			out.push({ path: [...path, 'required'], message: `"${name}" must be listed in ${where}.required: the engine reads it from every answer` });
		}
		shapeIssues(prop, sub, [...path, 'properties', name], at, out);
	}
}

/** The contract problems of a template the engine uses (none for other ids). */
export function contractIssues(t: Template): TemplateCheckIssue[] {
	if (!isEngineTemplate(t.id)) return [];
	const contract = TEMPLATE_CONTRACT[t.id];
	const lineOf = frontMatterLocator(t.source);
	const lines = t.source.split('\n');
	const issues: TemplateCheckIssue[] = [];
	const push = (path: (string | number)[], message: string, severity: IssueSeverity = 'error', needle?: string) => {
		const line = lineOf(path);
		issues.push({ line, ...(needle ? span(lines[line - 1], new RegExp(`\\b${escapeRegExp(needle)}\\b`)) : {}), message, severity });
	};
	const expected = Object.entries(contract.inputs)
		.map(([n, type]) => `${n}: ${type}`)
		.join(', ');
	for (const [name, type] of Object.entries(contract.inputs)) {
		const spec = t.inputs[name];
		if (!spec) {
			push(['inputs'], `the engine passes "${name}" (${type}) to ${t.id}: declare it under inputs and use {{${name}}} (rendering refuses a variable the template does not declare)`, 'error', 'inputs');
		} else if (spec.type !== type) {
			const lists = (x: string) => x === 'list' || x === 'numbered';
			if (lists(spec.type) && lists(type)) {
				push(['inputs', name, 'type'], `input "${name}" is ${spec.type} but the engine's contract says ${type} (${type === 'numbered' ? 'items numbered 1., 2., ...' : 'items as "- " lines'})`, 'warning', spec.type);
			} else {
				push(['inputs', name, 'type'], `input "${name}" must be of type ${type}: the engine passes ${type === 'text' ? 'text' : type === 'integer' ? 'a whole number' : type === 'boolean' ? 'true or false' : 'a list of text'}`, 'error', spec.type);
			}
		}
	}
	for (const name of Object.keys(t.inputs)) {
		if (!(name in contract.inputs)) {
			push(['inputs', name], `the engine does not pass "${name}" to ${t.id} (it passes ${expected}); rendering would refuse every call`, 'error', name);
		}
	}
	const found: { path: (string | number)[]; message: string }[] = [];
	shapeIssues(t.output, contract.output, ['output'], 'output', found);
	for (const f of found) push(f.path, f.message);
	return issues;
}

/**
 * Every problem of one template file, sorted by line. `id` is the template's id (its file is
 * `<id>.md`); without it the file name is not checked. Errors are what `parseTemplate` refuses
 * plus breaches of the engine's contract; warnings are a text that never mentions JSON (answers
 * must be JSON objects), a template the engine never asks for, and list/numbered swaps.
 */
export function checkTemplateSource(source: string, id?: string): TemplateCheckIssue[] {
	const lines = normaliseSource(source).split('\n');
	let t: Template;
	try {
		t = parseTemplate(source, id === undefined ? undefined : `${id}.md`);
	} catch (e) {
		if (!(e instanceof TemplateError)) throw e;
		return e.issues.map((i) => ({ line: i.line, ...columnsOf(i.message, lines[i.line - 1]), message: i.message, severity: 'error' as const }));
	}
	const issues = contractIssues(t);
	if (!isEngineTemplate(t.id)) {
		const line = frontMatterLocator(t.source)(['id']);
		issues.push({ line, ...span(lines[line - 1], t.id), message: `the engine never asks for a template "${t.id}" (its templates: ${TEMPLATE_IDS.join(', ')})`, severity: 'warning' });
	}
	if (!/json/i.test(t.body)) {
		issues.push({ line: t.bodyLine, message: 'the text never mentions JSON: answers must be a JSON object, so say so and show its shape', severity: 'warning' });
	}
	return issues.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}
