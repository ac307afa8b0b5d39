// The XML reader's bounds: size, nesting, element count, declared entities and character
// references, each refused with a line instead of an exception of another kind.

import { describe, expect, it } from 'vitest';
import { parseXml, XmlSyntaxError } from './xml';

const refusal = (src: string, limits?: Parameters<typeof parseXml>[1]) => {
	try {
		parseXml(src, limits);
	} catch (e) {
		expect(e).toBeInstanceOf(XmlSyntaxError);
		const x = e as XmlSyntaxError;
		return `${x.line}:${x.column} ${x.message}`;
	}
	throw new Error('parsed');
};

describe('parseXml limits', () => {
	const small = { maxBytes: 1000, maxDepth: 3, maxElements: 5 };

	it('refuses a document over its size, depth or element count', () => {
		expect(refusal('<a>' + ' '.repeat(1000) + '</a>', small)).toBe('1:1 the document is 1007 characters, more than the 1000 allowed');
		expect(refusal('<a><b><c><d/></c></b></a>', small)).toBe('1:10 elements nest more than 3 deep');
		expect(parseXml('<a><b><c/></b></a>', small).children[0].children[0].name).toBe('c');
		expect(refusal('<a><b/><b/><b/><b/><b/></a>', small)).toBe('1:20 the document has more than 5 elements');
		expect(refusal('<a>' + '<a>'.repeat(100), undefined)).toBe('1:193 elements nest more than 64 deep');
	});

	it('refuses entity declarations (the "billion laughs") and keeps an old DOCTYPE that declares nothing', () => {
		const laughs = '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n<map>&b;</map>';
		expect(refusal(laughs)).toBe('2:1 a DOCTYPE with declarations in [...] (entities) is not accepted; remove the DOCTYPE');
		expect(parseXml('<?xml version="1.0"?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n<map/>').name).toBe('map');
		expect(refusal('<map>&b;</map>')).toBe('1:6 "&" must start an entity such as &amp;');
	});

	it('refuses character references XML cannot hold, instead of failing on them', () => {
		expect(refusal('<a v="&#x110000;"/>')).toBe('1:7 &#x110000; is not a character XML can hold');
		expect(refusal('<a>&#0;</a>')).toBe('1:4 &#0; is not a character XML can hold');
		expect(refusal('<a>&#99999999999999999999;</a>')).toBe('1:4 &#99999999999999999999; is not a character XML can hold');
		expect(parseXml('<a>&#x1F600;&#10;</a>').text).toBe('😀\n');
	});
});

describe('parseJson nesting', () => {
	it('refuses values nested deeper than 256 with a line, instead of running out of stack', async () => {
		const { parseJson, JsonSyntaxError } = await import('./json');
		const deep = '['.repeat(200_000);
		let err: unknown;
		try {
			parseJson(deep);
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(JsonSyntaxError);
		expect((err as Error).message).toBe('values nest more than 256 deep');
		expect((parseJson('['.repeat(256) + ']'.repeat(256)).value as unknown[]).length).toBe(1);
	});
});
