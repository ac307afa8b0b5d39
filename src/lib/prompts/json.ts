// Finding the JSON object in a model's answer. Models wrap answers in code fences, put prose
// before or after them, leave trailing commas, break lines inside strings or add a stray
// bracket at the end; none of that should cost a repair round-trip.

export class JsonExtractError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'JsonExtractError';
	}
}

/** Index just past the `}` that closes the object opening at `start`, or -1 when unclosed. */
function matchObject(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') i++;
			else if (c === '"') inString = false;
			continue;
		}
		if (c === '"') inString = true;
		else if (c === '{' || c === '[') depth++;
		else if (c === '}' || c === ']') {
			depth--;
			if (depth === 0) return c === '}' ? i + 1 : -1;
			if (depth < 0) return -1;
		}
	}
	return -1;
}

/**
 * Tolerant clean-up of a JSON candidate: escapes raw control characters inside strings,
 * drops commas before a closing bracket, and `//` line comments outside strings.
 */
function relax(candidate: string): string {
	let out = '';
	let inString = false;
	for (let i = 0; i < candidate.length; i++) {
		const c = candidate[i];
		if (inString) {
			if (c === '\\') {
				out += c + (candidate[i + 1] ?? '');
				i++;
			} else if (c === '"') {
				inString = false;
				out += c;
			} else if (c === '\n') out += '\\n';
			else if (c === '\r') out += '\\r';
			else if (c === '\t') out += '\\t';
			else out += c;
			continue;
		}
		if (c === '"') {
			inString = true;
			out += c;
		} else if (c === ',') {
			let j = i + 1;
			while (j < candidate.length && /\s/.test(candidate[j])) j++;
			if (candidate[j] !== '}' && candidate[j] !== ']') out += c;
		} else if (c === '/' && candidate[i + 1] === '/') {
			while (i < candidate.length && candidate[i] !== '\n') i++;
			out += '\n';
		} else out += c;
	}
	return out;
}

function tryParse(candidate: string): Record<string, unknown> | undefined {
	for (const text of [candidate, relax(candidate)]) {
		try {
			const value: unknown = JSON.parse(text);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
		} catch {
			// try the next form
		}
	}
	return undefined;
}

function firstObjectIn(text: string): Record<string, unknown> | undefined {
	for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
		const end = matchObject(text, start);
		const candidate = end > 0 ? text.slice(start, end) : text.slice(start);
		const value = tryParse(candidate);
		if (value) return value;
		// An unclosed object that only lacks its final brace(s), e.g. a cut-off answer.
		if (end < 0) {
			const closed = tryParse(candidate.replace(/[\s,]*$/, '') + '}');
			if (closed) return closed;
		}
	}
	return undefined;
}

/**
 * Returns the first JSON object found in a model's answer. Code-fenced blocks are tried first,
 * then the whole text. Throws JsonExtractError (with a message fit to show the model) when
 * there is none.
 */
export function extractJson(text: string): Record<string, unknown> {
	if (typeof text !== 'string' || text.trim() === '') throw new JsonExtractError('the answer is empty; expected a JSON object');
	const fence = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g;
	for (let m = fence.exec(text); m; m = fence.exec(text)) {
		const value = firstObjectIn(m[1]);
		if (value) return value;
	}
	const value = firstObjectIn(text);
	if (value) return value;
	const snippet = text.trim().slice(0, 80).replace(/\s+/g, ' ');
	throw new JsonExtractError(`no JSON object found in the answer (it begins: ${JSON.stringify(snippet)})`);
}
