// The graph's key settings go through @xyflow/svelte's key handler into @svelte-put/shortcut,
// which warns on every key press when a trigger has no key. This builds the triggers the way the
// key handler does (KeyHandler.svelte: a null key becomes the empty string) and presses V.

import { shortcut } from '@svelte-put/shortcut';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GRAPH_DELETE_KEY } from './graph-keys';

type Key = string | { key: string; modifier?: string[] };

function triggers(setting: Key | Key[] | null | undefined) {
	const keys = Array.isArray(setting) ? setting : [setting];
	return keys.map((k) => {
		const key = k === null || k === undefined ? '' : typeof k === 'object' ? k.key : k;
		return { key, modifier: typeof k === 'object' && k ? (k.modifier ?? []) : [], enabled: key !== null, callback: () => {} };
	});
}

function pressV(setting: Key | Key[] | null): unknown[][] {
	const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
	const target = new EventTarget();
	const action = shortcut(target as unknown as HTMLElement, { trigger: triggers(setting) as Parameters<typeof shortcut>[1]['trigger'], type: 'keydown' });
	target.dispatchEvent(Object.assign(new Event('keydown'), { key: 'v', code: 'KeyV', metaKey: false, altKey: false, shiftKey: false, ctrlKey: false }));
	action?.destroy?.();
	return warn.mock.calls;
}

afterEach(() => vi.restoreAllMocks());

describe('the environment graph keys', () => {
	it('turn the delete key off without a warning on V', () => {
		expect(pressV(GRAPH_DELETE_KEY as Key[])).toEqual([]);
	});

	it('(a null delete key, as before, warned on every key)', () => {
		expect(pressV(null).flat().join(' ')).toMatch(/Trigger should have either `key` or `code`/);
	});
});
