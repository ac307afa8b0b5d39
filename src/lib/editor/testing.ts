// Small map documents for the editor's tests and benchmark: a ground layer, a hidden collisions
// layer and the four zone/spawn object layers, with one 32 px tileset of 160 tiles.

import type { KeyEvent } from './keymap';
import type { DocLayer, DocObject, DocTileLayer, MapDoc } from '../world/doc';

interface TestDocOptions {
	width?: number;
	height?: number;
	/** extra visual tile layers above the ground (empty) */
	extraTileLayers?: number;
	/** gid the ground is filled with */
	ground?: number;
}

function tileLayer(id: number, name: string, data: number[], visible = true): DocTileLayer {
	return { kind: 'tile', id, name, visible, opacity: 1, attrs: {}, properties: [], encoding: 'csv', data };
}

export function rectObject(id: number, name: string, x: number, y: number, w: number, h: number, tile = 32): DocObject {
	return { id, name, x: x * tile, y: y * tile, width: w * tile, height: h * tile, attrs: {}, properties: [], shape: [] };
}

export function testDoc(opts: TestDocOptions = {}): MapDoc {
	const width = opts.width ?? 10;
	const height = opts.height ?? 8;
	const n = width * height;
	const layers: DocLayer[] = [tileLayer(1, 'ground', new Array<number>(n).fill(opts.ground ?? 1))];
	let id = 2;
	for (let k = 0; k < (opts.extraTileLayers ?? 0); k++) layers.push(tileLayer(id++, `detail ${k + 1}`, new Array<number>(n).fill(0)));
	layers.push(tileLayer(id++, 'collisions', new Array<number>(n).fill(0), false));
	for (const name of ['sectors', 'arenas', 'objects', 'spawns'])
		layers.push({ kind: 'object', id: id++, name, visible: true, opacity: 1, attrs: {}, properties: [], objects: [] });
	return {
		file: 'test.tmx',
		width,
		height,
		tileWidth: 32,
		tileHeight: 32,
		nextLayerId: id,
		nextObjectId: 1,
		attrs: {},
		properties: [],
		tilesets: [
			{
				firstGid: 1,
				source: 'tilesets/town.tsx',
				view: {
					name: 'town',
					firstGid: 1,
					image: 'tilesets/town.png',
					imageWidth: 512,
					imageHeight: 320,
					tileWidth: 32,
					tileHeight: 32,
					columns: 16,
					tileCount: 160,
					margin: 0,
					spacing: 0
				}
			}
		],
		layers,
		extra: []
	};
}

/** A key press as the editor's key listener sees it; `prevented` tells whether it was handled. */
export function key(k: string, mods: Partial<KeyEvent> = {}): KeyEvent & { prevented: boolean } {
	const e = {
		key: k,
		ctrlKey: false,
		metaKey: false,
		shiftKey: false,
		altKey: false,
		repeat: false,
		defaultPrevented: false,
		target: null,
		prevented: false,
		preventDefault() {
			e.prevented = true;
		},
		...mods
	};
	return e;
}

/** Where a key is typed: the map view (its canvas), the page with nothing focused, a text field or a checkbox. */
export const targets = {
	map: { tagName: 'CANVAS', getAttribute: (name: string) => (name === 'data-editor-keys' ? 'map' : null) } as unknown as EventTarget,
	body: { tagName: 'BODY', getAttribute: () => null } as unknown as EventTarget,
	field: { tagName: 'INPUT', type: 'text', isContentEditable: false } as unknown as EventTarget,
	checkbox: { tagName: 'INPUT', type: 'checkbox', isContentEditable: false } as unknown as EventTarget
};
