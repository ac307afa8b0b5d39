// The prompt workbench's form view of a template's YAML front matter: reading the declared
// inputs, output schema, fail-safe and sampling settings from the text, and writing a form edit
// back into the text. Edits go through the `yaml` document model, which prints an untouched
// front matter byte for byte as it was, so a form edit changes only what it edits; the prompt
// text after the front matter is never rewritten (except the placeholders of a renamed input).
// Pure and browser-safe.

import { isMap, isPair, isScalar, isSeq, parseDocument, Scalar, type Document, type Node } from 'yaml';
import { splitFrontMatter } from '$lib/prompts/front-matter';
import { isRecord } from '$lib/shared/guards';

/** How the front matter is printed back: no folding of long lines, `{a: 1}` flow maps. */
const PRINT = { lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false } as const;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Sampling settings the form shows as number fields (`stop` stays in the text). */
export const SAMPLING_FIELDS = ['temperature', 'max_tokens', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed'] as const;
export type SamplingField = (typeof SAMPLING_FIELDS)[number];

export interface FormInput {
	name: string;
	type: string;
	description: string;
}

/** The form's view of a template, or why its front matter cannot be shown as a form. */
export type TemplateForm =
	| {
			ok: true;
			id: string;
			description: string;
			inputs: FormInput[];
			/** the output schema as indented JSON ('' when absent) */
			output: string;
			/** the fail-safe answer as indented JSON ('' when absent) */
			failsafe: string;
			sampling: Partial<Record<SamplingField, number>>;
			/** sampling settings the form does not edit (e.g. stop), as they are */
			otherSampling: string[];
	  }
	| { ok: false; message: string };

export type FormEdit =
	| { kind: 'description'; value: string }
	| { kind: 'input-type'; name: string; type: string }
	| { kind: 'input-description'; name: string; value: string }
	| { kind: 'input-rename'; name: string; to: string }
	| { kind: 'input-add'; name: string; type: string }
	| { kind: 'input-remove'; name: string }
	| { kind: 'output'; json: string }
	| { kind: 'failsafe'; json: string }
	| { kind: 'sampling'; key: SamplingField; value: number | undefined };

/** A form edit that cannot be made; the message says why. */
export class FormEditError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'FormEditError';
	}
}

interface Split {
	/** the opening line */
	open: string;
	yaml: string;
	/** the closing `---` line and everything after it */
	rest: string;
	/** 1-based file line of the closing `---` */
	closeLine: number;
}

/** The front matter and the rest of a template file, or a reason it has none. */
export function splitSource(source: string): Split | string {
	const split = splitFrontMatter(source);
	if (split === 'unopened') return 'the file must start with a "---" line opening the front matter';
	if (split === 'unclosed') return 'the front matter is not closed by a "---" line';
	const { lines, close, yaml } = split;
	return { open: lines[0], yaml, rest: lines.slice(close).join('\n'), closeLine: close + 1 };
}

function parseHead(source: string): { split: Split; doc: Document } | string {
	const split = splitSource(source);
	if (typeof split === 'string') return split;
	const doc = parseDocument(split.yaml, { prettyErrors: false, uniqueKeys: true });
	if (doc.errors.length) {
		const err = doc.errors[0];
		const line = split.yaml.slice(0, err.pos[0]).split('\n').length + 1;
		return `line ${line}: ${err.message.split('\n')[0]}`;
	}
	if (!isMap(doc.contents)) return 'the front matter must be a YAML mapping (id, description, inputs, output, failsafe, sampling)';
	return { split, doc };
}

const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2));

/** The form's view of a template file (cheap: one YAML parse of the front matter). */
export function readForm(source: string): TemplateForm {
	const head = parseHead(source);
	if (typeof head === 'string') return { ok: false, message: `The front matter cannot be shown as a form: ${head}.` };
	const fm = head.doc.toJS() as Record<string, unknown>;
	const inputs: FormInput[] = [];
	if (isRecord(fm.inputs)) {
		for (const [name, spec] of Object.entries(fm.inputs)) {
			if (typeof spec === 'string') inputs.push({ name, type: spec, description: '' });
			else if (isRecord(spec)) inputs.push({ name, type: String(spec.type ?? ''), description: typeof spec.description === 'string' ? spec.description : '' });
			else inputs.push({ name, type: '', description: '' });
		}
	}
	const sampling: Partial<Record<SamplingField, number>> = {};
	const otherSampling: string[] = [];
	if (isRecord(fm.sampling)) {
		for (const [key, value] of Object.entries(fm.sampling)) {
			if ((SAMPLING_FIELDS as readonly string[]).includes(key) && typeof value === 'number') sampling[key as SamplingField] = value;
			else otherSampling.push(`${key}: ${JSON.stringify(value)}`);
		}
	}
	return {
		ok: true,
		id: typeof fm.id === 'string' ? fm.id : '',
		description: typeof fm.description === 'string' ? fm.description : '',
		inputs,
		output: json(fm.output),
		failsafe: json(fm.failsafe),
		sampling,
		otherSampling
	};
}

/** Only scalars (or lists of scalars) inside: small collections print as `{a: 1}` / `[a, b]`. */
function flowable(value: unknown): boolean {
	if (Array.isArray(value)) return value.every((v) => v === null || typeof v !== 'object');
	if (isRecord(value)) return Object.values(value).every((v) => v === null || typeof v !== 'object' || (Array.isArray(v) && flowable(v)));
	return false;
}

/** A YAML node for a JSON value: block style at the top, flow style for small leaf collections. */
function styledNode(doc: Document, value: unknown): Node {
	const node = doc.createNode(value) as Node;
	const visit = (n: unknown, v: unknown, top: boolean) => {
		if (isMap(n)) {
			if (!top && flowable(v) && JSON.stringify(v).length <= 120) n.flow = true;
			for (const p of n.items) if (isPair(p) && isScalar(p.key)) visit(p.value, (v as Record<string, unknown>)[String(p.key.value)], false);
		} else if (isSeq(n)) {
			if (!top && flowable(v) && JSON.stringify(v).length <= 120) n.flow = true;
			n.items.forEach((item, i) => visit(item, (v as unknown[])[i], false));
		}
	};
	visit(node, value, true);
	return node;
}

function parseJson(text: string, what: string): unknown {
	if (!text.trim()) throw new FormEditError(`${what} is empty: write it as JSON`);
	try {
		return JSON.parse(text);
	} catch (e) {
		throw new FormEditError(`${what} is not valid JSON: ${(e as Error).message}`);
	}
}

function inputsMap(doc: Document) {
	const node = doc.get('inputs', true);
	return isMap(node) ? node : undefined;
}

/** Renames `{{from}}` placeholders to `{{to}}` in the prompt text (after the front matter). */
function renamePlaceholders(rest: string, from: string, to: string): string {
	return rest.replace(new RegExp(`\\{\\{(\\s*)${from}(\\s*)\\}\\}`, 'g'), (_, a: string, b: string) => `{{${a}${to}${b}}}`);
}

/**
 * The template text with one form edit made to its front matter. Throws FormEditError when the
 * edit cannot be made (front matter that cannot be read, bad JSON, a taken input name...).
 */
export function applyFormEdit(source: string, edit: FormEdit): string {
	const head = parseHead(source);
	if (typeof head === 'string') throw new FormEditError(`The front matter cannot be edited from the form: ${head}`);
	const { doc, split } = head;
	let rest = split.rest;
	switch (edit.kind) {
		case 'description':
			doc.set('description', edit.value);
			break;
		case 'input-type':
		case 'input-description': {
			const map = inputsMap(doc);
			const spec = map?.get(edit.name, true);
			if (!map || spec === undefined) throw new FormEditError(`there is no input "${edit.name}"`);
			if (isMap(spec)) {
				spec.set(edit.kind === 'input-type' ? 'type' : 'description', edit.kind === 'input-type' ? edit.type : edit.value);
			} else if (edit.kind === 'input-type') {
				map.set(edit.name, edit.type);
			} else {
				const type = isScalar(spec) ? String(spec.value) : 'text';
				map.set(edit.name, styledNode(doc, { type, description: edit.value }));
				(map.get(edit.name, true) as Node & { flow?: boolean }).flow = true;
			}
			break;
		}
		case 'input-rename': {
			const map = inputsMap(doc);
			const pair = map?.items.find((p) => isScalar(p.key) && String(p.key.value) === edit.name);
			if (!map || !pair) throw new FormEditError(`there is no input "${edit.name}"`);
			if (!IDENT.test(edit.to)) throw new FormEditError(`"${edit.to}" cannot name an input: use letters, digits and underscores, not starting with a digit`);
			if (edit.to !== edit.name && map.has(edit.to)) throw new FormEditError(`there is already an input "${edit.to}"`);
			pair.key = new Scalar(edit.to);
			rest = renamePlaceholders(rest, edit.name, edit.to);
			break;
		}
		case 'input-add': {
			if (!IDENT.test(edit.name)) throw new FormEditError(`"${edit.name}" cannot name an input: use letters, digits and underscores, not starting with a digit`);
			const spec = styledNode(doc, { type: edit.type, description: '' }) as Node & { flow?: boolean };
			spec.flow = true;
			const map = inputsMap(doc);
			if (map) {
				if (map.has(edit.name)) throw new FormEditError(`there is already an input "${edit.name}"`);
				map.set(edit.name, spec);
			} else {
				doc.set('inputs', doc.createNode({}));
				(inputsMap(doc) as NonNullable<ReturnType<typeof inputsMap>>).set(edit.name, spec);
			}
			break;
		}
		case 'input-remove': {
			const map = inputsMap(doc);
			if (!map?.has(edit.name)) throw new FormEditError(`there is no input "${edit.name}"`);
			map.delete(edit.name);
			break;
		}
		case 'output': {
			const value = parseJson(edit.json, 'The output schema');
			if (!isRecord(value)) throw new FormEditError('The output schema must be a JSON object ({"type": "object", ...})');
			doc.set('output', styledNode(doc, value));
			break;
		}
		case 'failsafe':
			doc.set('failsafe', styledNode(doc, parseJson(edit.json, 'The fail-safe')));
			break;
		case 'sampling': {
			if (edit.value !== undefined && !Number.isFinite(edit.value)) throw new FormEditError(`sampling "${edit.key}" must be a number`);
			const node = doc.get('sampling', true);
			if (edit.value === undefined) {
				if (isMap(node)) {
					node.delete(edit.key);
					if (node.items.length === 0) doc.delete('sampling');
				}
			} else if (isMap(node)) {
				node.set(edit.key, edit.value);
			} else {
				const created = styledNode(doc, { [edit.key]: edit.value }) as Node & { flow?: boolean };
				created.flow = true;
				doc.set('sampling', created);
			}
			break;
		}
	}
	let yaml = doc.toString(PRINT);
	if (!yaml.endsWith('\n')) yaml += '\n';
	return `${split.open}\n${yaml}${rest}`;
}

/** The smallest single replacement turning `before` into `after` (offsets into `before`), or null when equal. */
export function minimalEdit(before: string, after: string): { start: number; end: number; text: string } | null {
	if (before === after) return null;
	let start = 0;
	const max = Math.min(before.length, after.length);
	while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
	let tail = 0;
	while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
	return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
}
