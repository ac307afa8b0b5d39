// The map editor's keyboard shortcuts, as the command registry (commands.ts) binds them: tool
// letters, undo/redo, deleting the selection, the grid and zoom. Keys typed into a text field are
// left alone.

import { commandsOf, TOOLS, type EditorKeyEvent } from './commands';
import type { EditorState, Tool } from './editor.svelte';

export { deleteSelection, isTyping, type EditorKeyEvent } from './commands';

/** tool letter -> tool */
export const TOOL_KEYS: Record<string, Tool> = Object.fromEntries(TOOLS.map((t) => [t.key, t.tool]));

/** The shortcut letter of each tool, for titles ("Brush (B)"). */
export const TOOL_SHORTCUT = Object.fromEntries(TOOLS.map((t) => [t.tool, t.key.toUpperCase()])) as Record<Tool, string>;

/**
 * Handles a keydown for the editor's map tab (and saving, when the page gave the registry its
 * save): returns true, with the default prevented, when the key was a shortcut.
 */
export function handleEditorKey(event: EditorKeyEvent, editor: EditorState): boolean {
	return commandsOf(editor).handleKey(event, ['page', 'editor']);
}
