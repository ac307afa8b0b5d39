import { describe, expect, it } from 'vitest';
import { getProperty, type DocObjectLayer, type DocTileLayer } from '../world/doc';
import { EditorState } from './editor.svelte';
import * as E from './edits';
import { testDoc } from './testing';

const tile = (ed: EditorState, name: string) => ed.doc.layers.find((l) => l.name === name) as DocTileLayer;
const objects = (ed: EditorState, name: string) => (ed.doc.layers.find((l) => l.name === name) as DocObjectLayer).objects;

describe('EditorState painting', () => {
	it('starts on the first visual tile layer with the first tile, clean and with no history', () => {
		const ed = new EditorState(testDoc());
		expect(ed.activeLayerId).toBe(1);
		expect(ed.brushGid).toBe(1);
		expect(ed.canUndo).toBe(false);
		expect(ed.canRedo).toBe(false);
		expect(ed.dirty).toBe(false);
	});

	it('makes one undo step of a whole stroke, keeping each cell\'s first value', () => {
		const ed = new EditorState(testDoc());
		const ground = tile(ed, 'ground');
		ed.beginStroke(1);
		expect(ed.paint([0, 1, 2], 7)).toBe(3);
		expect(ed.paint([2, 3], 8)).toBe(2);
		ed.endStroke();
		expect(ground.data.slice(0, 5)).toEqual([7, 7, 8, 8, 1]);
		expect(ed.undoLabel).toBe('Paint');
		ed.undo();
		expect(ground.data.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
		expect(ed.canUndo).toBe(false);
		expect(ed.redoLabel).toBe('Paint');
		ed.redo();
		expect(ground.data.slice(0, 5)).toEqual([7, 7, 8, 8, 1]);
		expect(ed.canRedo).toBe(false);
	});

	it('records nothing for a stroke that changed nothing, or painted a cell back', () => {
		const ed = new EditorState(testDoc());
		ed.beginStroke(1);
		ed.paint([0], 1);
		ed.endStroke();
		ed.beginStroke(1);
		ed.paint([4], 9);
		ed.paint([4], 1);
		ed.endStroke();
		expect(ed.canUndo).toBe(false);
		expect(ed.dirty).toBe(false);
	});

	it('ignores cells off the map and tells listeners exactly which cells changed', () => {
		const ed = new EditorState(testDoc({ width: 4, height: 2 }));
		const seen: [number, number[]][] = [];
		const off = ed.onTiles((layer, cells) => seen.push([layer, [...cells]]));
		ed.paintAll(1, [-1, 0, 1, 8, 99], 3, 'Rectangle');
		expect(seen).toEqual([[1, [0, 1]]]);
		ed.undo();
		expect(seen[1][0]).toBe(1);
		expect(seen[1][1].sort()).toEqual([0, 1]);
		off();
		ed.redo();
		expect(seen).toHaveLength(2);
		expect(ed.undoLabel).toBe('Rectangle');
	});

	it('refuses to paint on an object layer and says why', () => {
		const ed = new EditorState(testDoc());
		const sectors = ed.doc.layers.find((l) => l.name === 'sectors')!;
		ed.beginStroke(sectors.id);
		expect(ed.painting).toBe(false);
		expect(ed.paint([0], 3)).toBe(0);
		expect(ed.message).toMatch(/tile layer/);
	});

	it('tracks unsaved changes against the saved point, through undo and redo', () => {
		const ed = new EditorState(testDoc());
		ed.paintAll(1, [0], 5, 'Paint');
		expect(ed.dirty).toBe(true);
		ed.markSaved();
		expect(ed.dirty).toBe(false);
		ed.undo();
		expect(ed.dirty).toBe(true);
		ed.redo();
		expect(ed.dirty).toBe(false);
		ed.paintAll(1, [1], 5, 'Paint');
		expect(ed.dirty).toBe(true);
		ed.undo();
		expect(ed.dirty).toBe(false);
	});

	it('drops the redo history when something new is done', () => {
		const ed = new EditorState(testDoc());
		ed.paintAll(1, [0], 5, 'Paint');
		ed.undo();
		expect(ed.canRedo).toBe(true);
		ed.paintAll(1, [1], 6, 'Fill');
		expect(ed.canRedo).toBe(false);
		expect(tile(ed, 'ground').data[0]).toBe(1);
	});

	it('ends a stroke in progress before undoing, so the stroke is what gets undone', () => {
		const ed = new EditorState(testDoc());
		ed.beginStroke(1);
		ed.paint([0, 1], 4);
		ed.undo();
		expect(tile(ed, 'ground').data.slice(0, 2)).toEqual([1, 1]);
		expect(ed.canRedo).toBe(true);
	});

	it('makes the collisions layer when the map has none, as its own undo step', () => {
		const doc = testDoc();
		doc.layers = doc.layers.filter((l) => l.name !== 'collisions');
		const ed = new EditorState(doc);
		const id = ed.collisionLayerId();
		const layer = tile(ed, 'collisions');
		expect(layer.id).toBe(id);
		expect(layer.data).toHaveLength(doc.width * doc.height);
		// under the object layers, so zones stay drawn on top
		const names = ed.doc.layers.map((l) => l.name);
		expect(names.indexOf('collisions')).toBeLessThan(names.indexOf('sectors'));
		expect(ed.collisionLayerId()).toBe(id);
		expect(ed.undoLabel).toBe('Add collisions layer');
		ed.paintAll(id, [0, 1], E.collisionGid(ed.doc), 'Paint collisions');
		expect(Array.from(ed.analysis.collision.slice(0, 3))).toEqual([1, 1, 0]);
	});
});

describe('EditorState zones and spawns', () => {
	function town() {
		const ed = new EditorState(testDoc({ width: 12, height: 10 }));
		ed.addZone('sector', 'House', { x: 0, y: 0, w: 6, h: 6 }, 'house');
		ed.addZone('arena', 'kitchen', { x: 1, y: 1, w: 3, h: 3 });
		ed.addZone('object', 'stove', { x: 1, y: 1, w: 1, h: 1 }, 'off');
		ed.addZone('sector', 'Park', { x: 7, y: 0, w: 5, h: 5 });
		return ed;
	}

	it('adds zones that the analysis reads as a tree, each one undo step', () => {
		const ed = town();
		expect(ed.analysis.zones.map((z) => z.address)).toEqual(['House', 'Park', 'House:kitchen', 'House:kitchen:stove']);
		expect(ed.zone('House')?.value).toBe('house');
		expect(ed.zone('House:kitchen:stove')?.value).toBe('off');
		expect(ed.undoLabel).toBe('Add sector "Park"');
		ed.undo();
		expect(ed.zone('Park')).toBeUndefined();
	});

	it('returns the new object id and refuses bad names and empty rectangles', () => {
		const ed = new EditorState(testDoc());
		const id = ed.addZone('sector', 'A', { x: 0, y: 0, w: 2, h: 2 });
		expect(objects(ed, 'sectors').map((o) => o.id)).toEqual([id]);
		expect(ed.addZone('sector', 'a:b', { x: 0, y: 0, w: 2, h: 2 })).toBeUndefined();
		expect(ed.message).toMatch(/cannot contain ":"/);
		expect(ed.addZone('sector', 'B', { x: 0, y: 0, w: 0, h: 2 })).toBeUndefined();
		expect(ed.message).toMatch(/at least one tile/);
		expect(objects(ed, 'sectors')).toHaveLength(1);
	});

	it('renames a zone, keeping it selected under its new address', () => {
		const ed = town();
		const told: unknown[] = [];
		ed.onZoneRenamed = (r) => told.push(r);
		ed.selection = { kind: 'zone', address: 'House:kitchen', zoneKind: 'arena' };
		const ids = ed.zone('House:kitchen')!.ids;
		expect(ed.renameZone('House:kitchen', ' galley ')).toBe(true);
		// the page is told, so it can offer to update what names the arena
		expect(told).toEqual([{ kind: 'arena', from: 'House:kitchen', to: 'House:galley', ids }]);
		expect(ed.selection).toEqual({ kind: 'zone', address: 'House:galley', zoneKind: 'arena' });
		expect(ed.zone('House:galley:stove')).toBeDefined();
		expect(ed.renameZone('House:galley', '')).toBe(false);
		expect(ed.message).toBe('a zone needs a name');
		expect(told).toHaveLength(1);
		ed.undo();
		expect(ed.zone('House:kitchen')).toBeDefined();
	});

	it('sets a sector kind and an object state, and refuses a value on an arena', () => {
		const ed = town();
		expect(ed.setZoneValue('Park', 'park')).toBe(true);
		expect(ed.zone('Park')?.value).toBe('park');
		expect(getProperty(objects(ed, 'sectors').find((o) => o.name === 'Park')!.properties, 'kind')).toBe('park');
		expect(ed.setZoneValue('House:kitchen:stove', 'on')).toBe(true);
		expect(ed.zone('House:kitchen:stove')?.value).toBe('on');
		expect(ed.setZoneValue('House:kitchen', 'x')).toBe(false);
		expect(ed.message).toMatch(/arenas have no value/);
	});

	it('deletes a zone with everything inside it in one undoable step', () => {
		const ed = town();
		ed.selection = { kind: 'zone', address: 'House', zoneKind: 'sector' };
		expect(ed.deleteZone('House')).toBe(true);
		expect(ed.selection).toBeNull();
		expect(ed.analysis.zones.map((z) => z.address)).toEqual(['Park']);
		expect(objects(ed, 'arenas')).toHaveLength(0);
		expect(objects(ed, 'objects')).toHaveLength(0);
		ed.undo();
		expect(ed.analysis.zones).toHaveLength(4);
	});

	it('moves a zone rectangle as one step through edit()', () => {
		const ed = town();
		const park = ed.zone('Park')!;
		expect(ed.edit('Move sector "Park"', (s) => E.setObjectRect(s, ed.doc, park.ids[0], { x: 6, y: 5, w: 5, h: 5 }))).toBe(true);
		expect(ed.zone('Park')?.rects).toEqual([{ x: 6, y: 5, w: 5, h: 5 }]);
		ed.undo();
		expect(ed.zone('Park')?.rects).toEqual([{ x: 7, y: 0, w: 5, h: 5 }]);
	});

	it('adds, renames, moves and deletes spawn points', () => {
		const ed = town();
		const id = ed.addSpawn('anna', 2, 3)!;
		expect(E.spawnsOf(ed.doc)).toEqual([{ id, name: 'anna', x: 2, y: 3 }]);
		expect(ed.analysis.spawns.anna).toEqual({ x: 2, y: 3 });
		const other = ed.addSpawn('ben', 4, 4)!;
		expect(ed.addSpawn('ben', 5, 5)).toBeUndefined();
		expect(ed.message).toBe('there is already a spawn point "ben"');
		const told: unknown[] = [];
		ed.onZoneRenamed = (r) => told.push(r);
		expect(ed.renameSpawn(other, 'anna')).toBe(false);
		expect(ed.renameSpawn(other, 'carl')).toBe(true);
		expect(told).toEqual([{ kind: 'spawn', from: 'ben', to: 'carl', ids: [other] }]);
		expect(ed.moveSpawn(id, 8, 1)).toBe(true);
		expect(ed.moveSpawn(id, 8, 1)).toBe(false);
		expect(E.spawnsOf(ed.doc).map((s) => [s.name, s.x, s.y])).toEqual([
			['anna', 8, 1],
			['carl', 4, 4]
		]);
		ed.selection = { kind: 'spawn', id };
		expect(ed.deleteSpawn(id)).toBe(true);
		expect(ed.selection).toBeNull();
		expect(ed.namesOf('spawn')).toEqual(['carl']);
		ed.undo();
		expect(ed.namesOf('spawn')).toEqual(['anna', 'carl']);
	});

	it('picks fresh names that are not taken', () => {
		const ed = town();
		expect(E.freshName('new sector', ed.namesOf('sector'))).toBe('new sector');
		ed.addZone('sector', 'new sector', { x: 0, y: 7, w: 2, h: 2 });
		ed.addZone('sector', 'new sector 2', { x: 3, y: 7, w: 2, h: 2 });
		expect(E.freshName('new sector', ed.namesOf('sector'))).toBe('new sector 3');
	});
});

describe('EditorState layers', () => {
	it('adds a layer above another, renames, moves, hides and deletes it, all undoable', () => {
		const ed = new EditorState(testDoc());
		const names = () => ed.doc.layers.map((l) => l.name);
		let id = 0;
		ed.edit('Add tile layer', (s) => {
			const r = E.addLayer(s, ed.doc, 'tile', 'trees', 1);
			id = r.id;
			return r.shape;
		});
		expect(names().slice(0, 3)).toEqual(['ground', 'trees', 'collisions']);
		expect(tile(ed, 'trees').data.every((g) => g === 0)).toBe(true);
		expect(ed.edit('Rename', (s) => E.renameLayer(s, id, 'ground'))).toBe(false);
		expect(ed.message).toBe('there is already a layer named "ground"');
		expect(ed.edit('Rename', (s) => E.renameLayer(s, id, 'shrubs'))).toBe(true);
		expect(ed.edit('Move down', (s) => E.moveLayer(s, id, -1))).toBe(true);
		expect(names()[0]).toBe('shrubs');
		// already at the bottom: no step recorded
		const steps = ed.undoLabel;
		expect(ed.edit('Move down', (s) => E.moveLayer(s, id, -1))).toBe(false);
		expect(ed.undoLabel).toBe(steps);
		expect(ed.edit('Hide', (s) => E.setLayerVisible(s, id, false))).toBe(true);
		expect(tile(ed, 'shrubs').visible).toBe(false);
		ed.activeLayerId = id;
		expect(ed.edit('Delete', (s) => E.deleteLayer(s, id))).toBe(true);
		expect(names()).not.toContain('shrubs');
		// the active layer is gone, so another one is active
		expect(ed.activeLayerId).not.toBe(id);
		expect(ed.doc.layers.some((l) => l.id === ed.activeLayerId)).toBe(true);
		ed.undo();
		ed.undo();
		ed.undo();
		expect(names().slice(0, 3)).toEqual(['ground', 'shrubs', 'collisions']);
		expect(tile(ed, 'shrubs').visible).toBe(true);
	});

	it('keeps painted tiles of a deleted layer when the deletion is undone', () => {
		const ed = new EditorState(testDoc());
		ed.paintAll(1, [3], 9, 'Paint');
		ed.edit('Delete', (s) => E.deleteLayer(s, 1));
		ed.undo();
		expect(tile(ed, 'ground').data[3]).toBe(9);
		ed.undo();
		expect(tile(ed, 'ground').data[3]).toBe(1);
	});

	it('uses the most common collision gid for the collision brush', () => {
		const ed = new EditorState(testDoc());
		expect(E.collisionGid(ed.doc)).toBe(1);
		const coll = tile(ed, 'collisions');
		coll.data[0] = 40;
		coll.data[1] = 40;
		coll.data[2] = 3;
		expect(E.collisionGid(ed.doc)).toBe(40);
	});
});
