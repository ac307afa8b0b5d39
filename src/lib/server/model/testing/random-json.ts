// Random values that satisfy a standard JSON Schema (the one a call sends as its
// `response_format`), seeded and deterministic, for property tests and the test servers.
// Values lean toward what real models produce at the edges of a schema: empty and
// whitespace-only text where allowed, one-word text, names nobody in the world has, long
// unicode (emoji, CJK, right-to-left scripts, combining marks), numbers on their bounds, arrays
// at their minimum and maximum size, and clock times at the ends of the day in any order.

import fc from 'fast-check';
import { hash32, mulberry32 } from '../../../engine/rng';
import type { ModelAnswer, ModelPort, ModelRequest, TemplateVars } from '../../../engine/model';
import { getTemplate, type PromptSet } from '../../../prompts/promptset';
import type { Schema } from '../../../prompts/schema';
import { failsafeFor } from '../../../prompts/template';
import { isRecord } from '../../../shared/guards';

export type JsonSchema = Record<string, unknown>;

/** A schema the generator cannot honour, named by its JSON path. */
export class JsonSchemaError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'JsonSchemaError';
	}
}

const ANNOTATIONS = ['description', 'title', '$schema', 'default', 'examples'];
const KEYWORDS = new Set([
	...ANNOTATIONS,
	'type',
	'properties',
	'required',
	'additionalProperties',
	'items',
	'minItems',
	'maxItems',
	'minLength',
	'maxLength',
	'pattern',
	'enum',
	'const',
	'minimum',
	'maximum',
	'exclusiveMinimum',
	'exclusiveMaximum',
	'anyOf'
]);

/** Text that is a single word, some of them words the engine reacts to. */
export const ONE_WORDS = ['x', 'ok', 'Yes', 'no', 'sleep', 'nap', 'asleep', 'idle', 'coffee', 'work', '…', '?', 'Zzz', '42', 'null', 'undefined', 'NaN'];
/** Names of people and places that no town has. */
export const UNKNOWN_NAMES = [
	'Gandalf Greyhame',
	'Zoë Ångström-Nuñez',
	'Mr. Nobody',
	'李小龍',
	'محمد الأمين',
	'Siobhán Ó Dónaill',
	'Dr. Quinn, Medicine Woman',
	'The Narrator',
	'Agent 47',
	'Atlantis Public Library',
	'the moon',
	"Isabella Rodriguez's evil twin"
];
/** Pieces of unicode text: emoji sequences, CJK, right-to-left scripts, combining marks, look-alikes. */
export const UNICODE_PIECES = [
	'👩‍👩‍👧‍👦',
	'🏳️‍🌈',
	'🧑🏽‍🍳',
	'☕',
	'😴',
	'東京で珈琲を飲む',
	'图书馆里看书',
	'다시 만나요',
	'שלום, מה שלומך?',
	'مرحبا! كيف حالك؟',
	'Ελληνικά γράμματα',
	'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
	'\u202Eright-to-left override\u202C',
	'zero\u200Bwidth\u200Djoiner',
	'line one\nline two\ttab',
	'"quoted" \\ back\\slash {braces} [brackets]',
	'{"json": "inside text"}',
	'```fenced```',
	'ＦＵＬＬＷＩＤＴＨ',
	'𝔣𝔯𝔞𝔨𝔱𝔲𝔯',
	'ﷺ',
	'🙂'
];
const WHITESPACE = [' ', '  ', '\t', '\n', ' \n\t '];
const WORDS = [
	'walk', 'to', 'the', 'cafe', 'and', 'have', 'breakfast', 'sleeping', 'in', 'bed', 'talk', 'with', 'at', 'from', 'until',
	'library', 'park', 'home', 'go', 'bed', 'party', 'on', 'Valentine', 'Day', 'paint', 'study', 'nap', 'dinner', 'lunch', 'work'
];
/** Clock-like candidates tried against every pattern; the ones that match are favoured. */
const PATTERN_EDGES = ['00:00', '00:05', '23:59', '23:55', '12:00', '07:00', '03:00', '24:00', '9:00', '7:00 am', 'noon', '99:99'];

const DEFAULT_MAX_LENGTH = 400;
const LONG_TEXT_CAP = 2000;
const DEFAULT_EXTRA_ITEMS = 6;

function codePoints(s: string): string[] {
	return [...s];
}

/** Cuts or pads text to [min, max] code points (JSON Schema lengths count code points). */
function fit(s: string, min: number, max: number): string {
	let cps = codePoints(s);
	if (cps.length > max) cps = cps.slice(0, max);
	const filler = ['a', '日', '🙂', 'ب'];
	for (let i = 0; cps.length < min; i++) cps.push(filler[i % filler.length]);
	return cps.join('');
}

function num(schema: JsonSchema, key: string, at: string): number | undefined {
	const v = schema[key];
	if (v === undefined) return undefined;
	if (typeof v !== 'number' || !Number.isFinite(v)) throw new JsonSchemaError(`${at}: "${key}" must be a number (got ${JSON.stringify(v)})`);
	return v;
}

function stringArb(schema: JsonSchema, at: string): fc.Arbitrary<string> {
	const min = num(schema, 'minLength', at) ?? 0;
	const max = num(schema, 'maxLength', at) ?? Math.max(min, DEFAULT_MAX_LENGTH);
	if (min > max) throw new JsonSchemaError(`${at}: minLength ${min} is greater than maxLength ${max}`);
	const inRange = (s: string) => {
		const n = codePoints(s).length;
		return n >= min && n <= max;
	};
	if (schema.pattern !== undefined) {
		if (typeof schema.pattern !== 'string') throw new JsonSchemaError(`${at}: "pattern" must be text`);
		let re: RegExp;
		try {
			re = new RegExp(schema.pattern, 'u');
		} catch (e) {
			throw new JsonSchemaError(`${at}: "pattern" is not a valid regular expression: ${(e as Error).message}`);
		}
		const ok = (s: string) => re.test(s) && inRange(s);
		const general = fc.stringMatching(new RegExp(schema.pattern), { maxLength: max }).filter(ok);
		const edges = PATTERN_EDGES.filter(ok);
		return edges.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...edges), weight: 1 }, { arbitrary: general, weight: 2 }) : general;
	}
	const longText = (atMax: boolean) =>
		fc.array(fc.constantFrom(...UNICODE_PIECES, ...UNKNOWN_NAMES), { minLength: 1, maxLength: 40 }).map((parts) => {
			let text = parts.join(' ');
			const target = Math.min(max, LONG_TEXT_CAP);
			if (atMax) while (codePoints(text).length < target) text += ' ' + text;
			return text;
		});
	const parts: fc.WeightedArbitrary<string>[] = [
		{ arbitrary: fc.constantFrom(...WHITESPACE), weight: 1 },
		{ arbitrary: fc.constantFrom(...ONE_WORDS), weight: 2 },
		{ arbitrary: fc.constantFrom(...UNKNOWN_NAMES), weight: 1 },
		{ arbitrary: fc.constantFrom(...UNICODE_PIECES), weight: 2 },
		{ arbitrary: longText(false), weight: 1 },
		{ arbitrary: longText(true), weight: 1 },
		{ arbitrary: fc.array(fc.constantFrom(...WORDS, ...UNKNOWN_NAMES), { minLength: 1, maxLength: 20 }).map((w) => w.join(' ')), weight: 3 },
		{ arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(max, 60) }), weight: 2 }
	];
	if (min === 0) parts.push({ arbitrary: fc.constant(''), weight: 2 });
	return fc.oneof(...parts).map((s) => fit(s, min, max));
}

function enumArb(schema: JsonSchema, at: string): fc.Arbitrary<unknown> {
	const values = schema.enum;
	if (!Array.isArray(values) || values.length === 0) throw new JsonSchemaError(`${at}: "enum" must be a non-empty list`);
	return fc.constantFrom(...values);
}

function integerArb(schema: JsonSchema, at: string): fc.Arbitrary<number> {
	let lo = num(schema, 'minimum', at) ?? -1_000_000;
	let hi = num(schema, 'maximum', at) ?? 1_000_000;
	const exLo = num(schema, 'exclusiveMinimum', at);
	const exHi = num(schema, 'exclusiveMaximum', at);
	if (exLo !== undefined) lo = Math.max(lo, Math.floor(exLo) + 1);
	if (exHi !== undefined) hi = Math.min(hi, Math.ceil(exHi) - 1);
	lo = Math.ceil(lo);
	hi = Math.floor(hi);
	if (lo > hi) throw new JsonSchemaError(`${at}: no integer lies between ${lo} and ${hi}`);
	const edges = [...new Set([lo, hi, lo + 1, hi - 1, 0, 1, -1].filter((n) => n >= lo && n <= hi))];
	return fc.oneof({ arbitrary: fc.constantFrom(...edges), weight: 2 }, { arbitrary: fc.integer({ min: lo, max: hi }), weight: 3 });
}

function numberArb(schema: JsonSchema, at: string): fc.Arbitrary<number> {
	const lo = num(schema, 'minimum', at) ?? -1e9;
	const hi = num(schema, 'maximum', at) ?? 1e9;
	const exLo = num(schema, 'exclusiveMinimum', at);
	const exHi = num(schema, 'exclusiveMaximum', at);
	if (lo > hi) throw new JsonSchemaError(`${at}: minimum ${lo} is greater than maximum ${hi}`);
	const ok = (n: number) => (exLo === undefined || n > exLo) && (exHi === undefined || n < exHi);
	const edges = [lo, hi, 0, 0.5, -0.5, 1e-9].filter((n) => n >= lo && n <= hi && ok(n));
	const general = fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).filter((n) => ok(n) && !Object.is(n, -0));
	return edges.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...edges), weight: 2 }, { arbitrary: general, weight: 3 }) : general;
}

function arrayArb(schema: JsonSchema, at: string): fc.Arbitrary<unknown[]> {
	const min = num(schema, 'minItems', at) ?? 0;
	const max = num(schema, 'maxItems', at) ?? min + DEFAULT_EXTRA_ITEMS;
	if (min > max) throw new JsonSchemaError(`${at}: minItems ${min} is greater than maxItems ${max}`);
	if (!isRecord(schema.items)) throw new JsonSchemaError(`${at}: an array schema needs "items" as one schema`);
	const item = arbitraryAt(schema.items, `${at}[]`);
	const length = fc.oneof(
		{ arbitrary: fc.constant(min), weight: 2 },
		{ arbitrary: fc.constant(max), weight: 1 },
		{ arbitrary: fc.integer({ min, max: Math.min(max, min + 5) }), weight: 4 },
		{ arbitrary: fc.integer({ min, max }), weight: 1 }
	);
	return length.chain((n) => fc.array(item, { minLength: n, maxLength: n }));
}

function objectArb(schema: JsonSchema, at: string): fc.Arbitrary<Record<string, unknown>> {
	const props = schema.properties ?? {};
	if (!isRecord(props)) throw new JsonSchemaError(`${at}: "properties" must be a mapping`);
	const required = schema.required ?? [];
	if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !(r in props))) {
		throw new JsonSchemaError(`${at}: "required" must list declared properties (got ${JSON.stringify(required)})`);
	}
	const model: Record<string, fc.Arbitrary<unknown>> = {};
	for (const [name, sub] of Object.entries(props)) {
		if (!isRecord(sub)) throw new JsonSchemaError(`${at}.${name}: a property schema must be a mapping`);
		model[name] = arbitraryAt(sub, `${at}.${name}`);
	}
	return fc.record(model, { requiredKeys: required as string[] });
}

function arbitraryAt(schema: JsonSchema, at: string): fc.Arbitrary<unknown> {
	for (const key of Object.keys(schema)) {
		if (!KEYWORDS.has(key)) throw new JsonSchemaError(`${at}: keyword "${key}" is not supported by the random answer generator`);
	}
	if ('const' in schema) return fc.constant(schema.const);
	if (schema.anyOf !== undefined) {
		if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0 || !schema.anyOf.every(isRecord)) {
			throw new JsonSchemaError(`${at}: "anyOf" must be a non-empty list of schemas`);
		}
		return fc.oneof(...schema.anyOf.map((s, i) => arbitraryAt(s as JsonSchema, `${at}.anyOf[${i}]`)));
	}
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	if (types.length === 0 || types.some((t) => typeof t !== 'string')) {
		throw new JsonSchemaError(`${at}: "type" must be a type name or a list of them (got ${JSON.stringify(schema.type)})`);
	}
	const arbs = (types as string[]).map((type): fc.Arbitrary<unknown> => {
		if (schema.enum !== undefined && type !== 'null') {
			return enumArb(schema, at).filter((v) => (type === 'integer' ? Number.isInteger(v) : typeof v === (type === 'number' ? 'number' : type)));
		}
		switch (type) {
			case 'object':
				return objectArb(schema, at);
			case 'array':
				return arrayArb(schema, at);
			case 'string':
				return stringArb(schema, at);
			case 'integer':
				return integerArb(schema, at);
			case 'number':
				return numberArb(schema, at);
			case 'boolean':
				return fc.boolean();
			case 'null':
				return fc.constant(null);
			default:
				throw new JsonSchemaError(`${at}: type "${type}" is not supported by the random answer generator`);
		}
	});
	return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

/** A fast-check arbitrary of values valid against `schema`. Throws JsonSchemaError for what it cannot honour. */
export function jsonSchemaArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
	if (!isRecord(schema)) throw new JsonSchemaError('$: a schema must be a mapping');
	return arbitraryAt(schema, '$');
}

const arbitraries = new Map<string, fc.Arbitrary<unknown>>();

/** One random value valid against `schema`; the same schema and seed always give the same value. */
export function randomJson(schema: JsonSchema, seed: number): unknown {
	const key = JSON.stringify(schema);
	let arb = arbitraries.get(key);
	if (!arb) {
		arb = jsonSchemaArbitrary(schema);
		if (arbitraries.size > 500) arbitraries.clear();
		arbitraries.set(key, arb);
	}
	return fc.sample(arb, { seed: seed | 0, numRuns: 1 })[0];
}

/** A deterministic unit-length vector of `dims` numbers for a text (random direction per text and seed). */
export function randomUnitVector(text: string, dims: number, seed = 0): Float32Array {
	const rand = mulberry32(hash32(text, hash32(String(seed))));
	const v = new Float32Array(dims);
	let norm = 0;
	for (let i = 0; i < dims; i++) {
		// sum of uniforms: a rough bell curve, so directions spread over the sphere
		const x = rand() + rand() + rand() - 1.5;
		v[i] = x;
		norm += x * x;
	}
	norm = Math.sqrt(norm) || 1;
	for (let i = 0; i < dims; i++) v[i] /= norm;
	return v;
}

export interface RandomAnswerOptions {
	templates: PromptSet;
	seed: number;
	/** the JSON Schema of a call: `outputJsonSchema` from src/lib/prompts/json-schema.ts */
	jsonSchemaFor: (schema: Schema, vars: TemplateVars) => JsonSchema;
	/** embedding size (default 64) */
	dimensions?: number;
	/** share of calls answered with the template's fail-safe instead, as a gateway does after failures (default 0) */
	failsafeRate?: number;
}

export interface RandomAnswerModel extends ModelPort {
	/** every answer given, by call key, in the order asked */
	readonly answers: Map<string, { template: string; vars: TemplateVars; answer: ModelAnswer }>;
}

/**
 * A ModelPort that answers each request with a random value valid for that template's output
 * schema and the call's variables (the JSON Schema a structured-output endpoint would get),
 * drawn from the seed and the call's key, so answers do not depend on the order of calls.
 */
export function randomAnswerModel(opts: RandomAnswerOptions): RandomAnswerModel {
	const dims = opts.dimensions ?? 64;
	const answers: RandomAnswerModel['answers'] = new Map();
	return {
		dimensions: dims,
		answers,
		async complete<T>(req: ModelRequest): Promise<ModelAnswer<T>> {
			const t = getTemplate(opts.templates, req.template);
			const draw = hash32(`${req.template}|${req.key}`, hash32(String(opts.seed)));
			let answer: ModelAnswer;
			if (opts.failsafeRate && mulberry32(draw)() < opts.failsafeRate) answer = { value: failsafeFor(t, req.vars), failsafe: true };
			else answer = { value: randomJson(opts.jsonSchemaFor(t.output, req.vars), draw), failsafe: false };
			answers.set(req.key, { template: req.template, vars: req.vars, answer });
			return structuredClone(answer) as ModelAnswer<T>;
		},
		async embed(texts: string[]): Promise<Float32Array[]> {
			return texts.map((text) => randomUnitVector(text, dims, opts.seed));
		}
	};
}
