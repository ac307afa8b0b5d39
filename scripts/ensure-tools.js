#!/usr/bin/env node
// The system programs the tests drive: Chromium at /usr/bin/chromium (the end-to-end tests; no
// browser download) and Tiled at /usr/bin/tiled (the map round-trip tests export saved maps
// with the real Tiled). Install the missing ones when we can do so without asking; otherwise
// say exactly what is missing and how to install it.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
export const TILED = '/usr/bin/tiled';

/** Each program: where the tests expect it, its Debian package, and what needs it. */
export const TOOLS = [
	{
		path: CHROMIUM,
		pkg: 'chromium',
		why: 'the end-to-end tests drive it',
		help: [
			'  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
			'  (on Ubuntu, where chromium is a snap, link it: sudo ln -s "$(command -v chromium)" /usr/bin/chromium)',
			'  Fedora:         sudo dnf install -y chromium'
		]
	},
	{
		path: TILED,
		pkg: 'tiled',
		why: 'the map tests open saved maps with the real Tiled',
		help: [
			'  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y tiled',
			'  Fedora:         sudo dnf install -y tiled',
			'  (elsewhere, install Tiled from https://www.mapeditor.org and link its binary to /usr/bin/tiled)'
		]
	}
];

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

export function ensureTools() {
	const missing = TOOLS.filter((t) => !existsSync(t.path));
	if (missing.length === 0) return 0;

	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (isRoot && hasCommand('apt-get')) {
		const pkgs = missing.map((t) => t.pkg);
		console.log(`${missing.map((t) => t.path).join(' and ')} missing; installing the Debian package${pkgs.length > 1 ? 's' : ''} ${pkgs.join(', ')}.`);
		if (run('apt-get', ['update'])) run('apt-get', ['install', '-y', ...pkgs]);
		const still = missing.filter((t) => !existsSync(t.path));
		if (still.length === 0) return 0;
		console.error(`apt-get finished but ${still.map((t) => t.path).join(' and ')} ${still.length > 1 ? 'are' : 'is'} still missing.`);
		return 1;
	}

	for (const t of missing)
		console.error([`The tests need ${t.pkg} at ${t.path} (${t.why}), and it is not installed.`, 'Install it, then run the tests again:', ...t.help].join('\n'));
	return 1;
}

// run as a script (not when imported for the constants)
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = ensureTools();
