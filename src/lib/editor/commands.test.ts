import { describe, expect, it } from 'vitest';
import { CommandRegistry, COMMANDS, commandsOf, keyLabel, type CommandScope } from './commands';
import { EditorState } from './editor.svelte';
import * as E from './edits';
import { EditorKeys, keyScopes } from './keymap';
import { key, targets, testDoc } from './testing';
import { viewOf } from './view.svelte';

const names = (ed: EditorState) => ed.doc.layers.map((l) => l.name);
const layerId = (ed: EditorState, name: string) => ed.doc.layers.find((l) => l.name === name)!.id;

describe('the command registry', () => {
	it('gives every command a unique id, and refuses a second one with the same id', () => {
		const ids = COMMANDS.map((c) => c.id);
		expect(new Set(ids).size).toBe(ids.length);
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(() => new CommandRegistry(reg.ctx, [COMMANDS[0], COMMANDS[0]])).toThrow(/two editor commands have the id "tool.brush"/);
		// @ts-expect-error -- not a command
		expect(() => reg.get('nope')).toThrow(/no editor command "nope"/);
	});

	it('binds no key twice where it can be typed', () => {
		const places = [targets.map, targets.body, targets.field, null];
		for (const onMap of [true, false])
			for (const target of places) {
				const scopes: CommandScope[] = keyScopes(target, onMap);
				const seen = new Set<string>();
				for (const c of COMMANDS.filter((x) => scopes.includes(x.scope)))
					for (const k of c.keys)
						for (const shift of k.shift === undefined ? [true, false] : [k.shift]) {
							const name = `${keyLabel(k)} shift=${shift}`;
							expect(seen.has(name), `${name} in ${scopes.join(',')}`).toBe(false);
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
		expect(reg.shortcut('view.hand')).toBe('Space');
		expect(keyLabel({ key: 's', mod: true }, true)).toBe('Cmd+S');
		// every shortcut shown is one the keyboard runs
		for (const c of reg.all)
			for (const k of c.keys) expect(reg.commandFor(key(k.key, { ctrlKey: k.mod ?? false, shiftKey: k.shift ?? false }), [c.scope])?.id).toBe(c.id);
	});

	it('lists in the menu only the commands that run without arguments', () => {
		const reg = commandsOf(new EditorState(testDoc()));
		const menu = reg.menu.map((c) => c.id);
		expect(menu).toContain('edit.undo');
		expect(menu).toContain('layer.moveUp');
		expect(menu).toContain('layer.addTile');
		for (const hidden of ['layer.rename', 'zone.rename', 'spawn.move', 'tile.choose', 'select.zone', 'view.hand'] as const) expect(menu).not.toContain(hidden);
	});

	it('runs the same thing from a button and from its key', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		expect(reg.run('tool.select')).toBe(true);
		expect(ed.tool).toBe('select');
		expect(reg.checked('tool.select')).toBe(true);
		expect(new EditorKeys(reg).keydown(key('b'))).toBe(true);
		expect(reg.checked('tool.brush')).toBe(true);
		const view = viewOf(ed);
		reg.run('view.zones');
		expect(view.showZones).toBe(false);
		expect(reg.checked('view.zones')).toBe(false);
	});

	it('does not run what cannot run now, but keeps Ctrl+Z from the browser anyway', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const keys = new EditorKeys(reg);
		expect(reg.enabled('edit.undo')).toBe(false);
		expect(reg.run('edit.undo')).toBe(false);
		const e = key('z', { ctrlKey: true });
		expect(keys.keydown(e)).toBe(true);
		expect(e.prevented).toBe(true);
		expect(reg.enabled('edit.delete')).toBe(false);
		expect(keys.keydown(key('Delete'))).toBe(false);
	});

	it('saves with Ctrl+S through the page, even from a text field, once the page gave its save', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const keys = new EditorKeys(reg);
		expect(keys.keydown(key('s', { ctrlKey: true }))).toBe(false);
		let saved = 0;
		reg.ctx.save = () => saved++;
		expect(keys.keydown(key('s', { ctrlKey: true, target: targets.field }))).toBe(true);
		expect(keys.keydown(key('s', { metaKey: true }))).toBe(true);
		expect(saved).toBe(2);
	});
});

describe('commands with arguments', () => {
	it('a per-layer button and the menu run one command: with the layer as argument, or on the active layer', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const ground = layerId(ed, 'ground');
		const spawns = layerId(ed, 'spawns');
		expect(names(ed)).toEqual(['ground', 'collisions', 'sectors', 'arenas', 'objects', 'spawns']);
		// the button of a layer that is not active
		expect(ed.activeLayerId).toBe(ground);
		expect(reg.run('layer.moveUp', { layer: layerId(ed, 'sectors') })).toBe(true);
		expect(names(ed)).toEqual(['ground', 'collisions', 'arenas', 'sectors', 'objects', 'spawns']);
		expect(ed.history.size).toBe(1);
		expect(ed.undoLabel).toBe('Move layer "sectors" up');
		// the menu: the active layer
		expect(reg.run('layer.moveUp')).toBe(true);
		expect(names(ed)).toEqual(['collisions', 'ground', 'arenas', 'sectors', 'objects', 'spawns']);
		expect(ed.history.size).toBe(2);
		// the top layer cannot go up, the bottom one cannot go down: the buttons are disabled
		expect(reg.enabled('layer.moveUp', { layer: spawns })).toBe(false);
		expect(reg.run('layer.moveUp', { layer: spawns })).toBe(false);
		expect(reg.enabled('layer.moveDown', { layer: layerId(ed, 'collisions') })).toBe(false);
		expect(reg.enabled('layer.moveDown')).toBe(true);
		expect(ed.history.size).toBe(2);
		ed.undo();
		ed.undo();
		expect(names(ed)).toEqual(['ground', 'collisions', 'sectors', 'arenas', 'objects', 'spawns']);
	});

	it('renames, hides, adds and deletes layers, each one undo step', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const ground = layerId(ed, 'ground');
		expect(reg.run('layer.rename', { layer: ground, name: ' floor ' })).toBe(true);
		expect(ed.undoLabel).toBe('Rename layer "ground" to "floor"');
		// a refused name changes nothing, records nothing and says why
		expect(reg.run('layer.rename', { layer: ground, name: 'spawns' })).toBe(false);
		expect(ed.message).toBe('there is already a layer named "spawns"');
		expect(ed.history.size).toBe(1);

		expect(reg.run('layer.visible', { layer: ground, visible: false })).toBe(true);
		expect(ed.tileLayer(ground)!.visible).toBe(false);
		expect(ed.undoLabel).toBe('Hide layer "floor"');
		expect(reg.checked('layer.visible')).toBe(false);
		// from the menu: toggles the active layer
		expect(reg.run('layer.visible')).toBe(true);
		expect(ed.tileLayer(ground)!.visible).toBe(true);

		expect(reg.run('layer.addTile')).toBe(true);
		expect(names(ed)).toEqual(['floor', 'tile layer', 'collisions', 'sectors', 'arenas', 'objects', 'spawns']);
		expect(ed.activeLayerId).toBe(layerId(ed, 'tile layer'));
		expect(ed.undoLabel).toBe('Add tile layer "tile layer"');
		expect(reg.run('layer.addObject', { above: layerId(ed, 'spawns'), name: 'notes' })).toBe(true);
		expect(names(ed).at(-1)).toBe('notes');

		expect(reg.run('layer.delete', { layer: layerId(ed, 'notes') })).toBe(true);
		expect(ed.undoLabel).toBe('Delete layer "notes"');
		expect(ed.history.size).toBe(6);
		expect(reg.run('layer.delete', { layer: 999 })).toBe(false);
		expect(ed.history.size).toBe(6);
	});

	it('makes a command that edits more than once one undo step, and one that changes no document none', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		reg.run('layer.activate', { layer: layerId(ed, 'collisions') });
		expect(ed.activeLayerId).toBe(layerId(ed, 'collisions'));
		reg.run('tile.choose', { gid: 7 });
		reg.run('view.zoneKind', { kind: 'arena' });
		expect([ed.brushGid, viewOf(ed).zoneKind]).toEqual([7, 'arena']);
		expect(ed.canUndo).toBe(false);

		// a zone from the graph: added where there is room, named afresh and selected, in one step
		expect(reg.perform('zone.add', { parent: null, kind: 'sector' })).toEqual({ history: 'step' });
		expect(ed.zone('new sector')).toBeDefined();
		expect(ed.selection).toMatchObject({ kind: 'zone', address: 'new sector' });
		expect(reg.run('zone.add', { parent: 'new sector', kind: 'arena' })).toBe(true);
		expect(ed.selection).toMatchObject({ address: 'new sector:new arena' });
		expect(ed.history.labels).toEqual(['Add sector "new sector"', 'Add arena "new arena"']);

		// a zone with nothing inside: the arena added on the map has no room in a full map
		const full = new EditorState(testDoc({ width: 2, height: 2 }));
		const fullReg = commandsOf(full);
		fullReg.run('zone.add', { parent: null, kind: 'sector' });
		expect(fullReg.run('zone.add', { parent: null, kind: 'sector' })).toBe(false);
		expect(full.message).toMatch(/no free room for a new sector on the map/);
	});

	it('renames, sets and deletes zones and moves spawn points named by argument or selected', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		ed.addZone('sector', 'Cafe', { x: 0, y: 0, w: 4, h: 4 });
		ed.addZone('sector', 'Park', { x: 5, y: 0, w: 4, h: 4 });
		const spawn = ed.addSpawn('anna', 1, 1)!;
		const before = ed.history.size;

		expect(reg.run('zone.rename', { zone: 'Park', name: 'Garden' })).toBe(true);
		expect(ed.zone('Garden')).toBeDefined();
		expect(reg.run('zone.setValue', { zone: 'Cafe', value: 'cafe' })).toBe(true);
		expect(ed.zone('Cafe')!.value).toBe('cafe');
		// no zone named and none selected: it cannot run
		expect(reg.enabled('zone.rename', { name: 'x' })).toBe(false);
		reg.run('select.zone', { address: 'Cafe' });
		expect(reg.run('zone.rename', { name: 'Diner' })).toBe(true);
		expect(ed.selection).toMatchObject({ address: 'Diner' });

		expect(reg.run('spawn.move', { spawn, x: 3, y: 2 })).toBe(true);
		expect(ed.undoLabel).toBe('Move spawn "anna"');
		expect(reg.run('spawn.move', { spawn, x: 10, y: 2 })).toBe(false);
		expect(ed.message).toBe('x must be a whole number from 0 to 9');
		expect(reg.run('spawn.move', { spawn, x: 1, y: 1.5 })).toBe(false);
		expect(ed.message).toBe('y must be a whole number from 0 to 7');
		expect(reg.run('edit.dismissMessage')).toBe(true);
		expect(ed.message).toBeNull();
		expect(reg.enabled('edit.dismissMessage')).toBe(false);
		reg.run('select.object', { id: spawn });
		expect(ed.selection).toEqual({ kind: 'spawn', id: spawn });
		expect(reg.run('spawn.rename', { name: 'bea' })).toBe(true);
		expect(ed.namesOf('spawn')).toEqual(['bea']);

		expect(reg.run('zone.delete', { zone: 'Garden' })).toBe(true);
		expect(ed.zone('Garden')).toBeUndefined();
		expect(ed.history.size - before).toBe(6);
		expect(ed.history.labels.slice(before)).toEqual([
			'Rename sector "Park" to "Garden"',
			'Set kind of "Cafe"',
			'Rename sector "Cafe" to "Diner"',
			'Move spawn "anna"',
			'Rename spawn "anna" to "bea"',
			'Delete sector "Garden"'
		]);
	});

	it('joins what a command changed into the one step its result names', () => {
		const ed = new EditorState(testDoc());
		const ctx = commandsOf(ed).ctx;
		let says: 'step' | 'none' = 'step';
		const reg = new CommandRegistry(ctx, [
			{
				id: 'layer.addTile',
				label: 'Two layers',
				keys: [],
				scope: 'editor',
				perform: (c) => {
					c.editor.edit('Add one', (s) => E.addLayer(s, c.editor.doc, 'tile', `one ${says}`).shape);
					c.editor.edit('Add two', (s) => E.addLayer(s, c.editor.doc, 'tile', `two ${says}`).shape);
					return says === 'step' ? { history: 'step', label: 'Add two layers' } : { history: 'none' };
				}
			}
		]);
		expect(reg.run('layer.addTile')).toBe(true);
		expect(ed.history.labels).toEqual(['Add two layers']);
		ed.undo();
		expect(names(ed)).not.toContain('one step');
		// a command that says it recorded nothing is left as it recorded (here: a command's bug)
		says = 'none';
		reg.run('layer.addTile');
		expect(ed.history.labels).toEqual(['Add one', 'Add two']);
	});

	it('leaves no history mark behind, and records nothing for a command refused', () => {
		const ed = new EditorState(testDoc());
		const reg = commandsOf(ed);
		const marks = () => (ed.history as unknown as { marks: Map<string, number> }).marks.size;
		expect(reg.run('layer.rename', { layer: 999, name: 'x' })).toBe(false);
		expect(reg.run('zone.rename', { zone: 'nowhere', name: 'x' })).toBe(false);
		expect(ed.canUndo).toBe(false);
		expect(marks()).toBe(0);
		reg.run('layer.addTile');
		reg.run('tool.fill');
		reg.run('edit.undo');
		expect(marks()).toBe(0);
	});
});
