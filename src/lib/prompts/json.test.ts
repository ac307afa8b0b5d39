import { describe, expect, it } from 'vitest';
import { extractJson, JsonExtractError } from './json';

describe('extractJson', () => {
	it('reads a plain object', () => {
		expect(extractJson('{"a": 1}')).toEqual({ a: 1 });
	});

	it('prefers a fenced block and ignores prose around it', () => {
		const text = 'Sure! Here is the answer:\n```json\n{"choice": "kitchen"}\n```\nLet me know if you need more.';
		expect(extractJson(text)).toEqual({ choice: 'kitchen' });
	});

	it('skips leading prose with braces that are not JSON', () => {
		expect(extractJson('I think {maybe} this: {"ok": true}')).toEqual({ ok: true });
	});

	it('tolerates trailing commas', () => {
		expect(extractJson('{"ratings": [2, 8,], "x": {"y": 1,},}')).toEqual({ ratings: [2, 8], x: { y: 1 } });
	});

	it('ignores a single trailing garbage character or bracket', () => {
		expect(extractJson('{"a": "b"}}')).toEqual({ a: 'b' });
		expect(extractJson('{"a": "b"}.')).toEqual({ a: 'b' });
	});

	it('keeps braces inside strings', () => {
		expect(extractJson('{"utterance": "I drew a } and a {", "end": false}')).toEqual({ utterance: 'I drew a } and a {', end: false });
	});

	it('escapes raw line breaks inside strings', () => {
		expect(extractJson('{"summary": "line one\nline two"}')).toEqual({ summary: 'line one\nline two' });
	});

	it('closes an answer cut off before its final brace', () => {
		expect(extractJson('{"summary": "done", "plan_note": ""')).toEqual({ summary: 'done', plan_note: '' });
	});

	it('returns the first of several objects', () => {
		expect(extractJson('{"n": 1} and then {"n": 2}')).toEqual({ n: 1 });
	});

	it('does not accept a top-level array', () => {
		expect(() => extractJson('[1, 2]')).toThrow(JsonExtractError);
	});

	it('explains what it got when there is no object', () => {
		expect(() => extractJson('')).toThrow(/empty/);
		expect(() => extractJson('I would rather not answer.')).toThrow(/no JSON object found.*I would rather not/);
	});
});
