// Finding the JSON object in a model's answer. Servers that ignore a requested answer format,
// and models without one, wrap answers in code fences, put prose before or after them, leave
// trailing commas or comments, use single quotes or Python's True/None, break lines inside
// strings or stop before the final brace; none of that should cost a repair round-trip. Each
// candidate object is parsed as JSON and, failing that, mended with `jsonrepair`.

import { jsonrepair } from 'jsonrepair';
import { isRecord } from '../shared/guards';

export class JsonExtractError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'JsonExtractError';
	}
}

/** The last character before `i` that is not white space. */
function previousSolid(text: string, i: number): string {
	for (let j = i - 1; j >= 0; j--) if (!/\s/.test(text[j])) return text[j];
	return '';
}

/** The first character from `i` on that is not white space ('' at the end). */
function nextSolid(text: string, i: number): string {
	for (let j = i; j < text.length; j++) if (!/\s/.test(text[j])) return text[j];
	return '';
}

/**
 * Index just past the `}` that closes the object opening at `start`, or -1 when unclosed.
 * Braces inside strings do not count; a single-quoted string is recognised where a value or
 * key may begin, so an apostrophe in a double-quoted string or in prose is not one.
 */
function matchObject(text: string, start: number): number {
	let depth = 0;
	let quote = '';
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (quote) {
			if (c === '\\') i++;
			else if (c === quote && (quote === '"' || /^[,:}\]]?$/.test(nextSolid(text, i + 1)))) quote = '';
			continue;
		}
		if (c === '"') quote = c;
		else if (c === "'" && /^[{[,:]$/.test(previousSolid(text, i))) quote = c;
		else if (c === '{' || c === '[') depth++;
		else if (c === '}' || c === ']') {
			depth--;
			if (depth === 0) return c === '}' ? i + 1 : -1;
			if (depth < 0) return -1;
		}
	}
	return -1;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
	return isRecord(value) ? value : undefined;
}

function parse(candidate: string, mend: boolean): Record<string, unknown> | undefined {
	try {
		return asObject(JSON.parse(mend ? jsonrepair(candidate) : candidate));
	} catch {
		return undefined;
	}
}

/** An object whose first key is quoted (or that is empty): JSON with slips, not prose in braces. */
const LOOKS_LIKE_JSON = /^\{\s*["'}]/;

/**
 * The first object in `text`, in order of where it begins: one that parses as JSON, or one that
 * looks like JSON (its first key quoted) and can be mended. With `anyShape`, also objects with
 * unquoted keys, which prose in braces resembles.
 */
function firstObjectIn(text: string, anyShape: boolean): Record<string, unknown> | undefined {
	for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
		const end = matchObject(text, start);
		// An unclosed object (e.g. an answer cut off before its final braces) is mended as is.
		const candidate = end > 0 ? text.slice(start, end) : text.slice(start);
		const value = parse(candidate, false) ?? (anyShape || LOOKS_LIKE_JSON.test(candidate) ? parse(candidate, true) : undefined);
		if (value) return value;
	}
	return undefined;
}

/**
 * The contents of the code-fenced blocks in `text`. A block's closing fence is looked for after
 * the end of the object it holds, so a fence mark inside a JSON string does not cut the block.
 */
function fencedBlocks(text: string): string[] {
	const opener = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?/g;
	const blocks: string[] = [];
	for (let m = opener.exec(text); m; m = opener.exec(text)) {
		const from = m.index + m[0].length;
		const brace = text.indexOf('{', from);
		const firstClose = text.indexOf('```', from);
		const objectEnd = brace >= 0 && (firstClose < 0 || brace < firstClose) ? matchObject(text, brace) : -1;
		const close = text.indexOf('```', Math.max(from, objectEnd));
		if (close < 0) break;
		blocks.push(text.slice(from, close));
		opener.lastIndex = close + 3;
	}
	return blocks;
}

/**
 * Returns the first JSON object found in a model's answer. Code-fenced blocks are tried first,
 * then the whole text; in each, an object with unquoted keys is taken only when nothing else
 * is found. Throws JsonExtractError (with a message fit to show the model) when
 * there is none.
 */
export function extractJson(text: string): Record<string, unknown> {
	if (typeof text !== 'string' || text.trim() === '') throw new JsonExtractError('the answer is empty; expected a JSON object');
	for (const source of [...fencedBlocks(text), text]) {
		const value = firstObjectIn(source, false) ?? firstObjectIn(source, true);
		if (value) return value;
	}
	const snippet = text.trim().slice(0, 80).replace(/\s+/g, ' ');
	throw new JsonExtractError(`no JSON object found in the answer (it begins: ${JSON.stringify(snippet)})`);
}
