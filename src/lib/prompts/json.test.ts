import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

	it('reads single quotes, Python constants, unquoted keys and comments', () => {
		expect(extractJson("{'choice': 'kitchen', 'end': True, 'note': None}")).toEqual({ choice: 'kitchen', end: true, note: null });
		expect(extractJson('{choice: "kitchen", /* picked */ minutes: 15}')).toEqual({ choice: 'kitchen', minutes: 15 });
		expect(extractJson('{\n  // the rating\n  "ratings": [4, 7],\n}')).toEqual({ ratings: [4, 7] });
	});

	it('keeps braces inside single-quoted strings and apostrophes inside double-quoted ones', () => {
		expect(extractJson("Here you go: {'utterance': 'a } here', 'end': False} Hope that helps!")).toEqual({ utterance: 'a } here', end: false });
		expect(extractJson('I\'d say {"utterance": "it\'s {fine}", "end": false}')).toEqual({ utterance: "it's {fine}", end: false });
	});

	it('mends a fenced answer with prose around it', () => {
		const text = "Sure! Here is my answer:\n```json\n{'ratings': [3, 9,],}\n```\nThe second one matters more.";
		expect(extractJson(text)).toEqual({ ratings: [3, 9] });
	});

	it('closes an answer cut off inside a nested list', () => {
		expect(extractJson('Plan: {"wake_hour": 7, "agenda": ["wake up at 7:00 am", "have breakfast')).toEqual({
			wake_hour: 7,
			agenda: ['wake up at 7:00 am', 'have breakfast']
		});
	});

	it('mends an outer object before looking at the valid objects inside it', () => {
		const text = 'Okay:\n```json\n{\n  "blocks": [\n    {"start": "21:25", "minutes": 60},\n    {"start": "22:25", "minutes": 5\n    ,}\n  ,]\n}\n```';
		expect(extractJson(text)).toEqual({ blocks: [{ start: '21:25', minutes: 60 }, { start: '22:25', minutes: 5 }] });
		expect(extractJson('{"summary": {"mood": "calm"}, "plan_note": "meet at')).toEqual({ summary: { mood: 'calm' }, plan_note: 'meet at' });
	});

	it('keeps a fence mark inside a JSON string', () => {
		expect(extractJson('```json\n{"thought": "```fenced``` x"}\n```')).toEqual({ thought: '```fenced``` x' });
	});

	it('does not take prose in braces for an object with unquoted keys', () => {
		expect(extractJson('You could write {choice: kitchen} but the answer is {"choice": "garden"}')).toEqual({ choice: 'garden' });
		expect(extractJson('Use { to open: {"choice": "garden"}')).toEqual({ choice: 'garden' });
	});

	it('uses a repair library that runs in the browser too (no Node imports in its module build)', () => {
		const require = createRequire(import.meta.url);
		const pkg = path.resolve(path.dirname(require.resolve('jsonrepair')), '../..');
		const seen = new Set<string>();
		const visit = (file: string) => {
			if (seen.has(file)) return;
			seen.add(file);
			const code = readFileSync(file, 'utf8');
			for (const [, spec] of code.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
				expect(spec, `${file} imports ${spec}`).toMatch(/^\./);
				visit(path.resolve(path.dirname(file), spec));
			}
			expect(code, file).not.toMatch(/\brequire\(|process\.|Buffer\./);
		};
		visit(path.join(pkg, 'lib/esm/index.js'));
		expect(seen.size).toBeGreaterThan(3);
	});
});
