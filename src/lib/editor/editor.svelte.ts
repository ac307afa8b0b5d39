// The world editor's document state: the map being edited, its undo history, the selection and
// the active tool. Every change goes through here, so the map canvas, the layer panel and the
// environment-tree graph stay views of one document. Tile painting mutates the layer's data in
// place (a stroke is one history entry holding each cell's before and after); every other edit
// replaces the layer list (see edits.ts) and keeps the lists before and after. The history is
// bounded (`historyLimit` steps) and has marks, so a tool can make one step of a gesture that
// edits several times, or take a gesture back when it is cancelled.

import { analyseDoc, type DocTileLayer, type MapDoc, type ZoneKind } from '../world/doc';
import type { ZoneRect, ZoneView } from '../world/types';
import * as E from './edits';
import type { PendingRename } from './references';
import { DEFAULT_HISTORY_LIMIT, History, type Kept } from './history.svelte';

export type Tool = 'brush' | 'rect' | 'fill' | 'eraser' | 'eyedropper' | 'collision' | 'zone' | 'spawn' | 'select' | 'pan';

type Selection =
	| { kind: 'zone'; address: string; zoneKind: ZoneKind }
	| { kind: 'spawn'; id: number }
	| null;

interface PaintEntry {
	type: 'paint';
	label: string;
	layerId: number;
	/** cell index -> [before, after] */
	cells: Map<number, [number, number]>;
}

interface ShapeEntry {
	type: 'shape';
	label: string;
	before: E.DocShape;
	after: E.DocShape;
}

/** several steps made one (a gesture that edited more than once) */
interface GroupEntry {
	type: 'group';
	label: string;
	entries: Entry[];
}

type Entry = PaintEntry | ShapeEntry | GroupEntry;

interface EditorOptions {
	/** how many steps the undo history keeps (default 500) */
	historyLimit?: number;
}

/** Tells a view which cells of which layer changed, so it can redraw just those. */
type TileListener = (layerId: number, cells: Iterable<number>) => void;

export class EditorState {
	doc = $state.raw() as MapDoc;
	/** bumps on every change, including each painted cell */
	revision = $state(0);
	/** bumps when the zones or collisions may have changed (structural edits, end of a stroke) */
	private structureRevision = $state(0);
	tool = $state<Tool>('brush');
	/** gid the brush, rectangle and fill tools paint */
	brushGid = $state(1);
	activeLayerId = $state<number | null>(null);
	selection = $state<Selection>(null);
	/** the last edit refused, with why */
	message = $state<string | null>(null);
	/** a request for the map to bring these tiles into view (a new object each time) */
	focusRequest = $state.raw<ZoneRect | null>(null);
	/**
	 * Told of every zone or spawn point renamed (`renameZone`, `renameSpawn`: from the graph, the
	 * selection panel or a command), so the page can offer to carry the rename over to what names it.
	 */
	onZoneRenamed: ((rename: PendingRename) => void) | null = null;

	/** the undo history: bounded, with marks */
	readonly history: History<Entry>;
	private stroke: PaintEntry | null = null;
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners are called, not rendered
	private readonly tileListeners = new Set<TileListener>();

	/** Zones, collisions, spawns and problems as a run would read the map now. */
	readonly analysis = $derived.by(() => {
		void this.structureRevision;
		return analyseDoc(this.doc);
	});

	constructor(doc: MapDoc, options: EditorOptions = {}) {
		this.history = new History<Entry>(
			(entry, side) => this.apply(entry, side),
			(entries, label) => ({ type: 'group', label, entries }),
			options.historyLimit ?? DEFAULT_HISTORY_LIMIT
		);
		this.doc = doc;
		const firstTile = doc.layers.find((l) => l.kind === 'tile' && l.name !== 'collisions') ?? doc.layers[0];
		this.activeLayerId = firstTile?.id ?? null;
		this.brushGid = doc.tilesets[0]?.firstGid ?? 1;
	}

	// ---- history ----------------------------------------------------------------------------------

	get canUndo(): boolean {
		return this.history.canUndo;
	}
	get canRedo(): boolean {
		return this.history.canRedo;
	}
	get undoLabel(): string | undefined {
		return this.history.undoLabel;
	}
	get redoLabel(): string | undefined {
		return this.history.redoLabel;
	}
	/** unsaved changes: the document is not at the point last saved */
	get dirty(): boolean {
		return this.history.dirty;
	}

	markSaved(): void {
		this.history.markSaved();
	}

	private push(entry: Entry): void {
		this.history.push(entry);
		this.message = null;
	}

	undo(): void {
		this.endStroke();
		this.history.undo();
	}

	redo(): void {
		this.endStroke();
		this.history.redo();
	}

	/** Names the current point of the history (ending a stroke in progress); see `squashToMark`, `bailToMark`. */
	mark(name?: string): string {
		this.endStroke();
		return this.history.mark(name);
	}

	/** Makes everything done since the mark one undo step (labelled `label`). */
	squashToMark(id: string, label?: string): void {
		this.endStroke();
		this.history.squashToMark(id, label);
	}

	/** Takes back everything done since the mark, a stroke in progress included. */
	bailToMark(id: string): void {
		this.cancelStroke();
		this.history.bailToMark(id);
	}

	private apply(entry: Kept<Entry> | Entry, side: 'before' | 'after'): void {
		if (entry.type === 'group') {
			const list = side === 'before' ? [...entry.entries].reverse() : entry.entries;
			for (const e of list) this.apply(e, side);
			return;
		}
		if (entry.type === 'shape') {
			this.setShape(side === 'before' ? entry.before : entry.after);
			return;
		}
		const layer = this.tileLayer(entry.layerId);
		if (!layer) return;
		const k = side === 'before' ? 0 : 1;
		for (const [i, pair] of entry.cells) layer.data[i] = pair[k];
		this.revision++;
		this.structureRevision++;
		for (const l of this.tileListeners) l(entry.layerId, entry.cells.keys());
	}

	private get shape(): E.DocShape {
		return { layers: this.doc.layers, nextLayerId: this.doc.nextLayerId, nextObjectId: this.doc.nextObjectId };
	}

	private setShape(shape: E.DocShape): void {
		this.doc = { ...this.doc, ...shape };
		if (this.activeLayerId !== null && !shape.layers.some((l) => l.id === this.activeLayerId))
			this.activeLayerId = shape.layers.at(-1)?.id ?? null;
		this.revision++;
		this.structureRevision++;
	}

	/**
	 * Runs a structural edit as one undo step. A refused edit (EditError) leaves the document as
	 * it was and shows why; returns whether the edit happened.
	 */
	edit(label: string, change: (shape: E.DocShape) => E.DocShape): boolean {
		this.endStroke();
		const before = this.shape;
		let after: E.DocShape;
		try {
			after = change(before);
		} catch (e) {
			if (!(e instanceof E.EditError)) throw e;
			this.message = e.message;
			return false;
		}
		if (after === before) return false;
		this.push({ type: 'shape', label, before, after });
		this.setShape(after);
		return true;
	}

	// ---- painting ---------------------------------------------------------------------------------

	onTiles(listener: TileListener): () => void {
		this.tileListeners.add(listener);
		return () => this.tileListeners.delete(listener);
	}

	tileLayer(id: number | null): DocTileLayer | undefined {
		const l = this.doc.layers.find((x) => x.id === id);
		return l?.kind === 'tile' ? l : undefined;
	}

	/** Starts a stroke on a tile layer: everything painted until `endStroke` is one undo step. */
	beginStroke(layerId: number, label = 'Paint'): void {
		this.endStroke();
		if (!this.tileLayer(layerId)) {
			this.message = 'choose a tile layer to paint on';
			return;
		}
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- history data, never rendered
		this.stroke = { type: 'paint', label, layerId, cells: new Map() };
	}

	/** Paints cells of the current stroke. Returns how many cells changed. */
	paint(cells: Iterable<number>, gid: number): number {
		const stroke = this.stroke;
		if (!stroke) return 0;
		const layer = this.tileLayer(stroke.layerId);
		if (!layer) return 0;
		const changed: number[] = [];
		const n = this.doc.width * this.doc.height;
		for (const i of cells) {
			if (i < 0 || i >= n || layer.data[i] === gid) continue;
			const had = stroke.cells.get(i);
			stroke.cells.set(i, [had ? had[0] : layer.data[i], gid]);
			layer.data[i] = gid;
			changed.push(i);
		}
		if (changed.length) {
			this.revision++;
			for (const l of this.tileListeners) l(stroke.layerId, changed);
		}
		return changed.length;
	}

	endStroke(): void {
		const stroke = this.stroke;
		this.stroke = null;
		if (!stroke) return;
		for (const [i, [before, after]] of stroke.cells) if (before === after) stroke.cells.delete(i);
		if (stroke.cells.size === 0) return;
		this.push(stroke);
		this.structureRevision++;
	}

	/** Abandons the stroke in progress: its cells go back to what they were, and nothing is recorded. */
	cancelStroke(): void {
		const stroke = this.stroke;
		this.stroke = null;
		if (!stroke || stroke.cells.size === 0) return;
		this.apply(stroke, 'before');
	}

	get painting(): boolean {
		return this.stroke !== null;
	}

	/** Paints `cells` as one undo step (rectangle, fill). */
	paintAll(layerId: number, cells: Iterable<number>, gid: number, label: string): number {
		this.beginStroke(layerId, label);
		const n = this.paint(cells, gid);
		this.endStroke();
		return n;
	}

	/** The collisions layer, made (hidden) when the map has none; its id. */
	collisionLayerId(): number {
		const existing = this.doc.layers.find((l) => l.kind === 'tile' && l.name === 'collisions');
		if (existing) return existing.id;
		this.edit('Add collisions layer', (s) => E.ensureCollisionLayer(s, this.doc).shape);
		return this.doc.layers.find((l) => l.kind === 'tile' && l.name === 'collisions')!.id;
	}

	// ---- zones and spawns ---------------------------------------------------------------------------

	zone(address: string): ZoneView | undefined {
		return this.analysis.zones.find((z) => z.address === address);
	}

	/** Adds a zone rectangle; returns its object id (undefined when refused). */
	addZone(kind: ZoneKind, name: string, rect: ZoneRect, value?: string): number | undefined {
		let id: number | undefined;
		this.edit(`Add ${kind} "${name}"`, (s) => {
			const r = E.addZoneRect(s, this.doc, kind, name, rect, value);
			id = r.id;
			return r.shape;
		});
		return id;
	}

	renameZone(address: string, name: string): boolean {
		const zone = this.zone(address);
		if (!zone) return false;
		const ok = this.edit(`Rename ${zone.kind} "${zone.name}" to "${name.trim()}"`, (s) => E.renameZone(s, zone, name));
		if (!ok) return false;
		const renamed = [...address.split(':').slice(0, -1), name.trim()].join(':');
		if (this.selection?.kind === 'zone' && this.selection.address === address) this.selection = { ...this.selection, address: renamed };
		this.onZoneRenamed?.({ kind: zone.kind, from: zone.address, to: renamed, ids: [...zone.ids] });
		return true;
	}

	setZoneValue(address: string, value: string): boolean {
		const zone = this.zone(address);
		if (!zone) return false;
		return this.edit(`Set ${E.ZONE_VALUE_PROPERTY[zone.kind] ?? 'value'} of "${zone.name}"`, (s) => E.setZoneValue(s, zone, value));
	}

	deleteZone(address: string): boolean {
		const zone = this.zone(address);
		if (!zone) return false;
		const ok = this.edit(`Delete ${zone.kind} "${zone.name}"`, (s) => E.deleteZone(s, zone, this.analysis.zones));
		if (ok) this.selection = null;
		return ok;
	}

	addSpawn(name: string, x: number, y: number): number | undefined {
		let id: number | undefined;
		this.edit(`Add spawn "${name}"`, (s) => {
			const r = E.addSpawn(s, this.doc, name, x, y);
			id = r.id;
			return r.shape;
		});
		return id;
	}

	/** Selects a zone and asks the map to show it. */
	selectZone(address: string | null): void {
		const zone = address ? this.zone(address) : undefined;
		this.selection = zone ? { kind: 'zone', address: zone.address, zoneKind: zone.kind } : null;
		if (zone) this.focus(zone.rects);
	}

	/** Asks the map to bring the tiles of `rects` into view. */
	focus(rects: readonly ZoneRect[]): void {
		if (!rects.length) return;
		const x = Math.min(...rects.map((r) => r.x));
		const y = Math.min(...rects.map((r) => r.y));
		const w = Math.max(...rects.map((r) => r.x + r.w)) - x;
		const h = Math.max(...rects.map((r) => r.y + r.h)) - y;
		this.focusRequest = { x, y, w, h };
	}

	renameSpawn(id: number, name: string): boolean {
		const spawn = E.spawnsOf(this.doc).find((s) => s.id === id);
		if (!spawn) return false;
		const ok = this.edit(`Rename spawn "${spawn.name}" to "${name.trim()}"`, (s) => E.renameSpawn(s, id, name));
		if (ok) this.onZoneRenamed?.({ kind: 'spawn', from: spawn.name, to: name.trim(), ids: [id] });
		return ok;
	}

	/** Moves a spawn point to the centre of tile (x, y). */
	moveSpawn(id: number, x: number, y: number): boolean {
		const spawn = E.spawnsOf(this.doc).find((s) => s.id === id);
		if (!spawn || (spawn.x === x && spawn.y === y)) return false;
		return this.edit(`Move spawn "${spawn.name}"`, (s) => E.moveSpawn(s, this.doc, id, x, y));
	}

	deleteSpawn(id: number): boolean {
		const spawn = E.spawnsOf(this.doc).find((s) => s.id === id);
		if (!spawn) return false;
		const ok = this.edit(`Delete spawn "${spawn.name}"`, (s) => E.deleteObject(s, id));
		if (ok && this.selection?.kind === 'spawn' && this.selection.id === id) this.selection = null;
		return ok;
	}

	/** The zone or spawn names in use, for picking fresh ones. */
	namesOf(kind: ZoneKind | 'spawn'): string[] {
		if (kind === 'spawn') return E.spawnsOf(this.doc).map((s) => s.name);
		return this.analysis.zones.filter((z) => z.kind === kind).map((z) => z.name);
	}
}
