import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import { defineConfig, globalIgnores } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

// The engine is a pure, replayable core: everything that reaches outside (UI, server, files,
// network, the clock, randomness, timers) must be passed in, never imported or called.
const ENGINE_IMPORTS = {
	paths: [
		{ name: 'svelte', message: 'The engine is UI-free: no svelte imports.' },
		{ name: '$app', message: 'The engine is framework-free: no $app imports.' },
		...['fs', 'fs/promises', 'path', 'path/posix', 'path/win32'].map((name) => ({
			name,
			message: 'The engine must not touch files.'
		}))
	],
	// Patterns containing a slash are anchored, so `./path` (a module of the engine) stays allowed.
	patterns: [
		{ group: ['svelte/*'], message: 'The engine is UI-free: no svelte imports.' },
		{ group: ['$app/*'], message: 'The engine is framework-free: no $app imports.' },
		{
			group: ['$lib/server', '$lib/server/*', '**/server', '**/server/*'],
			message: 'The engine must not import server code; pass what it needs in.'
		},
		{
			group: ['$lib/ui', '$lib/ui/*', '**/ui', '**/ui/*'],
			message: 'The engine is UI-free: no imports of the UI ($lib/ui).'
		},
		{
			group: ['$lib/editor', '$lib/editor/*', '**/editor', '**/editor/*'],
			message: 'The engine knows nothing of the world editor ($lib/editor).'
		},
		{ group: ['node:*'], message: 'The engine must not import node built-ins.' }
	]
};

// The server is a one-way stack, bottom to top: file primitives; the root modules (paths,
// limits, confined files, request errors and checks); the journal, memories, the model and
// worlds; the run and prompt stores; runs; what is read from runs (queries, indexed journals,
// restored states, search, traces, diffs, re-scoring, evaluation); and on top the IDE's run
// manager and HTTP glue, experiments and the fuzzers (the routes and the CLI sit above them
// all). A folder of src/lib/server imports only folders of the layers below its own, never one
// beside or above it (as @xyflow keeps `system` below `svelte`), so the folders form no cycle.
const SERVER_LAYERS = [
	['fs'],
	['(root)'],
	['world', 'model', 'memory', 'journal'],
	['store', 'prompts'],
	['run'],
	['read', 'search', 'trace', 'diff', 'rescore', 'eval'],
	['ide', 'experiments', 'fuzz']
];
// a folder not placed yet sits on top: it may import every layer, and none may import it
const unplaced = readdirSync(new URL('./src/lib/server', import.meta.url), { withFileTypes: true })
	.filter((d) => d.isDirectory() && !SERVER_LAYERS.flat().includes(d.name))
	.map((d) => d.name);
if (unplaced.length) SERVER_LAYERS.push(unplaced);

/** Files that break the stack until their owners move them; nothing may be added here. */
const SERVER_LAYER_EXCEPTIONS = [];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One config per folder and depth below it: the imports of folders not below its layer are refused. */
function serverLayerConfigs() {
	const folders = SERVER_LAYERS.flat().filter((f) => f !== '(root)');
	return SERVER_LAYERS.flatMap((layer, i) => {
		const below = new Set(SERVER_LAYERS.slice(0, i).flat());
		return layer.flatMap((folder) => {
			const refused = folders.filter((f) => f !== folder && !below.has(f));
			if (refused.length === 0) return [];
			const names = `(?:${refused.map(escape).join('|')})`;
			const message = `${folder === '(root)' ? 'The root modules of src/lib/server' : `src/lib/server/${folder}/`} may import only the layers below (${[...below].join(', ') || 'none'}); see SERVER_LAYERS in eslint.config.js.`;
			return [0, 1, 2, 3]
				.filter((depth) => (folder === '(root)' ? depth === 0 : depth > 0))
				.map((depth) => {
					const up = depth === 0 ? '\\./' : '(?:\\.\\./){' + depth + '}';
					const server = '(?:\\.\\./){' + (depth + 1) + '}server/';
					const where = folder === '(root)' ? 'src/lib/server/*' : `src/lib/server/${folder}/${'*/'.repeat(depth - 1)}*`;
					return {
						files: [`${where}.ts`, `${where}.js`],
						ignores: ['src/lib/server/**/*.test.ts', ...SERVER_LAYER_EXCEPTIONS],
						rules: {
							'no-restricted-imports': ['error', { patterns: [{ regex: `^(?:\\$lib/server/|${up}|${server})${names}(?:/|$)`, message }] }]
						}
					};
				});
		});
	});
}

// Browser code (the UI, the editor core, the shared, API, world, prompt and evaluation modules,
// the pages) never imports server code: shapes live in $lib/api, browser-safe functions in
// $lib/shared.
const BROWSER_FILES = [
	'src/lib/ui/**',
	'src/lib/editor/**',
	'src/lib/shared/**',
	'src/lib/api/**',
	'src/lib/world/**',
	'src/lib/prompts/**',
	'src/lib/eval/**',
	'src/routes/**/*.svelte',
	'src/routes/**/+page.ts',
	'src/routes/**/+layout.ts'
];
const BROWSER_IMPORTS = {
	patterns: [
		{
			group: ['$lib/server', '$lib/server/*', '**/server', '**/server/*'],
			message: 'Browser code must not import server code: move the shape to $lib/api or the function to $lib/shared.'
		}
	]
};

const ENGINE_SYNTAX = [
	{
		selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
		message: 'Math.random makes runs unreplayable; use the seeded RNG passed to the engine.'
	},
	{
		selector: "MemberExpression[object.name='Date'][property.name='now']",
		message: 'Date.now reads the machine clock; use the game clock passed to the engine.'
	},
	{
		selector: "NewExpression[callee.name='Date'][arguments.length=0]",
		message: 'new Date() reads the machine clock; use the game clock passed to the engine.'
	}
];

const ENGINE_GLOBALS = [
	{ name: 'setTimeout', message: 'Timers break determinism; time moves only by tick.' },
	{ name: 'setInterval', message: 'Timers break determinism; time moves only by tick.' },
	{ name: 'setImmediate', message: 'Timers break determinism; time moves only by tick.' },
	{ name: 'fetch', message: 'The engine does no I/O; the model gateway is passed in.' }
];

export default defineConfig(
	globalIgnores([
		'build/',
		'.svelte-kit/',
		'node_modules/',
		'.simulacra/',
		'test-results/',
		'playwright-report/',
		'coverage/',
		'docs/screenshots/',
		// Tiled tilesets share the .tsx extension; the project has no TSX components.
		'**/*.tsx'
	]),
	js.configs.recommended,
	ts.configs.recommended,
	svelte.configs.recommended,
	{
		languageOptions: {
			parserOptions: { extraFileExtensions: ['.svelte'] },
			globals: { ...globals.browser, ...globals.node }
		},
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
			],
			// TypeScript already reports undefined names, and knows about type-only globals.
			'no-undef': 'off'
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: { parser: ts.parser, svelteConfig }
		}
	},
	...serverLayerConfigs(),
	{
		files: BROWSER_FILES,
		ignores: ['**/*.test.ts'],
		rules: { 'no-restricted-imports': ['error', BROWSER_IMPORTS] }
	},
	{
		files: ['src/lib/engine/**/*.ts', 'src/lib/engine/**/*.js'],
		ignores: ['src/lib/engine/**/*.test.ts', 'src/lib/engine/**/*.test.js'],
		rules: {
			'no-restricted-imports': ['error', ENGINE_IMPORTS],
			'no-restricted-syntax': ['error', ...ENGINE_SYNTAX],
			'no-restricted-globals': ['error', ...ENGINE_GLOBALS]
		}
	}
);
