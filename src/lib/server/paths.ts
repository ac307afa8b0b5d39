// Where the project, its worlds and its data live on disk. The data home holds caches, runs, indexes and
// the stored prompt-set versions; it is outside version control (.simulacra/ is ignored) and can
// be moved with SIMULACRA_HOME. The prompt templates' working copy (prompts/) can be moved with
// SIMULACRA_PROMPTS.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The nearest folder at or above this file that holds a package.json (else the working folder). */
export function projectRoot(): string {
	if (root) return root;
	let dir: string | undefined;
	try {
		dir = path.dirname(fileURLToPath(import.meta.url));
	} catch {
		dir = undefined;
	}
	while (dir) {
		if (existsSync(path.join(dir, 'package.json'))) return (root = dir);
		const up = path.dirname(dir);
		dir = up === dir ? undefined : up;
	}
	return (root = process.cwd());
}

/** The worlds folder: SIMULACRA_WORLDS when set (resolved against the working folder), else `worlds/` of the project. */
export function worldsDir(env: NodeJS.ProcessEnv = process.env): string {
	const dir = env.SIMULACRA_WORLDS?.trim();
	return dir ? path.resolve(dir) : path.join(projectRoot(), 'worlds');
}

/** `SIMULACRA_HOME` when set (resolved against the working folder), else `<project root>/.simulacra`. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
	const home = env.SIMULACRA_HOME?.trim();
	return home ? path.resolve(home) : path.join(projectRoot(), '.simulacra');
}

/**
 * The working copy of the prompt templates: `SIMULACRA_PROMPTS` when set (resolved against the
 * working folder), else the project's `prompts/`. Runs started without a chosen version use it.
 */
export function promptsDir(env: NodeJS.ProcessEnv = process.env): string {
	const dir = env.SIMULACRA_PROMPTS?.trim();
	return dir ? path.resolve(dir) : path.join(projectRoot(), 'prompts');
}

/** The stored prompt-set versions: `<data home>/prompt-versions`. */
export function promptVersionsDir(home: string = dataHome()): string {
	return path.join(home, 'prompt-versions');
}
