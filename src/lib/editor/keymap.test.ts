import { describe, expect, it } from 'vitest';
import { EditorState } from './editor.svelte';
import { handleEditorKey, isTyping, TOOL_SHORTCUT } from './keymap';
import { key, testDoc } from './testing';
import { viewOf } from './view.svelte';

const input = (type = 'text') => ({ tagName: 'INPUT', type, isContentEditable: false }) as unknown as EventTarget;

describe('handleEditorKey', () => {
	it('switches tools by letter, either case', () => {
		const ed = new EditorState(testDoc());
		const expected = { b: 'brush', r: 'rect', f: 'fill', e: 'eraser', i: 'eyedropper', c: 'collision', z: 'zone', s: 'spawn', v: 'select', h: 'pan' };
		for (const [k, tool] of Object.entries(expected)) {
			const e = key(k);
			expect(handleEditorKey(e, ed)).toBe(true);
			expect(ed.tool).toBe(tool);
			expect(e.prevented).toBe(true);
		}
		handleEditorKey(key('B'), ed);
		expect(ed.tool).toBe('brush');
		expect(TOOL_SHORTCUT.eyedropper).toBe('I');
	});

	it('undoes with Ctrl/Cmd+Z and redoes with Ctrl/Cmd+Shift+Z or Ctrl+Y', () => {
		const ed = new EditorState(testDoc());
		ed.paintAll(1, [0], 5, 'Paint');
		ed.paintAll(1, [1], 5, 'Paint');
		expect(handleEditorKey(key('z', { ctrlKey: true }), ed)).toBe(true);
		expect(handleEditorKey(key('z', { metaKey: true }), ed)).toBe(true);
		expect(ed.canUndo).toBe(false);
		expect(handleEditorKey(key('Z', { ctrlKey: true, shiftKey: true }), ed)).toBe(true);
		expect(ed.canUndo).toBe(true);
		expect(handleEditorKey(key('y', { ctrlKey: true }), ed)).toBe(true);
		expect(ed.canRedo).toBe(false);
		// Ctrl+Z is not the zone tool
		expect(ed.tool).toBe('brush');
	});

	it('leaves Ctrl+S and unknown keys to the page', () => {
		const ed = new EditorState(testDoc());
		const save = key('s', { ctrlKey: true });
		expect(handleEditorKey(save, ed)).toBe(false);
		expect(save.prevented).toBe(false);
		expect(ed.tool).toBe('brush');
		expect(handleEditorKey(key('q'), ed)).toBe(false);
		expect(handleEditorKey(key('b', { altKey: true }), ed)).toBe(false);
	});

	it('ignores keys typed into text fields but not on checkboxes', () => {
		const ed = new EditorState(testDoc());
		expect(handleEditorKey(key('z', { target: input() }), ed)).toBe(false);
		expect(handleEditorKey(key('z', { ctrlKey: true, target: input('search') }), ed)).toBe(false);
		expect(handleEditorKey(key('v', { target: { tagName: 'TEXTAREA' } as unknown as EventTarget }), ed)).toBe(false);
		expect(ed.tool).toBe('brush');
		expect(handleEditorKey(key('v', { target: input('checkbox') }), ed)).toBe(true);
		expect(ed.tool).toBe('select');
		expect(isTyping({ tagName: 'DIV', isContentEditable: true } as unknown as EventTarget)).toBe(true);
	});

	it('deletes the selected zone or spawn with Delete, and nothing without a selection', () => {
		const ed = new EditorState(testDoc());
		ed.addZone('sector', 'A', { x: 0, y: 0, w: 3, h: 3 });
		const spawn = ed.addSpawn('anna', 1, 1)!;
		const none = key('Delete');
		expect(handleEditorKey(none, ed)).toBe(false);
		expect(none.prevented).toBe(false);
		ed.selection = { kind: 'zone', address: 'A', zoneKind: 'sector' };
		expect(handleEditorKey(key('Delete'), ed)).toBe(true);
		expect(ed.zone('A')).toBeUndefined();
		ed.selection = { kind: 'spawn', id: spawn };
		expect(handleEditorKey(key('Backspace'), ed)).toBe(true);
		expect(ed.namesOf('spawn')).toEqual([]);
		expect(ed.undoLabel).toBe('Delete spawn "anna"');
	});

	it('toggles the grid with G and clears the selection with Escape', () => {
		const ed = new EditorState(testDoc());
		const view = viewOf(ed);
		const before = view.showGrid;
		handleEditorKey(key('g'), ed);
		expect(view.showGrid).toBe(!before);
		ed.addSpawn('x', 0, 0);
		ed.selection = { kind: 'spawn', id: 1 };
		expect(handleEditorKey(key('Escape'), ed)).toBe(true);
		expect(ed.selection).toBeNull();
		expect(handleEditorKey(key('Escape'), ed)).toBe(false);
	});

	it('zooms with + and - around the view centre', () => {
		const ed = new EditorState(testDoc());
		const view = viewOf(ed);
		view.viewport.resize(800, 600);
		handleEditorKey(key('+'), ed);
		expect(view.viewport.scale).toBeCloseTo(1.25);
		handleEditorKey(key('-'), ed);
		expect(view.viewport.scale).toBeCloseTo(1);
	});
});
