import { describe, expect, it } from 'vitest';
import { CommandRegistry, COMMANDS, commandsOf, keyLabel } from './commands';
import { EditorState } from './editor.svelte';
import { key, testDoc } from './testing';
import { viewOf } from './view.svelte';

const field = { tagName: 'INPUT', type: 'text', isContentEditable: false } as unknown as EventTarget;

describe('the command registry', () => {
	it('gives every command a unique id, and refuses a second one with the same id', () => {
		const ids = COMMANDS.map((c) => c.id);
		expect(new Set(ids).size).toBe(ids.length);
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(() => new CommandRegistry(reg.ctx, [COMMANDS[0], COMMANDS[0]])).toThrow(/two editor commands have the id "tool.brush"/);
		expect(() => reg.get('nope')).toThrow(/no editor command "nope"/);
	});

	it('binds no key twice in one scope', () => {
		const seen = new Set<string>();
		for (const c of COMMANDS)
			for (const k of c.keys) {
				const scopes = c.scope === 'map' ? ['map'] : ['page', 'editor'];
				for (const s of scopes) {
					const name = `${s} ${keyLabel(k)} ${k.shift ?? 'any'}`;
					expect(seen.has(name), name).toBe(false);
					seen.add(name);
				}
			}
	});

	it('writes titles with the shortcut the keys really run', () => {
		const reg = commandsOf(new EditorState(testDoc()));
		expect(reg.title('tool.brush')).toBe('Brush (B): paint the selected tile; right button or Alt erases');
		expect(reg.title('edit.undo', 'Undo Paint')).toBe('Undo Paint (Ctrl+Z)');
		expect(reg.shortcut('edit.redo')).toBe('Ctrl+Shift+Z');
		expect(reg.shortcut('view.zones')).toBeUndefined();
		expect(keyLabel({ key: 's', mod: true }, true)).toBe('Cmd+S');
		// every shortcut shown is one the keyboard runs
		for (const c of reg.all)
			for (const k of c.keys) expect(reg.commandFor(key(k.key, { ctrlKey: k.mod ?? false, shiftKey: k.shift ?? false }), [c.scope])?.id).toBe(c.id);
	});

	it('runs the same thing from a button and from its key', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(reg.run('tool.select')).toBe(true);
		expect(ed.tool).toBe('select');
		expect(reg.checked('tool.select')).toBe(true);
		expect(reg.handleKey(key('b'))).toBe(true);
		expect(reg.checked('tool.brush')).toBe(true);
		const view = viewOf(ed);
		reg.run('view.zones');
		expect(view.showZones).toBe(false);
		expect(reg.checked('view.zones')).toBe(false);
	});

	it('does not run what cannot run now, but keeps Ctrl+Z from the browser anyway', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(reg.enabled('edit.undo')).toBe(false);
		expect(reg.run('edit.undo')).toBe(false);
		const e = key('z', { ctrlKey: true });
		expect(reg.handleKey(e)).toBe(true);
		expect(e.prevented).toBe(true);
		expect(reg.enabled('edit.delete')).toBe(false);
		expect(reg.handleKey(key('Delete'))).toBe(false);
	});

	it('saves with Ctrl+S through the page, even from a text field, once the page gave its save', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(reg.handleKey(key('s', { ctrlKey: true }))).toBe(false);
		let saved = 0;
		reg.ctx.save = () => saved++;
		expect(reg.handleKey(key('s', { ctrlKey: true, target: field }))).toBe(true);
		expect(reg.handleKey(key('s', { metaKey: true }), ['page'])).toBe(true);
		expect(saved).toBe(2);
		// on the personas and settings tabs only the page's keys work
		expect(reg.handleKey(key('v'), ['page'])).toBe(false);
		expect(ed.tool).toBe('brush');
	});

	it('pans with the arrow keys only while the map has the focus', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const vp = viewOf(ed).viewport;
		expect(reg.handleKey(key('ArrowLeft'))).toBe(false);
		expect(vp.offsetX).toBe(0);
		expect(reg.handleKey(key('ArrowLeft'), ['map'])).toBe(true);
		expect(reg.handleKey(key('ArrowUp'), ['map'])).toBe(true);
		expect([vp.offsetX, vp.offsetY]).toEqual([64, 64]);
		expect(reg.handleKey(key('b'), ['map'])).toBe(false);
	});
});
