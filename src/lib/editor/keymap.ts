// The editor's one key listener: the page hands the window's keydown, keyup and blur to an
// `EditorKeys`, which runs the command of the registry (commands.ts) a key is bound to in the
// scopes where it was typed. On the map tab the `editor` keys work (tool letters, undo, delete,
// grid, zoom), plus the `map` keys while the map view has the focus (arrow keys pan) and the
// `stage` keys while it or nothing has it (space held: the hand); on the other tabs only the
// `page` keys (save). Keys typed into a text field are left alone.

import { type CommandId, type CommandRegistry, type CommandScope, type EditorKeyEvent } from './commands';

/** The element whose focus turns on the map's own keys (the map view's canvas) carries `data-editor-keys="map"`. */
const MAP_KEYS_ATTRIBUTE = 'data-editor-keys';

/** The scopes a key works in: on the map tab or another, typed where `target` is. */
export function keyScopes(target: EventTarget | null, onMapTab: boolean): CommandScope[] {
	if (!onMapTab) return ['page'];
	const el = target as { tagName?: unknown; getAttribute?: (name: string) => string | null } | null;
	if (typeof el?.getAttribute === 'function' && el.getAttribute(MAP_KEYS_ATTRIBUTE) === 'map') return ['page', 'editor', 'map', 'stage'];
	if (typeof el?.tagName === 'string' && el.tagName.toUpperCase() === 'BODY') return ['page', 'editor', 'stage'];
	return ['page', 'editor'];
}

export type KeyEvent = EditorKeyEvent & Partial<Pick<KeyboardEvent, 'repeat' | 'defaultPrevented'>>;

export class EditorKeys {
	/** commands held down by their key (see `Command.release`) */
	private readonly held = new Set<CommandId>();

	constructor(
		readonly commands: CommandRegistry,
		/** whether the map tab is shown (default: always) */
		private readonly onMapTab: () => boolean = () => true
	) {}

	/**
	 * A key went down: runs the command it is bound to here and keeps the browser's default from
	 * it. Returns whether the key was taken.
	 */
	readonly keydown = (event: KeyEvent): boolean => {
		// a key something on the page already took is not run again
		if (event.defaultPrevented) return false;
		const c = this.commands.commandFor(event, keyScopes(event.target, this.onMapTab()));
		if (!c) return false;
		// a held key repeats: it is still held
		if (c.release && event.repeat) return false;
		const done = this.commands.run(c.id) || (c.claimKeys ?? false);
		if (done) {
			event.preventDefault();
			if (c.release) this.held.add(c.id);
		}
		return done;
	};

	/** A key went up: lets go of the commands held by it, wherever the focus is now. */
	readonly keyup = (event: Pick<KeyboardEvent, 'key'>): void => {
		for (const id of [...this.held]) {
			const keys = this.commands.get(id).keys;
			// whatever the modifiers now: a key let go is let go
			if (!keys.some((k) => k.key.toLowerCase() === event.key.toLowerCase())) continue;
			this.held.delete(id);
			this.commands.release(id);
		}
	};

	/** The window lost the focus: no key is held any more. */
	readonly blur = (): void => {
		for (const id of this.held) this.commands.release(id);
		this.held.clear();
	};
}
