// Loads Monaco for the prompt workbench, in the browser only (call it from onMount; it is never
// imported during server rendering): the editor core without the bundled language services,
// the few editor features the workbench uses (completion, hovers, find, folding, problems
// navigation, the diff editor), the editor worker through Vite's `?worker` import, and the
// template language (tokenizer, editing rules, themes, `{{` completion). Loaded once per page.

import type * as MonacoApi from 'monaco-editor/editor';
import { declaredInputs, placeholderSlot } from './completion';
import { TEMPLATE_LANGUAGE, templateLanguageConfiguration, templateMonarch, THEME_DARK, THEME_LIGHT, themes } from './template-language';

export type Monaco = typeof MonacoApi;

let loading: Promise<Monaco> | undefined;

/** Monaco, ready to create template editors (rejects outside a browser). */
export function loadMonaco(): Promise<Monaco> {
	if (typeof window === 'undefined') return Promise.reject(new Error('the template editor runs in the browser only'));
	loading ??= load().catch((err: unknown) => {
		loading = undefined;
		throw err;
	});
	return loading;
}

/** The template id a workbench model stands for (its URI is `inmemory://prompts/<id>.md`). */
export function templateUri(monaco: Monaco, id: string): MonacoApi.Uri {
	return monaco.Uri.from({ scheme: 'inmemory', authority: 'prompts', path: `/${id}.md` });
}

function idOfModel(model: MonacoApi.editor.ITextModel): string {
	return model.uri.path.replace(/^\//, '').replace(/\.md$/, '');
}

/** The workbench theme for the page's colour scheme. */
export function themeName(): string {
	return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? THEME_DARK : THEME_LIGHT;
}

async function load(): Promise<Monaco> {
	const [monaco, worker] = await Promise.all([
		import('monaco-editor/editor'),
		import('monaco-editor/editor/editor.worker?worker'),
		import('monaco-editor/features/codicon/register'),
		import('monaco-editor/features/suggest/register'),
		// the suggest widget itself (features/suggest registers only its inline part)
		import('monaco-editor/editor/contrib/suggest/browser/suggestController.js'),
		import('monaco-editor/features/hover/register'),
		import('monaco-editor/features/find/register'),
		import('monaco-editor/features/folding/register'),
		import('monaco-editor/features/bracketMatching/register'),
		import('monaco-editor/features/gotoError/register'),
		import('monaco-editor/features/clipboard/register'),
		import('monaco-editor/features/contextmenu/register'),
		import('monaco-editor/features/comment/register'),
		import('monaco-editor/features/linesOperations/register'),
		import('monaco-editor/features/wordOperations/register'),
		import('monaco-editor/features/multicursor/register'),
		import('monaco-editor/features/cursorUndo/register'),
		import('monaco-editor/features/diffEditor/register')
	]);
	const Worker = worker.default;
	self.MonacoEnvironment = { getWorker: () => new Worker() };

	monaco.languages.register({ id: TEMPLATE_LANGUAGE, extensions: ['.md'], aliases: ['Prompt template'] });
	monaco.languages.setLanguageConfiguration(TEMPLATE_LANGUAGE, templateLanguageConfiguration);
	monaco.languages.setMonarchTokensProvider(TEMPLATE_LANGUAGE, templateMonarch);
	for (const [name, data] of Object.entries(themes)) monaco.editor.defineTheme(name, data);
	monaco.languages.registerCompletionItemProvider(TEMPLATE_LANGUAGE, {
		triggerCharacters: ['{'],
		provideCompletionItems(model, position) {
			const slot = placeholderSlot(model.getLineContent(position.lineNumber), position.column);
			if (!slot) return { suggestions: [] };
			const range = {
				startLineNumber: position.lineNumber,
				endLineNumber: position.lineNumber,
				startColumn: slot.startColumn,
				endColumn: slot.endColumn
			};
			const inputs = declaredInputs(model.getValue(), idOfModel(model));
			return {
				suggestions: inputs.map((input, i) => ({
					label: { label: input.name, description: input.type },
					kind: monaco.languages.CompletionItemKind.Variable,
					detail: `${input.type} input`,
					documentation: input.description || undefined,
					insertText: slot.closed ? input.name : `${input.name}}}`,
					filterText: input.name,
					sortText: String(i).padStart(3, '0'),
					range
				}))
			};
		}
	});
	return monaco;
}
