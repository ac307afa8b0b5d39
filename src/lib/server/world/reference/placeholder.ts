// A stand-in for a tileset image that is missing (the reference town's tile art is a paid asset
// pack a checkout may lack): a PNG of the size the map declares, each tile a flat shade of the
// tileset's own hue (the same tile always gets the same shade) with a dotted edge, so the map
// still shows where its grounds, walls and furniture are. An indexed PNG (one byte a pixel).

import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
	const t = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		t[n] = c >>> 0;
	}
	return t;
})();

function crc32(bytes: Uint8Array): number {
	let c = 0xffffffff;
	for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
	const out = Buffer.alloc(12 + data.length);
	out.writeUInt32BE(data.length, 0);
	out.write(type, 4, 'latin1');
	Buffer.from(data).copy(out, 8);
	out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
	return out;
}

/** FNV-1a */
function hash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

const SHADES = 250;

/**
 * Shades of one hue (the tileset's: its tiles look alike, and unlike another tileset's), light
 * to dark, then the edge colour (index SHADES + 1), a little darker than the darkest shade.
 */
function palette(hue: number): Buffer {
	const p = Buffer.alloc((SHADES + 2) * 3);
	const rgb = (h: number, s: number, l: number): [number, number, number] => {
		const c = (1 - Math.abs(2 * l - 1)) * s;
		const hh = (((h % 360) + 360) % 360) / 60;
		const x = c * (1 - Math.abs((hh % 2) - 1));
		const [r, g, b] = hh < 1 ? [c, x, 0] : hh < 2 ? [x, c, 0] : hh < 3 ? [0, c, x] : hh < 4 ? [0, x, c] : hh < 5 ? [x, 0, c] : [c, 0, x];
		const m = l - c / 2;
		return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
	};
	for (let k = 0; k <= SHADES; k++) p.set(rgb(hue + ((k % 7) - 3) * 4, 0.3, 0.72 - 0.3 * (k / SHADES)), k * 3);
	p.set(rgb(hue, 0.3, 0.35), (SHADES + 1) * 3);
	return p;
}

/**
 * The placeholder PNG of a `width` x `height` px tileset image cut into `tileWidth` x
 * `tileHeight` px tiles (`margin` and `spacing` as the tileset says), coloured from `seed`.
 */
export function placeholderPng(opts: { width: number; height: number; tileWidth: number; tileHeight: number; margin?: number; spacing?: number; seed: string }): Buffer {
	const { width, height, seed } = opts;
	const tw = Math.max(1, opts.tileWidth);
	const th = Math.max(1, opts.tileHeight);
	const margin = opts.margin ?? 0;
	const step = { x: tw + (opts.spacing ?? 0), y: th + (opts.spacing ?? 0) };
	const columns = Math.max(1, Math.floor((width - margin + (opts.spacing ?? 0)) / step.x));
	const edge = SHADES + 1;
	const base = hash(seed);
	const colour = (col: number, row: number) => 1 + ((base + Math.imul(row * columns + col + 1, 0x9e3779b1)) >>> 0) % SHADES;
	const stride = width + 1;
	const raw = Buffer.alloc(stride * height);
	let prevKey = '';
	for (let y = 0; y < height; y++) {
		const o = y * stride;
		const inTile = y - margin >= 0 ? (y - margin) % step.y : -1;
		const row = y - margin >= 0 ? Math.floor((y - margin) / step.y) : -1;
		const border = inTile === 0 || inTile === th - 1;
		const key = inTile < 0 || inTile >= th ? 'gap' : `${row}:${border}:${inTile % 4 < 2}`;
		if (key === prevKey) {
			raw.copy(raw, o, o - stride, o);
			continue;
		}
		prevKey = key;
		raw[o] = 0; // filter: none
		for (let x = 0; x < width; x++) {
			const inX = x - margin >= 0 ? (x - margin) % step.x : -1;
			const col = x - margin >= 0 ? Math.floor((x - margin) / step.x) : -1;
			let v = 0;
			if (key !== 'gap' && inX >= 0 && inX < tw && col < columns) v = (border && inX % 4 < 2) || ((inX === 0 || inX === tw - 1) && inTile % 4 < 2) ? edge : colour(col, row);
			raw[o + 1 + x] = v;
		}
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 3; // indexed colour
	ihdr[10] = 0;
	ihdr[11] = 0;
	ihdr[12] = 0;
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', ihdr),
		chunk('PLTE', palette(base % 360)),
		chunk('IDAT', deflateSync(raw, { level: 6 })),
		chunk('IEND', new Uint8Array(0))
	]);
}
