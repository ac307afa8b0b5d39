#!/usr/bin/env node
// The end-to-end tests drive the system Chromium at /usr/bin/chromium (no browser download).
// Install it when we can do so without asking; otherwise say exactly what is missing.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

function hasCommand(name) {
	return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function run(cmd, args) {
	console.log(`$ ${cmd} ${args.join(' ')}`);
	const result = spawnSync(cmd, args, {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
	});
	return result.status === 0;
}

function main() {
	if (existsSync(CHROMIUM)) return 0;

	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (isRoot && hasCommand('apt-get')) {
		console.log(`${CHROMIUM} is missing; installing the Debian chromium package.`);
		if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium'])) {
			if (existsSync(CHROMIUM)) return 0;
		}
		console.error(`apt-get finished but ${CHROMIUM} is still missing.`);
		return 1;
	}

	console.error(
		[
			`The end-to-end tests need Chromium at ${CHROMIUM}, and it is not installed.`,
			'Install it, then run the tests again:',
			'  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
			'  (on Ubuntu, where chromium is a snap, link it: sudo ln -s "$(command -v chromium)" /usr/bin/chromium)',
			'  Fedora:         sudo dnf install -y chromium'
		].join('\n')
	);
	return 1;
}

process.exitCode = main();
