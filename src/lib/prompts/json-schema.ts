// A template's output schema as a standard JSON Schema for one call, for servers that constrain
// their answer to a schema (OpenAI structured outputs, vLLM, Ollama, llama.cpp server, LM Studio).
// The input-bound extensions become ordinary keywords with the call's inputs filled in:
//   enumFrom: options   ->  enum: [the items of options]
//   lengthFrom: items   ->  minItems = maxItems = the number of items
//   indexFrom: items    ->  integer with minimum 1, maximum the number of items
// Objects are closed (additionalProperties: false).
//
// The strict form is what OpenAI's strict mode accepts: every property is listed in
// `required` (an optional one may be null, which `dropNullOptionals` turns back into
// "absent"), and the length keywords strict mode refuses (minLength, maxLength) are written as
// the equivalent `pattern` (`^[\s\S]{min,max}$`, which strict mode accepts), so a constrained
// decoder still keeps to them. Anything left out is still checked by `validateOutput` after the
// answer arrives.

import type { TemplateVars } from '../engine/model';
import { extractJson } from './json';
import { coerceOutput, type Schema } from './schema';

export interface OutputJsonSchemaOptions {
	/** the form OpenAI's strict structured outputs accept (default false) */
	strict?: boolean;
}

/** Keywords OpenAI's strict mode refuses; `validateOutput` checks them afterwards. */
export const STRICT_UNSUPPORTED = ['minLength', 'maxLength'] as const;

/** OpenAI's limits on enum values in strict mode: at most 1000, and 15 000 characters in all once there are more than 250. */
const STRICT_ENUM_MAX = 1000;
const STRICT_ENUM_LONG = 250;
const STRICT_ENUM_CHARS = 15_000;

function listVar(vars: TemplateVars, name: string | undefined): string[] | undefined {
	if (name === undefined) return undefined;
	const v = vars[name];
	return Array.isArray(v) ? v : undefined;
}

function enumFits(values: (string | number | boolean)[], strict: boolean): boolean {
	if (values.length === 0) return false;
	if (!strict) return true;
	if (values.length > STRICT_ENUM_MAX) return false;
	if (values.length > STRICT_ENUM_LONG) {
		const chars = values.reduce<number>((n, v) => n + String(v).length, 0);
		if (chars > STRICT_ENUM_CHARS) return false;
	}
	return true;
}

/** A length bound as a pattern: JSON Schema patterns count code points, as `validateOutput` does. */
export function lengthPattern(min: number, max: number | undefined): string {
	return `^[\\s\\S]{${min},${max ?? ''}}$`;
}

function convert(schema: Schema, vars: TemplateVars, strict: boolean): Record<string, unknown> {
	const out: Record<string, unknown> = { type: schema.type };
	if (schema.description !== undefined) out.description = schema.description;
	switch (schema.type) {
		case 'object': {
			const properties: Record<string, unknown> = {};
			const required = new Set(schema.required ?? []);
			for (const [name, sub] of Object.entries(schema.properties ?? {})) {
				const converted = convert(sub, vars, strict);
				// Strict mode wants every property required; an optional one may be null instead.
				properties[name] = strict && !required.has(name) ? { anyOf: [converted, { type: 'null' }] } : converted;
			}
			out.properties = properties;
			const names = strict ? Object.keys(properties) : [...required].filter((r) => r in properties);
			out.required = names;
			out.additionalProperties = false;
			return out;
		}
		case 'array': {
			if (schema.items) out.items = convert(schema.items, vars, strict);
			let min = schema.minItems;
			let max = schema.maxItems;
			const bound = listVar(vars, schema.lengthFrom);
			if (bound) {
				min = Math.max(min ?? 0, bound.length);
				max = Math.min(max ?? Infinity, bound.length);
			}
			// Contradicting bounds cannot be met by any answer: leave them to validation.
			if (min !== undefined && max !== undefined && min > max) return out;
			if (min !== undefined && min > 0) out.minItems = min;
			if (max !== undefined && Number.isFinite(max)) out.maxItems = max;
			return out;
		}
		case 'string': {
			if (!strict) {
				if (schema.minLength !== undefined) out.minLength = schema.minLength;
				if (schema.maxLength !== undefined) out.maxLength = schema.maxLength;
			}
			if (schema.pattern !== undefined) out.pattern = schema.pattern;
			else if (strict && (schema.minLength || schema.maxLength !== undefined)) out.pattern = lengthPattern(schema.minLength ?? 0, schema.maxLength);
			let values: string[] | undefined = schema.enum?.filter((e): e is string => typeof e === 'string');
			const options = listVar(vars, schema.enumFrom);
			if (options) values = values ? values.filter((v) => options.includes(v)) : options;
			if (values) {
				const unique = [...new Set(values)];
				if (enumFits(unique, strict)) out.enum = unique;
			}
			return out;
		}
		case 'integer':
		case 'number': {
			let min = schema.minimum;
			let max = schema.maximum;
			const items = listVar(vars, schema.indexFrom);
			if (items) {
				min = Math.max(min ?? -Infinity, 1);
				max = Math.min(max ?? Infinity, items.length);
			}
			if (min !== undefined && max !== undefined && min > max) return out;
			if (min !== undefined && Number.isFinite(min)) out.minimum = min;
			if (max !== undefined && Number.isFinite(max)) out.maximum = max;
			if (schema.enum) {
				const unique = [...new Set(schema.enum)];
				if (enumFits(unique, strict)) out.enum = unique;
			}
			return out;
		}
		case 'boolean':
			return out;
	}
}

/**
 * The JSON Schema of one call's answer: `schema` (a template's output schema) with the
 * extensions bound to `vars`. With `strict`, the form OpenAI's strict structured outputs accept.
 * Without `vars` entries for an extension, that bound is simply left out.
 */
export function outputJsonSchema(schema: Schema, vars: TemplateVars, opts: OutputJsonSchemaOptions = {}): Record<string, unknown> {
	return convert(schema, vars, opts.strict ?? false);
}

/**
 * Undoes the strict form's nullable optionals: a property the template does not require whose
 * value is null is removed, so validation sees it as absent. Returns a new value; other values
 * (and required properties that are null) are left for validation to judge.
 */
export function dropNullOptionals(schema: Schema, value: unknown): unknown {
	if (schema.type === 'object') {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
		const required = new Set(schema.required ?? []);
		const out: Record<string, unknown> = {};
		for (const [name, v] of Object.entries(value)) {
			const sub = schema.properties?.[name];
			if (v === null && sub && !required.has(name)) continue;
			out[name] = sub ? dropNullOptionals(sub, v) : v;
		}
		return out;
	}
	if (schema.type === 'array' && Array.isArray(value) && schema.items) {
		const items = schema.items;
		return value.map((v) => dropNullOptionals(items, v));
	}
	return value;
}

/**
 * The value of a model's answer text for a call: the JSON object found in it (see
 * `extractJson`), with the strict form's null optionals left out and coerced to the schema.
 * Throws when the text holds no object; `validateOutput` judges the value.
 */
export function readAnswer(schema: Schema, text: string, vars: TemplateVars): unknown {
	return coerceOutput(schema, dropNullOptionals(schema, extractJson(text)), vars);
}
