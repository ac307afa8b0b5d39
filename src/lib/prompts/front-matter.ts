// Where a template's YAML front matter is: between its first line, `---`, and the next line that
// is `---` (white space around either is allowed). The one split of a template file, for the
// template parser, its line locator and the workbench's form view.

/** A template's text split at its front matter. */
export interface FrontMatter {
	/** the text's lines */
	lines: string[];
	/** index of the closing `---` line (the opening one is line 0) */
	close: number;
	/** the YAML between the two lines */
	yaml: string;
}

/** The front matter of `text`, or why it has none: no opening `---` line, or none closing it. */
export function splitFrontMatter(text: string): FrontMatter | 'unopened' | 'unclosed' {
	const lines = text.split('\n');
	if (lines[0].trim() !== '---') return 'unopened';
	const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
	if (close < 0) return 'unclosed';
	return { lines, close, yaml: lines.slice(1, close).join('\n') };
}
