// Reads a folder of prompt templates into a prompt set.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePromptSet, type PromptSet } from '../../prompts/promptset';
import { promptsDir } from '../paths';

/**
 * Loads every `*.md` file of `dir` except README.md (default: the project's prompts/ folder). File names in
 * errors are relative to the working folder. With `requireAll` (default true), each template
 * the engine uses must be present.
 */
export async function loadPromptSet(dir: string = promptsDir(), requireAll = true): Promise<PromptSet> {
	let names: string[];
	try {
		// README.md documents the format; it is not a template.
		names = (await readdir(dir)).filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md').sort();
	} catch (e) {
		throw new Error(`cannot read the prompt folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
	}
	const files = await Promise.all(
		names.map(async (name) => {
			const full = path.join(dir, name);
			return { file: path.relative(process.cwd(), full) || name, source: await readFile(full, 'utf8') };
		})
	);
	return parsePromptSet(files, requireAll);
}
