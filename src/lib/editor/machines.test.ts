// Every map tool driven through the editor core, as the canvas drives it, without a browser:
// pointer positions on the view go in, the document, the history, the selection and the
// preview come out.

import { describe, expect, it } from 'vitest';
import type { DocTileLayer } from '../world/doc';
import { commandsOf } from './commands';
import { EditorState } from './editor.svelte';
import { EditorKeys } from './keymap';
import { toolsOf } from './runner.svelte';
import { key, testDoc } from './testing';
import { viewOf } from './view.svelte';

const layer = (ed: EditorState, name: string) => ed.doc.layers.find((l) => l.name === name) as DocTileLayer | undefined;
const cell = (ed: EditorState, name: string, x: number, y: number) => layer(ed, name)!.data[y * ed.doc.width + x];
const row = (ed: EditorState, name: string, y: number, x0: number, x1: number) =>
	Array.from({ length: x1 - x0 + 1 }, (_, k) => cell(ed, name, x0 + k, y));

function setup(tool: Parameters<typeof toolsOf>[0]['tool'], doc = testDoc()) {
	const ed = new EditorState(doc);
	ed.tool = tool;
	ed.brushGid = 7;
	return { ed, tools: toolsOf(ed), view: viewOf(ed) };
}

describe('brush', () => {
	it('paints every tile a drag passes over as one undo step', () => {
		const { ed, tools } = setup('brush');
		tools.pointerDown(tools.screenOf(1, 1));
		expect(tools.state).toBe('brush.painting');
		// a fast move skips tiles; the stroke still covers them
		tools.pointerMove(tools.screenOf(5, 1));
		tools.pointerUp(tools.screenOf(5, 1));
		expect(tools.state).toBe('brush.idle');
		expect(row(ed, 'ground', 1, 0, 6)).toEqual([1, 7, 7, 7, 7, 7, 1]);
		expect(ed.history.labels).toEqual(['Paint']);
		ed.undo();
		expect(row(ed, 'ground', 1, 1, 5)).toEqual([1, 1, 1, 1, 1]);
	});

	it('erases with the right button or Alt', () => {
		const { ed, tools } = setup('brush');
		tools.drag({ x: 0, y: 0 }, { x: 1, y: 0 }, { button: 2 });
		tools.drag({ x: 0, y: 1 }, { x: 0, y: 1 }, { alt: true });
		expect(row(ed, 'ground', 0, 0, 2)).toEqual([0, 0, 1]);
		expect(cell(ed, 'ground', 0, 1)).toBe(0);
		expect(ed.undoLabel).toBe('Erase');
	});

	it('takes the stroke back when cancelled (Escape), leaving no history', () => {
		const { ed, tools } = setup('brush');
		tools.pointerDown(tools.screenOf(2, 2));
		tools.pointerMove(tools.screenOf(4, 2));
		expect(new EditorKeys(commandsOf(ed)).keydown(key('Escape'))).toBe(true);
		expect(tools.state).toBe('brush.idle');
		expect(row(ed, 'ground', 2, 2, 4)).toEqual([1, 1, 1]);
		expect(ed.canUndo).toBe(false);
		// the pointer let go after the cancel does nothing
		tools.pointerUp(tools.screenOf(4, 2));
		expect(ed.canUndo).toBe(false);
	});

	it('refuses an object layer, says why, and starts no gesture', () => {
		const { ed, tools } = setup('brush');
		ed.activeLayerId = ed.doc.layers.find((l) => l.name === 'sectors')!.id;
		expect(tools.pointerDown(tools.screenOf(1, 1))).toBe(false);
		expect(tools.busy).toBe(false);
		expect(ed.message).toMatch(/not a tile layer/);
	});

	it('ignores a press off the map', () => {
		const { ed, tools } = setup('brush');
		expect(tools.pointerDown(tools.screenOf(-2, 3))).toBe(false);
		expect(ed.canUndo).toBe(false);
	});
});

describe('eraser', () => {
	it('clears the tiles of the active layer', () => {
		const { ed, tools } = setup('eraser');
		tools.drag({ x: 3, y: 3 }, { x: 3, y: 5 });
		expect([3, 4, 5].map((y) => cell(ed, 'ground', 3, y))).toEqual([0, 0, 0]);
		expect(ed.history.labels).toEqual(['Erase']);
	});
});

describe('collision', () => {
	it('blocks tiles on the collisions layer, and Alt unblocks them', () => {
		const { ed, tools } = setup('collision');
		tools.drag({ x: 2, y: 0 }, { x: 2, y: 3 });
		expect([0, 1, 2, 3].map((y) => cell(ed, 'collisions', 2, y) !== 0)).toEqual([true, true, true, true]);
		tools.drag({ x: 2, y: 1 }, { x: 2, y: 1 }, { alt: true });
		expect(cell(ed, 'collisions', 2, 1)).toBe(0);
		expect(ed.history.labels).toEqual(['Paint collisions', 'Erase collisions']);
	});

	it('makes the collisions layer on a map without one, in the same undo step as the stroke', () => {
		const doc = testDoc();
		doc.layers = doc.layers.filter((l) => l.name !== 'collisions');
		const { ed, tools } = setup('collision', doc);
		tools.drag({ x: 1, y: 1 }, { x: 2, y: 1 });
		expect(cell(ed, 'collisions', 1, 1)).not.toBe(0);
		expect(ed.history.labels).toEqual(['Paint collisions']);
		ed.undo();
		expect(layer(ed, 'collisions')).toBeUndefined();
		ed.redo();
		expect(cell(ed, 'collisions', 2, 1)).not.toBe(0);
	});

	it('cancelled, leaves neither the stroke nor the new layer', () => {
		const doc = testDoc();
		doc.layers = doc.layers.filter((l) => l.name !== 'collisions');
		const { ed, tools } = setup('collision', doc);
		tools.pointerDown(tools.screenOf(1, 1));
		expect(tools.cancel()).toBe(true);
		expect(layer(ed, 'collisions')).toBeUndefined();
		expect(ed.canUndo).toBe(false);
	});
});

describe('rect', () => {
	it('shows the rectangle while dragging and fills it on release', () => {
		const { ed, tools } = setup('rect');
		tools.pointerDown(tools.screenOf(1, 1));
		tools.pointerMove(tools.screenOf(3, 2));
		expect(tools.state).toBe('rect.dragging');
		expect(tools.ghost).toEqual({ rect: { x: 1, y: 1, w: 3, h: 2 }, kind: 'paint' });
		// the map is untouched until release
		expect(cell(ed, 'ground', 2, 2)).toBe(1);
		tools.pointerUp(tools.screenOf(3, 2));
		expect(tools.ghost).toBeNull();
		expect(row(ed, 'ground', 1, 0, 4)).toEqual([1, 7, 7, 7, 1]);
		expect(row(ed, 'ground', 2, 0, 4)).toEqual([1, 7, 7, 7, 1]);
		expect(ed.history.labels).toEqual(['Rectangle']);
	});

	it('keeps the rectangle on the map when the pointer leaves it, and draws nothing when cancelled', () => {
		const { ed, tools } = setup('rect');
		tools.pointerDown(tools.screenOf(8, 6));
		tools.pointerMove(tools.screenOf(20, 20));
		expect(tools.ghost?.rect).toEqual({ x: 8, y: 6, w: 2, h: 2 });
		tools.cancel();
		expect(tools.ghost).toBeNull();
		expect(ed.canUndo).toBe(false);
	});
});

describe('fill', () => {
	it('fills the connected area of the same tile in one click', () => {
		const { ed, tools } = setup('fill');
		ed.paintAll(1, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2, 'Paint');
		tools.click(4, 4);
		expect(tools.state).toBe('fill.idle');
		expect(cell(ed, 'ground', 4, 4)).toBe(7);
		expect(cell(ed, 'ground', 9, 7)).toBe(7);
		expect(row(ed, 'ground', 0, 0, 2)).toEqual([2, 2, 2]);
		expect(ed.undoLabel).toBe('Fill');
	});
});

describe('eyedropper', () => {
	it('picks the topmost visible tile and says where it came from', () => {
		const { ed, tools, view } = setup('eyedropper', testDoc({ extraTileLayers: 1 }));
		ed.paintAll(2, [1 * 10 + 3], 42, 'Paint');
		tools.click(3, 1);
		expect(ed.brushGid).toBe(42);
		expect(view.status).toBe('Picked tile 42 from layer "detail 1"');
		tools.click(20, 1);
		expect(view.status).toBe('No tile here to pick');
		expect(tools.cursor).toBe('copy');
	});
});

describe('zone', () => {
	it('draws a sector, then an arena inside it, each named freshly and selected', () => {
		const { ed, tools, view } = setup('zone');
		tools.drag({ x: 1, y: 1 }, { x: 6, y: 5 });
		expect(ed.zone('new sector')?.rects).toEqual([{ x: 1, y: 1, w: 6, h: 5 }]);
		expect(ed.selection).toEqual({ kind: 'zone', address: 'new sector', zoneKind: 'sector' });
		view.zoneKind = 'arena';
		tools.pointerDown(tools.screenOf(2, 2));
		tools.pointerMove(tools.screenOf(4, 3));
		expect(tools.ghost).toEqual({ rect: { x: 2, y: 2, w: 3, h: 2 }, kind: 'arena' });
		tools.pointerUp(tools.screenOf(4, 3));
		expect(ed.selection).toMatchObject({ address: 'new sector:new arena' });
		expect(ed.history.labels).toEqual(['Add sector "new sector"', 'Add arena "new arena"']);
	});
});

describe('spawn', () => {
	it('places a spawn point on a click and selects it', () => {
		const { ed, tools } = setup('spawn');
		tools.click(4, 2);
		tools.click(5, 2);
		expect(ed.namesOf('spawn')).toEqual(['new spawn', 'new spawn 2']);
		expect(ed.selection).toMatchObject({ kind: 'spawn' });
		expect(ed.history.size).toBe(2);
	});
});

describe('select', () => {
	function town() {
		const s = setup('select');
		s.ed.addZone('sector', 'Park', { x: 1, y: 1, w: 4, h: 4 });
		s.ed.addZone('arena', 'Pond', { x: 2, y: 2, w: 2, h: 2 }, undefined);
		s.ed.addSpawn('anna', 8, 6);
		s.ed.selection = null;
		return s;
	}

	it('selects the innermost zone under a click, and nothing on empty ground', () => {
		const { ed, tools } = town();
		tools.click(2, 2);
		expect(ed.selection).toEqual({ kind: 'zone', address: 'Park:Pond', zoneKind: 'arena' });
		tools.click(1, 1);
		expect(ed.selection).toMatchObject({ address: 'Park' });
		tools.click(7, 1);
		expect(ed.selection).toBeNull();
		expect(ed.history.size).toBe(3);
	});

	it('moves a sector with the arena inside it, as one step', () => {
		const { ed, tools } = town();
		tools.pointerDown(tools.screenOf(1, 1));
		expect(tools.state).toBe('select.pointing');
		tools.pointerMove(tools.screenOf(3, 2));
		expect(tools.state).toBe('select.translating');
		expect(tools.ghost?.rect).toEqual({ x: 3, y: 2, w: 4, h: 4 });
		tools.pointerUp(tools.screenOf(3, 2));
		expect(ed.zone('Park')?.rects).toEqual([{ x: 3, y: 2, w: 4, h: 4 }]);
		expect(ed.zone('Park:Pond')?.rects).toEqual([{ x: 4, y: 3, w: 2, h: 2 }]);
		expect(ed.undoLabel).toBe('Move sector "Park"');
		expect(ed.selection).toMatchObject({ address: 'Park' });
	});

	it('resizes the selected zone by a corner handle', () => {
		const { ed, tools } = town();
		tools.click(1, 1);
		// the south-east corner of Park is the grid point (5, 5)
		const corner = { sx: 5 * 32, sy: 5 * 32 };
		expect(tools.pointerDown(corner)).toBe(true);
		expect(tools.state).toBe('select.resizing');
		tools.pointerMove({ sx: 7 * 32 + 3, sy: 6 * 32 - 4 });
		tools.pointerUp({ sx: 7 * 32 + 3, sy: 6 * 32 - 4 });
		expect(ed.zone('Park')?.rects).toEqual([{ x: 1, y: 1, w: 6, h: 5 }]);
		expect(ed.undoLabel).toBe('Resize sector "Park"');
	});

	it('drags a spawn point to another tile', () => {
		const { ed, tools } = town();
		tools.drag({ x: 8, y: 6 }, { x: 9, y: 7 });
		expect(ed.selection).toMatchObject({ kind: 'spawn' });
		expect(ed.undoLabel).toBe('Move spawn "anna"');
	});

	it('a click without a move changes nothing, and a cancelled move leaves the zone where it was', () => {
		const { ed, tools } = town();
		tools.click(1, 1);
		expect(ed.history.size).toBe(3);
		tools.pointerDown(tools.screenOf(1, 1));
		tools.pointerMove(tools.screenOf(4, 4));
		expect(tools.cancel()).toBe(true);
		tools.pointerUp(tools.screenOf(4, 4));
		expect(ed.zone('Park')?.rects).toEqual([{ x: 1, y: 1, w: 4, h: 4 }]);
		expect(ed.history.size).toBe(3);
	});
});

describe('pan and the hand', () => {
	it('the pan tool drags the view', () => {
		const { ed, tools, view } = setup('pan');
		tools.pointerDown({ sx: 100, sy: 100 });
		expect(tools.state).toBe('hand.panning');
		expect(tools.cursor).toBe('grabbing');
		tools.pointerMove({ sx: 130, sy: 90 });
		tools.pointerUp({ sx: 130, sy: 90 });
		expect([view.viewport.offsetX, view.viewport.offsetY]).toEqual([30, -10]);
		expect(ed.canUndo).toBe(false);
	});

	it('the middle button, or space held, pans whatever the tool, without painting', () => {
		const { ed, tools, view } = setup('brush');
		tools.pointerDown({ sx: 10, sy: 10, button: 1 });
		tools.pointerMove({ sx: 20, sy: 10 });
		tools.pointerUp({ sx: 20, sy: 10 });
		tools.spaceHeld = true;
		expect(tools.state).toBe('hand.idle');
		tools.drag({ x: 1, y: 1 }, { x: 2, y: 1 });
		tools.spaceHeld = false;
		expect(view.viewport.offsetX).toBe(10 + 32);
		expect(ed.canUndo).toBe(false);
		expect(tools.state).toBe('brush.idle');
	});
});

describe('the runner', () => {
	it('keeps a gesture with the tool that began it when the tool changes mid-drag', () => {
		const { ed, tools } = setup('brush');
		tools.pointerDown(tools.screenOf(0, 0));
		commandsOf(ed).run('tool.zone');
		expect(tools.state).toBe('brush.painting');
		tools.pointerMove(tools.screenOf(2, 0));
		tools.pointerUp(tools.screenOf(2, 0));
		expect(row(ed, 'ground', 0, 0, 2)).toEqual([7, 7, 7]);
		expect(tools.state).toBe('zone.idle');
	});

	it('reports the tile under the pointer, and none off the map', () => {
		const { tools } = setup('brush');
		tools.pointerMove(tools.screenOf(3, 4));
		expect(tools.hover).toEqual({ x: 3, y: 4 });
		tools.pointerMove(tools.screenOf(30, 4));
		expect(tools.hover).toBeNull();
	});

	it('maps the view to tiles through the zoom and pan', () => {
		const { tools, view } = setup('brush');
		view.viewport.scale = 2;
		view.viewport.offsetX = 10;
		expect(tools.point({ sx: 10 + 64 * 3 + 1, sy: 64 * 2 + 1 }).tile).toEqual({ x: 3, y: 2 });
		expect(tools.screenOf(3, 2)).toEqual({ sx: 10 + 64 * 3.5, sy: 64 * 2.5 });
	});
});
