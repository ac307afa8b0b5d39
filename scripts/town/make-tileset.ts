// Draws the town tileset (our own procedural pixel art) and writes it as a PNG plus an external
// Tiled tileset (.tsx) whose tiles carry a `name` property.
//
//   npx tsx scripts/town/make-tileset.ts [worldsDir]   (default: worlds/)
//
// writes <worldsDir>/smallville/tilesets/town.{png,tsx} and the same into the-ville-3.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { Canvas, hashString, rng, shade } from './pixels';

export const TILE = 32;
export const COLUMNS = 16;
export const TILESET_NAME = 'town';

export interface Sprite {
	name: string;
	/** size in tiles */
	w: number;
	h: number;
	/** whether the map generator marks it on the collision layer */
	blocks: boolean;
	draw: (c: Canvas, rand: () => number) => void;
}

function sprite(
	name: string,
	blocks: boolean,
	draw: (c: Canvas, rand: () => number) => void,
	w = 1,
	h = 1
): Sprite {
	return { name, w, h, blocks, draw };
}

// ---------------------------------------------------------------------------------------------
// Ground

function grass(c: Canvas, rand: () => number, variant: number): void {
	const base = ['#6aa84f', '#68a44c', '#6caa52', '#66a24a'][variant % 4];
	c.rect(0, 0, TILE, TILE, base);
	c.speckle(0, 0, TILE, TILE, ['#5e9a45', '#78b65b', '#5a9442', '#7cbc60'], 0.22, rand);
	const tufts = 2 + variant;
	for (let i = 0; i < tufts; i++) {
		const x = 2 + Math.floor(rand() * 27);
		const y = 4 + Math.floor(rand() * 25);
		c.px(x, y, '#4e8a38');
		c.px(x + 1, y - 1, '#4e8a38');
		c.px(x + 2, y, '#4e8a38');
		c.px(x + 1, y - 2, '#86c46a');
	}
}

function flowersOn(c: Canvas, rand: () => number, colors: string[], count: number): void {
	for (let i = 0; i < count; i++) {
		const x = 3 + Math.floor(rand() * 26);
		const y = 3 + Math.floor(rand() * 26);
		const col = colors[i % colors.length];
		c.px(x, y + 2, '#3f7a2e');
		c.px(x - 1, y, col);
		c.px(x + 1, y, col);
		c.px(x, y - 1, col);
		c.px(x, y + 1, col);
		c.px(x, y, '#fff2a0');
	}
}

function road(c: Canvas, rand: () => number): void {
	c.rect(0, 0, TILE, TILE, '#5d6064');
	c.speckle(0, 0, TILE, TILE, ['#53565a', '#686b70', '#4d5054'], 0.3, rand);
}

function planksH(c: Canvas, rand: () => number, base: string, rows = 4): void {
	c.rect(0, 0, TILE, TILE, base);
	const step = TILE / rows;
	for (let r = 0; r < rows; r++) {
		const y = r * step;
		c.rect(0, y + step - 1, TILE, 1, shade(base, -0.28));
		c.rect(0, y, TILE, 1, shade(base, 0.12));
		const seam = (r * 13 + 7) % TILE;
		c.rect(seam, y, 1, step - 1, shade(base, -0.22));
		c.speckle(0, y + 1, TILE, step - 2, [shade(base, -0.08), shade(base, 0.06)], 0.12, rand);
	}
}

function squares(c: Canvas, a: string, b: string, grout: string, size: number): void {
	for (let y = 0; y < TILE; y += size) {
		for (let x = 0; x < TILE; x += size) {
			const odd = ((x + y) / size) % 2 === 1;
			c.rect(x, y, size, size, odd ? b : a);
			c.rect(x, y, size, 1, grout);
			c.rect(x, y, 1, size, grout);
		}
	}
}

function carpet(c: Canvas, rand: () => number, base: string): void {
	c.rect(0, 0, TILE, TILE, base);
	c.speckle(0, 0, TILE, TILE, [shade(base, -0.12), shade(base, 0.1)], 0.35, rand);
	for (let i = 2; i < TILE; i += 8) {
		c.px(i, i, shade(base, 0.2));
		c.px(i + 4, (i + 16) % TILE, shade(base, 0.2));
	}
}

// ---------------------------------------------------------------------------------------------
// Walls

function wallTop(c: Canvas): void {
	c.rect(0, 0, TILE, TILE, '#4a3c33');
	c.rect(3, 3, TILE - 6, TILE - 6, '#5d4c40');
	c.rect(3, 3, TILE - 6, 1, '#6f5c4e');
	c.rect(0, 0, TILE, 1, '#3a2f28');
}

function plasterFace(c: Canvas, color: string): void {
	c.rect(0, 0, TILE, TILE, color);
	c.rect(0, 0, TILE, 4, '#4a3c33');
	c.rect(0, 4, TILE, 1, shade(color, 0.25));
	c.rect(0, TILE - 5, TILE, 5, '#7b5a3c');
	c.rect(0, TILE - 5, TILE, 1, '#9a7650');
}

function brickFace(c: Canvas, rand: () => number): void {
	c.rect(0, 0, TILE, TILE, '#d8c6a8');
	for (let row = 0; row < 7; row++) {
		const y = 4 + row * 4;
		const off = row % 2 === 0 ? 0 : 5;
		for (let x = -off; x < TILE; x += 10) {
			const tone = ['#a9553f', '#9c4d39', '#b35f47'][Math.floor(rand() * 3)];
			c.rect(x + 1, y, 9, 3, tone);
		}
	}
	c.rect(0, 0, TILE, 4, '#4a3c33');
	c.rect(0, TILE - 3, TILE, 3, '#6e6a64');
}

function sidingFace(c: Canvas, base: string): void {
	c.rect(0, 0, TILE, TILE, base);
	for (let y = 4; y < TILE; y += 5) {
		c.rect(0, y + 4, TILE, 1, shade(base, -0.3));
		c.rect(0, y, TILE, 1, shade(base, 0.15));
	}
	c.rect(0, 0, TILE, 4, '#4a3c33');
	c.rect(0, TILE - 3, TILE, 3, '#6e6a64');
}

function windowOn(c: Canvas): void {
	c.rect(7, 8, 18, 16, '#f2eee6');
	c.rect(9, 10, 14, 12, '#7fb4d9');
	c.rect(10, 11, 5, 4, '#b9dcf2');
	c.rect(15, 10, 1, 12, '#f2eee6');
	c.rect(9, 15, 14, 1, '#f2eee6');
	c.rect(6, 24, 20, 2, '#8a8178');
}

// ---------------------------------------------------------------------------------------------
// Nature (transparent backgrounds: drawn over grass)

function canopy(c: Canvas, cx: number, cy: number, r: number, rand: () => number, dark = '#2f6b2a', mid = '#3f8a35', light = '#5aa84a'): void {
	c.ellipse(cx + 2, cy + r * 0.55, r * 0.95, r * 0.5, '#00000040');
	c.disc(cx, cy, r, dark);
	c.disc(cx - r * 0.12, cy - r * 0.12, r * 0.85, mid);
	for (let i = 0; i < 6; i++) {
		const a = rand() * Math.PI * 2;
		const d = rand() * r * 0.5;
		c.disc(cx - r * 0.2 + Math.cos(a) * d, cy - r * 0.25 + Math.sin(a) * d, r * 0.28, light);
	}
	c.disc(cx - r * 0.35, cy - r * 0.4, r * 0.16, '#7cc46a');
}

// ---------------------------------------------------------------------------------------------
// Furniture helpers

const OUT = '#2b2118';
const WOOD = '#9b6a3f';
const LIGHT_WOOD = '#c89a63';
const DARK_WOOD = '#5c3a22';
const WHITE = '#f1efe9';
const STEEL = '#aab2ba';

function shelfWithItems(c: Canvas, rand: () => number, frame: string, itemColors: string[], itemW = 3): void {
	c.box(1, 2, 30, 26, frame);
	for (let row = 0; row < 3; row++) {
		const y = 5 + row * 7;
		c.rect(3, y + 5, 26, 1, shade(frame, -0.4));
		let x = 3;
		while (x < 28) {
			const w = itemW + Math.floor(rand() * 2);
			const h = 3 + Math.floor(rand() * 2);
			c.rect(x, y + 5 - h, Math.min(w - 1, 29 - x), h, itemColors[Math.floor(rand() * itemColors.length)]);
			x += w;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// The catalogue. Order decides the sheet layout (first fit in a 16-column grid).

export const SPRITES: Sprite[] = [
	// ground
	sprite('grass', false, (c, r) => grass(c, r, 0)),
	sprite('grass 2', false, (c, r) => grass(c, r, 1)),
	sprite('grass 3', false, (c, r) => grass(c, r, 2)),
	sprite('grass 4', false, (c, r) => grass(c, r, 3)),
	sprite('grass with flowers', false, (c, r) => {
		grass(c, r, 0);
		flowersOn(c, r, ['#ffffff', '#f4d03f'], 5);
	}),
	sprite('dirt path', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#c9a66b');
		c.speckle(0, 0, TILE, TILE, ['#b8945a', '#d6b57d', '#a88650'], 0.25, r);
		for (let i = 0; i < 4; i++) c.rect(Math.floor(r() * 29), Math.floor(r() * 29), 2, 2, '#9c8a70');
	}),
	sprite('stone path', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#8f8a80');
		const stones: [number, number, number, number][] = [
			[1, 1, 14, 9], [17, 1, 14, 12], [1, 12, 10, 10], [13, 15, 18, 7], [1, 24, 16, 7], [19, 24, 12, 7]
		];
		for (const [x, y, w, h] of stones) {
			const tone = ['#c9c3b6', '#bdb7aa', '#d3cdc0'][Math.floor(r() * 3)];
			c.rect(x, y, w, h, tone);
			c.rect(x, y, w, 1, shade(tone, 0.2));
			c.rect(x, y + h - 1, w, 1, shade(tone, -0.2));
		}
	}),
	sprite('road', false, (c, r) => road(c, r)),
	sprite('road line bottom', false, (c, r) => {
		road(c, r);
		for (let x = 2; x < TILE; x += 16) c.rect(x, TILE - 2, 10, 2, '#e9d36b');
	}),
	sprite('road line right', false, (c, r) => {
		road(c, r);
		for (let y = 2; y < TILE; y += 16) c.rect(TILE - 2, y, 2, 10, '#e9d36b');
	}),
	sprite('sidewalk', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#cfcac0');
		c.speckle(0, 0, TILE, TILE, ['#c2bdb2', '#dad5cb'], 0.2, r);
		c.rect(0, 0, TILE, 1, '#a9a499');
		c.rect(0, 16, TILE, 1, '#b5b0a5');
		c.rect(0, 0, 1, TILE, '#a9a499');
		c.rect(16, 0, 1, TILE, '#b5b0a5');
	}),
	sprite('sand', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#e3d29a');
		c.speckle(0, 0, TILE, TILE, ['#d4c287', '#efe0ae', '#c9b679'], 0.25, r);
	}),
	sprite('water', true, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#3f7fc9');
		c.speckle(0, 0, TILE, TILE, ['#3a76bd', '#4688d2'], 0.3, r);
		for (let i = 0; i < 3; i++) {
			const x = Math.floor(r() * 24);
			const y = 4 + Math.floor(r() * 24);
			c.rect(x, y, 6, 1, '#8cc0ee');
			c.rect(x + 2, y - 1, 3, 1, '#8cc0ee');
		}
	}),
	sprite('water with lily pads', true, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#3f7fc9');
		c.speckle(0, 0, TILE, TILE, ['#3a76bd', '#4688d2'], 0.3, r);
		c.disc(9, 10, 5, '#4f9a3c');
		c.rect(9, 6, 1, 4, '#3f7fc9');
		c.disc(22, 21, 4, '#5aa84a');
		c.disc(22, 20, 1.5, '#f3a6c8');
	}),
	sprite('dock', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#3f7fc9');
		for (let x = 0; x < TILE; x += 8) {
			const tone = ['#a8743f', '#9c6b3c', '#b07c48'][Math.floor(r() * 3)];
			c.rect(x, 0, 7, TILE, tone);
			c.rect(x + 7, 0, 1, TILE, '#5e3f22');
			c.px(x + 3, 4, '#5e3f22');
			c.px(x + 3, 27, '#5e3f22');
		}
	}),
	sprite('grass tall', false, (c, r) => {
		grass(c, r, 1);
		for (let i = 0; i < 14; i++) {
			const x = 1 + Math.floor(r() * 30);
			const y = 6 + Math.floor(r() * 24);
			c.rect(x, y - 4, 1, 4, '#4a8a36');
			c.px(x, y - 5, '#8ccc6c');
		}
	}),

	// floors
	sprite('wood floor', false, (c, r) => planksH(c, r, '#c08a52')),
	sprite('dark wood floor', false, (c, r) => planksH(c, r, '#8a5a34')),
	sprite('light wood floor', false, (c, r) => planksH(c, r, '#dcb27a', 5)),
	sprite('tile floor', false, (c) => squares(c, '#e6e2d8', '#dedad0', '#c4beb2', 16)),
	sprite('bathroom tile', false, (c) => squares(c, '#d4e8ee', '#c4dde6', '#a6c2cc', 8)),
	sprite('kitchen tile', false, (c) => squares(c, '#e8e2d2', '#a9a293', '#9a9384', 16)),
	sprite('red carpet', false, (c, r) => carpet(c, r, '#a8453f')),
	sprite('blue carpet', false, (c, r) => carpet(c, r, '#4a63a0')),
	sprite('green carpet', false, (c, r) => carpet(c, r, '#5f8a52')),
	sprite('beige carpet', false, (c, r) => carpet(c, r, '#c9b48f')),
	sprite('purple carpet', false, (c, r) => carpet(c, r, '#7a5a92')),
	sprite('concrete floor', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#a7a49e');
		c.speckle(0, 0, TILE, TILE, ['#9c9993', '#b3b0aa', '#8f8c86'], 0.3, r);
		c.rect(0, 0, TILE, 1, '#918e88');
		c.rect(0, 0, 1, TILE, '#918e88');
	}),
	sprite('door', false, (c, r) => {
		planksH(c, r, '#b98a55', 2);
		c.rect(0, 0, 4, TILE, '#4a3c33');
		c.rect(TILE - 4, 0, 4, TILE, '#4a3c33');
		c.rect(4, 0, 1, TILE, '#7a5a3c');
		c.rect(TILE - 5, 0, 1, TILE, '#7a5a3c');
		c.rect(6, 12, 20, 8, '#8a6a48');
		c.rect(7, 13, 18, 6, '#a0794f');
	}),
	sprite('door side', false, (c, r) => {
		planksH(c, r, '#b98a55', 2);
		c.rect(0, 0, TILE, 4, '#4a3c33');
		c.rect(0, TILE - 4, TILE, 4, '#4a3c33');
		c.rect(12, 6, 8, 20, '#8a6a48');
		c.rect(13, 7, 6, 18, '#a0794f');
	}),

	// walls and fences
	sprite('wall top', true, (c) => wallTop(c)),
	sprite('wall face', true, (c) => plasterFace(c, '#e8dcc0')),
	sprite('wall face blue', true, (c) => plasterFace(c, '#b9cfe0')),
	sprite('wall face green', true, (c) => plasterFace(c, '#c5d9b5')),
	sprite('wall face pink', true, (c) => plasterFace(c, '#ecc9c3')),
	sprite('brick wall', true, (c, r) => brickFace(c, r)),
	sprite('brick wall window', true, (c, r) => {
		brickFace(c, r);
		windowOn(c);
	}),
	sprite('siding wall', true, (c) => sidingFace(c, '#c6a57a')),
	sprite('siding wall window', true, (c) => {
		sidingFace(c, '#c6a57a');
		windowOn(c);
	}),
	sprite('blue siding wall', true, (c) => sidingFace(c, '#7d9cb8')),
	sprite('blue siding wall window', true, (c) => {
		sidingFace(c, '#7d9cb8');
		windowOn(c);
	}),
	sprite('stone wall', true, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#9d978c');
		for (let row = 0; row < 4; row++) {
			const y = 4 + row * 7;
			for (let x = (row % 2) * -6; x < TILE; x += 12) {
				const tone = ['#b9b2a5', '#aca597', '#c4bdb0'][Math.floor(r() * 3)];
				c.rect(x + 1, y + 1, 11, 6, tone);
			}
		}
		c.rect(0, 0, TILE, 4, '#4a3c33');
	}),
	sprite('stone wall window', true, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#9d978c');
		for (let row = 0; row < 4; row++) {
			const y = 4 + row * 7;
			for (let x = (row % 2) * -6; x < TILE; x += 12) {
				const tone = ['#b9b2a5', '#aca597', '#c4bdb0'][Math.floor(r() * 3)];
				c.rect(x + 1, y + 1, 11, 6, tone);
			}
		}
		c.rect(0, 0, TILE, 4, '#4a3c33');
		windowOn(c);
	}),
	sprite('fence horizontal', true, (c) => {
		c.rect(0, 18, TILE, 3, '#00000030');
		c.rect(0, 12, TILE, 3, '#b98a55');
		c.rect(0, 19, TILE, 3, '#b98a55');
		c.rect(0, 15, TILE, 1, '#6e4a2a');
		c.rect(0, 22, TILE, 1, '#6e4a2a');
		for (const x of [3, 19]) {
			c.rect(x, 8, 5, 18, '#a0794f');
			c.frame(x, 8, 5, 18, '#5e3f22');
		}
	}),
	sprite('fence vertical', true, (c) => {
		c.rect(12, 0, 3, TILE, '#b98a55');
		c.rect(18, 0, 3, TILE, '#b98a55');
		c.rect(15, 0, 1, TILE, '#6e4a2a');
		c.rect(21, 0, 1, TILE, '#6e4a2a');
		for (const y of [3, 19]) {
			c.rect(10, y, 13, 6, '#a0794f');
			c.frame(10, y, 13, 6, '#5e3f22');
		}
	}),
	sprite('hedge', true, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#2f6b2a');
		for (let i = 0; i < 18; i++) c.disc(2 + r() * 28, 2 + r() * 28, 3 + r() * 3, ['#3f8a35', '#357a2f', '#4a9a3e'][i % 3]);
		c.rect(0, TILE - 3, TILE, 3, '#24521f');
	}),

	// nature
	sprite('tree', true, (c, r) => {
		c.rect(14, 22, 5, 8, '#6b4426');
		canopy(c, 16, 14, 13, r);
	}),
	sprite('pine tree', true, (c) => {
		c.ellipse(18, 27, 11, 4, '#00000040');
		c.rect(14, 24, 4, 6, '#6b4426');
		for (let i = 0; i < 4; i++) {
			const y = 3 + i * 6;
			const half = 4 + i * 3;
			for (let j = 0; j < 8; j++) {
				const w = Math.round((half * (j + 1)) / 8);
				c.rect(16 - w, y + j, w * 2, 1, j < 2 ? '#3e7c3a' : '#24562a');
			}
		}
	}),
	sprite(
		'big tree',
		true,
		(c, r) => {
			c.rect(28, 44, 8, 16, '#6b4426');
			c.rect(30, 44, 2, 16, '#85583a');
			canopy(c, 32, 28, 27, r);
		},
		2,
		2
	),
	sprite('bush', true, (c, r) => canopy(c, 16, 17, 11, r, '#2a5f26', '#377d31', '#4f9b43')),
	sprite('red flowers', false, (c, r) => flowersOn(c, r, ['#d9453b', '#e86a5f'], 9)),
	sprite('yellow flowers', false, (c, r) => flowersOn(c, r, ['#f2c12e', '#f7dc6f'], 9)),
	sprite('purple flowers', false, (c, r) => flowersOn(c, r, ['#8e5ac8', '#b58be0'], 9)),
	sprite('flower bed', false, (c, r) => {
		c.rect(1, 1, 30, 30, '#6b4a2e');
		c.frame(1, 1, 30, 30, '#8a6a48');
		c.speckle(2, 2, 28, 28, ['#5a3d25', '#7a5636'], 0.3, r);
		flowersOn(c, r, ['#d9453b', '#f2c12e', '#e88bc0', '#ffffff'], 12);
	}),
	sprite('vegetable patch', false, (c, r) => {
		c.rect(0, 0, TILE, TILE, '#6b4a2e');
		c.speckle(0, 0, TILE, TILE, ['#5a3d25', '#7a5636'], 0.3, r);
		for (let y = 4; y < TILE; y += 9) {
			c.rect(0, y + 4, TILE, 2, '#553a22');
			for (let x = 3; x < TILE; x += 7) {
				c.disc(x, y + 1, 2.5, '#4f9b43');
				c.px(x, y, '#86c46a');
			}
		}
	}),
	sprite('rock', true, (c) => {
		c.ellipse(17, 22, 12, 6, '#00000040');
		c.ellipse(15, 18, 12, 9, '#7d7a74');
		c.ellipse(13, 15, 8, 5, '#a29e97');
		c.px(10, 13, '#c4c0b9');
	}),
	sprite('tree stump', true, (c) => {
		c.ellipse(17, 20, 10, 6, '#00000040');
		c.ellipse(16, 17, 9, 7, '#6b4426');
		c.ellipse(16, 15, 8, 5, '#c8a16c');
		c.ellipse(16, 15, 4, 2.5, '#a87f4c');
	}),

	// beds and bedroom
	sprite(
		'bed',
		true,
		(c) => {
			c.box(3, 1, 26, 61, '#7a4e2d');
			c.rect(6, 5, 20, 10, WHITE);
			c.frame(6, 5, 20, 10, '#b9b4a8');
			c.rect(5, 18, 22, 41, '#4f7fbf');
			c.rect(5, 18, 22, 4, '#e9e4d8');
			c.rect(5, 26, 22, 1, '#3f6aa3');
		},
		1,
		2
	),
	sprite(
		'double bed',
		true,
		(c) => {
			c.box(2, 1, 60, 61, '#7a4e2d');
			c.rect(6, 5, 24, 11, WHITE);
			c.rect(34, 5, 24, 11, WHITE);
			c.frame(6, 5, 24, 11, '#b9b4a8');
			c.frame(34, 5, 24, 11, '#b9b4a8');
			c.rect(4, 19, 56, 40, '#b5475b');
			c.rect(4, 19, 56, 5, '#efe8da');
			c.rect(4, 30, 56, 1, '#973a4c');
		},
		2,
		2
	),
	sprite('wardrobe', true, (c) => {
		c.box(2, 2, 28, 27, DARK_WOOD);
		c.rect(15, 4, 1, 23, OUT);
		c.rect(12, 13, 2, 4, '#d9b45a');
		c.rect(18, 13, 2, 4, '#d9b45a');
	}),
	sprite('dresser', true, (c) => {
		c.box(2, 6, 28, 22, WOOD);
		for (const y of [10, 16, 22]) {
			c.rect(4, y + 4, 24, 1, shade(WOOD, -0.35));
			c.rect(14, y + 1, 4, 2, '#d9b45a');
		}
		c.rect(6, 3, 6, 5, '#c9d7e3');
	}),
	sprite('nightstand', true, (c) => {
		c.box(6, 8, 20, 18, WOOD);
		c.disc(16, 14, 4, '#f4e3a1');
		c.rect(15, 17, 2, 4, '#8a8178');
	}),

	// desks, tables, chairs
	sprite('desk', true, (c) => {
		c.box(1, 6, 30, 20, WOOD);
		c.rect(5, 10, 8, 10, WHITE);
		c.rect(6, 12, 6, 1, '#8a8178');
		c.rect(6, 15, 6, 1, '#8a8178');
		c.rect(20, 11, 2, 8, '#2f4f8f');
	}),
	sprite('computer desk', true, (c) => {
		c.box(1, 6, 30, 20, '#8d8d93');
		c.rect(8, 7, 16, 11, '#222428');
		c.rect(9, 8, 14, 9, '#5fa8d3');
		c.rect(10, 9, 6, 2, '#a8d8f0');
		c.rect(14, 18, 4, 2, '#222428');
		c.rect(8, 21, 16, 3, '#d8d8dc');
	}),
	sprite('school desk', true, (c) => {
		c.box(4, 8, 24, 14, LIGHT_WOOD);
		c.rect(8, 11, 8, 6, WHITE);
		c.rect(6, 22, 2, 5, '#6e6a64');
		c.rect(24, 22, 2, 5, '#6e6a64');
	}),
	sprite('chair', false, (c) => {
		c.box(9, 6, 14, 5, '#7a4e2d');
		c.box(9, 12, 14, 13, WOOD);
	}),
	sprite('table', true, (c) => {
		c.box(2, 4, 28, 24, LIGHT_WOOD);
		c.rect(4, 7, 24, 1, shade(LIGHT_WOOD, 0.15));
		c.rect(4, 16, 24, 1, shade(LIGHT_WOOD, -0.1));
	}),
	sprite('dining table', true, (c) => {
		c.rect(0, 6, TILE, 22, '#00000030');
		c.rect(0, 4, TILE, 22, WOOD);
		c.rect(0, 4, TILE, 1, OUT);
		c.rect(0, 25, TILE, 1, OUT);
		c.rect(0, 5, TILE, 1, shade(WOOD, 0.3));
		c.disc(9, 14, 4, WHITE);
		c.disc(23, 14, 4, WHITE);
		c.disc(9, 14, 2, '#d8b07a');
	}),
	sprite('cafe table', true, (c) => {
		c.ellipse(18, 19, 12, 10, '#00000040');
		c.disc(16, 16, 12, '#f1efe9');
		c.disc(16, 16, 11, '#8a5a34');
		c.disc(16, 16, 10, '#a36d41');
		c.disc(11, 13, 3, WHITE);
		c.disc(11, 13, 1.5, '#6b4426');
		c.disc(21, 19, 3, WHITE);
		c.disc(21, 19, 1.5, '#6b4426');
	}),
	sprite('coffee table', true, (c) => {
		c.box(4, 9, 24, 15, DARK_WOOD);
		c.rect(8, 12, 8, 6, '#c0392b');
		c.rect(19, 13, 5, 5, '#f1efe9');
	}),
	sprite(
		'picnic table',
		true,
		(c) => {
			c.rect(4, 2, 56, 5, '#a0794f');
			c.frame(4, 2, 56, 5, '#5e3f22');
			c.box(2, 10, 60, 13, '#b98a55');
			for (let x = 2; x < 60; x += 10) c.rect(x, 11, 1, 11, '#7a5a3c');
			c.rect(4, 26, 56, 5, '#a0794f');
			c.frame(4, 26, 56, 5, '#5e3f22');
		},
		2,
		1
	),
	sprite('armchair', false, (c) => {
		c.box(5, 4, 22, 24, '#6d8a4a');
		c.rect(8, 9, 16, 16, '#88a863');
		c.rect(5, 4, 22, 5, '#5a7440');
	}),
	sprite(
		'sofa',
		true,
		(c) => {
			c.box(1, 4, 62, 24, '#5a7ab0');
			c.rect(2, 5, 60, 6, '#48659a');
			c.rect(2, 11, 5, 16, '#48659a');
			c.rect(57, 11, 5, 16, '#48659a');
			c.rect(8, 12, 23, 13, '#6f90c6');
			c.rect(33, 12, 23, 13, '#6f90c6');
			c.rect(31, 12, 2, 13, '#48659a');
		},
		2,
		1
	),
	sprite('bench', false, (c) => {
		c.rect(2, 22, 28, 3, '#00000030');
		for (const y of [8, 13, 18]) {
			c.rect(1, y, 30, 4, '#b07c48');
			c.rect(1, y + 3, 30, 1, '#6e4a2a');
		}
		c.rect(3, 7, 3, 16, '#3d3d42');
		c.rect(26, 7, 3, 16, '#3d3d42');
	}),

	// kitchen and bathroom
	sprite('counter', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#d9d4c7');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 22, TILE, 6, '#8a6a48');
		c.rect(0, 22, TILE, 1, '#6e5238');
		c.rect(0, 28, TILE, 1, OUT);
	}),
	sprite('kitchen counter', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#cfc8b8');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 22, TILE, 6, '#f1efe9');
		c.rect(0, 28, TILE, 1, OUT);
		c.rect(6, 7, 14, 10, '#c89a63');
		c.frame(6, 7, 14, 10, '#8a6a48');
		c.rect(22, 9, 6, 2, STEEL);
	}),
	sprite('stove', true, (c) => {
		c.box(1, 2, 30, 27, '#e8e6e1');
		for (const [x, y] of [[9, 9], [22, 9], [9, 19], [22, 19]]) {
			c.disc(x, y, 5, '#2c2c30');
			c.disc(x, y, 3, '#4a4a50');
		}
		c.rect(4, 25, 24, 2, '#8a8178');
	}),
	sprite('refrigerator', true, (c) => {
		c.box(3, 1, 26, 28, '#eef1f3');
		c.rect(4, 11, 24, 1, '#9aa3ab');
		c.rect(23, 4, 2, 5, '#9aa3ab');
		c.rect(23, 14, 2, 8, '#9aa3ab');
	}),
	sprite('sink', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#cfc8b8');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 28, TILE, 1, OUT);
		c.ellipse(16, 15, 11, 8, '#8f98a0');
		c.ellipse(16, 15, 9, 6, '#c6ced6');
		c.rect(15, 3, 2, 6, STEEL);
		c.disc(16, 16, 1.5, '#5d6064');
	}),
	sprite('dishwasher', true, (c) => {
		c.box(2, 3, 28, 25, '#cfd5da');
		c.rect(5, 6, 22, 3, '#5d6064');
		c.disc(24, 7, 1, '#7ad37a');
	}),
	sprite('toilet', false, (c) => {
		c.box(9, 2, 14, 8, WHITE, '#7f8a92');
		c.ellipse(16, 19, 8, 10, '#7f8a92');
		c.ellipse(16, 19, 7, 9, WHITE);
		c.ellipse(16, 20, 4, 5, '#b9d5e2');
	}),
	sprite('shower', false, (c) => {
		c.rect(1, 1, 30, 30, '#dfeef3');
		squares(c, '#dfeef3', '#d2e6ec', '#a6c2cc', 8);
		c.frame(1, 1, 30, 30, '#7f8a92');
		c.disc(16, 16, 2, '#7f8a92');
		c.disc(6, 6, 3, STEEL);
		c.rect(1, 29, 30, 2, '#7fb4d9');
	}),
	sprite(
		'bathtub',
		true,
		(c) => {
			c.box(2, 4, 60, 24, WHITE, '#7f8a92');
			c.ellipse(32, 16, 26, 9, '#9fc9e0');
			c.rect(5, 14, 3, 4, STEEL);
		},
		2,
		1
	),
	sprite('bathroom sink', true, (c) => {
		c.box(5, 4, 22, 18, WHITE, '#7f8a92');
		c.ellipse(16, 14, 8, 5, '#c6ced6');
		c.rect(15, 5, 2, 5, STEEL);
		c.rect(7, 0, 18, 3, '#bfe0ef');
	}),
	sprite('washing machine', true, (c) => {
		c.box(3, 2, 26, 27, '#eef1f3');
		c.disc(16, 17, 8, '#7f8a92');
		c.disc(16, 17, 6, '#9fc9e0');
		c.rect(6, 5, 8, 2, '#7f8a92');
	}),

	// living and study
	sprite('bookshelf', true, (c, r) => shelfWithItems(c, r, DARK_WOOD, ['#c0392b', '#2e86c1', '#27ae60', '#f1c40f', '#8e44ad', '#e67e22', '#ecf0f1'], 3)),
	sprite('television', true, (c) => {
		c.box(2, 16, 28, 12, DARK_WOOD);
		c.rect(4, 3, 24, 15, '#1d1e22');
		c.rect(6, 5, 20, 11, '#34495e');
		c.rect(7, 6, 7, 3, '#5d7590');
	}),
	sprite('fireplace', true, (c) => {
		c.box(1, 3, 30, 26, '#9d978c');
		c.rect(7, 10, 18, 16, '#2c2420');
		c.ellipse(16, 21, 6, 5, '#e67e22');
		c.ellipse(16, 22, 3, 3, '#f7dc6f');
		c.rect(0, 3, 32, 4, '#7a5a3c');
	}),
	sprite('floor lamp', false, (c) => {
		c.disc(16, 16, 11, '#f7e9a033');
		c.disc(16, 16, 7, '#f4e3a1');
		c.disc(16, 16, 7.5, '#c9b36a80');
		c.disc(16, 16, 2, '#fff9dc');
	}),
	sprite('potted plant', false, (c, r) => {
		c.disc(16, 22, 7, '#b5653a');
		c.disc(16, 21, 5, '#5a3d25');
		canopy(c, 16, 14, 9, r, '#2a5f26', '#3f8a35', '#5aa84a');
	}),
	sprite('rug', false, (c) => {
		c.rect(2, 4, 28, 24, '#b5475b');
		c.frame(4, 6, 24, 20, '#efd9a8');
		c.rect(10, 12, 12, 8, '#d98a5f');
	}),
	sprite(
		'piano',
		true,
		(c) => {
			c.box(1, 2, 62, 20, '#1f1d21');
			c.rect(3, 4, 58, 4, '#3a373f');
			c.rect(4, 22, 56, 7, WHITE);
			c.frame(4, 22, 56, 7, OUT);
			for (let x = 7; x < 58; x += 4) c.rect(x, 22, 2, 4, '#1f1d21');
		},
		2,
		1
	),
	sprite('guitar', false, (c) => {
		c.ellipse(16, 22, 7, 7, '#b5653a');
		c.ellipse(16, 14, 5, 5, '#b5653a');
		c.disc(16, 19, 2, '#2c2420');
		c.rect(15, 2, 2, 12, DARK_WOOD);
	}),
	sprite('drum kit', true, (c) => {
		c.disc(16, 18, 9, '#c0392b');
		c.disc(16, 18, 7, '#f1efe9');
		c.disc(6, 8, 5, '#d4ac0d');
		c.disc(26, 8, 5, '#d4ac0d');
		c.disc(8, 26, 4, '#f1efe9');
	}),
	sprite('music stand', false, (c) => {
		c.rect(6, 6, 20, 12, '#3d3d42');
		c.rect(8, 7, 16, 9, WHITE);
		for (let y = 9; y < 15; y += 2) c.rect(9, y, 14, 1, '#3d3d42');
		c.rect(15, 18, 2, 10, '#3d3d42');
	}),

	// shops, cafe, pub
	sprite('coffee machine', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#d9d4c7');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 28, TILE, 1, OUT);
		c.box(5, 3, 22, 17, '#5d6064');
		c.rect(8, 6, 16, 5, '#aab2ba');
		c.disc(22, 8, 1.5, '#e74c3c');
		c.rect(10, 15, 4, 4, WHITE);
		c.rect(18, 15, 4, 4, WHITE);
	}),
	sprite('pastry display', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#c6e2ee');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 28, TILE, 1, OUT);
		c.rect(0, 24, TILE, 4, '#8a6a48');
		for (const [x, y, col] of [[6, 8, '#d4a05a'], [16, 8, '#b5653a'], [26, 8, '#f0c987'], [8, 17, '#e8a0b0'], [20, 17, '#d4a05a']] as const) {
			c.ellipse(x, y, 4, 3, col);
		}
	}),
	sprite('cash register', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#d9d4c7');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 22, TILE, 6, '#8a6a48');
		c.rect(0, 28, TILE, 1, OUT);
		c.box(7, 4, 18, 14, '#3d3d42');
		c.rect(9, 6, 14, 4, '#7ad37a');
		for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) c.rect(10 + j * 3, 12 + i * 2, 2, 1, '#d8d8dc');
	}),
	sprite('bar counter', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#6b4426');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 4, TILE, 2, '#8a5a34');
		c.rect(0, 28, TILE, 1, OUT);
		c.rect(0, 22, TILE, 1, '#4a2e18');
	}),
	sprite('beer taps', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#6b4426');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 28, TILE, 1, OUT);
		c.rect(3, 6, 26, 4, '#c9a227');
		for (const x of [6, 13, 20, 26]) {
			c.rect(x, 10, 2, 8, '#d4ac0d');
			c.rect(x - 1, 10, 4, 2, '#2c2420');
		}
		c.rect(8, 20, 5, 6, '#f5b041');
		c.rect(8, 20, 5, 2, WHITE);
	}),
	sprite('bar stool', false, (c) => {
		c.disc(17, 18, 8, '#00000030');
		c.disc(16, 16, 8, '#3d3d42');
		c.disc(16, 16, 6, '#a93226');
		c.disc(14, 14, 2, '#c0392b');
	}),
	sprite('jukebox', true, (c) => {
		c.box(4, 2, 24, 27, '#8e44ad');
		c.ellipse(16, 10, 9, 6, '#f5b041');
		c.rect(8, 17, 16, 8, '#2c2420');
		for (let x = 9; x < 24; x += 3) c.rect(x, 18, 2, 6, ['#e74c3c', '#f1c40f', '#2ecc71', '#3498db'][x % 4]);
	}),
	sprite(
		'pool table',
		true,
		(c) => {
			c.box(1, 2, 62, 28, '#6b4426');
			c.rect(5, 6, 54, 20, '#1e8449');
			for (const [x, y] of [[5, 6], [31, 5], [58, 6], [5, 25], [31, 26], [58, 25]]) c.disc(x, y, 2, '#111111');
			for (const [x, y, col] of [[20, 14, '#f1efe9'], [40, 12, '#c0392b'], [43, 16, '#f1c40f'], [38, 18, '#2e86c1']] as const) c.disc(x, y, 2, col);
		},
		2,
		1
	),
	sprite('grocery shelf', true, (c, r) => shelfWithItems(c, r, '#b5bcc3', ['#e74c3c', '#f39c12', '#27ae60', '#f1c40f', '#2980b9', '#ecf0f1'], 4)),
	sprite('medicine shelf', true, (c, r) => shelfWithItems(c, r, '#eef1f3', ['#ffffff', '#e74c3c', '#5dade2', '#58d68d', '#f5b041'], 3)),
	sprite('storage shelf', true, (c, r) => shelfWithItems(c, r, '#8d8d93', ['#c89a63', '#b07c48', '#d6b57d'], 6)),
	sprite('freezer', true, (c) => {
		c.box(1, 3, 30, 25, '#eef1f3');
		c.rect(4, 6, 24, 18, '#a9d4ea');
		c.rect(6, 8, 8, 5, '#d6eaf8');
		c.rect(16, 14, 9, 6, '#f5b7b1');
	}),
	sprite('produce stand', true, (c) => {
		c.box(1, 3, 30, 26, '#a0794f');
		c.rect(3, 5, 12, 10, '#7a5a3c');
		c.rect(17, 5, 12, 10, '#7a5a3c');
		c.rect(3, 17, 12, 10, '#7a5a3c');
		c.rect(17, 17, 12, 10, '#7a5a3c');
		const fruit = ['#e74c3c', '#f39c12', '#58d68d', '#f4d03f'];
		[[9, 10], [23, 10], [9, 22], [23, 22]].forEach(([x, y], i) => {
			for (const [dx, dy] of [[-3, -2], [2, -2], [0, 1], [-3, 3], [3, 3]]) c.disc(x + dx, y + dy, 2, fruit[i]);
		});
	}),
	sprite('crates', true, (c) => {
		for (const [x, y, s] of [[2, 12, 16], [16, 14, 14], [7, 2, 13]] as const) {
			c.box(x, y, s, s, '#b98a55');
			c.rect(x + 1, y + Math.floor(s / 2), s - 2, 1, '#7a5a3c');
			c.rect(x + Math.floor(s / 2), y + 1, 1, s - 2, '#7a5a3c');
		}
	}),
	sprite('workbench', true, (c) => {
		c.box(1, 5, 30, 22, '#a0794f');
		c.rect(4, 9, 10, 3, '#7f8a92');
		c.rect(12, 8, 3, 5, '#6b4426');
		c.rect(18, 14, 9, 2, '#c0392b');
		c.rect(20, 16, 3, 6, '#3d3d42');
		c.disc(8, 19, 3, '#d4ac0d');
	}),
	sprite('tool rack', true, (c) => {
		c.box(1, 2, 30, 24, '#c9a66b');
		c.speckle(3, 4, 26, 20, ['#a88650'], 0.1, () => 0.5);
		c.rect(5, 5, 2, 14, '#6b4426');
		c.rect(3, 5, 6, 4, '#7f8a92');
		c.rect(13, 5, 2, 16, '#6b4426');
		c.rect(11, 18, 6, 3, '#7f8a92');
		c.rect(22, 5, 3, 12, '#c0392b');
		c.rect(21, 17, 5, 4, '#3d3d42');
	}),
	sprite('lumber pile', true, (c) => {
		for (let i = 0; i < 4; i++) {
			c.box(2, 4 + i * 6, 28, 5, ['#d6b57d', '#c9a66b', '#dcb27a', '#c08a52'][i]);
		}
	}),
	sprite('paint cans', true, (c) => {
		for (const [x, y, col] of [[9, 10, '#c0392b'], [22, 10, '#2e86c1'], [9, 23, '#f1c40f'], [22, 23, '#27ae60']] as const) {
			c.disc(x + 1, y + 1, 6, '#00000030');
			c.disc(x, y, 6, '#aab2ba');
			c.disc(x, y, 4.5, col);
		}
	}),

	// college and civic
	sprite('blackboard', true, (c) => {
		c.rect(0, 3, TILE, 22, '#8a6a48');
		c.rect(0, 5, TILE, 18, '#2f4f3f');
		c.rect(4, 9, 10, 1, '#e8e8e8');
		c.rect(4, 12, 16, 1, '#e8e8e8');
		c.rect(18, 16, 8, 1, '#e8e8e8');
		c.rect(0, 23, TILE, 3, '#6e5238');
	}),
	sprite('lectern', true, (c) => {
		c.box(8, 6, 16, 20, DARK_WOOD);
		c.rect(10, 8, 12, 8, '#f1efe9');
		c.rect(16, 8, 1, 8, '#8a8178');
	}),
	sprite('bulletin board', true, (c) => {
		c.rect(1, 4, 30, 22, '#8a6a48');
		c.rect(3, 6, 26, 18, '#c99a5b');
		for (const [x, y, col] of [[5, 8, '#f9e79f'], [14, 7, WHITE], [21, 10, '#aed6f1'], [7, 16, '#f5b7b1'], [17, 17, WHITE]] as const) {
			c.rect(x, y, 7, 6, col);
			c.px(x + 3, y, '#c0392b');
		}
	}),
	sprite('filing cabinet', true, (c) => {
		c.box(6, 3, 20, 25, '#8d8d93');
		for (const y of [9, 16, 23]) {
			c.rect(8, y, 16, 1, '#5d6064');
			c.rect(14, y - 4, 4, 1, '#d8d8dc');
		}
	}),
	sprite('globe', false, (c) => {
		c.rect(14, 22, 4, 6, DARK_WOOD);
		c.disc(16, 14, 9, '#2e86c1');
		c.ellipse(13, 12, 4, 3, '#58d68d');
		c.ellipse(20, 17, 3, 4, '#58d68d');
	}),
	sprite('reception desk', true, (c) => {
		c.rect(0, 6, TILE, 24, '#00000030');
		c.rect(0, 2, TILE, 26, '#7a4e2d');
		c.rect(0, 2, TILE, 1, OUT);
		c.rect(0, 5, TILE, 4, '#a0794f');
		c.rect(0, 28, TILE, 1, OUT);
		c.rect(6, 12, 10, 7, WHITE);
	}),
	sprite('easel', true, (c) => {
		c.rect(7, 4, 2, 24, '#8a6a48');
		c.rect(23, 4, 2, 24, '#8a6a48');
		c.rect(6, 6, 20, 16, WHITE);
		c.frame(6, 6, 20, 16, '#5e3f22');
		c.rect(8, 8, 16, 6, '#85c1e9');
		c.rect(8, 14, 16, 6, '#58d68d');
		c.disc(19, 11, 2, '#f4d03f');
	}),
	sprite('camera tripod', true, (c) => {
		c.rect(9, 16, 2, 12, '#3d3d42');
		c.rect(21, 16, 2, 12, '#3d3d42');
		c.rect(15, 16, 2, 13, '#3d3d42');
		c.box(8, 6, 16, 10, '#2c2c30');
		c.disc(16, 11, 3, '#5dade2');
	}),
	sprite('microphone stand', false, (c) => {
		c.disc(16, 26, 5, '#3d3d42');
		c.rect(15, 8, 2, 18, '#5d6064');
		c.disc(16, 7, 3, '#2c2c30');
	}),
	sprite('flag', true, (c) => {
		c.rect(8, 2, 2, 27, '#aab2ba');
		c.rect(10, 3, 16, 10, '#2e5f9e');
		c.rect(10, 6, 16, 2, WHITE);
		c.rect(10, 10, 16, 2, '#c0392b');
		c.disc(9, 28, 3, '#5d6064');
	}),

	// outdoors
	sprite('street lamp', true, (c) => {
		c.disc(16, 28, 4, '#3d3d42');
		c.rect(15, 8, 3, 20, '#3d3d42');
		c.disc(16, 7, 6, '#f7dc6f55');
		c.disc(16, 7, 3, '#fdf2c0');
	}),
	sprite('grill', true, (c) => {
		c.disc(17, 18, 10, '#00000030');
		c.disc(16, 16, 10, '#2c2c30');
		c.disc(16, 16, 8, '#4a4a50');
		for (let x = 10; x < 23; x += 3) c.rect(x, 9, 1, 14, '#8f98a0');
	}),
	sprite(
		'fountain',
		true,
		(c) => {
			c.ellipse(34, 36, 29, 26, '#00000030');
			c.disc(32, 32, 29, '#b9b2a5');
			c.disc(32, 32, 26, '#9d978c');
			c.disc(32, 32, 24, '#5dade2');
			c.disc(32, 32, 8, '#b9b2a5');
			c.disc(32, 30, 4, '#d6eaf8');
			for (let a = 0; a < 8; a++) {
				const x = 32 + Math.cos((a * Math.PI) / 4) * 14;
				const y = 32 + Math.sin((a * Math.PI) / 4) * 14;
				c.disc(x, y, 1.5, '#d6eaf8');
			}
		},
		2,
		2
	),
	sprite('trash can', false, (c) => {
		c.disc(17, 18, 7, '#00000030');
		c.disc(16, 16, 7, '#5d6064');
		c.disc(16, 16, 5, '#7f8a92');
	}),
	sprite('mailbox', true, (c) => {
		c.rect(15, 16, 3, 12, DARK_WOOD);
		c.box(9, 6, 15, 11, '#2e5f9e');
		c.rect(21, 4, 2, 6, '#c0392b');
	}),
	sprite('garden shed', true, (c) => {
		c.box(2, 3, 28, 26, '#8a5a34');
		for (let y = 6; y < 27; y += 4) c.rect(3, y, 26, 1, '#6b4426');
		c.rect(12, 14, 8, 14, '#5e3f22');
	}),
	sprite('watering can', false, (c) => {
		c.ellipse(15, 18, 8, 6, '#27ae60');
		c.rect(21, 12, 8, 2, '#27ae60');
		c.rect(11, 10, 8, 2, '#1e8449');
	}),
	sprite('swing set', true, (c) => {
		c.rect(2, 4, 28, 3, '#c0392b');
		c.rect(2, 4, 3, 24, '#c0392b');
		c.rect(27, 4, 3, 24, '#c0392b');
		c.rect(9, 7, 1, 14, '#5d6064');
		c.rect(14, 7, 1, 14, '#5d6064');
		c.rect(8, 20, 8, 3, '#3d3d42');
		c.rect(19, 7, 1, 12, '#5d6064');
		c.rect(24, 7, 1, 12, '#5d6064');
		c.rect(18, 18, 8, 3, '#3d3d42');
	}),

	// debug overlays (semi-transparent, for the collision and zone layers)
	sprite('collision', true, (c) => {
		c.rect(0, 0, TILE, TILE, '#e0303066');
		for (let i = 2; i < 30; i++) {
			c.px(i, i, '#a01010cc');
			c.px(31 - i, i, '#a01010cc');
		}
		c.frame(0, 0, TILE, TILE, '#a01010aa');
	}),
	sprite('zone sector', false, (c) => {
		for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) if ((x + y) % 8 < 2) c.px(x, y, '#f1c40f88');
		c.frame(0, 0, TILE, TILE, '#f1c40faa');
	}),
	sprite('zone arena', false, (c) => {
		for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) if ((x - y + 64) % 8 < 2) c.px(x, y, '#1abc9c88');
		c.frame(0, 0, TILE, TILE, '#1abc9caa');
	}),
	sprite('zone object', false, (c) => {
		c.rect(0, 0, TILE, TILE, '#e056fd44');
		c.frame(0, 0, TILE, TILE, '#be2edd');
		c.frame(1, 1, 30, 30, '#be2edd');
	}),
	sprite('spawn marker', false, (c) => {
		c.disc(16, 16, 12, '#2ecc7188');
		c.disc(16, 16, 8, '#27ae60');
		c.disc(16, 16, 3, WHITE);
	})
];

// ---------------------------------------------------------------------------------------------
// Sheet layout

export interface TileInfo {
	/** local tile id in the sheet */
	id: number;
	name: string;
	blocks: boolean;
}

function partName(s: Sprite, col: number, row: number): string {
	if (s.w === 1 && s.h === 1) return s.name;
	if (s.w === 1 && s.h === 2) return `${s.name} ${row === 0 ? 'top' : 'bottom'}`;
	if (s.w === 2 && s.h === 1) return `${s.name} ${col === 0 ? 'left' : 'right'}`;
	if (s.w === 2 && s.h === 2) return `${s.name} ${row === 0 ? 'top' : 'bottom'}-${col === 0 ? 'left' : 'right'}`;
	return `${s.name} ${col},${row}`;
}

export interface SheetLayout {
	rows: number;
	tiles: TileInfo[];
	/** sprite name -> tile ids, row-major over the sprite's w x h */
	sprites: Map<string, { sprite: Sprite; ids: number[] }>;
	/** sprite name -> top-left cell */
	cells: Map<string, { col: number; row: number }>;
}

/** First-fit packing in reading order, so multi-tile sprites stay contiguous in Tiled. */
export function layoutSheet(): SheetLayout {
	const used: boolean[][] = [];
	const isFree = (col: number, row: number) => !(used[row]?.[col] ?? false);
	const tiles: TileInfo[] = [];
	const sprites = new Map<string, { sprite: Sprite; ids: number[] }>();
	const cells = new Map<string, { col: number; row: number }>();
	let rows = 0;
	for (const s of SPRITES) {
		if (sprites.has(s.name)) throw new Error(`duplicate sprite ${s.name}`);
		let placed = false;
		for (let row = 0; !placed; row++) {
			for (let col = 0; col + s.w <= COLUMNS && !placed; col++) {
				let fits = true;
				for (let j = 0; j < s.h && fits; j++) for (let i = 0; i < s.w && fits; i++) fits = isFree(col + i, row + j);
				if (!fits) continue;
				const ids: number[] = [];
				for (let j = 0; j < s.h; j++) {
					for (let i = 0; i < s.w; i++) {
						(used[row + j] ??= [])[col + i] = true;
						const id = (row + j) * COLUMNS + col + i;
						ids.push(id);
						tiles.push({ id, name: partName(s, i, j), blocks: s.blocks });
					}
				}
				rows = Math.max(rows, row + s.h);
				sprites.set(s.name, { sprite: s, ids });
				cells.set(s.name, { col, row });
				placed = true;
			}
		}
	}
	tiles.sort((a, b) => a.id - b.id);
	return { rows, tiles, sprites, cells };
}

export function renderTileset(layout = layoutSheet()): Buffer {
	const png = new PNG({ width: COLUMNS * TILE, height: layout.rows * TILE });
	const sheet = new Canvas(COLUMNS * TILE, layout.rows * TILE);
	for (const s of SPRITES) {
		const canvas = new Canvas(s.w * TILE, s.h * TILE);
		s.draw(canvas, rng(hashString(s.name)));
		const cell = layout.cells.get(s.name);
		if (!cell) throw new Error(`sprite ${s.name} not placed`);
		sheet.blit(canvas, 0, 0, cell.col * TILE, cell.row * TILE, canvas.width, canvas.height);
	}
	png.data = Buffer.from(sheet.data);
	return PNG.sync.write(png, { colorType: 6 });
}

function xmlAttr(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function tilesetTsx(layout = layoutSheet()): string {
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<tileset version="1.8" tiledversion="1.8.2" name="${TILESET_NAME}" tilewidth="${TILE}" tileheight="${TILE}" tilecount="${COLUMNS * layout.rows}" columns="${COLUMNS}">`,
		` <image source="${TILESET_NAME}.png" width="${COLUMNS * TILE}" height="${layout.rows * TILE}"/>`
	];
	for (const t of layout.tiles) {
		lines.push(` <tile id="${t.id}">`, '  <properties>');
		if (t.blocks) lines.push('   <property name="blocks" type="bool" value="true"/>');
		lines.push(`   <property name="name" value="${xmlAttr(t.name)}"/>`, '  </properties>', ' </tile>');
	}
	lines.push('</tileset>', '');
	return lines.join('\n');
}

/** Writes town.png and town.tsx into `<worldDir>/tilesets/`. */
export function writeTileset(worldDir: string, layout = layoutSheet()): void {
	const dir = path.join(worldDir, 'tilesets');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, `${TILESET_NAME}.png`), renderTileset(layout));
	fs.writeFileSync(path.join(dir, `${TILESET_NAME}.tsx`), tilesetTsx(layout));
}

export const DEFAULT_WORLDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../worlds');

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const out = path.resolve(process.argv[2] ?? DEFAULT_WORLDS_DIR);
	const layout = layoutSheet();
	for (const world of ['smallville', 'the-ville-3']) writeTileset(path.join(out, world), layout);
	console.log(`wrote ${layout.tiles.length} tiles (${COLUMNS} x ${layout.rows}) to ${out}/{smallville,the-ville-3}/tilesets/`);
}
