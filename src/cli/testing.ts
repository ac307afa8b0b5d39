// The CLI as the tests run it: a process of its own, with a data home of its own.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

export const root = path.resolve(import.meta.dirname, '../..');

/** A data home removed after the file's tests, the environment naming it, and the CLI run in it. */
export function cliHarness(prefix: string) {
	const home = mkdtempSync(path.join(tmpdir(), prefix));
	afterAll(() => rmSync(home, { recursive: true, force: true }));
	const env = { ...process.env, SIMULACRA_HOME: home };
	const args = (...a: string[]) => ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a];
	const cli = (...a: string[]) => {
		const r = spawnSync(process.execPath, args(...a), { cwd: root, env, encoding: 'utf8' });
		return { code: r.status, out: r.stdout, err: r.stderr };
	};
	return { home, env, args, cli };
}
