// How the map editor shows the document, shared by the canvas, the toolbar and the keymap:
// pan and zoom, the grid / zone / collision overlays, the kind of zone the zone tool draws and
// a status line. One per EditorState (`viewOf`), so every part of the editor sees the same view
// without the page passing it around. Nothing here is part of the document or its history.

import type { MapDoc, ZoneKind } from '../world/doc';
import { MapViewport, ZOOM_STEP } from '../shared/viewport.svelte';
import type { EditorState } from './editor.svelte';

export class EditorView {
	readonly viewport = new MapViewport();
	showGrid = $state(true);
	showZones = $state(true);
	/** the collision overlay (always shown while the collision tool is active) */
	showCollisions = $state(false);
	/** what the zone tool draws */
	zoneKind = $state<ZoneKind>('sector');
	/** a short note on the last tool action (what the eyedropper picked) */
	status = $state<string | null>(null);

	zoomIn(): void {
		this.viewport.zoomAt(ZOOM_STEP);
	}

	zoomOut(): void {
		this.viewport.zoomAt(1 / ZOOM_STEP);
	}

	/** Shows the whole map. */
	fit(doc: Pick<MapDoc, 'width' | 'height' | 'tileWidth' | 'tileHeight'>): void {
		this.viewport.fit(doc.width * doc.tileWidth, doc.height * doc.tileHeight);
	}
}

const views = new WeakMap<EditorState, EditorView>();

/** The view of `editor`, made on first use. */
export function viewOf(editor: EditorState): EditorView {
	let view = views.get(editor);
	if (!view) {
		view = new EditorView();
		views.set(editor, view);
	}
	return view;
}
