// Runs the pointer tools (machines.ts) for one editor: turns pointer positions on the map view
// into tiles, gives each press to the active tool's machine (or to the hand, for the middle
// button or while space is held) and keeps what the view shows of a gesture: the preview
// rectangle, the tile under the pointer, the machine's state and the pointer's look. The map
// canvas forwards its events here; tests drive it directly.

import type { EditorState, Tool } from './editor.svelte';
import { makeMachines, PanMachine, type Ghost, type ToolContext, type ToolMachine, type ToolPoint } from './machines';
import type { Tile } from './tools';
import { viewOf, type EditorView } from './view.svelte';

/** A pointer event on the map view: position in CSS pixels relative to the view. */
export interface PointerInput {
	sx: number;
	sy: number;
	/** 0 main (default), 1 middle, 2 secondary */
	button?: number;
	alt?: boolean;
}

export class ToolRunner {
	/** the rectangle a gesture would draw, move or resize (tiles) */
	ghost = $state.raw<Ghost | null>(null);
	/** the map tile under the pointer, null when off the map */
	hover = $state.raw<Tile | null>(null);
	/** space held: a press pans */
	spaceHeld = $state(false);
	/** bumps after every event a machine handled */
	private tick = $state(0);
	/** `<tool>.<state>` of the machine with the gesture in progress, or of the one a press would go to */
	readonly state = $derived.by(() => {
		void this.tick;
		void this.editor.tool;
		void this.spaceHeld;
		const m = this.current;
		return `${m.id}.${m.state}`;
	});

	readonly machines: Record<Tool, ToolMachine>;
	private readonly hand: PanMachine;
	/** the machine that owns the gesture in progress */
	private active: ToolMachine | null = null;

	constructor(
		readonly editor: EditorState,
		readonly view: EditorView = viewOf(editor)
	) {
		const ctx: ToolContext = {
			editor,
			view,
			setGhost: (g) => (this.ghost = g),
			tilePixels: () => Math.min(editor.doc.tileWidth, editor.doc.tileHeight) * view.viewport.scale
		};
		this.machines = makeMachines(ctx);
		this.hand = new PanMachine(ctx, 'hand');
	}

	/** whether a gesture is in progress */
	get busy(): boolean {
		return this.active !== null;
	}

	/** the machine a press would go to now */
	get current(): ToolMachine {
		return this.active ?? (this.spaceHeld || this.editor.tool === 'pan' ? this.hand : this.machines[this.editor.tool]);
	}

	get cursor(): string {
		return this.current.cursor;
	}

	/** The pointer in map terms. */
	point(input: PointerInput): ToolPoint {
		const w = this.view.viewport.toWorld({ sx: input.sx, sy: input.sy });
		const fx = w.wx / this.editor.doc.tileWidth;
		const fy = w.wy / this.editor.doc.tileHeight;
		return { sx: input.sx, sy: input.sy, fx, fy, tile: { x: Math.floor(fx), y: Math.floor(fy) }, button: input.button ?? 0, alt: input.alt ?? false };
	}

	/** Where the centre of tile (x, y) is on the view, for tests and scripted gestures. */
	screenOf(x: number, y: number): PointerInput {
		const { tileWidth: tw, tileHeight: th } = this.editor.doc;
		const s = this.view.viewport.toScreen({ wx: (x + 0.5) * tw, wy: (y + 0.5) * th });
		return { sx: s.sx, sy: s.sy };
	}

	/** A press; returns whether a gesture began (keep the pointer until it is let go). */
	pointerDown(input: PointerInput): boolean {
		if (this.active) return false;
		const p = this.point(input);
		let machine: ToolMachine;
		if (p.button === 1 || this.spaceHeld || this.editor.tool === 'pan') machine = this.hand;
		else if (p.button === 0 || p.button === 2) machine = this.machines[this.editor.tool];
		else return false;
		const began = machine.down(p);
		this.active = began ? machine : null;
		this.sync();
		return began;
	}

	pointerMove(input: PointerInput): void {
		const p = this.point(input);
		const d = this.editor.doc;
		const on = p.tile.x >= 0 && p.tile.y >= 0 && p.tile.x < d.width && p.tile.y < d.height;
		const next = on ? p.tile : null;
		if (next?.x !== this.hover?.x || next?.y !== this.hover?.y) this.hover = next;
		if (!this.active) return;
		this.active.move(p);
		this.sync();
	}

	/** The pointer let go: the gesture ends and keeps what it did. */
	pointerUp(input: PointerInput): void {
		const machine = this.active;
		this.active = null;
		machine?.up(this.point(input));
		this.sync();
	}

	/** The pointer left the view. */
	pointerLeave(): void {
		if (!this.active) this.hover = null;
	}

	/** Abandons the gesture in progress (Escape, a lost pointer); whether there was one. */
	cancel(): boolean {
		const machine = this.active;
		this.active = null;
		const had = machine?.cancel() ?? false;
		this.sync();
		return had;
	}

	private sync(): void {
		this.tick++;
	}

	/** A whole drag from tile a to tile b on the main button, with the tiles between visited. */
	drag(a: Tile, b: Tile, options: { button?: number; alt?: boolean; steps?: number } = {}): void {
		const from = this.screenOf(a.x, a.y);
		const to = this.screenOf(b.x, b.y);
		const steps = options.steps ?? Math.max(1, Math.abs(b.x - a.x) + Math.abs(b.y - a.y));
		const at = (t: number): PointerInput => ({
			sx: from.sx + (to.sx - from.sx) * t,
			sy: from.sy + (to.sy - from.sy) * t,
			button: options.button,
			alt: options.alt
		});
		this.pointerDown(at(0));
		for (let k = 1; k <= steps; k++) this.pointerMove(at(k / steps));
		this.pointerUp(at(1));
	}

	/** A click on tile (x, y). */
	click(x: number, y: number, options: { button?: number; alt?: boolean } = {}): void {
		const at = { ...this.screenOf(x, y), ...options };
		this.pointerDown(at);
		this.pointerUp(at);
	}
}

const runners = new WeakMap<EditorState, ToolRunner>();

/** The tool runner of `editor`, made on first use. */
export function toolsOf(editor: EditorState): ToolRunner {
	let runner = runners.get(editor);
	if (!runner) {
		runner = new ToolRunner(editor);
		runners.set(editor, runner);
	}
	return runner;
}
