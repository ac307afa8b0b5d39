// Monaco modules the workbench uses that have no typed entry point in the ESM build: the
// suggest widget (imported for its side effect of registering itself, see monaco.ts) and the
// Monarch compiler and tokenizer (the tokenizer test runs the template language through them).

declare module 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';

declare module 'monaco-editor/editor/standalone/common/monarch/monarchCompile.js' {
	export function compile(languageId: string, json: unknown): unknown;
}

declare module 'monaco-editor/editor/standalone/common/monarch/monarchLexer.js' {
	export class MonarchTokenizer {
		constructor(languageService: unknown, themeService: unknown, languageId: string, lexer: unknown, configurationService: unknown);
		getInitialState(): unknown;
		tokenize(line: string, hasEOL: boolean, state: unknown): { tokens: { offset: number; type: string }[]; endState: unknown };
		dispose(): void;
	}
}
