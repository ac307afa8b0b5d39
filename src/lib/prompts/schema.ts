// The JSON Schema subset that template outputs are written in, plus three extensions that tie
// an answer to the call's own inputs:
//   enumFrom: <list input>    a string must equal one of that input's items
//   lengthFrom: <list input>  an array must have exactly as many items as that input
//   indexFrom: <list input>   an integer must be a 1-based item number of that input
// Checks that depend on inputs are skipped when no variables are given (e.g. when a template's
// fail-safe is checked at load time).

import type { TemplateVars } from '../engine/model';
import { isRecord } from '../shared/guards';

export const SCHEMA_TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean'] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

export interface Schema {
	type: SchemaType;
	description?: string;
	properties?: Record<string, Schema>;
	required?: string[];
	items?: Schema;
	minItems?: number;
	maxItems?: number;
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	enum?: (string | number | boolean)[];
	enumFrom?: string;
	lengthFrom?: string;
	indexFrom?: string;
}

/** A problem found in a schema definition, located by its path inside the schema. */
export interface SchemaIssue {
	path: (string | number)[];
	message: string;
}

const KEYWORDS: Record<SchemaType, readonly string[]> = {
	object: ['properties', 'required'],
	array: ['items', 'minItems', 'maxItems', 'lengthFrom'],
	string: ['minLength', 'maxLength', 'pattern', 'enum', 'enumFrom'],
	integer: ['minimum', 'maximum', 'enum', 'indexFrom'],
	number: ['minimum', 'maximum', 'enum'],
	boolean: []
};
const COMMON = ['type', 'description'];

function isNonNegativeInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Checks that `raw` is a well-formed schema of the subset. `listInputs` names the inputs an
 * extension keyword may refer to (inputs of type list or numbered).
 */
export function checkSchema(
	raw: unknown,
	listInputs: ReadonlySet<string>,
	path: (string | number)[] = []
): SchemaIssue[] {
	const issues: SchemaIssue[] = [];
	const issue = (at: (string | number)[], message: string) => issues.push({ path: at, message });
	if (!isRecord(raw)) {
		issue(path, 'a schema must be a mapping with a "type"');
		return issues;
	}
	const type = raw.type;
	if (typeof type !== 'string' || !(SCHEMA_TYPES as readonly string[]).includes(type)) {
		issue([...path, 'type'], `"type" must be one of ${SCHEMA_TYPES.join(', ')} (got ${JSON.stringify(type)})`);
		return issues;
	}
	const t = type as SchemaType;
	const allowed = new Set([...COMMON, ...KEYWORDS[t]]);
	for (const key of Object.keys(raw)) {
		if (!allowed.has(key)) {
			const hint = KEYWORDS[t].length ? ` (allowed: ${KEYWORDS[t].join(', ')})` : '';
			issue([...path, key], `keyword "${key}" is not allowed for type ${t}${hint}`);
		}
	}
	if (raw.description !== undefined && typeof raw.description !== 'string') {
		issue([...path, 'description'], '"description" must be text');
	}
	for (const key of ['minItems', 'maxItems', 'minLength', 'maxLength'] as const) {
		if (raw[key] !== undefined && !isNonNegativeInteger(raw[key])) {
			issue([...path, key], `"${key}" must be a non-negative integer`);
		}
	}
	for (const key of ['minimum', 'maximum'] as const) {
		if (raw[key] !== undefined && (typeof raw[key] !== 'number' || !Number.isFinite(raw[key]))) {
			issue([...path, key], `"${key}" must be a number`);
		}
	}
	const pairs: [string, string][] = [
		['minItems', 'maxItems'],
		['minLength', 'maxLength'],
		['minimum', 'maximum']
	];
	for (const [lo, hi] of pairs) {
		const a = raw[lo];
		const b = raw[hi];
		if (typeof a === 'number' && typeof b === 'number' && a > b) {
			issue([...path, lo], `"${lo}" (${a}) is greater than "${hi}" (${b})`);
		}
	}
	for (const key of ['enumFrom', 'lengthFrom', 'indexFrom'] as const) {
		const ref = raw[key];
		if (ref === undefined) continue;
		if (typeof ref !== 'string' || !listInputs.has(ref)) {
			const known = [...listInputs].join(', ') || 'none declared';
			issue(
				[...path, key],
				`"${key}" must name an input of type list or numbered (got ${JSON.stringify(ref)}; list inputs: ${known})`
			);
		}
	}
	if (raw.pattern !== undefined) {
		if (typeof raw.pattern !== 'string') issue([...path, 'pattern'], '"pattern" must be text');
		else {
			try {
				new RegExp(raw.pattern, 'u');
			} catch (e) {
				issue([...path, 'pattern'], `"pattern" is not a valid regular expression: ${(e as Error).message}`);
			}
		}
	}
	if (raw.enum !== undefined) {
		const values = raw.enum;
		const want = t === 'string' ? 'string' : 'number';
		if (!Array.isArray(values) || values.length === 0) {
			issue([...path, 'enum'], '"enum" must be a non-empty list');
		} else {
			values.forEach((v, i) => {
				if (typeof v !== want || (t === 'integer' && !Number.isInteger(v))) {
					issue([...path, 'enum', i], `enum value ${JSON.stringify(v)} is not of type ${t}`);
				}
			});
		}
	}
	if (t === 'object') {
		const props = raw.properties;
		if (props === undefined) {
			issue(path, 'an object schema needs "properties"');
		} else if (!isRecord(props)) {
			issue([...path, 'properties'], '"properties" must be a mapping of name to schema');
		} else {
			for (const [name, sub] of Object.entries(props)) {
				issues.push(...checkSchema(sub, listInputs, [...path, 'properties', name]));
			}
		}
		const required = raw.required;
		if (required !== undefined) {
			if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
				issue([...path, 'required'], '"required" must be a list of property names');
			} else if (isRecord(props)) {
				required.forEach((r, i) => {
					if (!(r in props)) issue([...path, 'required', i], `required property "${r}" is not declared in "properties"`);
				});
			}
		}
	}
	if (t === 'array') {
		if (raw.items === undefined) issue(path, 'an array schema needs "items"');
		else issues.push(...checkSchema(raw.items, listInputs, [...path, 'items']));
	}
	return issues;
}

export interface ValidationResult {
	ok: boolean;
	errors: string[];
}

const MAX_ERRORS = 20;

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return `text ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value)}`;
	if (typeof value === 'object') return 'an object';
	return `${typeof value} ${String(value)}`;
}

function listVar(vars: TemplateVars | undefined, name: string | undefined): string[] | undefined {
	if (!vars || name === undefined) return undefined;
	const v = vars[name];
	return Array.isArray(v) ? v : undefined;
}

/**
 * Validates `value` against `schema`. With `vars`, the input-bound extensions are checked too.
 * Error messages use JSON paths (`$.blocks[2].minutes`) and are meant to be shown to a model
 * when it is asked to repair its answer.
 */
export function validateOutput(schema: Schema, value: unknown, vars?: TemplateVars): ValidationResult {
	const errors: string[] = [];
	walk(schema, value, '$', vars, errors);
	if (errors.length > MAX_ERRORS) {
		const extra = errors.length - MAX_ERRORS;
		errors.length = MAX_ERRORS;
		errors.push(`... and ${extra} more`);
	}
	return { ok: errors.length === 0, errors };
}

function walk(schema: Schema, value: unknown, at: string, vars: TemplateVars | undefined, errors: string[]): void {
	if (errors.length > MAX_ERRORS) return;
	switch (schema.type) {
		case 'object': {
			if (!isRecord(value)) {
				errors.push(`${at}: expected an object, got ${describe(value)}`);
				return;
			}
			for (const name of schema.required ?? []) {
				if (!(name in value) || value[name] === undefined) errors.push(`${at}: missing required property "${name}"`);
			}
			for (const [name, sub] of Object.entries(schema.properties ?? {})) {
				if (name in value && value[name] !== undefined) walk(sub, value[name], `${at}.${name}`, vars, errors);
			}
			return;
		}
		case 'array': {
			if (!Array.isArray(value)) {
				errors.push(`${at}: expected an array, got ${describe(value)}`);
				return;
			}
			if (schema.minItems !== undefined && value.length < schema.minItems) {
				errors.push(`${at}: expected at least ${schema.minItems} items, got ${value.length}`);
			}
			if (schema.maxItems !== undefined && value.length > schema.maxItems) {
				errors.push(`${at}: expected at most ${schema.maxItems} items, got ${value.length}`);
			}
			const bound = listVar(vars, schema.lengthFrom);
			if (bound && value.length !== bound.length) {
				errors.push(`${at}: expected exactly ${bound.length} items (one per item of ${schema.lengthFrom}), got ${value.length}`);
			}
			if (schema.items) value.forEach((item, i) => walk(schema.items as Schema, item, `${at}[${i}]`, vars, errors));
			return;
		}
		case 'string': {
			if (typeof value !== 'string') {
				errors.push(`${at}: expected text, got ${describe(value)}`);
				return;
			}
			const length = [...value].length;
			if (schema.minLength !== undefined && length < schema.minLength) {
				errors.push(`${at}: text is shorter than ${schema.minLength} characters`);
			}
			if (schema.maxLength !== undefined && length > schema.maxLength) {
				errors.push(`${at}: text is longer than ${schema.maxLength} characters`);
			}
			if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
				errors.push(`${at}: ${JSON.stringify(value)} does not match the pattern ${schema.pattern}`);
			}
			if (schema.enum && !schema.enum.includes(value)) {
				errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
			}
			const options = listVar(vars, schema.enumFrom);
			if (options && !options.includes(value)) {
				const shown = options.slice(0, 12).map((o) => JSON.stringify(o)).join(', ');
				errors.push(`${at}: ${JSON.stringify(value)} is not one of the ${schema.enumFrom}: ${shown}${options.length > 12 ? ', ...' : ''}`);
			}
			return;
		}
		case 'integer':
		case 'number': {
			if (typeof value !== 'number' || !Number.isFinite(value)) {
				errors.push(`${at}: expected ${schema.type === 'integer' ? 'an integer' : 'a number'}, got ${describe(value)}`);
				return;
			}
			if (schema.type === 'integer' && !Number.isInteger(value)) {
				errors.push(`${at}: expected an integer, got ${value}`);
				return;
			}
			if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: ${value} is below the minimum ${schema.minimum}`);
			if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: ${value} is above the maximum ${schema.maximum}`);
			if (schema.enum && !schema.enum.includes(value)) {
				errors.push(`${at}: ${value} is not one of ${schema.enum.join(', ')}`);
			}
			const items = listVar(vars, schema.indexFrom);
			if (items && (value < 1 || value > items.length)) {
				errors.push(`${at}: ${value} is not an item number of ${schema.indexFrom} (1..${items.length})`);
			}
			return;
		}
		case 'boolean':
			if (typeof value !== 'boolean') errors.push(`${at}: expected true or false, got ${describe(value)}`);
			return;
	}
}

/**
 * Repairs harmless slips before validation, so a model is not asked again for them: numbers
 * written as text, "true"/"false" as text, and a choice that matches an allowed value except
 * for case or surrounding spaces or quotes. Returns a new value; never throws.
 */
export function coerceOutput(schema: Schema, value: unknown, vars?: TemplateVars): unknown {
	switch (schema.type) {
		case 'object': {
			if (!isRecord(value)) return value;
			const out: Record<string, unknown> = { ...value };
			for (const [name, sub] of Object.entries(schema.properties ?? {})) {
				if (name in out) out[name] = coerceOutput(sub, out[name], vars);
			}
			return out;
		}
		case 'array':
			if (!Array.isArray(value) || !schema.items) return value;
			return value.map((item) => coerceOutput(schema.items as Schema, item, vars));
		case 'string': {
			if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
			if (typeof value !== 'string') return value;
			const allowed = [
				...(schema.enum ?? []).filter((e): e is string => typeof e === 'string'),
				...(listVar(vars, schema.enumFrom) ?? [])
			];
			if (allowed.length && !allowed.includes(value)) {
				const norm = (s: string) => s.trim().replace(/^["'`<]+|[>"'`.]+$/g, '').trim().toLowerCase();
				const wanted = norm(value);
				const match = allowed.find((a) => norm(a) === wanted);
				if (match !== undefined) return match;
			}
			return value;
		}
		case 'integer':
		case 'number': {
			if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) value = Number(value);
			if (schema.type === 'integer' && typeof value === 'number' && Number.isFinite(value) && Math.abs(value - Math.round(value)) < 1e-9) {
				return Math.round(value);
			}
			return value;
		}
		case 'boolean':
			if (value === 'true' || value === 'yes') return true;
			if (value === 'false' || value === 'no') return false;
			return value;
	}
}
