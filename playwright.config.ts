import { defineConfig } from '@playwright/test';
import { cpSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			probe.close(() => resolve(port));
		});
	});
}

// Workers load this file again; the runner's choices travel to them through the environment,
// so every process agrees on one port and one data folder.
process.env.SIMULACRA_E2E_PORT ??= String(await freePort());
process.env.SIMULACRA_E2E_HOME ??= mkdtempSync(path.join(tmpdir(), 'simulacra-e2e-'));
// The editor tests change and create worlds: they work on a copy of worlds/, inside the data folder.
if (!process.env.SIMULACRA_E2E_WORLDS) {
	process.env.SIMULACRA_E2E_WORLDS = path.join(process.env.SIMULACRA_E2E_HOME, 'worlds');
	cpSync('worlds', process.env.SIMULACRA_E2E_WORLDS, { recursive: true });
}
// The prompt workbench saves into the working prompt folder: the tests save into a copy.
if (!process.env.SIMULACRA_E2E_PROMPTS) {
	process.env.SIMULACRA_E2E_PROMPTS = path.join(process.env.SIMULACRA_E2E_HOME, 'prompts');
	cpSync('prompts', process.env.SIMULACRA_E2E_PROMPTS, { recursive: true });
}
const port = Number(process.env.SIMULACRA_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
	testDir: 'tests/e2e',
	globalTeardown: './tests/e2e/global-teardown.ts',
	fullyParallel: false,
	forbidOnly: true,
	retries: 0,
	workers: 1,
	timeout: 60_000,
	expect: { timeout: 15_000 },
	reporter: [['list']],
	outputDir: 'test-results',
	use: {
		baseURL,
		headless: true,
		viewport: { width: 1400, height: 900 },
		trace: 'retain-on-failure',
		launchOptions: {
			executablePath: '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync'
			]
		}
	},
	projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
	webServer: {
		// start.js builds when the build is missing or stale, then serves.
		command: 'node scripts/start.js',
		url: `${baseURL}/api/status`,
		timeout: 300_000,
		reuseExistingServer: false,
		gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
		stdout: 'pipe',
		stderr: 'pipe',
		env: {
			HOST: '127.0.0.1',
			PORT: String(port),
			// Tests never read or write the user's own runs and settings.
			SIMULACRA_HOME: process.env.SIMULACRA_E2E_HOME,
			SIMULACRA_WORLDS: process.env.SIMULACRA_E2E_WORLDS,
			SIMULACRA_PROMPTS: process.env.SIMULACRA_E2E_PROMPTS,
			// A build of its own: a studio already running from build/ keeps working.
			SIMULACRA_BUILD_DIR: '.svelte-kit/e2e-build'
		}
	}
});
