// The world editor's commands, in one registry: each has an id, a label, its shortcut keys and
// where they work, whether it can run now (and, for switches, whether it is on). Keyboard
// shortcuts, toolbar buttons, panel buttons and menus all run commands through here, so a key
// and its button always do the same thing and titles show the same shortcut.
//
// Scopes: `page` keys work on every tab of the editor (save), `editor` keys on the map tab, and
// `map` keys only while the map view has the keyboard focus (arrow keys pan). Keys typed into a
// text field are left to the field, except those of commands marked `inFields`.

import type { EditorState, Tool } from './editor.svelte';
import { toolsOf, type ToolRunner } from './runner.svelte';
import { viewOf, type EditorView } from './view.svelte';

export type CommandScope = 'page' | 'editor' | 'map';

/** A key and its modifiers. `mod` is Ctrl (Cmd on a Mac); a `shift` left out matches either way. */
export interface KeyBinding {
	key: string;
	mod?: boolean;
	shift?: boolean;
}

export interface CommandContext {
	readonly editor: EditorState;
	readonly view: EditorView;
	readonly tools: ToolRunner;
	/** saves the map; the page provides it */
	save?: () => void;
}

export interface Command {
	readonly id: string;
	readonly label: string;
	/** a longer description, for titles */
	readonly hint?: string;
	readonly keys: readonly KeyBinding[];
	readonly scope: CommandScope;
	/** its keys work inside text fields too */
	readonly inFields?: boolean;
	/** its keys are claimed (the browser's default kept from them) even when it cannot run */
	readonly claimKeys?: boolean;
	enabled?(ctx: CommandContext): boolean;
	/** for switches (a tool, an overlay): whether it is on */
	checked?(ctx: CommandContext): boolean;
	/** does it; false when there was nothing to do */
	run(ctx: CommandContext): boolean | void;
}

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

export function matches(binding: KeyBinding, event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
	if (event.altKey) return false;
	if ((event.ctrlKey || event.metaKey) !== (binding.mod ?? false)) return false;
	if (binding.shift !== undefined && event.shiftKey !== binding.shift) return false;
	return event.key.toLowerCase() === binding.key.toLowerCase();
}

const KEY_NAMES: Record<string, string> = { ' ': 'Space', arrowleft: '←', arrowright: '→', arrowup: '↑', arrowdown: '↓' };

/** How a binding is written in titles and menus: "Ctrl+Shift+Z", "B", "Delete". */
export function keyLabel(binding: KeyBinding, mac = false): string {
	const key = KEY_NAMES[binding.key.toLowerCase()] ?? (binding.key.length === 1 ? binding.key.toUpperCase() : binding.key);
	return [binding.mod ? (mac ? 'Cmd' : 'Ctrl') : null, binding.shift ? 'Shift' : null, key].filter(Boolean).join('+');
}

/** Each tool, its name, hint and shortcut letter. */
export const TOOLS: readonly { tool: Tool; name: string; key: string; hint: string }[] = [
	{ tool: 'brush', name: 'Brush', key: 'b', hint: 'paint the selected tile; right button or Alt erases' },
	{ tool: 'rect', name: 'Rectangle', key: 'r', hint: 'drag to fill a rectangle with the selected tile' },
	{ tool: 'fill', name: 'Fill', key: 'f', hint: 'fill the connected area of the same tile' },
	{ tool: 'eraser', name: 'Eraser', key: 'e', hint: 'clear tiles of the active layer' },
	{ tool: 'eyedropper', name: 'Eyedropper', key: 'i', hint: 'pick the topmost visible tile under the pointer' },
	{ tool: 'collision', name: 'Collision', key: 'c', hint: 'block tiles on the collisions layer; right button or Alt unblocks' },
	{ tool: 'zone', name: 'Zone', key: 'z', hint: 'drag a rectangle to add a zone of the chosen kind' },
	{ tool: 'spawn', name: 'Spawn', key: 's', hint: 'click to place a spawn point' },
	{ tool: 'select', name: 'Select', key: 'v', hint: 'pick a zone or spawn; drag to move it, drag a corner to resize' },
	{ tool: 'pan', name: 'Pan', key: 'h', hint: 'drag to move the view (or hold space)' }
];

/** Deletes the selected zone (with what it contains) or spawn point; whether anything went. */
export function deleteSelection(editor: EditorState): boolean {
	const sel = editor.selection;
	if (!sel) return false;
	if (sel.kind === 'zone') return editor.deleteZone(sel.address);
	return editor.deleteSpawn(sel.id);
}

const PAN_STEP = 64;

function pan(id: string, label: string, key: string, dx: number, dy: number): Command {
	return { id, label, keys: [{ key }], scope: 'map', run: (c) => c.view.viewport.panBy(dx, dy) };
}

export const COMMANDS: readonly Command[] = [
	...TOOLS.map(
		(t): Command => ({
			id: `tool.${t.tool}`,
			label: t.name,
			hint: t.hint,
			keys: [{ key: t.key, shift: false }],
			scope: 'editor',
			checked: (c) => c.editor.tool === t.tool,
			run: (c) => {
				c.editor.tool = t.tool;
			}
		})
	),
	{
		id: 'file.save',
		label: 'Save',
		keys: [{ key: 's', mod: true }],
		scope: 'page',
		inFields: true,
		enabled: (c) => c.save !== undefined,
		run: (c) => c.save?.()
	},
	{
		id: 'edit.undo',
		label: 'Undo',
		keys: [{ key: 'z', mod: true, shift: false }],
		scope: 'editor',
		claimKeys: true,
		enabled: (c) => c.editor.canUndo || c.editor.painting,
		run: (c) => {
			c.tools.cancel();
			c.editor.undo();
		}
	},
	{
		id: 'edit.redo',
		label: 'Redo',
		keys: [
			{ key: 'z', mod: true, shift: true },
			{ key: 'y', mod: true, shift: false }
		],
		scope: 'editor',
		claimKeys: true,
		enabled: (c) => c.editor.canRedo,
		run: (c) => {
			c.tools.cancel();
			c.editor.redo();
		}
	},
	{
		id: 'edit.delete',
		label: 'Delete',
		hint: 'delete the selected zone (with what it contains) or spawn point',
		keys: [{ key: 'Delete' }, { key: 'Backspace' }],
		scope: 'editor',
		enabled: (c) => c.editor.selection !== null,
		run: (c) => deleteSelection(c.editor)
	},
	{
		id: 'edit.cancel',
		label: 'Cancel',
		hint: 'cancel the drag in progress, or clear the selection',
		keys: [{ key: 'Escape' }],
		scope: 'editor',
		enabled: (c) => c.tools.busy || c.editor.selection !== null,
		run: (c) => {
			if (c.tools.cancel()) return;
			c.editor.selection = null;
		}
	},
	{
		id: 'view.grid',
		label: 'Grid',
		hint: 'the tile grid',
		keys: [{ key: 'g', shift: false }],
		scope: 'editor',
		checked: (c) => c.view.showGrid,
		run: (c) => {
			c.view.showGrid = !c.view.showGrid;
		}
	},
	{
		id: 'view.zones',
		label: 'Zones',
		hint: 'outline sectors, arenas and objects',
		keys: [],
		scope: 'editor',
		checked: (c) => c.view.showZones,
		run: (c) => {
			c.view.showZones = !c.view.showZones;
		}
	},
	{
		id: 'view.collisions',
		label: 'Collisions',
		hint: 'blocked tiles in red (always shown with the collision tool)',
		keys: [],
		scope: 'editor',
		checked: (c) => c.view.showCollisions,
		run: (c) => {
			c.view.showCollisions = !c.view.showCollisions;
		}
	},
	{ id: 'view.zoomIn', label: 'Zoom in', keys: [{ key: '+' }, { key: '=' }], scope: 'editor', run: (c) => c.view.zoomIn() },
	{ id: 'view.zoomOut', label: 'Zoom out', keys: [{ key: '-' }], scope: 'editor', run: (c) => c.view.zoomOut() },
	{ id: 'view.fit', label: 'Fit', hint: 'show the whole map', keys: [{ key: '0' }], scope: 'editor', run: (c) => c.view.fit(c.editor.doc) },
	pan('view.panLeft', 'Pan left', 'ArrowLeft', PAN_STEP, 0),
	pan('view.panRight', 'Pan right', 'ArrowRight', -PAN_STEP, 0),
	pan('view.panUp', 'Pan up', 'ArrowUp', 0, PAN_STEP),
	pan('view.panDown', 'Pan down', 'ArrowDown', 0, -PAN_STEP)
];

export class CommandRegistry {
	private readonly byId = new Map<string, Command>();

	constructor(
		readonly ctx: CommandContext,
		commands: readonly Command[] = COMMANDS
	) {
		for (const c of commands) {
			if (this.byId.has(c.id)) throw new Error(`two editor commands have the id "${c.id}"`);
			this.byId.set(c.id, c);
		}
	}

	/** every command, in registration order (for menus and the shortcut list) */
	get all(): Command[] {
		return [...this.byId.values()];
	}

	get(id: string): Command {
		const c = this.byId.get(id);
		if (!c) throw new Error(`no editor command "${id}"`);
		return c;
	}

	enabled(id: string): boolean {
		const c = this.get(id);
		return c.enabled ? c.enabled(this.ctx) : true;
	}

	checked(id: string): boolean {
		const c = this.get(id);
		return c.checked ? c.checked(this.ctx) : false;
	}

	/** Runs a command when it can run; whether it did something. */
	run(id: string): boolean {
		if (!this.enabled(id)) return false;
		return this.get(id).run(this.ctx) !== false;
	}

	/** The first shortcut of a command, as written ("Ctrl+Z"), or undefined. */
	shortcut(id: string): string | undefined {
		const k = this.get(id).keys[0];
		return k ? keyLabel(k) : undefined;
	}

	/** "Label (Key): hint", for a button's title. */
	title(id: string, label?: string): string {
		const c = this.get(id);
		const key = this.shortcut(id);
		return `${label ?? c.label}${key ? ` (${key})` : ''}${c.hint ? `: ${c.hint}` : ''}`;
	}

	/** The command a key runs in these scopes, if any. */
	commandFor(event: EditorKeyEvent, scopes: readonly CommandScope[]): Command | undefined {
		const typing = isTyping(event.target);
		for (const c of this.byId.values()) {
			if (!scopes.includes(c.scope) || (typing && !c.inFields)) continue;
			if (c.keys.some((k) => matches(k, event))) return c;
		}
		return undefined;
	}

	/**
	 * Handles a keydown: runs the command its key is bound to in these scopes and keeps the
	 * browser's default from it. Returns whether the key was taken.
	 */
	handleKey(event: EditorKeyEvent, scopes: readonly CommandScope[] = ['page', 'editor']): boolean {
		const c = this.commandFor(event, scopes);
		if (!c) return false;
		const done = this.run(c.id) || (c.claimKeys ?? false);
		if (done) event.preventDefault();
		return done;
	}
}

const registries = new WeakMap<EditorState, CommandRegistry>();

/** The command registry of `editor` (with its view and tools), made on first use. */
export function commandsOf(editor: EditorState): CommandRegistry {
	let registry = registries.get(editor);
	if (!registry) {
		registry = new CommandRegistry({ editor, view: viewOf(editor), tools: toolsOf(editor) });
		registries.set(editor, registry);
	}
	return registry;
}
