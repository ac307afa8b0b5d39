// Where the project and its data live on disk. The data home holds caches, runs and indexes;
// it is outside version control (.simulacra/ is ignored) and can be moved with SIMULACRA_HOME.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The nearest folder at or above this file that holds a package.json. */
export function projectRoot(): string {
	if (root) return root;
	let dir = path.dirname(fileURLToPath(import.meta.url));
	for (;;) {
		if (existsSync(path.join(dir, 'package.json'))) return (root = dir);
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error(`no package.json found above ${path.dirname(fileURLToPath(import.meta.url))}`);
		dir = parent;
	}
}

/** `SIMULACRA_HOME` when set (resolved against the working folder), else `<project root>/.simulacra`. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
	const home = env.SIMULACRA_HOME?.trim();
	return home ? path.resolve(home) : path.join(projectRoot(), '.simulacra');
}

/** The folder of prompt templates shipped with the project. */
export function promptsDir(): string {
	return path.join(projectRoot(), 'prompts');
}
