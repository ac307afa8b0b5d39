// The built studio served for a browser bench (scripts/start.js, building first when the build
// is stale) on a free port with its own data home, and the headless Chromium that drives it.

import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';

const ROOT = path.join(import.meta.dirname, '..');

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const a = probe.address();
			probe.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
		});
	});
}

export interface App {
	/** http://127.0.0.1:PORT */
	base: string;
	stop(): void;
}

/**
 * Starts the studio with `SIMULACRA_HOME=home` (and any other variables in `env`) and resolves
 * once it answers; only /api/status has been asked for by then.
 */
export async function startApp(home: string, env: Record<string, string> = {}): Promise<App> {
	const port = await freePort();
	const server = spawn(process.execPath, [path.join(ROOT, 'scripts/start.js')], {
		cwd: ROOT,
		env: { ...process.env, ...env, SIMULACRA_HOME: home, PORT: String(port) },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	// the last of what the server printed, for when it does not come up
	let output = '';
	const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
	server.stdout.on('data', keep);
	server.stderr.on('data', keep);
	let exited: number | null = null;
	server.once('exit', (code) => (exited = code ?? 1));
	const stop = () => void server.kill('SIGTERM');
	const base = `http://127.0.0.1:${port}`;
	const end = performance.now() + 300_000;
	while (performance.now() < end && exited === null) {
		try {
			if ((await fetch(`${base}/api/status`)).ok) return { base, stop };
		} catch {
			// not up yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	stop();
	throw new Error(
		exited === null ? `the studio did not answer at ${base} within 300 s:\n${output}` : `the studio stopped (exit code ${exited}) before answering:\n${output}`
	);
}

export function launchChromium(): Promise<Browser> {
	return chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
	});
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
