import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandsOf, isTyping } from './commands';
import { EditorState } from './editor.svelte';
import { EditorKeys, keyScopes } from './keymap';
import { toolsOf } from './runner.svelte';
import { key, targets, testDoc } from './testing';
import { viewOf } from './view.svelte';

function setup(onMapTab: () => boolean = () => true) {
	const ed = new EditorState(testDoc());
	const keys = new EditorKeys(commandsOf(ed), onMapTab);
	return { ed, keys, down: keys.keydown };
}

describe('the editor key listener', () => {
	it('switches tools by letter, either case', () => {
		const { ed, down } = setup();
		const expected = { b: 'brush', r: 'rect', f: 'fill', e: 'eraser', i: 'eyedropper', c: 'collision', z: 'zone', s: 'spawn', v: 'select', h: 'pan' };
		for (const [k, tool] of Object.entries(expected)) {
			const e = key(k);
			expect(down(e)).toBe(true);
			expect(ed.tool).toBe(tool);
			expect(e.prevented).toBe(true);
		}
		down(key('B'));
		expect(ed.tool).toBe('brush');
		expect(commandsOf(ed).shortcut('tool.eyedropper')).toBe('I');
	});

	it('undoes with Ctrl/Cmd+Z and redoes with Ctrl/Cmd+Shift+Z or Ctrl+Y', () => {
		const { ed, down } = setup();
		ed.paintAll(1, [0], 5, 'Paint');
		ed.paintAll(1, [1], 5, 'Paint');
		expect(down(key('z', { ctrlKey: true }))).toBe(true);
		expect(down(key('z', { metaKey: true }))).toBe(true);
		expect(ed.canUndo).toBe(false);
		expect(down(key('Z', { ctrlKey: true, shiftKey: true }))).toBe(true);
		expect(ed.canUndo).toBe(true);
		expect(down(key('y', { ctrlKey: true }))).toBe(true);
		expect(ed.canRedo).toBe(false);
		// Ctrl+Z is not the zone tool
		expect(ed.tool).toBe('brush');
	});

	it('leaves Ctrl+S to the page until it gives its save, and unknown keys alone', () => {
		const { ed, down } = setup();
		const save = key('s', { ctrlKey: true });
		expect(down(save)).toBe(false);
		expect(save.prevented).toBe(false);
		expect(ed.tool).toBe('brush');
		expect(down(key('q'))).toBe(false);
		expect(down(key('b', { altKey: true }))).toBe(false);
	});

	it('ignores keys typed into text fields but not on checkboxes', () => {
		const { ed, down } = setup();
		expect(down(key('z', { target: targets.field }))).toBe(false);
		expect(down(key('z', { ctrlKey: true, target: { tagName: 'INPUT', type: 'search' } as unknown as EventTarget }))).toBe(false);
		expect(down(key('v', { target: { tagName: 'TEXTAREA' } as unknown as EventTarget }))).toBe(false);
		expect(ed.tool).toBe('brush');
		expect(down(key('v', { target: targets.checkbox }))).toBe(true);
		expect(ed.tool).toBe('select');
		expect(isTyping({ tagName: 'DIV', isContentEditable: true } as unknown as EventTarget)).toBe(true);
	});

	it('runs nothing for a key something else on the page already took', () => {
		const { ed, down } = setup();
		expect(down(key('v', { defaultPrevented: true }))).toBe(false);
		expect(ed.tool).toBe('brush');
	});

	it('deletes the selected zone or spawn with Delete, and nothing without a selection', () => {
		const { ed, down } = setup();
		ed.addZone('sector', 'A', { x: 0, y: 0, w: 3, h: 3 });
		const spawn = ed.addSpawn('anna', 1, 1)!;
		const none = key('Delete');
		expect(down(none)).toBe(false);
		expect(none.prevented).toBe(false);
		ed.selection = { kind: 'zone', address: 'A', zoneKind: 'sector' };
		expect(down(key('Delete'))).toBe(true);
		expect(ed.zone('A')).toBeUndefined();
		ed.selection = { kind: 'spawn', id: spawn };
		expect(down(key('Backspace'))).toBe(true);
		expect(ed.namesOf('spawn')).toEqual([]);
		expect(ed.undoLabel).toBe('Delete spawn "anna"');
	});

	it('toggles the grid with G and clears the selection with Escape', () => {
		const { ed, down } = setup();
		const view = viewOf(ed);
		const before = view.showGrid;
		down(key('g'));
		expect(view.showGrid).toBe(!before);
		ed.addSpawn('x', 0, 0);
		ed.selection = { kind: 'spawn', id: 1 };
		expect(down(key('Escape'))).toBe(true);
		expect(ed.selection).toBeNull();
		expect(down(key('Escape'))).toBe(false);
	});

	it('zooms with + and - around the view centre', () => {
		const { ed, down } = setup();
		const view = viewOf(ed);
		view.viewport.resize(800, 600);
		down(key('+'));
		expect(view.viewport.scale).toBeCloseTo(1.25);
		down(key('-'));
		expect(view.viewport.scale).toBeCloseTo(1);
	});

	it('pans with the arrow keys only while the map view has the focus', () => {
		const { ed, down } = setup();
		const vp = viewOf(ed).viewport;
		expect(down(key('ArrowLeft'))).toBe(false);
		expect(down(key('ArrowLeft', { target: targets.body }))).toBe(false);
		expect(vp.offsetX).toBe(0);
		const left = key('ArrowLeft', { target: targets.map });
		expect(down(left)).toBe(true);
		expect(left.prevented).toBe(true);
		expect(down(key('ArrowUp', { target: targets.map }))).toBe(true);
		expect([vp.offsetX, vp.offsetY]).toEqual([64, 64]);
		// the editor's keys work there too
		expect(down(key('v', { target: targets.map }))).toBe(true);
		expect(ed.tool).toBe('select');
	});

	it('holds the hand while space is down on the map or the bare page, and lets go on keyup or blur', () => {
		const { ed, keys } = setup();
		const tools = toolsOf(ed);
		// a focused button keeps its space (it presses the button)
		const onButton = key(' ', { target: { tagName: 'BUTTON', getAttribute: () => null } as unknown as EventTarget });
		expect(keys.keydown(onButton)).toBe(false);
		expect(onButton.prevented).toBe(false);
		expect(tools.spaceHeld).toBe(false);

		const space = key(' ', { target: targets.map });
		expect(keys.keydown(space)).toBe(true);
		expect(space.prevented).toBe(true);
		expect(tools.spaceHeld).toBe(true);
		expect(tools.state).toBe('hand.idle');
		// the key repeating while held is left alone
		expect(keys.keydown(key(' ', { target: targets.map, repeat: true }))).toBe(false);
		// let go wherever the focus is now
		keys.keyup(key(' '));
		expect(tools.spaceHeld).toBe(false);
		expect(tools.state).toBe('brush.idle');

		expect(keys.keydown(key(' ', { target: targets.body }))).toBe(true);
		expect(tools.spaceHeld).toBe(true);
		keys.keyup(key('b'));
		expect(tools.spaceHeld).toBe(true);
		keys.blur();
		expect(tools.spaceHeld).toBe(false);
	});

	it('on the personas and settings tabs runs only the page keys', () => {
		let tab = 'personas';
		const { ed, keys } = setup(() => tab === 'map');
		let saved = 0;
		commandsOf(ed).ctx.save = () => saved++;
		expect(keys.keydown(key('v'))).toBe(false);
		expect(keys.keydown(key(' ', { target: targets.body }))).toBe(false);
		expect(keys.keydown(key('ArrowLeft', { target: targets.map }))).toBe(false);
		expect(keys.keydown(key('s', { ctrlKey: true, target: targets.field }))).toBe(true);
		expect(saved).toBe(1);
		expect(ed.tool).toBe('brush');
		tab = 'map';
		expect(keys.keydown(key('v'))).toBe(true);
		expect(ed.tool).toBe('select');
	});

	it('knows the scopes of where a key is typed', () => {
		expect(keyScopes(targets.map, true)).toEqual(['page', 'editor', 'map', 'stage']);
		expect(keyScopes(targets.body, true)).toEqual(['page', 'editor', 'stage']);
		expect(keyScopes(targets.field, true)).toEqual(['page', 'editor']);
		expect(keyScopes(null, true)).toEqual(['page', 'editor']);
		expect(keyScopes(targets.map, false)).toEqual(['page']);
	});
});

describe('one key listener', () => {
	const ui = path.resolve(import.meta.dirname, '../ui/editor');
	const sources = readdirSync(ui)
		.filter((f) => f.endsWith('.svelte'))
		.map((f) => ({ file: f, text: readFileSync(path.join(ui, f), 'utf8') }));

	it('is the page window listener, handing keydown, keyup and blur to EditorKeys', () => {
		const windows = sources.filter((s) => /<svelte:window[^>]*onkey/.test(s.text));
		expect(windows.map((s) => s.file)).toEqual(['WorldEditor.svelte']);
		expect(windows[0].text).toMatch(/<svelte:window onkeydown=\{keys\.keydown\} onkeyup=\{keys\.keyup\} onblur=\{keys\.blur\} \/>/);
		expect(windows[0].text).toMatch(/new EditorKeys\(commands/);
	});

	it('has no other key listener on the window, the document or the map', () => {
		for (const s of sources) {
			expect(s.text, s.file).not.toMatch(/(window|document)\.addEventListener\(\s*'key/);
			expect(s.text, s.file).not.toMatch(/handleKey|commandFor/);
		}
		const map = sources.find((s) => s.file === 'MapCanvas.svelte')!.text;
		expect(map).not.toMatch(/onkeydown|onkeyup/);
		expect(map).toMatch(/data-editor-keys="map"/);
	});
});
