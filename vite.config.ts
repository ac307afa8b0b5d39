import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	server: { host: '127.0.0.1' },
	build: {
		// The timing report is noise on slow machines; the build itself reports real problems.
		rolldownOptions: { checks: { bundlerTimings: false } }
	},
	test: {
		include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
		environment: 'node',
		testTimeout: 20_000,
		hookTimeout: 30_000,
		// 2-core machines: keep parallelism modest so timing-sensitive tests stay stable.
		maxWorkers: 2
	}
});
