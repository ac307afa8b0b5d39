// The pieces the API's request schemas are made of (valibot: a schema per request body, its
// TypeScript type derived from it with `v.InferOutput`). Every message says what the value must
// be, relative to it ("must be a whole number", "is longer than 200 characters"): the server's
// one reader of bodies (`parseWith`, $lib/server/validate) puts the field's path in front
// ("from.step must be a whole number"), and names a missing field ("steps is required") and an
// unknown one ("unknown field "x" (fields: ...)") itself.

import * as v from 'valibot';

export { v };

/** An agent name as typed (an id like `klaus-mueller` or a full name like `Klaus Mueller`). */
export const AGENT_NAME = /^[\p{L}\p{N} _.'-]{1,100}$/u;

/** A schema whose value is JSON's (any valibot schema without async parts). */
export type Schema = v.GenericSchema;

/** Absent or null: undefined; else the value checked by `schema`. */
export const optional = <S extends Schema>(schema: S) =>
	v.pipe(
		v.nullish(schema),
		v.transform((x) => x ?? undefined)
	);

export interface Range {
	min?: number;
	max?: number;
}

/** A whole number from `min` (default 0) to `max`. */
export const wholeNumber = ({ min = 0, max = Number.MAX_SAFE_INTEGER }: Range = {}) => {
	const range = (i: { input: unknown }) =>
		max === Number.MAX_SAFE_INTEGER ? `must be a whole number of at least ${min}, not ${String(i.input)}` : `must be between ${min} and ${max}, not ${String(i.input)}`;
	return v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(min, range), v.maxValue(max, range));
};

/** A finite number from `min` to `max`. */
export const number = (min: number, max: number) => {
	const range = (i: { input: unknown }) => `must be between ${min} and ${max}, not ${String(i.input)}`;
	return v.pipe(v.number('must be a number'), v.finite('must be a number'), v.minValue(min, range), v.maxValue(max, range));
};

export const boolean = () => v.boolean('must be true or false');

/** A whole number from `min` (default 0) to `max` written in a query string. */
export const queryWholeNumber = ({ min = 0, max = Number.MAX_SAFE_INTEGER }: Range = {}) =>
	v.pipe(
		v.string('must be a whole number'),
		v.regex(/^-?\d{1,15}$/, (i) => `must be a whole number, not ${JSON.stringify(String(i.input).slice(0, 40))}`),
		v.transform(Number),
		wholeNumber({ min, max })
	);

export interface TextRule {
	/** longest (default 2000 characters) */
	max?: number;
	/** '' and blanks allowed (default: refused as empty) */
	blank?: boolean;
	/** the text must match it */
	pattern?: RegExp;
	/** what the text is, for the pattern's refusal ("must be <what>"); default: `"<text>" is not valid` */
	what?: string;
}

/** A string of at most `max` characters (not blank, unless `blank`; matching `pattern` if given). */
export const text = ({ max = 2000, blank = false, pattern, what }: TextRule = {}) =>
	v.pipe(
		v.string('must be a string'),
		v.check((s) => blank || s.trim() !== '', 'is empty'),
		v.maxLength(max, `is longer than ${max} characters`),
		v.check(
			(s) => !pattern || pattern.test(s),
			(i) => (what ? `must be ${what} (got ${JSON.stringify(String(i.input).slice(0, 80))})` : `"${String(i.input).slice(0, 80)}" is not valid`)
		)
	);

/** A list of at most `max` items, each checked by `item`; `what` says what it must be ("a list of KEY=VALUE strings"). */
export const list = <S extends Schema>(item: S, max: number, what: string) =>
	v.pipe(v.array(item, `must be ${what}`), v.maxLength(max, (i) => `holds ${(i.input as unknown[]).length} entries; at most ${max} are taken (${what})`));

type Entries = v.ObjectEntries;

const isOptional = (s: { type: string }) => s.type === 'optional' || s.type === 'nullish' || s.type === 'exact_optional';

/** `{ a, b?, c? }`: the fields of an object, optional ones marked. */
export function shapeOf(entries: Entries): string {
	return `{ ${Object.entries(entries)
		.map(([k, s]) => (isOptional(s) ? `${k}?` : k))
		.join(', ')} }`;
}

/** Refuses a list where an object is due (valibot's objects take lists as objects). */
const notList = (shape: string) =>
	v.custom<unknown>((x) => !Array.isArray(x), `must be a JSON object ${shape}`);

/** The object of `fields`, without the refusal of a list: an option of `tagged`. */
export const option = <E extends Entries>(entries: E, shape = shapeOf(entries)) =>
	v.strictObject(entries, (i) => (i.expected === 'never' ? `(fields: ${Object.keys(entries).join(', ')})` : `must be a JSON object ${shape}`));

/**
 * A JSON object with these fields and no others. `shape` describes it for the refusal of
 * anything else (default: its fields, `{ a, b? }`); an unknown field is named with the list.
 */
export const fields = <E extends Entries>(entries: E, shape = shapeOf(entries)) => v.pipe(notList(shape), option(entries, shape));

/** A JSON object with these fields checked and any others kept as they are (a file format open to additions). */
export const openFields = <E extends Entries>(entries: E, shape = 'object') => v.looseObject(entries, `must be a JSON ${shape}`);

/** One of `values`. */
export const oneOf = <const T extends readonly string[]>(values: T) =>
	v.picklist(values, (i) => `must be ${values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.map((x) => `"${x}"`).join(', ')}`}, not ${JSON.stringify(i.input)?.slice(0, 60)}`);

/**
 * Objects told apart by their `key` field (a string naming what the object is): one of `options`
 * (each made with `option`).
 * The refusal of another value names the ones allowed.
 */
export const tagged = <K extends string, O extends v.VariantOptions<K>>(key: K, options: O, shape: string) =>
	v.pipe(notList(shape), variantOf(key, options, shape));

const variantOf = <K extends string, O extends v.VariantOptions<K>>(key: K, options: O, shape: string) =>
	v.variant(key, options, (i) => {
		if (i.expected === 'Object') return `must be a JSON object ${shape}`;
		const allowed = options.map((o) => String((o as unknown as { entries: Record<string, { literal?: unknown }> }).entries[key]?.literal)).join(', ');
		return i.input === undefined ? `is required (${allowed})` : `must be one of ${allowed}, not ${JSON.stringify(i.input)?.slice(0, 60)}`;
	});
