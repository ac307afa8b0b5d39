import { defineConfig } from '@playwright/test';
// Runs the walkthrough checks against the build made before the fixes (a server already started).
export default defineConfig({
	testDir: '/work/main/tests/e2e',
	testMatch: /walkthrough\.spec\.ts/,
	fullyParallel: false,
	workers: 1,
	retries: 0,
	timeout: 120_000,
	expect: { timeout: 10_000 },
	reporter: [['list']],
	outputDir: '/tmp/h12pw/old-results',
	use: {
		baseURL: 'http://127.0.0.1:5392',
		headless: true,
		launchOptions: { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] }
	},
	projects: [{ name: 'chromium', use: { browserName: 'chromium' } }]
});
