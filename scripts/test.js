#!/usr/bin/env node
// `npm test`: the one gate, the same on a laptop and in CI. Types, lint, the system programs the
// tests drive (Chromium, Tiled), unit tests, then the browser flows; stops at the first failing
// step.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

const STEPS = [
	{ name: 'sync', what: 'generate SvelteKit types', cmd: [bin('@sveltejs/kit', 'svelte-kit.js'), 'sync'] },
	{
		name: 'types',
		what: 'svelte-check',
		cmd: [bin('svelte-check', 'bin/svelte-check'), '--tsconfig', './tsconfig.json', '--threshold', 'error', '--output', 'human']
	},
	{ name: 'lint', what: 'eslint', cmd: [bin('eslint', 'bin/eslint.js'), '.'] },
	{ name: 'tools', what: 'check for Chromium and Tiled', cmd: [path.join(ROOT, 'scripts', 'ensure-tools.js')] },
	{ name: 'unit', what: 'vitest', cmd: [bin('vitest', 'vitest.mjs'), 'run'] },
	{ name: 'e2e', what: 'playwright', cmd: [bin('@playwright/test', 'cli.js'), 'test'] }
];

function seconds(ms) {
	return `${(ms / 1000).toFixed(1)}s`;
}

function main() {
	const done = [];
	for (const step of STEPS) {
		console.log(`\n=== ${step.name}: ${step.what} ===`);
		const started = performance.now();
		const result = spawnSync(process.execPath, step.cmd, {
			cwd: ROOT,
			stdio: 'inherit'
		});
		const ok = result.status === 0;
		done.push({ ...step, ok, ms: performance.now() - started });
		if (!ok) break;
	}

	console.log('\n=== summary ===');
	for (const step of done) {
		console.log(`${step.ok ? 'PASS' : 'FAIL'}  ${step.name.padEnd(8)} ${step.what.padEnd(26)} ${seconds(step.ms)}`);
	}
	for (const step of STEPS.slice(done.length)) {
		console.log(`skip  ${step.name.padEnd(8)} ${step.what}`);
	}
	const failed = done.find((s) => !s.ok);
	if (failed) {
		console.log(`\nnpm test failed at "${failed.name}" (${failed.what}).`);
		return 1;
	}
	console.log('\nAll checks passed.');
	return 0;
}

process.exitCode = main();
