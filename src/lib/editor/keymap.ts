// The map editor's keyboard shortcuts: tool letters, undo/redo, deleting the selection, the grid
// and zoom. Keys typed into a text field are left alone; Ctrl/Cmd+S belongs to the page (save).

import type { EditorState, Tool } from './editor.svelte';
import { viewOf, type EditorView } from './view.svelte';

export const TOOL_KEYS: Record<string, Tool> = {
	b: 'brush',
	r: 'rect',
	f: 'fill',
	e: 'eraser',
	i: 'eyedropper',
	c: 'collision',
	z: 'zone',
	s: 'spawn',
	v: 'select',
	h: 'pan'
};

/** The shortcut letter of each tool, for titles ("Brush (B)"). */
export const TOOL_SHORTCUT = Object.fromEntries(Object.entries(TOOL_KEYS).map(([k, t]) => [t, k.toUpperCase()])) as Record<Tool, string>;

export type EditorKeyEvent = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'target' | 'preventDefault'>;

/** Whether the key goes to a text field (or anything editable) rather than the editor. */
export function isTyping(target: EventTarget | null): boolean {
	const el = target as { tagName?: string; isContentEditable?: boolean; type?: string } | null;
	if (!el || typeof el.tagName !== 'string') return false;
	const tag = el.tagName.toUpperCase();
	if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable) return true;
	if (tag !== 'INPUT') return false;
	// checkboxes, radios and buttons take no typed text
	return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes((el.type ?? 'text').toLowerCase());
}

/** Deletes the selected zone (with what it contains) or spawn point; whether anything went. */
export function deleteSelection(editor: EditorState): boolean {
	const sel = editor.selection;
	if (!sel) return false;
	if (sel.kind === 'zone') return editor.deleteZone(sel.address);
	return editor.deleteSpawn(sel.id);
}

/**
 * Handles a keydown for the editor: returns true (and prevents the default) when the key was a
 * shortcut. The page calls it from a window keydown listener.
 */
export function handleEditorKey(event: EditorKeyEvent, editor: EditorState, view: EditorView = viewOf(editor)): boolean {
	if (isTyping(event.target)) return false;
	const key = event.key.toLowerCase();
	const mod = event.ctrlKey || event.metaKey;
	let done = false;
	if (mod && !event.altKey) {
		if (key === 'z' && !event.shiftKey) {
			editor.undo();
			done = true;
		} else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)) {
			editor.redo();
			done = true;
		}
	} else if (!mod && !event.altKey) {
		if (!event.shiftKey && TOOL_KEYS[key]) {
			editor.tool = TOOL_KEYS[key];
			done = true;
		} else if (key === 'delete' || key === 'backspace') {
			done = deleteSelection(editor);
		} else if (key === 'escape') {
			done = editor.selection !== null;
			editor.selection = null;
		} else if (key === 'g' && !event.shiftKey) {
			view.showGrid = !view.showGrid;
			done = true;
		} else if (key === '+' || key === '=') {
			view.zoomIn();
			done = true;
		} else if (key === '-') {
			view.zoomOut();
			done = true;
		} else if (key === '0') {
			view.fit(editor.doc);
			done = true;
		}
	}
	if (done) event.preventDefault();
	return done;
}
