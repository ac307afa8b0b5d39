// Prompt templates: one Markdown file per template, YAML front matter declaring inputs, the
// output schema, a fail-safe answer and sampling settings, then the prompt text with
// `{{name}}` placeholders. Pure code (no node: imports) so the browser workbench can parse
// and render templates as they are edited.

import { LineCounter, parseDocument, isMap, isPair, isScalar, type Document } from 'yaml';
import type { TemplateValue, TemplateVars } from '../engine/model';
import { sha256Hex } from './hash';
import { checkSchema, validateOutput, type Schema } from './schema';
import { isRecord } from '../shared/guards';
import { splitFrontMatter, type FrontMatter } from './front-matter';

export const INPUT_TYPES = ['text', 'integer', 'boolean', 'list', 'numbered'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

export interface InputSpec {
	type: InputType;
	description: string;
}

/** Sampling settings passed to the chat call. Only these keys are accepted. */
export interface Sampling {
	temperature?: number;
	max_tokens?: number;
	top_p?: number;
	presence_penalty?: number;
	frequency_penalty?: number;
	seed?: number;
	stop?: string | string[];
}

export interface Template {
	id: string;
	description: string;
	inputs: Record<string, InputSpec>;
	output: Schema;
	/** The answer used when the model fails; strings may contain `{{name}}` placeholders. */
	failsafe: unknown;
	sampling: Sampling;
	/** The prompt text (without front matter). */
	body: string;
	/** 1-based line of the file where the body starts. */
	bodyLine: number;
	file?: string;
	/** The normalised file text the template was parsed from. */
	source: string;
}

export interface TemplateIssue {
	line: number;
	message: string;
}

/** A template that cannot be used; `issues` lists every problem with its 1-based line. */
export class TemplateError extends Error {
	readonly file: string;
	readonly issues: TemplateIssue[];

	constructor(file: string, issues: TemplateIssue[]) {
		const lines = issues.map((i) => `${file}:${i.line}: ${i.message}`);
		super(lines.length === 1 ? lines[0] : `${file}: ${issues.length} problems\n${lines.join('\n')}`);
		this.name = 'TemplateError';
		this.file = file;
		this.issues = issues;
	}
}

/** Variables that do not fit a template's declared inputs. */
export class RenderError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'RenderError';
	}
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const TOP_KEYS = ['id', 'description', 'inputs', 'output', 'failsafe', 'sampling'];
const SAMPLING_KEYS: Record<keyof Sampling, (v: unknown) => string | undefined> = {
	temperature: (v) => (typeof v === 'number' && v >= 0 && v <= 2 ? undefined : 'a number from 0 to 2'),
	max_tokens: (v) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? undefined : 'a positive integer'),
	top_p: (v) => (typeof v === 'number' && v > 0 && v <= 1 ? undefined : 'a number above 0, at most 1'),
	presence_penalty: (v) => (typeof v === 'number' && v >= -2 && v <= 2 ? undefined : 'a number from -2 to 2'),
	frequency_penalty: (v) => (typeof v === 'number' && v >= -2 && v <= 2 ? undefined : 'a number from -2 to 2'),
	seed: (v) => (typeof v === 'number' && Number.isInteger(v) ? undefined : 'an integer'),
	stop: (v) =>
		typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string')) ? undefined : 'text or a list of text'
};

/** Line endings to LF, no trailing spaces, exactly one final newline: what the version hashes. */
export function normaliseSource(source: string): string {
	return (
		source
			.replace(/^\uFEFF/, '')
			.replace(/\r\n?/g, '\n')
			.split('\n')
			.map((l) => l.replace(/[ \t]+$/, ''))
			.join('\n')
			.replace(/\n*$/, '') + '\n'
	);
}

function baseName(file: string): string {
	const name = file.split(/[\\/]/).pop() ?? file;
	return name.replace(/\.md$/i, '');
}

/**
 * Parses a template file. Throws TemplateError listing every problem with its line: bad YAML,
 * unknown keys, invalid schema, a fail-safe that does not validate, unknown placeholders,
 * declared inputs the text never uses.
 */
export function parseTemplate(source: string, file?: string): Template {
	const where = file ?? '<template>';
	const issues: TemplateIssue[] = [];
	const fail = (): never => {
		issues.sort((a, b) => a.line - b.line);
		throw new TemplateError(where, issues);
	};

	const text = normaliseSource(source);
	const split = splitFrontMatter(text);
	if (split === 'unopened') {
		issues.push({ line: 1, message: 'a template must start with a "---" line opening its YAML front matter' });
		fail();
	}
	if (split === 'unclosed') {
		issues.push({ line: 1, message: 'the YAML front matter is not closed by a "---" line' });
		fail();
	}
	const { lines, close, yaml: yamlText } = split as FrontMatter;
	// File line of YAML line 1 is 2.
	const yamlOffset = 1;
	const lineCounter = new LineCounter();
	const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
	for (const err of [...doc.errors, ...doc.warnings]) {
		const line = lineCounter.linePos(err.pos[0]).line + yamlOffset;
		issues.push({ line, message: `YAML: ${err.message.split('\n')[0]}` });
	}
	if (doc.errors.length) fail();

	const lineOf = (path: (string | number)[]): number => lineOfPath(doc, lineCounter, path) + yamlOffset;
	const head = doc.toJS() as unknown;
	if (!isRecord(head)) {
		issues.push({ line: 2, message: 'the front matter must be a YAML mapping (id, description, inputs, output, failsafe, sampling)' });
		fail();
	}
	const fm = head as Record<string, unknown>;
	for (const key of Object.keys(fm)) {
		if (!TOP_KEYS.includes(key)) issues.push({ line: lineOf([key]), message: `unknown key "${key}" (allowed: ${TOP_KEYS.join(', ')})` });
	}
	for (const key of ['id', 'description', 'inputs', 'output', 'failsafe']) {
		if (!(key in fm)) issues.push({ line: 2, message: `missing "${key}" in the front matter` });
	}

	const id = fm.id;
	if ('id' in fm) {
		if (typeof id !== 'string' || !/^[a-z][a-z0-9_]*$/.test(id)) {
			issues.push({ line: lineOf(['id']), message: '"id" must be lowercase letters, digits and underscores' });
		} else if (file && baseName(file) !== id) {
			issues.push({ line: lineOf(['id']), message: `"id" is "${id}" but the file is named "${baseName(file)}.md"` });
		}
	}
	if ('description' in fm && typeof fm.description !== 'string') {
		issues.push({ line: lineOf(['description']), message: '"description" must be text' });
	}

	const inputs: Record<string, InputSpec> = {};
	if ('inputs' in fm) {
		if (!isRecord(fm.inputs)) {
			issues.push({ line: lineOf(['inputs']), message: '"inputs" must be a mapping of name to {type, description}' });
		} else {
			for (const [name, raw] of Object.entries(fm.inputs)) {
				const at = lineOf(['inputs', name]);
				if (!IDENT.test(name)) {
					issues.push({ line: at, message: `input name "${name}" must be letters, digits and underscores` });
					continue;
				}
				const spec = typeof raw === 'string' ? { type: raw, description: '' } : raw;
				if (!isRecord(spec)) {
					issues.push({ line: at, message: `input "${name}" must be {type, description}` });
					continue;
				}
				for (const key of Object.keys(spec)) {
					if (key !== 'type' && key !== 'description') {
						issues.push({ line: lineOf(['inputs', name, key]), message: `unknown key "${key}" in input "${name}" (allowed: type, description)` });
					}
				}
				if (typeof spec.type !== 'string' || !(INPUT_TYPES as readonly string[]).includes(spec.type)) {
					issues.push({
						line: lineOf(['inputs', name, 'type']),
						message: `input "${name}" has type ${JSON.stringify(spec.type)}; expected one of ${INPUT_TYPES.join(', ')}`
					});
					continue;
				}
				if (spec.description !== undefined && typeof spec.description !== 'string') {
					issues.push({ line: lineOf(['inputs', name, 'description']), message: `input "${name}": "description" must be text` });
				}
				inputs[name] = { type: spec.type as InputType, description: typeof spec.description === 'string' ? spec.description : '' };
			}
		}
	}
	const listInputs = new Set(Object.entries(inputs).filter(([, s]) => s.type === 'list' || s.type === 'numbered').map(([n]) => n));

	let schemaOk = false;
	if ('output' in fm) {
		const schemaIssues = checkSchema(fm.output, listInputs);
		for (const si of schemaIssues) {
			const path = si.path.length ? ` at output.${si.path.join('.')}` : '';
			issues.push({ line: lineOf(['output', ...si.path]), message: `invalid output schema${path}: ${si.message}` });
		}
		if (!schemaIssues.length && isRecord(fm.output) && fm.output.type !== 'object') {
			issues.push({ line: lineOf(['output', 'type']), message: 'the output must be of type object (answers are JSON objects)' });
		} else if (!schemaIssues.length) schemaOk = true;
	}

	if ('failsafe' in fm && schemaOk) {
		const result = validateOutput(fm.output as Schema, fm.failsafe);
		for (const e of result.errors) issues.push({ line: lineOf(['failsafe']), message: `the fail-safe does not validate against the output: ${e}` });
		for (const name of placeholdersIn(fm.failsafe)) {
			if (!inputs[name]) issues.push({ line: lineOf(['failsafe']), message: `the fail-safe uses unknown placeholder {{${name}}}` });
		}
	}

	const sampling: Sampling = {};
	if (fm.sampling !== undefined) {
		if (!isRecord(fm.sampling)) {
			issues.push({ line: lineOf(['sampling']), message: '"sampling" must be a mapping (temperature, max_tokens, ...)' });
		} else {
			for (const [key, value] of Object.entries(fm.sampling)) {
				const check = SAMPLING_KEYS[key as keyof Sampling];
				if (!check) {
					issues.push({ line: lineOf(['sampling', key]), message: `unknown sampling setting "${key}" (allowed: ${Object.keys(SAMPLING_KEYS).join(', ')})` });
					continue;
				}
				const problem = check(value);
				if (problem) issues.push({ line: lineOf(['sampling', key]), message: `sampling "${key}" must be ${problem}` });
				else (sampling as Record<string, unknown>)[key] = value;
			}
		}
	}

	// The body: everything after the closing ---, without the blank lines around it.
	let bodyStart = close + 1;
	while (bodyStart < lines.length && lines[bodyStart].trim() === '') bodyStart++;
	const bodyLines = lines.slice(bodyStart);
	while (bodyLines.length && bodyLines[bodyLines.length - 1].trim() === '') bodyLines.pop();
	const body = bodyLines.join('\n');
	const bodyLine = bodyStart + 1;
	if (!body.trim()) issues.push({ line: Math.min(bodyLine, lines.length), message: 'the template has no prompt text after the front matter' });

	const used = new Set<string>();
	bodyLines.forEach((l, i) => {
		const line = bodyLine + i;
		for (const m of l.matchAll(PLACEHOLDER)) {
			const name = m[1].trim();
			if (!IDENT.test(name)) issues.push({ line, message: `malformed placeholder ${m[0]}: expected {{name}}` });
			else if (!inputs[name] && !(fm.inputs && isRecord(fm.inputs) && name in fm.inputs)) {
				const known = Object.keys(inputs).join(', ') || 'none';
				issues.push({ line, message: `unknown placeholder {{${name}}} (declared inputs: ${known})` });
			} else used.add(name);
		}
		const stray = l.replace(PLACEHOLDER, '');
		if (stray.includes('{{')) issues.push({ line, message: 'unclosed placeholder: "{{" without a matching "}}"' });
	});
	for (const name of Object.keys(inputs)) {
		if (!used.has(name)) issues.push({ line: lineOf(['inputs', name]), message: `input "${name}" is declared but the text never uses {{${name}}}` });
	}

	if (issues.length) fail();
	return {
		id: id as string,
		description: fm.description as string,
		inputs,
		output: fm.output as Schema,
		failsafe: fm.failsafe,
		sampling,
		body,
		bodyLine,
		file,
		source: text
	};
}

/**
 * A function giving the 1-based file line of a front-matter path (`['inputs', 'name']`: the
 * line of that key), for checks made on a parsed template; the deepest part of the path that
 * exists counts, and line 2 stands for a front matter that cannot be read.
 */
export function frontMatterLocator(source: string): (path: (string | number)[]) => number {
	const split = splitFrontMatter(normaliseSource(source));
	if (typeof split === 'string') return () => 1;
	const lineCounter = new LineCounter();
	const doc = parseDocument(split.yaml, { lineCounter, prettyErrors: false });
	return (path) => lineOfPath(doc, lineCounter, path) + 1;
}

function lineOfPath(doc: Document, counter: LineCounter, path: (string | number)[]): number {
	// Walk down as far as the path exists; report the key's line for mapping entries.
	let node: unknown = doc.contents;
	let line = 1;
	for (const step of path) {
		if (isMap(node)) {
			const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
			if (!pair) break;
			const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
			if (keyRange) line = counter.linePos(keyRange[0]).line;
			node = pair.value;
		} else if (node && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items)) {
			const item = (node as { items: unknown[] }).items[Number(step)] as { range?: [number, number, number] } | undefined;
			if (!item) break;
			if (item.range) line = counter.linePos(item.range[0]).line;
			node = item;
		} else break;
	}
	return line;
}

function placeholdersIn(value: unknown): string[] {
	const out: string[] = [];
	const visit = (v: unknown) => {
		if (typeof v === 'string') for (const m of v.matchAll(PLACEHOLDER)) out.push(m[1].trim());
		else if (Array.isArray(v)) v.forEach(visit);
		else if (isRecord(v)) Object.values(v).forEach(visit);
	};
	visit(value);
	return out;
}

/** Short content hash of the normalised template file: changes whenever the file changes. */
export function templateVersion(t: Pick<Template, 'source'>): string {
	return sha256Hex(normaliseSource(t.source)).slice(0, 12);
}

function checkVar(t: Template, name: string, spec: InputSpec, value: TemplateValue | undefined): string | undefined {
	const got = Array.isArray(value) ? 'a list' : value === undefined ? 'nothing' : `${typeof value}`;
	switch (spec.type) {
		case 'text':
			return typeof value === 'string' ? undefined : `"${name}" must be text (got ${got})`;
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value) ? undefined : `"${name}" must be an integer (got ${got === 'number' ? String(value) : got})`;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `"${name}" must be true or false (got ${got})`;
		case 'list':
		case 'numbered':
			return Array.isArray(value) && value.every((v) => typeof v === 'string')
				? undefined
				: `"${name}" must be a list of text (got ${Array.isArray(value) ? 'a list with non-text items' : got})`;
	}
	return `unsupported input type for "${name}" in ${t.id}`;
}

/** Throws RenderError when `vars` does not match the template's inputs (missing, extra, wrong type). */
export function checkVars(t: Template, vars: TemplateVars): void {
	const problems: string[] = [];
	for (const [name, spec] of Object.entries(t.inputs)) {
		const problem = checkVar(t, name, spec, vars[name]);
		if (problem) problems.push(problem);
	}
	for (const name of Object.keys(vars)) {
		if (!t.inputs[name]) problems.push(`"${name}" is not an input of this template`);
	}
	if (problems.length) {
		throw new RenderError(`template ${t.id}: ${problems.join('; ')} (inputs: ${Object.keys(t.inputs).join(', ')})`);
	}
}

function oneLine(item: string): string {
	return item.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** Renders one variable as it appears in the prompt. */
export function renderValue(type: InputType, value: TemplateValue): string {
	switch (type) {
		case 'text':
			return String(value);
		case 'integer':
			return String(value);
		case 'boolean':
			return value ? 'yes' : 'no';
		case 'list': {
			const items = value as string[];
			return items.length ? items.map((i) => `- ${oneLine(i)}`).join('\n') : '(none)';
		}
		case 'numbered': {
			const items = value as string[];
			return items.length ? items.map((i, n) => `${n + 1}. ${oneLine(i)}`).join('\n') : '(none)';
		}
	}
}

/** The prompt text with every placeholder replaced; type-checks `vars` first. */
export function renderTemplate(t: Template, vars: TemplateVars): string {
	checkVars(t, vars);
	return t.body.replace(PLACEHOLDER, (_, raw: string) => {
		const name = raw.trim();
		return renderValue(t.inputs[name].type, vars[name]);
	});
}

/**
 * The template's fail-safe fitted to this call: placeholders in its strings are filled in,
 * arrays bound by `lengthFrom` are cut or padded (repeating their last item) to the input's
 * length, a string bound by `enumFrom` that is not an allowed item becomes the first item,
 * and integers bound by `indexFrom` are clamped to the item numbers.
 */
export function failsafeFor(t: Template, vars: TemplateVars): unknown {
	return fit(t.output, structuredCloneJson(t.failsafe), t, vars);
}

function structuredCloneJson<T>(value: T): T {
	return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function fillPlaceholders(text: string, t: Template, vars: TemplateVars): string {
	return text.replace(PLACEHOLDER, (whole, raw: string) => {
		const name = raw.trim();
		const spec = t.inputs[name];
		const value = vars[name];
		if (!spec || value === undefined) return whole;
		return spec.type === 'list' || spec.type === 'numbered' ? (value as string[]).join(', ') : renderValue(spec.type, value);
	});
}

function defaultFor(schema: Schema): unknown {
	switch (schema.type) {
		case 'object': {
			const out: Record<string, unknown> = {};
			for (const name of schema.required ?? []) {
				const sub = schema.properties?.[name];
				if (sub) out[name] = defaultFor(sub);
			}
			return out;
		}
		case 'array':
			return [];
		case 'string':
			return typeof schema.enum?.[0] === 'string' ? schema.enum[0] : '';
		case 'integer':
		case 'number':
			return schema.minimum ?? 0;
		case 'boolean':
			return false;
	}
}

function fit(schema: Schema, value: unknown, t: Template, vars: TemplateVars): unknown {
	switch (schema.type) {
		case 'object': {
			if (!isRecord(value)) return value;
			for (const [name, sub] of Object.entries(schema.properties ?? {})) {
				if (name in value) value[name] = fit(sub, value[name], t, vars);
			}
			return value;
		}
		case 'array': {
			if (!Array.isArray(value)) return value;
			let items = value.map((v) => (schema.items ? fit(schema.items, v, t, vars) : v));
			const bound = schema.lengthFrom ? vars[schema.lengthFrom] : undefined;
			if (Array.isArray(bound)) {
				const pad = items.length ? items[items.length - 1] : schema.items ? fit(schema.items, defaultFor(schema.items), t, vars) : null;
				items = items.slice(0, bound.length);
				while (items.length < bound.length) items.push(structuredCloneJson(pad));
			}
			return items;
		}
		case 'string': {
			if (typeof value !== 'string') return value;
			const filled = fillPlaceholders(value, t, vars);
			const options = schema.enumFrom ? vars[schema.enumFrom] : undefined;
			if (Array.isArray(options) && options.length && !options.includes(filled)) return options[0];
			return filled;
		}
		case 'integer': {
			const items = schema.indexFrom ? vars[schema.indexFrom] : undefined;
			if (typeof value === 'number' && Array.isArray(items) && items.length) return Math.min(Math.max(1, value), items.length);
			return value;
		}
		default:
			return value;
	}
}
