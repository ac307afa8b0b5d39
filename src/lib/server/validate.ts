// Checks for values that arrive over HTTP (query strings and JSON bodies): each failure is a
// 400 that names the field.

import { badRequest } from './errors';

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

/** An integer from a JSON body (`undefined` when absent). */
export function bodyInt(value: unknown, name: string, range: IntRange = {}): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${name} must be a whole number`);
	return checkRange(value, name, range);
}

export function bodyNumber(value: unknown, name: string, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${name} must be a number`);
	if (value < min || value > max) throw badRequest(`${name} must be between ${min} and ${max}, not ${value}`);
	return value;
}

export function bodyString(value: unknown, name: string, opts: { max?: number; optional?: boolean; pattern?: RegExp } = {}): string | undefined {
	if (value === undefined || value === null) {
		if (opts.optional) return undefined;
		throw badRequest(`${name} is required`);
	}
	if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
	if (!opts.optional && !value.trim()) throw badRequest(`${name} is empty`);
	if (value.length > (opts.max ?? 2000)) throw badRequest(`${name} is longer than ${opts.max ?? 2000} characters`);
	if (opts.pattern && !opts.pattern.test(value)) throw badRequest(`${name} "${value.slice(0, 80)}" is not valid`);
	return value;
}

export function bodyBool(value: unknown, name: string): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') throw badRequest(`${name} must be true or false`);
	return value;
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
export const AGENT_NAME = /^[\p{L}\p{N} _.'-]{1,100}$/u;
/** A retrieval trace id: `<agent id>/r<n>`. */
export const TRACE_ID = /^[\w.-]{1,100}\/r\d{1,9}$/;
export const TEMPLATE_ID = /^[a-z_]{1,60}$/;
