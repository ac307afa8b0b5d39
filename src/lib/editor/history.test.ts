import { describe, expect, it } from 'vitest';
import { EditorState } from './editor.svelte';
import { History } from './history.svelte';
import { testDoc } from './testing';
import type { DocTileLayer } from '../world/doc';

/** A history over a list of numbers: each entry adds `n` to the list's end. */
function numbers(limit?: number) {
	const list: number[] = [];
	type Add = { label: string; n: number[] };
	const h = new History<Add>(
		(e, side) => {
			if (side === 'after') list.push(...e.n);
			else list.splice(list.length - e.n.length, e.n.length);
		},
		(entries, label) => ({ label, n: entries.flatMap((e) => e.n) }),
		limit
	);
	const add = (n: number) => {
		list.push(n);
		h.push({ label: `add ${n}`, n: [n] });
	};
	return { h, list, add };
}

describe('History', () => {
	it('keeps at most `limit` steps: the oldest fall off and cannot be undone', () => {
		const { h, list, add } = numbers(3);
		for (let n = 1; n <= 5; n++) add(n);
		expect(h.size).toBe(3);
		expect(h.labels).toEqual(['add 3', 'add 4', 'add 5']);
		while (h.undo());
		expect(list).toEqual([1, 2]);
		expect(h.canUndo).toBe(false);
		while (h.redo());
		expect(list).toEqual([1, 2, 3, 4, 5]);
	});

	it('knows the saved point even after it fell off the history', () => {
		const { h, add } = numbers(2);
		add(1);
		h.markSaved();
		expect(h.dirty).toBe(false);
		add(2);
		add(3);
		expect(h.dirty).toBe(true);
		// "add 1" fell off, but the state after it is the history's bottom: undoing reaches it
		while (h.undo());
		expect(h.dirty).toBe(false);
		while (h.redo());
		add(4);
		// now the saved state is below the bottom: undoing everything no longer reaches it
		while (h.undo());
		expect(h.dirty).toBe(true);
		h.markSaved();
		expect(h.dirty).toBe(false);
	});

	it('refuses a limit below one', () => {
		expect(() => new History(() => {}, (e, label) => ({ label }), 0)).toThrow(/at least 1/);
	});

	it('squashes everything since a mark into one step with one label', () => {
		const { h, list, add } = numbers();
		add(1);
		const m = h.mark('gesture');
		add(2);
		add(3);
		expect(h.squashToMark(m, 'two and three')).toBe(2);
		expect(h.labels).toEqual(['add 1', 'two and three']);
		h.undo();
		expect(list).toEqual([1]);
		h.redo();
		expect(list).toEqual([1, 2, 3]);
		expect(h.hasMark(m)).toBe(false);
	});

	it('bails to a mark: undoes what came after it, with no redo', () => {
		const { h, list, add } = numbers();
		add(1);
		const m = h.mark();
		add(2);
		add(3);
		expect(h.bailToMark(m)).toBe(2);
		expect(list).toEqual([1]);
		expect(h.canRedo).toBe(false);
		expect(h.undoLabel).toBe('add 1');
		expect(() => h.bailToMark(m)).toThrow(/no history mark/);
	});

	it('bails everything when the mark fell off a bounded history', () => {
		const { h, list, add } = numbers(2);
		const m = h.mark();
		for (let n = 1; n <= 4; n++) add(n);
		expect(h.bailToMark(m)).toBe(2);
		expect(list).toEqual([1, 2]);
	});
});

describe('EditorState history', () => {
	const ground = (ed: EditorState) => ed.doc.layers.find((l) => l.name === 'ground') as DocTileLayer;

	it('is bounded by historyLimit', () => {
		const ed = new EditorState(testDoc(), { historyLimit: 2 });
		for (let i = 0; i < 4; i++) ed.paintAll(1, [i], 5, `Paint ${i}`);
		expect(ed.history.labels).toEqual(['Paint 2', 'Paint 3']);
		ed.undo();
		ed.undo();
		ed.undo();
		expect(ground(ed).data.slice(0, 4)).toEqual([5, 5, 1, 1]);
	});

	it('squashes a structural edit and a stroke into one undo step that restores both', () => {
		const ed = new EditorState(testDoc());
		const m = ed.mark();
		ed.addZone('sector', 'Park', { x: 0, y: 0, w: 2, h: 2 });
		ed.paintAll(1, [0, 1], 9, 'Paint');
		ed.squashToMark(m, 'Park and paint');
		expect(ed.undoLabel).toBe('Park and paint');
		ed.undo();
		expect(ed.zone('Park')).toBeUndefined();
		expect(ground(ed).data.slice(0, 2)).toEqual([1, 1]);
		expect(ed.canUndo).toBe(false);
		ed.redo();
		expect(ed.zone('Park')).toBeDefined();
		expect(ground(ed).data.slice(0, 2)).toEqual([9, 9]);
	});

	it('bails to a mark, taking back a stroke still in progress', () => {
		const ed = new EditorState(testDoc());
		const m = ed.mark();
		ed.beginStroke(1);
		ed.paint([0, 1, 2], 4);
		ed.bailToMark(m);
		expect(ed.painting).toBe(false);
		expect(ground(ed).data.slice(0, 3)).toEqual([1, 1, 1]);
		expect(ed.canUndo).toBe(false);
		expect(ed.dirty).toBe(false);
	});
});
