// A compact diff of two texts (the prompts or answers where two runs part): the lines both
// share at the start and the end are folded, the first differing line is marked down to the
// column where it parts. Enough to see what changed without a diff library.

export interface DiffLine {
	/** 1-based line number in its own text */
	n: number;
	text: string;
	/** 'same': shared with the other text; 'changed': in the differing block */
	kind: 'same' | 'changed';
	/** on the first differing line: the column (0-based) where it parts from the other text */
	from?: number;
}

export interface DiffSide {
	lines: DiffLine[];
	/** lines of the differing block left out (past the cap) */
	hiddenAfter: number;
}

export interface CompactDiff {
	/** true when the texts are equal */
	equal: boolean;
	/** 0-based index of the first differing line (equal texts: -1) */
	firstLine: number;
	/** shared lines before the context shown */
	hiddenBefore: number;
	/** shared lines after the differing block (not shown) */
	hiddenEnd: number;
	a: DiffSide;
	b: DiffSide;
}

export interface CompactDiffOptions {
	/** shared lines shown before the first differing line */
	context?: number;
	/** differing lines shown per side */
	maxChanged?: number;
}

function splitLines(text: string): string[] {
	return text.replace(/\r\n?/g, '\n').split('\n');
}

/** The first column where two strings differ (the shorter length when one starts the other). */
export function firstDifferentColumn(a: string, b: string): number {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
	return n;
}

export function compactDiff(a: string, b: string, opts: CompactDiffOptions = {}): CompactDiff {
	const context = Math.max(0, opts.context ?? 2);
	const maxChanged = Math.max(1, opts.maxChanged ?? 12);
	const la = splitLines(a);
	const lb = splitLines(b);
	if (a === b) {
		return { equal: true, firstLine: -1, hiddenBefore: 0, hiddenEnd: 0, a: { lines: [], hiddenAfter: 0 }, b: { lines: [], hiddenAfter: 0 } };
	}
	let prefix = 0;
	while (prefix < la.length && prefix < lb.length && la[prefix] === lb[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < la.length - prefix &&
		suffix < lb.length - prefix &&
		la[la.length - 1 - suffix] === lb[lb.length - 1 - suffix]
	)
		suffix++;
	const start = Math.max(0, prefix - context);
	const side = (lines: string[], other: string[]): DiffSide => {
		const out: DiffLine[] = [];
		for (let i = start; i < prefix; i++) out.push({ n: i + 1, text: lines[i], kind: 'same' });
		const changedEnd = lines.length - suffix;
		const shownEnd = Math.min(changedEnd, prefix + maxChanged);
		for (let i = prefix; i < shownEnd; i++) {
			const line: DiffLine = { n: i + 1, text: lines[i], kind: 'changed' };
			if (i === prefix) line.from = i < other.length ? firstDifferentColumn(lines[i], other[i]) : 0;
			out.push(line);
		}
		return { lines: out, hiddenAfter: changedEnd - shownEnd };
	};
	return {
		equal: false,
		firstLine: prefix,
		hiddenBefore: start,
		hiddenEnd: suffix,
		a: side(la, lb),
		b: side(lb, la)
	};
}
