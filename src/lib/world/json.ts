// JSON with positions: the world's JSON files are written by hand, so every problem must name
// the line of the key (or value) it is about. JSON.parse keeps no positions, hence this reader.

export type JsonPath = readonly (string | number)[];

export class JsonSyntaxError extends Error {
	constructor(
		message: string,
		readonly line: number,
		readonly column: number
	) {
		super(message);
		this.name = 'JsonSyntaxError';
	}
}

export interface JsonDoc {
	value: unknown;
	/** line of an object key, or of an array element, addressed by its path; undefined if absent */
	lineOf(path: JsonPath): number | undefined;
	/** keys written twice in the same object (JSON.parse would silently keep the last) */
	duplicates: { path: JsonPath; line: number }[];
}

const pathKey = (path: JsonPath) => JSON.stringify(path);

/** Objects and lists nested deeper than this are refused (no world file comes near it). */
export const MAX_DEPTH = 256;

/** Parses strict JSON (RFC 8259). Throws JsonSyntaxError naming line and column. */
export function parseJson(text: string): JsonDoc {
	const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	const lines: number[] = []; // offset -> line is computed lazily from newline offsets
	for (let k = src.indexOf('\n'); k >= 0; k = src.indexOf('\n', k + 1)) lines.push(k);
	const lineAt = (offset: number) => {
		let lo = 0;
		let hi = lines.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (lines[mid] < offset) lo = mid + 1;
			else hi = mid;
		}
		return lo + 1;
	};
	const colAt = (offset: number) => {
		const line = lineAt(offset);
		return offset - (line === 1 ? 0 : lines[line - 2] + 1) + 1;
	};
	const fail = (message: string, at: number): never => {
		throw new JsonSyntaxError(message, lineAt(at), colAt(at));
	};
	const positions = new Map<string, number>();
	const duplicates: { path: JsonPath; line: number }[] = [];
	let i = 0;

	const describe = (at: number) =>
		at >= src.length ? 'end of file' : `"${src[at] === '\n' ? '\\n' : src[at]}"`;
	const skip = () => {
		for (;;) {
			const c = src.charCodeAt(i);
			if (c === 32 || c === 9 || c === 10 || c === 13) i++;
			else break;
		}
	};
	// control characters are refused separately (a raw newline inside a string, for instance)
	const STRING = /"(?:[^"\\]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
	const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

	const readString = (): string => {
		STRING.lastIndex = i;
		const m = STRING.exec(src);
		if (!m) {
			const end = src.indexOf('"', i + 1);
			if (end < 0 || src.slice(i, end).includes('\n')) fail('string is never closed', i);
			fail('invalid character or escape in string', i);
		}
		const raw = m![0];
		for (let k = 0; k < raw.length; k++)
			if (raw.charCodeAt(k) < 0x20)
				fail(raw[k] === '\n' ? 'string is never closed' : 'control character in string (write it as an escape)', i + k);
		i = STRING.lastIndex;
		return JSON.parse(raw) as string;
	};

	const readValue = (path: (string | number)[]): unknown => {
		skip();
		const c = src[i];
		if ((c === '{' || c === '[') && path.length >= MAX_DEPTH) fail(`values nest more than ${MAX_DEPTH} deep`, i);
		if (c === '{') {
			i++;
			const obj: Record<string, unknown> = {};
			skip();
			if (src[i] === '}') {
				i++;
				return obj;
			}
			for (;;) {
				skip();
				if (src[i] !== '"') fail(`expected a key in double quotes, found ${describe(i)}`, i);
				const keyAt = i;
				const key = readString();
				const childPath = [...path, key];
				if (Object.prototype.hasOwnProperty.call(obj, key))
					duplicates.push({ path: childPath, line: lineAt(keyAt) });
				else positions.set(pathKey(childPath), keyAt);
				skip();
				if (src[i] !== ':') fail(`expected ":" after key "${key}", found ${describe(i)}`, i);
				i++;
				// defineProperty: a key "__proto__" must stay a plain field
				Object.defineProperty(obj, key, {
					value: readValue(childPath),
					enumerable: true,
					writable: true,
					configurable: true
				});
				skip();
				if (src[i] === ',') {
					i++;
					skip();
					if (src[i] === '}') fail('trailing comma before "}"', i);
					continue;
				}
				if (src[i] === '}') {
					i++;
					return obj;
				}
				fail(`expected "," or "}" after the value of "${key}", found ${describe(i)}`, i);
			}
		}
		if (c === '[') {
			i++;
			const arr: unknown[] = [];
			skip();
			if (src[i] === ']') {
				i++;
				return arr;
			}
			for (;;) {
				skip();
				const childPath = [...path, arr.length];
				positions.set(pathKey(childPath), i);
				arr.push(readValue(childPath));
				skip();
				if (src[i] === ',') {
					i++;
					skip();
					if (src[i] === ']') fail('trailing comma before "]"', i);
					continue;
				}
				if (src[i] === ']') {
					i++;
					return arr;
				}
				fail(`expected "," or "]" in the list, found ${describe(i)}`, i);
			}
		}
		if (c === '"') return readString();
		if (src.startsWith('true', i)) {
			i += 4;
			return true;
		}
		if (src.startsWith('false', i)) {
			i += 5;
			return false;
		}
		if (src.startsWith('null', i)) {
			i += 4;
			return null;
		}
		NUMBER.lastIndex = i;
		const m = NUMBER.exec(src);
		if (m) {
			i = NUMBER.lastIndex;
			return Number(m[0]);
		}
		if (c === "'") fail('strings must use double quotes', i);
		return fail(`expected a value, found ${describe(i)}`, i);
	};

	skip();
	if (i >= src.length) fail('the file is empty', i);
	const value = readValue([]);
	skip();
	if (i < src.length) fail(`unexpected ${describe(i)} after the end of the JSON value`, i);
	return {
		value,
		lineOf: (path) => {
			const at = positions.get(pathKey(path));
			return at === undefined ? undefined : lineAt(at);
		},
		duplicates
	};
}
