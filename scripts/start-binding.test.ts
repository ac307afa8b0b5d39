// `npm start` refuses to serve on an address other machines reach unless it has an allow-list
// of host names and an access token; loopback addresses need neither.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bindingProblems, isLoopback } from './start.js';

const START = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.js');

describe('binding rules', () => {
	it('loopback addresses need nothing', () => {
		for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
			expect(isLoopback(h), h).toBe(true);
			expect(bindingProblems(h, {}), h).toEqual([]);
		}
		for (const h of ['0.0.0.0', '::', '192.168.1.4', 'studio.lan']) expect(isLoopback(h), h).toBe(false);
	});

	it('other addresses need SIMULACRA_ALLOWED_HOSTS and a token of 16 characters or more', () => {
		expect(bindingProblems('0.0.0.0', {})).toEqual([
			'HOST=0.0.0.0 lets other machines connect: list the names they use in SIMULACRA_ALLOWED_HOSTS (comma-separated)',
			'HOST=0.0.0.0 lets other machines connect: set SIMULACRA_ACCESS_TOKEN to a secret of at least 16 characters'
		]);
		expect(bindingProblems('0.0.0.0', { SIMULACRA_ALLOWED_HOSTS: 'studio.lan', SIMULACRA_ACCESS_TOKEN: 'short' })).toHaveLength(1);
		expect(bindingProblems('0.0.0.0', { SIMULACRA_ALLOWED_HOSTS: 'studio.lan', SIMULACRA_ACCESS_TOKEN: 'x'.repeat(16) })).toEqual([]);
	});

	it('the server refuses to start on 0.0.0.0 without them, before building anything', () => {
		const env = { ...process.env, HOST: '0.0.0.0', PORT: '1', SIMULACRA_BUILD_DIR: '.svelte-kit/never-built' };
		delete env.SIMULACRA_ALLOWED_HOSTS;
		delete env.SIMULACRA_ACCESS_TOKEN;
		const r = spawnSync(process.execPath, [START], { env, encoding: 'utf8', timeout: 20_000 });
		expect(r.status).toBe(1);
		expect(r.stderr).toContain('Simulacra Studio will not start:');
		expect(r.stderr).toContain('SIMULACRA_ALLOWED_HOSTS');
		expect(r.stderr).toContain('SIMULACRA_ACCESS_TOKEN');
		expect(r.stdout).not.toContain('Building');
	});
});
