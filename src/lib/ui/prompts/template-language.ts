// The prompt template language for Monaco: a Monarch tokenizer (YAML front matter between
// `---` lines, then the prompt text with `{{placeholders}}`; malformed or unclosed ones stand
// out), its editing rules and the colours of the workbench's light and dark themes. Plain data:
// the loader (monaco.ts) registers it once Monaco is in the page.

import type { editor, languages } from 'monaco-editor/editor';

export const TEMPLATE_LANGUAGE = 'simulacra-template';
export const THEME_LIGHT = 'simulacra-light';
export const THEME_DARK = 'simulacra-dark';

const PLACEHOLDER = /\{\{\s*[A-Za-z_]\w*\s*\}\}/;

export const templateMonarch: languages.IMonarchLanguage = {
	defaultToken: '',
	tokenPostfix: '.tpl',
	tokenizer: {
		// line 1: a template opens its front matter; anything else is prompt text
		root: [
			[/^---\s*$/, { token: 'delimiter.frontmatter', next: '@yaml' }],
			[/./, { token: '@rematch', next: '@body' }]
		],
		yaml: [
			[/^---\s*$/, { token: 'delimiter.frontmatter', switchTo: '@body' }],
			[/#.*$/, 'comment'],
			// every group matches (maybe empty): Monarch reads each group's text
			[/^(\s*)((?:-\s+)?)([A-Za-z_][\w-]*)(\s*:)(?=\s|$)/, ['white', 'delimiter', 'key', 'delimiter']],
			[/([A-Za-z_][\w-]*)(\s*:)(?=\s|$)/, ['key', 'delimiter']],
			[/"/, { token: 'string.quote', next: '@dstring' }],
			[/'/, { token: 'string.quote', next: '@sstring' }],
			[/\b(?:true|false|null)\b/, 'keyword'],
			[/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/, 'number'],
			[PLACEHOLDER, 'variable.placeholder'],
			[/[{}[\],]/, 'delimiter.bracket'],
			[/-\s/, 'delimiter'],
			// a quote inside a word (an apostrophe) does not open a string, as in YAML
			[/[^\s{}[\],"'#:][^\s{}[\],"#:]*/, 'string.plain'],
			[/./, '']
		],
		dstring: [
			[PLACEHOLDER, 'variable.placeholder'],
			[/[^\\"{]+/, 'string'],
			[/\\./, 'string.escape'],
			[/"/, { token: 'string.quote', next: '@pop' }],
			[/./, 'string']
		],
		sstring: [
			[PLACEHOLDER, 'variable.placeholder'],
			[/[^'{]+/, 'string'],
			[/''/, 'string.escape'],
			[/'/, { token: 'string.quote', next: '@pop' }],
			[/./, 'string']
		],
		body: [
			[PLACEHOLDER, 'variable.placeholder'],
			[/\{\{[^{}]*\}\}/, 'invalid.placeholder'],
			[/\{\{/, 'invalid.placeholder'],
			[/^#{1,6}\s.*$/, 'keyword.heading'],
			[/[^{#]+/, ''],
			[/./, '']
		]
	}
};

/**
 * No automatic closing of brackets or quotes: prose is full of apostrophes, and `{{` opens the
 * placeholder completion, which writes the closing `}}` itself.
 */
export const templateLanguageConfiguration: languages.LanguageConfiguration = {
	comments: { lineComment: '#' },
	brackets: [
		['{', '}'],
		['[', ']']
	],
	autoClosingPairs: [],
	surroundingPairs: []
};

const rules = (dark: boolean): editor.ITokenThemeRule[] => [
	{ token: 'variable.placeholder', foreground: dark ? 'c4b5fd' : '6d28d9', fontStyle: 'bold' },
	{ token: 'invalid.placeholder', foreground: dark ? 'f87171' : 'b91c1c', fontStyle: 'underline' },
	{ token: 'delimiter.frontmatter', foreground: dark ? '64748b' : '94a3b8', fontStyle: 'bold' },
	{ token: 'key', foreground: dark ? '7dd3fc' : '0b5394' },
	{ token: 'string.plain', foreground: dark ? 'e2e8f0' : '334155' },
	{ token: 'keyword.heading', foreground: dark ? '93c5fd' : '1d4ed8', fontStyle: 'bold' }
];

export const themes: Record<string, editor.IStandaloneThemeData> = {
	[THEME_LIGHT]: { base: 'vs', inherit: true, rules: rules(false), colors: {} },
	[THEME_DARK]: { base: 'vs-dark', inherit: true, rules: rules(true), colors: {} }
};
