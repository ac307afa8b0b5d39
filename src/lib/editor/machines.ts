// The map editor's pointer tools as state machines, free of any UI: each tool takes pointer
// events (already turned into map tiles) and moves between named states, editing the document
// through EditorState and showing previews through its context. Between gestures every tool is
// in `idle`; a gesture that edits the map is one undo step, and cancelling it (Escape) leaves
// the map as it was.
//
//   brush, eraser, collision   idle -down-> painting -up-> idle          (cancel: the stroke is undone)
//   rect, zone                 idle -down-> dragging -up-> idle          (up draws the rectangle)
//   fill, eyedropper, spawn    idle (acts on down)
//   select                     idle -down on a handle-> resizing -up-> idle
//                              idle -down on a zone-> pointing -move-> translating -up-> idle
//                              idle -down on a spawn-> dragging-spawn -up-> idle
//   pan (and the hand: middle button or space held)   idle -down-> panning -up-> idle

import { GID_MASK, type ZoneKind } from '../world/doc';
import type { ZoneRect } from '../world/types';
import type { EditorState, Tool } from './editor.svelte';
import * as E from './edits';
import {
	carriedRects,
	cellsOf,
	floodFill,
	handleAt,
	lineTiles,
	moveRect,
	paintTarget,
	pickTile,
	pieceAt,
	rectBetween,
	rectCells,
	resizeRect,
	sameRect,
	spawnAt,
	zonePieces,
	type Handle,
	type Tile,
	type ZonePiece
} from './tools';
import type { EditorView } from './view.svelte';

/** A pointer event in the map's terms. */
export interface ToolPoint {
	/** position relative to the map view, CSS pixels */
	sx: number;
	sy: number;
	/** the same point in fractional tiles */
	fx: number;
	fy: number;
	/** the tile under it (may lie off the map) */
	tile: Tile;
	/** 0 main, 1 middle, 2 secondary */
	button: number;
	/** Alt held: the painting tools erase */
	alt: boolean;
}

/** A rectangle shown while a gesture is in progress (tiles), and what it is for. */
export interface Ghost {
	rect: ZoneRect;
	kind: 'paint' | ZoneKind | 'spawn';
}

export interface ToolContext {
	readonly editor: EditorState;
	readonly view: EditorView;
	setGhost(ghost: Ghost | null): void;
	/** the on-screen size of a tile, CSS pixels (for the reach of handles) */
	tilePixels(): number;
}

type ToolId = Tool | 'hand';

export abstract class ToolMachine {
	abstract readonly id: ToolId;
	/** the machine's state; `idle` between gestures */
	state = 'idle';

	constructor(protected readonly ctx: ToolContext) {}

	protected get editor(): EditorState {
		return this.ctx.editor;
	}

	/** Handles a press; returns whether a gesture began (the pointer is then kept until it is let go). */
	abstract down(p: ToolPoint): boolean;
	move(p: ToolPoint): void {
		void p;
	}
	/** Ends the gesture, keeping what it did. */
	up(p: ToolPoint): void {
		void p;
		this.reset();
	}
	/** Abandons the gesture, leaving the map as it was; whether there was one. */
	cancel(): boolean {
		if (this.state === 'idle') return false;
		this.reset();
		return true;
	}

	/** The pointer's look over the map in this state. */
	get cursor(): string {
		return 'crosshair';
	}

	protected reset(): void {
		this.state = 'idle';
		this.ctx.setGhost(null);
	}

	protected onMap(t: Tile): boolean {
		const d = this.editor.doc;
		return t.x >= 0 && t.y >= 0 && t.x < d.width && t.y < d.height;
	}

	protected clamp(t: Tile): Tile {
		const d = this.editor.doc;
		return { x: Math.max(0, Math.min(d.width - 1, t.x)), y: Math.max(0, Math.min(d.height - 1, t.y)) };
	}

	/** The tile layer a painting tool works on, or null (with the reason shown). */
	protected target() {
		const t = paintTarget(this.editor.doc, this.editor.activeLayerId);
		if (typeof t === 'string') {
			this.editor.message = t;
			return null;
		}
		return t;
	}

	/** Selects the zone an object id belongs to (none when the analysis has no zone for it). */
	protected selectZoneOf(id: number): void {
		const z = this.editor.analysis.zones.find((zone) => zone.ids.includes(id));
		this.editor.selection = z ? { kind: 'zone', address: z.address, zoneKind: z.kind } : null;
	}
}

// ---- painting: brush, eraser, collision ------------------------------------------------------------

abstract class StrokeMachine extends ToolMachine {
	private last: Tile = { x: 0, y: 0 };
	private gid = 0;
	private mark: string | null = null;

	/** the layer, gid and label of a stroke starting here, or null when there is none */
	protected abstract begin(p: ToolPoint): { layerId: number; gid: number; label: string } | null;

	down(p: ToolPoint): boolean {
		if (!this.onMap(p.tile)) return false;
		this.mark = this.editor.mark(`${this.id} stroke`);
		const s = this.begin(p);
		if (!s) {
			this.editor.bailToMark(this.mark);
			this.mark = null;
			return false;
		}
		const d = this.editor.doc;
		this.editor.beginStroke(s.layerId, s.label);
		this.editor.paint(cellsOf([p.tile], d.width, d.height), s.gid);
		this.last = p.tile;
		this.gid = s.gid;
		this.state = 'painting';
		return true;
	}

	override move(p: ToolPoint): void {
		if (this.state !== 'painting' || (p.tile.x === this.last.x && p.tile.y === this.last.y)) return;
		const d = this.editor.doc;
		this.editor.paint(cellsOf(lineTiles(this.last, p.tile), d.width, d.height), this.gid);
		this.last = p.tile;
	}

	override up(): void {
		if (this.state === 'painting' && this.mark) {
			// a stroke that first made the collisions layer is still one step, named after the stroke
			this.editor.squashToMark(this.mark);
		}
		this.mark = null;
		this.reset();
	}

	override cancel(): boolean {
		if (this.state !== 'painting') return false;
		if (this.mark) this.editor.bailToMark(this.mark);
		this.mark = null;
		this.reset();
		return true;
	}
}

class BrushMachine extends StrokeMachine {
	readonly id = 'brush';
	protected begin(p: ToolPoint) {
		const layer = this.target();
		if (!layer) return null;
		const gid = p.button === 2 || p.alt ? 0 : this.editor.brushGid;
		return { layerId: layer.id, gid, label: gid === 0 ? 'Erase' : 'Paint' };
	}
}

class EraserMachine extends StrokeMachine {
	readonly id = 'eraser';
	protected begin() {
		const layer = this.target();
		return layer ? { layerId: layer.id, gid: 0, label: 'Erase' } : null;
	}
}

class CollisionMachine extends StrokeMachine {
	readonly id = 'collision';
	protected begin(p: ToolPoint) {
		const erase = p.button === 2 || p.alt;
		const layerId = this.editor.collisionLayerId();
		const gid = erase ? 0 : E.collisionGid(this.editor.doc);
		return { layerId, gid, label: erase ? 'Erase collisions' : 'Paint collisions' };
	}
}

// ---- rectangles: rect (tiles), zone ------------------------------------------------------------------

class RectMachine extends ToolMachine {
	readonly id = 'rect';
	private start: Tile = { x: 0, y: 0 };
	private gid = 0;
	private layerId = 0;
	private rect: ZoneRect | null = null;

	down(p: ToolPoint): boolean {
		const layer = this.target();
		if (!layer || !this.onMap(p.tile)) return false;
		this.start = p.tile;
		this.gid = p.button === 2 || p.alt ? 0 : this.editor.brushGid;
		this.layerId = layer.id;
		this.show(rectBetween(p.tile, p.tile));
		this.state = 'dragging';
		return true;
	}

	override move(p: ToolPoint): void {
		if (this.state === 'dragging') this.show(rectBetween(this.start, this.clamp(p.tile)));
	}

	private show(rect: ZoneRect): void {
		this.rect = rect;
		this.ctx.setGhost({ rect, kind: 'paint' });
	}

	override up(): void {
		if (this.state === 'dragging' && this.rect) {
			const d = this.editor.doc;
			this.editor.paintAll(this.layerId, rectCells(this.rect, d.width, d.height), this.gid, this.gid === 0 ? 'Erase rectangle' : 'Rectangle');
		}
		this.rect = null;
		this.reset();
	}
}

class ZoneMachine extends ToolMachine {
	readonly id = 'zone';
	private start: Tile = { x: 0, y: 0 };
	private kind: ZoneKind = 'sector';
	private rect: ZoneRect | null = null;

	down(p: ToolPoint): boolean {
		if (!this.onMap(p.tile)) return false;
		this.start = p.tile;
		this.kind = this.ctx.view.zoneKind;
		this.show(rectBetween(p.tile, p.tile));
		this.state = 'dragging';
		return true;
	}

	override move(p: ToolPoint): void {
		if (this.state === 'dragging') this.show(rectBetween(this.start, this.clamp(p.tile)));
	}

	private show(rect: ZoneRect): void {
		this.rect = rect;
		this.ctx.setGhost({ rect, kind: this.kind });
	}

	override up(): void {
		if (this.state === 'dragging' && this.rect) {
			const kind = this.kind;
			const id = this.editor.addZone(kind, E.freshName(`new ${kind}`, this.editor.namesOf(kind)), this.rect);
			if (id !== undefined) this.selectZoneOf(id);
		}
		this.rect = null;
		this.reset();
	}
}

// ---- one-click tools: fill, eyedropper, spawn ----------------------------------------------------------

class FillMachine extends ToolMachine {
	readonly id = 'fill';
	down(p: ToolPoint): boolean {
		const layer = this.target();
		if (!layer) return false;
		const gid = p.button === 2 || p.alt ? 0 : this.editor.brushGid;
		const d = this.editor.doc;
		const cells = floodFill(layer.data, d.width, d.height, p.tile, gid);
		if (cells.length) this.editor.paintAll(layer.id, cells, gid, gid === 0 ? 'Erase area' : 'Fill');
		return false;
	}
}

class EyedropperMachine extends ToolMachine {
	readonly id = 'eyedropper';
	down(p: ToolPoint): boolean {
		const pick = pickTile(this.editor.doc, p.tile);
		if (pick) {
			this.editor.brushGid = (pick.gid & GID_MASK) >>> 0;
			this.ctx.view.status = `Picked tile ${this.editor.brushGid} from layer "${pick.layerName}"`;
		} else this.ctx.view.status = 'No tile here to pick';
		return false;
	}
	override get cursor(): string {
		return 'copy';
	}
}

class SpawnMachine extends ToolMachine {
	readonly id = 'spawn';
	down(p: ToolPoint): boolean {
		if (!this.onMap(p.tile)) return false;
		const id = this.editor.addSpawn(E.freshName('new spawn', this.editor.namesOf('spawn')), p.tile.x, p.tile.y);
		if (id !== undefined) this.editor.selection = { kind: 'spawn', id };
		return false;
	}
}

// ---- select: pick, move, resize ------------------------------------------------------------------------

class SelectMachine extends ToolMachine {
	readonly id = 'select';
	private piece: ZonePiece | null = null;
	private handle: Handle = 'se';
	private spawnId = 0;
	private start: Tile = { x: 0, y: 0 };
	private rect: ZoneRect | null = null;

	override get cursor(): string {
		return 'default';
	}

	private show(rect: ZoneRect, kind: Ghost['kind']): void {
		this.rect = rect;
		this.ctx.setGhost({ rect, kind });
	}

	/** A handle of the selected zone first, then a spawn point, then the innermost zone. */
	down(p: ToolPoint): boolean {
		const ed = this.editor;
		const pieces = zonePieces(ed.doc, ed.analysis.zones);
		const sel = ed.selection;
		const reach = Math.max(0.2, 7 / this.ctx.tilePixels());
		if (sel?.kind === 'zone')
			for (const piece of pieces) {
				if (piece.zone?.address !== sel.address) continue;
				const handle = handleAt(piece.rect, p.fx, p.fy, reach);
				if (handle) {
					this.piece = piece;
					this.handle = handle;
					this.show(piece.rect, piece.kind);
					this.state = 'resizing';
					return true;
				}
			}
		const sp = spawnAt(E.spawnsOf(ed.doc), p.tile);
		if (sp) {
			ed.selection = { kind: 'spawn', id: sp.id };
			this.spawnId = sp.id;
			this.start = p.tile;
			this.rect = null;
			this.state = 'dragging-spawn';
			return true;
		}
		const piece = pieceAt(pieces, p.tile);
		if (!piece) {
			ed.selection = null;
			return false;
		}
		if (piece.zone) ed.selection = { kind: 'zone', address: piece.zone.address, zoneKind: piece.zone.kind };
		else {
			ed.selection = null;
			this.ctx.view.status = `"${piece.name}" is not part of the environment tree (see the problems)`;
		}
		this.piece = piece;
		this.start = p.tile;
		this.rect = null;
		this.state = 'pointing';
		return true;
	}

	override move(p: ToolPoint): void {
		const d = this.editor.doc;
		const piece = this.piece;
		switch (this.state) {
			case 'pointing':
			case 'translating': {
				const dx = p.tile.x - this.start.x;
				const dy = p.tile.y - this.start.y;
				if (this.state === 'pointing' && dx === 0 && dy === 0) return;
				this.state = 'translating';
				this.show(moveRect(piece!.rect, dx, dy, d.width, d.height), piece!.kind);
				return;
			}
			case 'resizing':
				this.show(resizeRect(piece!.rect, this.handle, p.fx, p.fy, d.width, d.height), piece!.kind);
				return;
			case 'dragging-spawn':
				this.show({ ...this.clamp(p.tile), w: 1, h: 1 }, 'spawn');
				return;
		}
	}

	override up(): void {
		const ed = this.editor;
		const p = this.piece;
		const g = this.rect;
		const state = this.state;
		this.piece = null;
		this.rect = null;
		this.reset();
		if (!g) return;
		if (state === 'translating' && p && !sameRect(g, p.rect)) {
			const dx = g.x - p.rect.x;
			const dy = g.y - p.rect.y;
			const moving = p.zone ? carriedRects(ed.analysis.zones, p.zone, p.index) : [{ id: p.id, rect: p.rect }];
			const current = ed.doc;
			const ok = ed.edit(`Move ${p.kind} "${p.name}"`, (s) =>
				moving.reduce((acc, m) => E.setObjectRect(acc, current, m.id, { ...m.rect, x: m.rect.x + dx, y: m.rect.y + dy }), s)
			);
			if (ok && p.zone) this.selectZoneOf(p.id);
		} else if (state === 'resizing' && p && !sameRect(g, p.rect)) {
			const current = ed.doc;
			if (ed.edit(`Resize ${p.kind} "${p.name}"`, (s) => E.setObjectRect(s, current, p.id, g))) this.selectZoneOf(p.id);
		} else if (state === 'dragging-spawn') ed.moveSpawn(this.spawnId, g.x, g.y);
	}

	override cancel(): boolean {
		this.piece = null;
		this.rect = null;
		return super.cancel();
	}
}

// ---- the view: pan (the tool) and the hand (middle button, space held) ------------------------------

export class PanMachine extends ToolMachine {
	private x = 0;
	private y = 0;
	constructor(
		ctx: ToolContext,
		readonly id: 'pan' | 'hand' = 'pan'
	) {
		super(ctx);
	}
	down(p: ToolPoint): boolean {
		this.x = p.sx;
		this.y = p.sy;
		this.state = 'panning';
		return true;
	}
	override move(p: ToolPoint): void {
		if (this.state !== 'panning') return;
		this.ctx.view.viewport.panBy(p.sx - this.x, p.sy - this.y);
		this.x = p.sx;
		this.y = p.sy;
	}
	override get cursor(): string {
		return this.state === 'panning' ? 'grabbing' : 'grab';
	}
}

/** One machine per tool, sharing a context. */
export function makeMachines(ctx: ToolContext): Record<Tool, ToolMachine> {
	return {
		brush: new BrushMachine(ctx),
		rect: new RectMachine(ctx),
		fill: new FillMachine(ctx),
		eraser: new EraserMachine(ctx),
		eyedropper: new EyedropperMachine(ctx),
		collision: new CollisionMachine(ctx),
		zone: new ZoneMachine(ctx),
		spawn: new SpawnMachine(ctx),
		select: new SelectMachine(ctx),
		pan: new PanMachine(ctx)
	};
}
