// The prompt set the project ships: the templates of prompts/ as committed in the project's
// repository (git HEAD), by the same content hash runs record. Saving a version writes into the
// working folder, which is that same prompts/ unless SIMULACRA_PROMPTS moves it, so this is
// what lets the IDE say whether a run's prompts differ from the shipped ones. Unknown (null)
// when the project is not a git checkout, git is missing or HEAD has no prompts/.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { promptSetVersion } from '../../prompts/promptset';
import { templateVersion } from '../../prompts/template';
import { projectRoot } from '../paths';

export interface ShippedPromptSet {
	/** the prompt-set version of prompts/ at HEAD */
	version: string;
	/** the commit it was read from */
	commit: string;
}

let cache: { key: string; value: ShippedPromptSet | null } | undefined;

function git(cwd: string, args: string[]): string {
	return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000, maxBuffer: 16 * 1024 * 1024 });
}

/** The shipped prompt set, read once per commit (null when it cannot be read). */
export function shippedPromptSet(root?: string): ShippedPromptSet | null {
	let top: string;
	let commit: string;
	try {
		top = git(root ?? projectRoot(), ['rev-parse', '--show-toplevel']).trim();
		commit = git(top, ['rev-parse', 'HEAD']).trim();
	} catch {
		return null;
	}
	const key = `${top}@${commit}`;
	if (cache?.key === key) return cache.value;
	let value: ShippedPromptSet | null = null;
	try {
		// the files the working folder would hold: every *.md of prompts/ but its README
		const files = git(top, ['ls-tree', '--name-only', 'HEAD', 'prompts/'])
			.split('\n')
			.filter((f) => f.endsWith('.md') && path.posix.basename(f).toLowerCase() !== 'readme.md');
		const pairs = files.map((f) => [path.posix.basename(f, '.md'), templateVersion({ source: git(top, ['show', `HEAD:${f}`]) })] as const);
		if (pairs.length) value = { version: promptSetVersion(pairs), commit };
	} catch {
		value = null;
	}
	cache = { key, value };
	return value;
}
