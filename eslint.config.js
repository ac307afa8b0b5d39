import js from '@eslint/js';
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
		{ group: ['node:*'], message: 'The engine must not import node built-ins.' }
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
