import { describe, expect, it } from 'vitest';
import { csvField, csvRow, toCsv } from './csv';

describe('CSV', () => {
	it('quotes fields as RFC 4180 asks', () => {
		expect(csvField('plain')).toBe('plain');
		expect(csvField('a, b')).toBe('"a, b"');
		expect(csvField('say "hi"')).toBe('"say ""hi"""');
		expect(csvField('two\nlines')).toBe('"two\nlines"');
		expect(csvField(' edge')).toBe('" edge"');
		expect(csvField(false)).toBe('false');
		expect(csvField(0.5)).toBe('0.5');
	});

	it('leaves missing values and numbers that are not finite empty', () => {
		expect(csvField(undefined)).toBe('');
		expect(csvField(null)).toBe('');
		expect(csvField(NaN)).toBe('');
		expect(csvField(Infinity)).toBe('');
	});

	it('quotes a text a spreadsheet would run as a formula, not a number', () => {
		expect(csvField('=1+1')).toBe('"=1+1"');
		expect(csvField('@sum')).toBe('"@sum"');
		expect(csvField('-x')).toBe('"-x"');
		expect(csvField('-0.5')).toBe('-0.5');
		expect(csvField(-0.5)).toBe('-0.5');
	});

	it('writes a header and rows, CRLF unless told', () => {
		expect(csvRow(['a', 1, true])).toBe('a,1,true');
		expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
		expect(toCsv(['a'], [[1]], '\n')).toBe('a\n1\n');
	});
});
