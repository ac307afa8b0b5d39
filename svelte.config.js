import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// SIMULACRA_BUILD_DIR lets the test server build elsewhere, so `npm test` never swaps
		// the files under a studio that is already running from build/.
		adapter: adapter({ out: process.env.SIMULACRA_BUILD_DIR || 'build', precompress: false })
	},
	vitePlugin: {
		// Runes mode for every component of the project; libraries keep their own mode.
		dynamicCompileOptions: ({ filename }) =>
			filename.split(/[/\\]/).includes('node_modules') ? undefined : { runes: true }
	}
};

export default config;
