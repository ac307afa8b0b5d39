import { describe, expect, it } from 'vitest';
import { LineIndex, parseXml, XmlSyntaxError } from './xml';

function syntaxError(src: string): XmlSyntaxError {
	try {
		parseXml(src);
	} catch (e) {
		if (e instanceof XmlSyntaxError) return e;
		throw e;
	}
	throw new Error('expected a syntax error');
}

describe('parseXml', () => {
	it('reads elements, attributes, text and lines', () => {
		const root = parseXml(
			'<?xml version="1.0"?>\n<!-- c -->\n<map a="1" b=\'x &amp; y\'>\n <layer name="g">\n  <data>1,2</data>\n </layer>\n <obj/>\n</map>\n'
		);
		expect(root.name).toBe('map');
		expect(root.line).toBe(3);
		expect(root.attrs).toEqual({ a: '1', b: 'x & y' });
		expect(root.children.map((c) => [c.name, c.line])).toEqual([
			['layer', 4],
			['obj', 7]
		]);
		expect(root.children[0].children[0].text).toBe('1,2');
	});

	it('keeps CDATA text raw and decodes character references', () => {
		const root = parseXml('<p><![CDATA[a<b&c]]>&#65;&#x42;</p>');
		expect(root.text).toBe('a<b&cAB');
	});

	it('names the line of a mismatched closing tag and where the tag was opened', () => {
		const e = syntaxError('<map>\n <layer>\n </layr>\n</map>');
		expect(e.line).toBe(3);
		expect(e.message).toBe('</layr> does not match <layer> opened on line 2');
	});

	it('reports unclosed elements, bad attributes and stray ampersands with their line', () => {
		expect(syntaxError('<map>\n<layer>\n</map>').line).toBe(3);
		expect(syntaxError('<map>\n\n<layer name=g/></map>').message).toMatch(/must be quoted/);
		const amp = syntaxError('<map>\n<p>a & b</p></map>');
		expect([amp.line, amp.message]).toEqual([2, '"&" must start an entity such as &amp;']);
		expect(syntaxError('<map/>\n<map/>').message).toMatch(/second root/);
		expect(syntaxError('<map>').message).toBe('<map> opened on line 1 is never closed');
		expect(syntaxError('<a x="1" x="2"/>').message).toMatch(/appears twice/);
		expect(syntaxError('').message).toMatch(/no XML element/);
	});
});

describe('LineIndex', () => {
	it('maps offsets to lines and columns', () => {
		const idx = new LineIndex('ab\ncd\n\nef');
		expect([idx.line(0), idx.line(2), idx.line(3), idx.line(7), idx.line(8)]).toEqual([1, 1, 2, 4, 4]);
		expect(idx.column(4)).toBe(2);
	});
});
