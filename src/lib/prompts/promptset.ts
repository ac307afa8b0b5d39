// A prompt set: the templates a run uses, by id, with one version string for all of them.
// Reading a folder from disk lives server side (src/lib/server/model/load.ts); this part is
// pure so the workbench can build a set from files held in the browser.

import { TEMPLATE_IDS, type TemplateId } from '../engine/model';
import { sha256Hex } from './hash';
import { parseTemplate, templateVersion, TemplateError, type Template } from './template';

export interface PromptSet {
	templates: ReadonlyMap<string, Template>;
	/** template id -> template version */
	versions: Readonly<Record<string, string>>;
	/** hash over the sorted (id, version) pairs */
	version: string;
}

/** Version of a whole set: changes when any template is added, removed or edited. */
export function promptSetVersion(pairs: Iterable<readonly [string, string]>): string {
	const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	return sha256Hex(sorted.map(([id, v]) => `${id}\t${v}`).join('\n')).slice(0, 12);
}

export class PromptSetError extends Error {
	readonly problems: string[];

	constructor(problems: string[]) {
		super(problems.length === 1 ? problems[0] : `${problems.length} problems in the prompt set:\n${problems.join('\n')}`);
		this.name = 'PromptSetError';
		this.problems = problems;
	}
}

/** Builds a set from parsed templates; duplicate ids are an error. */
export function buildPromptSet(templates: Iterable<Template>): PromptSet {
	const map = new Map<string, Template>();
	const problems: string[] = [];
	for (const t of templates) {
		const existing = map.get(t.id);
		if (existing) problems.push(`${t.file ?? t.id}: template id "${t.id}" is also used by ${existing.file ?? 'another template'}`);
		else map.set(t.id, t);
	}
	if (problems.length) throw new PromptSetError(problems);
	const versions: Record<string, string> = {};
	for (const [id, t] of map) versions[id] = templateVersion(t);
	return { templates: map, versions, version: promptSetVersion(Object.entries(versions)) };
}

/**
 * Parses every `{file, source}` pair and builds a set, collecting all problems (each names
 * its file and line) into one PromptSetError. With `requireAll`, each engine template id must
 * be present.
 */
export function parsePromptSet(files: Iterable<{ file: string; source: string }>, requireAll = false): PromptSet {
	const problems: string[] = [];
	const templates: Template[] = [];
	const seen = new Set<string>();
	for (const { file, source } of files) {
		seen.add((file.split(/[\\/]/).pop() ?? file).replace(/\.md$/i, ''));
		try {
			templates.push(parseTemplate(source, file));
		} catch (e) {
			if (e instanceof TemplateError) problems.push(...e.issues.map((i) => `${e.file}:${i.line}: ${i.message}`));
			else throw e;
		}
	}
	if (requireAll) {
		// A file that failed to parse is reported above, not again as missing.
		const missing = TEMPLATE_IDS.filter((id) => !seen.has(id));
		if (missing.length) problems.push(`missing templates: ${missing.map((id) => `${id}.md`).join(', ')}`);
	}
	if (problems.length) throw new PromptSetError(problems);
	return buildPromptSet(templates);
}

/** The template for `id`, or a clear error naming what the set has. */
export function getTemplate(set: PromptSet, id: TemplateId | string): Template {
	const t = set.templates.get(id);
	if (!t) throw new PromptSetError([`no template "${id}" in the prompt set (have: ${[...set.templates.keys()].sort().join(', ')})`]);
	return t;
}
