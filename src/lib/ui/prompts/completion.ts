// What the template editor offers after `{{`: the template's declared inputs (from its front
// matter as it is now, or the engine's contract for that template when the front matter cannot
// be read), and where the chosen name goes on the line. Pure; the Monaco provider in monaco.ts
// turns it into completion items.

import { TEMPLATE_IDS, type TemplateId } from '$lib/engine/model';
import { TEMPLATE_CONTRACT } from '$lib/prompts/contract';
import { readForm, type FormInput } from './frontmatter';

/** The inputs a template declares, or the contract's inputs when its front matter cannot be read. */
export function declaredInputs(source: string, id: string): FormInput[] {
	const form = readForm(source);
	if (form.ok) return form.inputs;
	if (!(TEMPLATE_IDS as readonly string[]).includes(id)) return [];
	return Object.entries(TEMPLATE_CONTRACT[id as TemplateId].inputs).map(([name, type]) => ({ name, type, description: '' }));
}

export interface PlaceholderSlot {
	/** what is typed of the name so far */
	typed: string;
	/** 1-based columns of the name to replace (start inclusive, end exclusive) */
	startColumn: number;
	endColumn: number;
	/** true when `}}` already follows the name, so only the name is written */
	closed: boolean;
}

/** The placeholder being typed at `column` (1-based) of `line`, if the cursor is just inside `{{`. */
export function placeholderSlot(line: string, column: number): PlaceholderSlot | null {
	const before = line.slice(0, column - 1);
	const m = /\{\{\s*([A-Za-z_]\w*)?$/.exec(before);
	if (!m) return null;
	const typed = m[1] ?? '';
	const after = line.slice(column - 1);
	const rest = /^\w*/.exec(after)?.[0] ?? '';
	return {
		typed,
		startColumn: column - typed.length,
		endColumn: column + rest.length,
		closed: /^\w*\s*\}\}/.test(after)
	};
}
