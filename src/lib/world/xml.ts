// A small, strict XML reader that keeps the line of every element. The map reader uses it to
// check a .tmx/.tsx file before handing it to tmx-parser, whose sax parser runs in a lenient
// mode and reports neither lines nor well-formedness problems reliably.

export interface XmlElement {
	name: string;
	attrs: Record<string, string>;
	children: XmlElement[];
	/** concatenated character data directly inside this element */
	text: string;
	/** 1-based line of the opening `<` */
	line: number;
}

/** Bounds on a document, checked while it is read: size first, then nesting and element count. */
export interface XmlLimits {
	/** characters of the whole document */
	maxBytes: number;
	/** elements nested in one another, the root counting as 1 */
	maxDepth: number;
	/** elements in the document */
	maxElements: number;
}

/** Generous bounds for a Tiled map; the server's own (src/lib/server/limits.ts) can be set. */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
	maxBytes: 64 * 1024 * 1024,
	maxDepth: 64,
	maxElements: 1_000_000
});

export class XmlSyntaxError extends Error {
	constructor(
		message: string,
		readonly line: number,
		readonly column: number
	) {
		super(message);
		this.name = 'XmlSyntaxError';
	}
}

/** Maps character offsets to 1-based line/column numbers. */
export class LineIndex {
	private readonly starts: number[] = [0];
	constructor(src: string) {
		let i = src.indexOf('\n');
		while (i >= 0) {
			this.starts.push(i + 1);
			i = src.indexOf('\n', i + 1);
		}
	}
	line(offset: number): number {
		let lo = 0;
		let hi = this.starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.starts[mid] <= offset) lo = mid;
			else hi = mid - 1;
		}
		return lo + 1;
	}
	column(offset: number): number {
		return offset - this.starts[this.line(offset) - 1] + 1;
	}
}

const NAME = /[A-Za-z_:][\w.:-]*/y;
const WS = /\s*/y;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;

function decodeEntities(raw: string, fail: (msg: string, at: number) => never, base: number): string {
	if (!raw.includes('&')) return raw;
	// Any `&` not starting a known entity is malformed XML. Only the five predefined entities
	// and character references exist here: entities a DOCTYPE declares are refused with it.
	let i = raw.indexOf('&');
	while (i >= 0) {
		ENTITY.lastIndex = i;
		const m = ENTITY.exec(raw);
		if (!m || m.index !== i) fail('"&" must start an entity such as &amp;', base + i);
		i = raw.indexOf('&', i + 1);
	}
	checkCharRefs(raw, fail, base);
	return raw.replace(ENTITY, (_m, e: string) => {
		switch (e) {
			case 'amp':
				return '&';
			case 'lt':
				return '<';
			case 'gt':
				return '>';
			case 'quot':
				return '"';
			case 'apos':
				return "'";
			default: {
				const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
				return String.fromCodePoint(code);
			}
		}
	});
}

/** A character reference names a character XML can hold (not NUL, not past U+10FFFF). */
function checkCharRefs(raw: string, fail: (msg: string, at: number) => never, base: number): void {
	const refs = /&#(x[0-9a-fA-F]+|[0-9]+);/g;
	for (let m = refs.exec(raw); m; m = refs.exec(raw)) {
		const code = m[1][0] === 'x' ? parseInt(m[1].slice(1), 16) : parseInt(m[1], 10);
		const ok =
			code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
		if (!ok) fail(`${m[0]} is not a character XML can hold`, base + m.index);
	}
}

/**
 * Parses a whole document and returns its root element; throws XmlSyntaxError with a line.
 * A document over `limits` (size, nesting, element count) or with a DOCTYPE that declares
 * anything (entities, in particular) is refused the same way.
 */
export function parseXml(src: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
	if (src.length > limits.maxBytes)
		throw new XmlSyntaxError(`the document is ${src.length} characters, more than the ${limits.maxBytes} allowed`, 1, 1);
	const lines = new LineIndex(src);
	const fail = (message: string, at: number): never => {
		throw new XmlSyntaxError(message, lines.line(at), lines.column(at));
	};
	let elements = 0;
	const stack: XmlElement[] = [];
	let root: XmlElement | undefined;
	let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
	const n = src.length;

	const addText = (raw: string, at: number, decode: boolean) => {
		const top = stack[stack.length - 1];
		if (!top) {
			if (raw.trim() !== '') fail('text outside the root element', at + raw.search(/\S/));
			return;
		}
		top.text += decode ? decodeEntities(raw, fail, at) : raw;
	};

	while (i < n) {
		const lt = src.indexOf('<', i);
		if (lt < 0) {
			addText(src.slice(i), i, true);
			break;
		}
		if (lt > i) addText(src.slice(i, lt), i, true);
		if (src.startsWith('<!--', lt)) {
			const end = src.indexOf('-->', lt + 4);
			if (end < 0) fail('comment is never closed (missing "-->")', lt);
			i = end + 3;
		} else if (src.startsWith('<![CDATA[', lt)) {
			const end = src.indexOf(']]>', lt + 9);
			if (end < 0) fail('CDATA section is never closed (missing "]]>")', lt);
			if (!stack.length) fail('CDATA outside the root element', lt);
			addText(src.slice(lt + 9, end), lt + 9, false);
			i = end + 3;
		} else if (src.startsWith('<?', lt)) {
			const end = src.indexOf('?>', lt + 2);
			if (end < 0) fail('processing instruction is never closed (missing "?>")', lt);
			i = end + 2;
		} else if (src.startsWith('<!', lt)) {
			// DOCTYPE (Tiled once wrote one naming its DTD): skipped. An internal subset in brackets
			// declares entities or more, which this reader does not expand: refused.
			const bracket = src.indexOf('[', lt);
			const gt = src.indexOf('>', lt);
			if (gt < 0) fail('declaration is never closed (missing ">")', lt);
			if (bracket >= 0 && bracket < gt)
				fail('a DOCTYPE with declarations in [...] (entities) is not accepted; remove the DOCTYPE', lt);
			if (stack.length || root) fail('a declaration must come before the root element', lt);
			i = gt + 1;
		} else if (src[lt + 1] === '/') {
			NAME.lastIndex = lt + 2;
			const m = NAME.exec(src);
			if (!m) fail('expected a tag name after "</"', lt + 2);
			const name = m![0];
			WS.lastIndex = NAME.lastIndex;
			WS.exec(src);
			if (src[WS.lastIndex] !== '>') fail(`expected ">" to end </${name}>`, WS.lastIndex);
			const top = stack.pop();
			if (!top) fail(`closing tag </${name}> has no matching opening tag`, lt);
			if (top!.name !== name)
				fail(`</${name}> does not match <${top!.name}> opened on line ${top!.line}`, lt);
			i = WS.lastIndex + 1;
		} else {
			NAME.lastIndex = lt + 1;
			const m = NAME.exec(src);
			if (!m) fail('"<" must start a tag (write &lt; for a literal "<")', lt);
			if (++elements > limits.maxElements) fail(`the document has more than ${limits.maxElements} elements`, lt);
			if (stack.length >= limits.maxDepth) fail(`elements nest more than ${limits.maxDepth} deep`, lt);
			const el: XmlElement = { name: m![0], attrs: {}, children: [], text: '', line: lines.line(lt) };
			let p = NAME.lastIndex;
			let selfClosing = false;
			for (;;) {
				WS.lastIndex = p;
				WS.exec(src);
				const hadSpace = WS.lastIndex > p;
				p = WS.lastIndex;
				if (p >= n) fail(`tag <${el.name}> is never closed (missing ">")`, lt);
				if (src[p] === '>') {
					p++;
					break;
				}
				if (src.startsWith('/>', p)) {
					p += 2;
					selfClosing = true;
					break;
				}
				if (!hadSpace) fail(`expected a space, ">" or "/>" in <${el.name}>`, p);
				NAME.lastIndex = p;
				const a = NAME.exec(src);
				if (!a) fail(`unexpected character "${src[p]}" in <${el.name}>`, p);
				const attr = a![0];
				WS.lastIndex = NAME.lastIndex;
				WS.exec(src);
				if (src[WS.lastIndex] !== '=') fail(`attribute "${attr}" needs ="value"`, WS.lastIndex);
				WS.lastIndex++;
				WS.exec(src);
				const q = src[WS.lastIndex];
				if (q !== '"' && q !== "'") fail(`value of attribute "${attr}" must be quoted`, WS.lastIndex);
				const start = WS.lastIndex + 1;
				const end = src.indexOf(q, start);
				if (end < 0) fail(`value of attribute "${attr}" is never closed`, start - 1);
				const raw = src.slice(start, end);
				const badLt = raw.indexOf('<');
				if (badLt >= 0) fail(`"<" inside the value of attribute "${attr}"`, start + badLt);
				if (attr in el.attrs) fail(`attribute "${attr}" appears twice in <${el.name}>`, p);
				el.attrs[attr] = decodeEntities(raw, fail, start);
				p = end + 1;
			}
			const parent = stack[stack.length - 1];
			if (parent) parent.children.push(el);
			else if (root) fail(`a second root element <${el.name}> (the document already has <${root.name}>)`, lt);
			else root = el;
			if (!selfClosing) stack.push(el);
			i = p;
		}
	}
	if (stack.length) {
		const top = stack[stack.length - 1];
		fail(`<${top.name}> opened on line ${top.line} is never closed`, n);
	}
	if (!root) fail('the file has no XML element', 0);
	return root!;
}

/** Depth-first search for the first element with the given name (the root included). */
export function findElement(root: XmlElement, name: string): XmlElement | undefined {
	if (root.name === name) return root;
	for (const c of root.children) {
		const hit = findElement(c, name);
		if (hit) return hit;
	}
	return undefined;
}
