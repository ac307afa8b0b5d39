// The world editor's commands, in one registry: each has an id, a label, its shortcut keys and
// where they work, whether it can run now (and, for switches, whether it is on). Keyboard
// shortcuts (through keymap.ts), toolbar buttons, panel buttons, the environment graph and menus
// all run commands through here, so a key and its button always do the same thing and titles
// show the same shortcut.
//
// A command may take arguments, as excalidraw's `perform(elements, appState, formData)` does: a
// per-layer button runs the same `layer.moveUp` as the menu, with its layer as the argument (the
// menu, giving none, moves the active layer). What a command returns says how the undo history
// records it: `{ history: 'step' }` (the registry makes everything the command changed in the
// document one undo step), `{ history: 'none' }` (it changed the tool, the view or the selection,
// which are not in the history), `{ history: 'travel' }` (it moved through the history: undo,
// redo) or `false` (it did nothing: it could not run, or its edit was refused, `editor.message`
// saying why).
//
// Scopes: `page` keys work on every tab of the editor (save), `editor` keys on the map tab, `map`
// keys only while the map view has the keyboard focus (arrow keys pan) and `stage` keys while the
// map view or nothing has it (space held for the hand). Keys typed into a text field are left to
// the field, except those of commands marked `inFields`.

import type { ZoneKind } from '../world/doc';
import type { ZoneRect } from '../world/types';
import type { EditorState, Tool } from './editor.svelte';
import * as E from './edits';
import { placeZone } from './place';
import { toolsOf, type ToolRunner } from './runner.svelte';
import { viewOf, type EditorView } from './view.svelte';

export type CommandScope = 'page' | 'editor' | 'map' | 'stage';

/** A key and its modifiers. `mod` is Ctrl (Cmd on a Mac); a `shift` left out matches either way. */
interface KeyBinding {
	key: string;
	mod?: boolean;
	shift?: boolean;
}

interface CommandContext {
	readonly editor: EditorState;
	readonly view: EditorView;
	readonly tools: ToolRunner;
	/** saves the map; the page provides it */
	save?: () => void;
}

/** What a command did, and so how the undo history records it (excalidraw's `captureUpdate`). */
type CommandResult =
	/** nothing: it could not run, had nothing to do, or its edit was refused (`editor.message` says why) */
	| false
	/** a change outside the document (tool, view, selection, active layer, brush): nothing recorded */
	| { readonly history: 'none' }
	/** an edit of the document: what it changed is one undo step, named `label` (default: its last edit's) */
	| { readonly history: 'step'; readonly label?: string }
	/** it moved through the history itself (undo, redo) */
	| { readonly history: 'travel' };

const NONE: CommandResult = { history: 'none' };
const TRAVEL: CommandResult = { history: 'travel' };
/** an edit that happened (`ok`) is one undo step; one refused did nothing */
const step = (ok: boolean, label?: string): CommandResult => (ok ? { history: 'step', ...(label !== undefined && { label }) } : false);

type ToolCommandId = `tool.${Tool}`;
type NoArgs = undefined;
/** a layer by id; left out, the active layer (what the menu and keys act on) */
type LayerArg = { layer?: number } | undefined;

/** Each command's arguments. `undefined` among them: it runs without any (from the menu or a key). */
type CommandArgs = { [K in ToolCommandId]: NoArgs } & {
	'file.save': NoArgs;
	'edit.undo': NoArgs;
	'edit.redo': NoArgs;
	'edit.delete': NoArgs;
	'edit.cancel': NoArgs;
	'edit.dismissMessage': NoArgs;
	'view.grid': NoArgs;
	'view.zones': NoArgs;
	'view.collisions': NoArgs;
	'view.zoomIn': NoArgs;
	'view.zoomOut': NoArgs;
	'view.fit': NoArgs;
	'view.panLeft': NoArgs;
	'view.panRight': NoArgs;
	'view.panUp': NoArgs;
	'view.panDown': NoArgs;
	'view.hand': NoArgs;
	/** what the zone tool draws */
	'view.zoneKind': { kind: ZoneKind };
	/** bring these tiles into view */
	'view.focus': { rect: ZoneRect };
	/** the tile the brush, rectangle and fill paint (switching to the brush from other tools) */
	'tile.choose': { gid: number };
	'layer.activate': { layer: number };
	/** a new layer above `above` (default: the active one), named `name` (default: a fresh one); it becomes active */
	'layer.addTile': { above?: number; name?: string } | undefined;
	'layer.addObject': { above?: number; name?: string } | undefined;
	'layer.rename': { layer?: number; name: string };
	/** shows or hides a layer; without `visible`, toggles it */
	'layer.visible': { layer?: number; visible?: boolean } | undefined;
	'layer.moveUp': LayerArg;
	'layer.moveDown': LayerArg;
	'layer.delete': LayerArg;
	/** selects a zone (null: nothing) and brings it into view */
	'select.zone': { address: string | null };
	/** selects the zone a map object belongs to, or the spawn point it is */
	'select.object': { id: number };
	/** adds a zone of `kind` inside `parent` (null: on the map) where there is room, named afresh, and selects it */
	'zone.add': { parent: string | null; kind: ZoneKind };
	/** a zone by address; left out, the selected one */
	'zone.rename': { zone?: string; name: string };
	'zone.setValue': { zone?: string; value: string };
	'zone.delete': { zone?: string } | undefined;
	/** a spawn point by id; left out, the selected one */
	'spawn.rename': { spawn?: number; name: string };
	/** moves a spawn point to tile (x, y), whole numbers on the map */
	'spawn.move': { spawn?: number; x: number; y: number };
};

export type CommandId = keyof CommandArgs;
type Args<K extends CommandId> = CommandArgs[K];
/** how `run`, `enabled` and `checked` take a command's arguments: optional when it can run without */
type ArgList<K extends CommandId> = undefined extends Args<K> ? [args?: Args<K>] : [args: Args<K>];

interface Command<K extends CommandId = CommandId> {
	readonly id: K;
	readonly label: string;
	/** a longer description, for titles */
	readonly hint?: string;
	readonly keys: readonly KeyBinding[];
	readonly scope: CommandScope;
	/** its keys work inside text fields too */
	readonly inFields?: boolean;
	/** its keys are claimed (the browser's default kept from them) even when it cannot run */
	readonly claimKeys?: boolean;
	/** left out of the commands menu (it needs arguments the menu cannot give, or a key held down) */
	readonly hidden?: boolean;
	enabled?(ctx: CommandContext, args: Args<K>): boolean;
	/** for switches (a tool, an overlay): whether it is on */
	checked?(ctx: CommandContext, args: Args<K>): boolean;
	/** does it, and says how the history records it */
	perform(ctx: CommandContext, args: Args<K>): CommandResult;
	/** for a key held down (space: the hand): its key was let go, or the window lost the focus */
	release?(ctx: CommandContext): void;
}

type AnyCommand = { [K in CommandId]: Command<K> }[CommandId];

const command = <K extends CommandId>(c: Command<K>): Command<K> => c;

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

function matches(binding: KeyBinding, event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
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

/** The command that makes `tool` the active tool. */
export const toolCommand = (tool: Tool): ToolCommandId => `tool.${tool}`;

const PAN_STEP = 64;

function pan(id: CommandId & `view.pan${string}`, label: string, key: string, dx: number, dy: number): AnyCommand {
	return command({
		id,
		label,
		keys: [{ key }],
		scope: 'map',
		perform: (c) => {
			c.view.viewport.panBy(dx, dy);
			return NONE;
		}
	});
}

function toggle(id: 'view.grid' | 'view.zones' | 'view.collisions', label: string, hint: string, flag: 'showGrid' | 'showZones' | 'showCollisions', keys: KeyBinding[] = []): AnyCommand {
	return command({
		id,
		label,
		hint,
		keys,
		scope: 'editor',
		checked: (c) => c.view[flag],
		perform: (c) => {
			c.view[flag] = !c.view[flag];
			return NONE;
		}
	});
}

// ---- what the commands act on -------------------------------------------------------------------

/** The layer a layer command acts on: the one named, else the active one. */
function layerOf(c: CommandContext, args: LayerArg) {
	const id = args?.layer ?? c.editor.activeLayerId;
	return c.editor.doc.layers.find((l) => l.id === id);
}

/** The zone a zone command acts on: the one named, else the selected one. */
function zoneOf(c: CommandContext, args: { zone?: string } | undefined) {
	const sel = c.editor.selection;
	const address = args?.zone ?? (sel?.kind === 'zone' ? sel.address : undefined);
	return address === undefined ? undefined : c.editor.zone(address);
}

/** The spawn point a spawn command acts on: the one named, else the selected one. */
function spawnOf(c: CommandContext, args: { spawn?: number } | undefined) {
	const sel = c.editor.selection;
	const id = args?.spawn ?? (sel?.kind === 'spawn' ? sel.id : undefined);
	return id === undefined ? undefined : E.spawnsOf(c.editor.doc).find((s) => s.id === id);
}

function moveLayerCommand(id: 'layer.moveUp' | 'layer.moveDown', delta: 1 | -1): AnyCommand {
	const way = delta > 0 ? 'up' : 'down';
	return command({
		id,
		label: `Move layer ${way}`,
		hint: `move the active layer ${way} in drawing order`,
		keys: [],
		scope: 'editor',
		enabled: (c, a) => {
			const l = layerOf(c, a);
			if (!l) return false;
			const at = c.editor.doc.layers.indexOf(l);
			return delta > 0 ? at < c.editor.doc.layers.length - 1 : at > 0;
		},
		perform: (c, a) => {
			const l = layerOf(c, a)!;
			return step(c.editor.edit(`Move layer "${l.name}" ${way}`, (s) => E.moveLayer(s, l.id, delta)));
		}
	});
}

function addLayerCommand(id: 'layer.addTile' | 'layer.addObject', kind: 'tile' | 'object'): AnyCommand {
	return command({
		id,
		label: `Add ${kind} layer`,
		hint: `add ${kind === 'tile' ? 'a tile' : 'an object'} layer above the active one`,
		keys: [],
		scope: 'editor',
		perform: (c, a) => {
			const ed = c.editor;
			const name = a?.name ?? E.freshName(`${kind} layer`, ed.doc.layers.map((l) => l.name));
			const above = a?.above ?? ed.activeLayerId ?? undefined;
			let made: number | undefined;
			const ok = ed.edit(`Add ${kind} layer "${name.trim()}"`, (s) => {
				const r = E.addLayer(s, ed.doc, kind, name, above);
				made = r.id;
				return r.shape;
			});
			if (!ok || made === undefined) return false;
			ed.activeLayerId = made;
			return step(true);
		}
	});
}

export const COMMANDS: readonly AnyCommand[] = [
	...TOOLS.map((t) =>
		command({
			id: toolCommand(t.tool),
			label: t.name,
			hint: t.hint,
			keys: [{ key: t.key, shift: false }],
			scope: 'editor',
			checked: (c) => c.editor.tool === t.tool,
			perform: (c) => {
				c.editor.tool = t.tool;
				return NONE;
			}
		})
	),
	command({
		id: 'file.save',
		label: 'Save',
		keys: [{ key: 's', mod: true }],
		scope: 'page',
		inFields: true,
		enabled: (c) => c.save !== undefined,
		perform: (c) => {
			c.save?.();
			return NONE;
		}
	}),
	command({
		id: 'edit.undo',
		label: 'Undo',
		keys: [{ key: 'z', mod: true, shift: false }],
		scope: 'editor',
		claimKeys: true,
		enabled: (c) => c.editor.canUndo || c.editor.painting,
		perform: (c) => {
			c.tools.cancel();
			c.editor.undo();
			return TRAVEL;
		}
	}),
	command({
		id: 'edit.redo',
		label: 'Redo',
		keys: [
			{ key: 'z', mod: true, shift: true },
			{ key: 'y', mod: true, shift: false }
		],
		scope: 'editor',
		claimKeys: true,
		enabled: (c) => c.editor.canRedo,
		perform: (c) => {
			c.tools.cancel();
			c.editor.redo();
			return TRAVEL;
		}
	}),
	command({
		id: 'edit.delete',
		label: 'Delete',
		hint: 'delete the selected zone (with what it contains) or spawn point',
		keys: [{ key: 'Delete' }, { key: 'Backspace' }],
		scope: 'editor',
		enabled: (c) => c.editor.selection !== null,
		perform: (c) => {
			const sel = c.editor.selection;
			if (!sel) return false;
			return step(sel.kind === 'zone' ? c.editor.deleteZone(sel.address) : c.editor.deleteSpawn(sel.id));
		}
	}),
	command({
		id: 'edit.cancel',
		label: 'Cancel',
		hint: 'cancel the drag in progress, or clear the selection',
		keys: [{ key: 'Escape' }],
		scope: 'editor',
		enabled: (c) => c.tools.busy || c.editor.selection !== null,
		perform: (c) => {
			// a cancelled gesture takes back what it did (the tool bails to its mark)
			if (c.tools.cancel()) return TRAVEL;
			c.editor.selection = null;
			return NONE;
		}
	}),
	command({
		id: 'edit.dismissMessage',
		label: 'Dismiss',
		hint: 'hide why the last edit was refused',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c) => c.editor.message !== null,
		perform: (c) => {
			c.editor.message = null;
			return NONE;
		}
	}),
	toggle('view.grid', 'Grid', 'the tile grid', 'showGrid', [{ key: 'g', shift: false }]),
	toggle('view.zones', 'Zones', 'outline sectors, arenas and objects', 'showZones'),
	toggle('view.collisions', 'Collisions', 'blocked tiles in red (always shown with the collision tool)', 'showCollisions'),
	command({
		id: 'view.zoomIn',
		label: 'Zoom in',
		keys: [{ key: '+' }, { key: '=' }],
		scope: 'editor',
		perform: (c) => {
			c.view.zoomIn();
			return NONE;
		}
	}),
	command({
		id: 'view.zoomOut',
		label: 'Zoom out',
		keys: [{ key: '-' }],
		scope: 'editor',
		perform: (c) => {
			c.view.zoomOut();
			return NONE;
		}
	}),
	command({
		id: 'view.fit',
		label: 'Fit',
		hint: 'show the whole map',
		keys: [{ key: '0' }],
		scope: 'editor',
		perform: (c) => {
			c.view.fit(c.editor.doc);
			return NONE;
		}
	}),
	pan('view.panLeft', 'Pan left', 'ArrowLeft', PAN_STEP, 0),
	pan('view.panRight', 'Pan right', 'ArrowRight', -PAN_STEP, 0),
	pan('view.panUp', 'Pan up', 'ArrowUp', 0, PAN_STEP),
	pan('view.panDown', 'Pan down', 'ArrowDown', 0, -PAN_STEP),
	command({
		id: 'view.hand',
		label: 'Hand',
		hint: 'while held, a drag moves the view',
		keys: [{ key: ' ' }],
		scope: 'stage',
		hidden: true,
		perform: (c) => {
			c.tools.spaceHeld = true;
			return NONE;
		},
		release: (c) => {
			c.tools.spaceHeld = false;
		}
	}),
	command({
		id: 'view.zoneKind',
		label: 'Zone kind',
		hint: 'what the zone tool draws',
		keys: [],
		scope: 'editor',
		hidden: true,
		checked: (c, a) => c.view.zoneKind === a.kind,
		perform: (c, a) => {
			c.view.zoneKind = a.kind;
			return NONE;
		}
	}),
	command({
		id: 'view.focus',
		label: 'Show tiles',
		keys: [],
		scope: 'editor',
		hidden: true,
		perform: (c, a) => {
			c.editor.focus([a.rect]);
			return NONE;
		}
	}),
	command({
		id: 'tile.choose',
		label: 'Choose tile',
		keys: [],
		scope: 'editor',
		hidden: true,
		perform: (c, a) => {
			const ed = c.editor;
			ed.brushGid = a.gid;
			if (ed.tool !== 'brush' && ed.tool !== 'rect' && ed.tool !== 'fill') ed.tool = 'brush';
			return NONE;
		}
	}),
	command({
		id: 'layer.activate',
		label: 'Make layer active',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => layerOf(c, a) !== undefined,
		perform: (c, a) => {
			c.editor.activeLayerId = a.layer;
			return NONE;
		}
	}),
	addLayerCommand('layer.addTile', 'tile'),
	addLayerCommand('layer.addObject', 'object'),
	command({
		id: 'layer.rename',
		label: 'Rename layer',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => layerOf(c, a) !== undefined,
		perform: (c, a) => {
			const l = layerOf(c, a)!;
			if (a.name.trim() === l.name) return false;
			return step(c.editor.edit(`Rename layer "${l.name}" to "${a.name.trim()}"`, (s) => E.renameLayer(s, l.id, a.name)));
		}
	}),
	command({
		id: 'layer.visible',
		label: 'Layer visible',
		hint: 'show or hide the active layer',
		keys: [],
		scope: 'editor',
		enabled: (c, a) => layerOf(c, a) !== undefined,
		checked: (c, a) => layerOf(c, a)?.visible ?? false,
		perform: (c, a) => {
			const l = layerOf(c, a)!;
			const visible = a?.visible ?? !l.visible;
			return step(c.editor.edit(`${visible ? 'Show' : 'Hide'} layer "${l.name}"`, (s) => E.setLayerVisible(s, l.id, visible)));
		}
	}),
	moveLayerCommand('layer.moveUp', 1),
	moveLayerCommand('layer.moveDown', -1),
	command({
		id: 'layer.delete',
		label: 'Delete layer',
		hint: 'delete the active layer',
		keys: [],
		scope: 'editor',
		enabled: (c, a) => layerOf(c, a) !== undefined,
		perform: (c, a) => {
			const l = layerOf(c, a)!;
			return step(c.editor.edit(`Delete layer "${l.name}"`, (s) => E.deleteLayer(s, l.id)));
		}
	}),
	command({
		id: 'select.zone',
		label: 'Select zone',
		keys: [],
		scope: 'editor',
		hidden: true,
		perform: (c, a) => {
			c.editor.selectZone(a.address);
			return NONE;
		}
	}),
	command({
		id: 'select.object',
		label: 'Select object',
		keys: [],
		scope: 'editor',
		hidden: true,
		perform: (c, a) => {
			const zone = c.editor.analysis.zones.find((z) => z.ids.includes(a.id));
			if (zone) c.editor.selectZone(zone.address);
			else c.editor.selection = { kind: 'spawn', id: a.id };
			return NONE;
		}
	}),
	command({
		id: 'zone.add',
		label: 'Add zone',
		keys: [],
		scope: 'editor',
		hidden: true,
		perform: (c, a) => {
			const ed = c.editor;
			const parent = a.parent === null ? undefined : ed.zone(a.parent);
			const rect = placeZone(a.kind, parent, ed.analysis.zones, { width: ed.doc.width, height: ed.doc.height, collision: ed.analysis.collision });
			if (!rect) {
				ed.message = `no free room for a new ${a.kind} ${parent ? `inside "${parent.address}"` : 'on the map'}; draw one with the Zone tool`;
				return false;
			}
			const name = E.freshName(`new ${a.kind}`, ed.namesOf(a.kind));
			if (ed.addZone(a.kind, name, rect, a.kind === 'object' ? 'idle' : undefined) === undefined) return false;
			ed.selectZone(parent ? `${parent.address}:${name}` : name);
			return step(true);
		}
	}),
	command({
		id: 'zone.rename',
		label: 'Rename zone',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => zoneOf(c, a) !== undefined,
		perform: (c, a) => step(c.editor.renameZone(zoneOf(c, a)!.address, a.name))
	}),
	command({
		id: 'zone.setValue',
		label: 'Set zone value',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => zoneOf(c, a) !== undefined,
		perform: (c, a) => step(c.editor.setZoneValue(zoneOf(c, a)!.address, a.value))
	}),
	command({
		id: 'zone.delete',
		label: 'Delete zone',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => zoneOf(c, a) !== undefined,
		perform: (c, a) => step(c.editor.deleteZone(zoneOf(c, a)!.address))
	}),
	command({
		id: 'spawn.rename',
		label: 'Rename spawn point',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => spawnOf(c, a) !== undefined,
		perform: (c, a) => step(c.editor.renameSpawn(spawnOf(c, a)!.id, a.name))
	}),
	command({
		id: 'spawn.move',
		label: 'Move spawn point',
		keys: [],
		scope: 'editor',
		hidden: true,
		enabled: (c, a) => spawnOf(c, a) !== undefined,
		perform: (c, a) => {
			const ed = c.editor;
			for (const [axis, v, size] of [
				['x', a.x, ed.doc.width],
				['y', a.y, ed.doc.height]
			] as const)
				if (!Number.isInteger(v) || v < 0 || v >= size) {
					ed.message = `${axis} must be a whole number from 0 to ${size - 1}`;
					return false;
				}
			return step(ed.moveSpawn(spawnOf(c, a)!.id, a.x, a.y));
		}
	})
];

export class CommandRegistry {
	private readonly byId = new Map<string, AnyCommand>();

	constructor(
		readonly ctx: CommandContext,
		commands: readonly AnyCommand[] = COMMANDS
	) {
		for (const c of commands) {
			if (this.byId.has(c.id)) throw new Error(`two editor commands have the id "${c.id}"`);
			this.byId.set(c.id, c);
		}
	}

	/** every command, in registration order (for the shortcut list) */
	get all(): AnyCommand[] {
		return [...this.byId.values()];
	}

	/** the commands the menu lists: those that run without arguments */
	get menu(): AnyCommand[] {
		return this.all.filter((c) => !c.hidden);
	}

	get<K extends CommandId>(id: K): Command<K> {
		const c = this.byId.get(id);
		if (!c) throw new Error(`no editor command "${id}"`);
		return c as unknown as Command<K>;
	}

	enabled<K extends CommandId>(id: K, ...args: ArgList<K>): boolean {
		const c = this.get(id);
		return c.enabled ? c.enabled(this.ctx, args[0] as Args<K>) : true;
	}

	checked<K extends CommandId>(id: K, ...args: ArgList<K>): boolean {
		const c = this.get(id);
		return c.checked ? c.checked(this.ctx, args[0] as Args<K>) : false;
	}

	/**
	 * Runs a command when it can run, and records it as its result says: a `step` is one undo
	 * step however many edits it made. Returns the result (false: nothing was done).
	 */
	perform<K extends CommandId>(id: K, ...args: ArgList<K>): CommandResult {
		if (!this.enabled(id, ...args)) return false;
		const { editor } = this.ctx;
		const history = editor.history;
		const mark = history.mark(id);
		let result: CommandResult = false;
		try {
			result = this.get(id).perform(this.ctx, args[0] as Args<K>);
		} finally {
			if (history.hasMark(mark)) {
				if (result && result.history === 'step') editor.squashToMark(mark, result.label);
				else history.dropMark(mark);
			}
		}
		return result;
	}

	/** Runs a command when it can run; whether it did something. */
	run<K extends CommandId>(id: K, ...args: ArgList<K>): boolean {
		return this.perform(id, ...args) !== false;
	}

	/** Lets go of a command whose key was held (see `release`). */
	release(id: CommandId): void {
		this.get(id).release?.(this.ctx);
	}

	/** The first shortcut of a command, as written ("Ctrl+Z"), or undefined. */
	shortcut(id: CommandId): string | undefined {
		const k = this.get(id).keys[0];
		return k ? keyLabel(k) : undefined;
	}

	/** "Label (Key): hint", for a button's title. */
	title(id: CommandId, label?: string): string {
		const c = this.get(id);
		const key = this.shortcut(id);
		return `${label ?? c.label}${key ? ` (${key})` : ''}${c.hint ? `: ${c.hint}` : ''}`;
	}

	/** The command a key runs in these scopes, if any. */
	commandFor(event: Omit<EditorKeyEvent, 'preventDefault'>, scopes: readonly CommandScope[]): AnyCommand | undefined {
		const typing = isTyping(event.target);
		for (const c of this.byId.values()) {
			if (!scopes.includes(c.scope) || (typing && !c.inFields)) continue;
			if (c.keys.some((k) => matches(k, event))) return c;
		}
		return undefined;
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
