import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJson } from './json';

function syntaxError(src: string): JsonSyntaxError {
	try {
		parseJson(src);
	} catch (e) {
		if (e instanceof JsonSyntaxError) return e;
		throw e;
	}
	throw new Error('expected a syntax error');
}

describe('parseJson', () => {
	const text = '{\n  "a": 1,\n  "b": {\n    "c": [true,\n      "x"]\n  },\n  "d": null\n}\n';

	it('returns the same value as JSON.parse', () => {
		expect(parseJson(text).value).toEqual(JSON.parse(text));
		const tricky = '{"s":"\\u00e9\\n\\"q\\"","n":-1.5e3,"e":[],"o":{}}';
		expect(parseJson(tricky).value).toEqual(JSON.parse(tricky));
	});

	it('finds the line of keys and list elements', () => {
		const doc = parseJson(text);
		expect(doc.lineOf(['a'])).toBe(2);
		expect(doc.lineOf(['b', 'c'])).toBe(4);
		expect(doc.lineOf(['b', 'c', 1])).toBe(5);
		expect(doc.lineOf(['d'])).toBe(7);
		expect(doc.lineOf(['zz'])).toBeUndefined();
	});

	it('reports keys written twice', () => {
		const doc = parseJson('{\n"a": 1,\n"a": 2\n}');
		expect(doc.duplicates).toEqual([{ path: ['a'], line: 3 }]);
	});

	it('keeps "__proto__" as a plain field', () => {
		const v = parseJson('{"__proto__": {"x": 1}}').value as Record<string, unknown>;
		expect(Object.keys(v)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).x).toBeUndefined();
	});

	it('names line and column of syntax errors', () => {
		const trailing = syntaxError('{\n  "a": 1,\n}');
		expect([trailing.line, trailing.column, trailing.message]).toEqual([3, 1, 'trailing comma before "}"']);
		const missingComma = syntaxError('{\n  "a": 1\n  "b": 2\n}');
		expect([missingComma.line, missingComma.column]).toEqual([3, 3]);
		expect(missingComma.message).toMatch(/expected "," or "}" after the value of "a"/);
		expect(syntaxError('{"a": \'x\'}').message).toBe('strings must use double quotes');
		expect(syntaxError('{"a": "x').message).toBe('string is never closed');
		const open = syntaxError('{\n  "a": "x,\n  "b": "y"\n}');
		expect([open.line, open.message]).toEqual([2, 'string is never closed']);
		expect(syntaxError('{"a": "x\ty"}').message).toMatch(/^control character in string/);
		expect(syntaxError('{"a": "\\q"}').message).toBe('invalid character or escape in string');
		expect(syntaxError('  ').message).toBe('the file is empty');
		expect(syntaxError('{} x').message).toMatch(/after the end/);
		expect(syntaxError('[1,]').message).toMatch(/trailing comma/);
	});
});
