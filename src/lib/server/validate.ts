// Checks for values that arrive over HTTP (query strings and JSON bodies): each failure is an
// `invalid` error (400) that names the field. Request bodies go through their schemas
// ($lib/api: one per body) with `parseWith`; the stores' own JSON files through theirs with
// `readJsonFile` (a damaged file is the server's fault, named with the file and the field).

import { readFileSync } from 'node:fs';
import { safeParse, type BaseIssue, type GenericSchema, type InferOutput } from 'valibot';
import { badRequest, FaultError, InvalidError, type ApiIssue } from './errors';

/** `from.step`, `inputs[2].text`: where an issue is ('' for the value itself). */
function pathOf(issue: BaseIssue<unknown>): string {
	let out = '';
	for (const item of issue.path ?? []) {
		const key = (item as { key?: unknown }).key;
		if (typeof key === 'number') out += `[${key}]`;
		else out += out ? `.${String(key)}` : String(key);
	}
	return out;
}

/** One issue as a sentence: the place, then what the schema says of it (see $lib/api/schema). */
function describe(issue: BaseIssue<unknown>, path: string, what: string): string {
	// a field the object does not have
	if (issue.expected === 'never' && issue.type.endsWith('object')) {
		const at = path.lastIndexOf('.');
		const key = String(issue.input).slice(0, 40);
		const parent = at < 0 ? '' : path.slice(0, at);
		const list = issue.message.startsWith('(') ? ` ${issue.message}` : '';
		return `${parent ? `${parent}: ` : ''}unknown field "${key}"${list}`;
	}
	// a field the object must have
	if (issue.input === undefined && issue.expected?.startsWith('"') && issue.type.endsWith('object')) return `${path} is required`;
	const place = path || what;
	// valibot's own messages are sentences ("Invalid type: ..."); the schemas' say what the value must be
	return /^[A-Z]/.test(issue.message) ? `${place}: ${issue.message}` : `${place} ${issue.message}`;
}

/**
 * A query string as an object for its schema: each parameter's value (its last), the `repeated`
 * ones as lists; parameters given empty are left out (absent, as a form leaves them).
 */
export function queryOf(params: URLSearchParams, repeated: readonly string[] = []): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const key of new Set(params.keys())) {
		if (repeated.includes(key)) {
			const all = params.getAll(key).filter((x) => x !== '');
			if (all.length) out[key] = all;
		} else {
			const value = params.getAll(key).at(-1) ?? '';
			if (value !== '') out[key] = value;
		}
	}
	return out;
}

/**
 * `value` checked by `schema`: its output, or an InvalidError whose message names the first field
 * at fault (and how many more there are) and whose issues list each with its path. `what` names
 * the value itself ("the body", "the query").
 */
export function parseWith<S extends GenericSchema>(schema: S, value: unknown, what = 'the body'): InferOutput<S> {
	const result = safeParse(schema, value, { abortEarly: false });
	if (result.success) return result.output;
	const issues: ApiIssue[] = result.issues.map((i) => {
		const path = pathOf(i);
		return { message: describe(i, path, what), ...(path && { path }) };
	});
	const more = issues.length - 1;
	throw new InvalidError(`${issues[0].message}${more ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`, { issues });
}

export interface IntRange {
	min?: number;
	max?: number;
}

function checkRange(n: number, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER }: IntRange): number {
	if (n < min || n > max) throw badRequest(`${name} must be between ${min} and ${max}, not ${n}`);
	return n;
}

/** An integer from a query string (`undefined` when absent or empty). */
export function queryInt(url: URL, name: string, range: IntRange = {}): number | undefined {
	const raw = url.searchParams.get(name);
	if (raw === null || raw === '') return undefined;
	if (!/^-?\d{1,15}$/.test(raw)) throw badRequest(`${name} must be a whole number, not "${raw.slice(0, 40)}"`);
	return checkRange(Number(raw), name, range);
}

/** `r,i,v`: three non-negative numbers for recency, importance and relevance. */
export function parseWeights(raw: string | null): { recency: number; importance: number; relevance: number } | undefined {
	if (raw === null || raw === '') return undefined;
	const parts = raw.split(',');
	const w = parts.map((p) => (/^\s*\d+(\.\d+)?\s*$/.test(p) ? Number(p) : NaN));
	if (w.length !== 3 || w.some((x) => !Number.isFinite(x) || x > 1000)) {
		throw badRequest(`weights must be three non-negative numbers "recency,importance,relevance", not "${raw.slice(0, 60)}"`);
	}
	return { recency: w[0], importance: w[1], relevance: w[2] };
}

/** An agent name as typed (an id like `klaus-mueller` or a full name like `Klaus Mueller`). */
export { AGENT_NAME } from '../api/schema';
/** A retrieval trace id: `<agent id>/r<n>`. */
export const TRACE_ID = /^[\w.-]{1,100}\/r\d{1,9}$/;
export const TEMPLATE_ID = /^[a-z_]{1,60}$/;

/** A JSON file of a store, checked by its schema; a FaultError naming the file (and field) when it is damaged. */
export function readJsonFile<S extends GenericSchema>(file: string, schema: S, name = file): InferOutput<S> {
	let value: unknown;
	try {
		value = JSON.parse(readFileSync(file, 'utf8'));
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== undefined) throw e;
		throw new FaultError(`${name} is not valid JSON (${(e as Error).message})`);
	}
	try {
		return parseWith(schema, value, name);
	} catch (e) {
		if (!(e instanceof InvalidError)) throw e;
		throw new FaultError(`${name} is damaged: ${e.message}`, { issues: e.issues });
	}
}
