// Test helpers: copies of the tiny fixture world, edited per test, in a temporary folder.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A valid 12x10 world: two sectors, three arenas, five objects, two personas. */
export const TINY_WORLD_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tiny');

/** file (relative to the world folder) -> new text, or a function of the old text; null deletes */
export type WorldEdits = Record<string, string | null | ((text: string) => string)>;

const temps: string[] = [];

/** Copies a world folder to a new temporary folder and applies `edits`. */
export function copyWorld(edits: WorldEdits = {}, from = TINY_WORLD_DIR): string {
	const root = mkdtempSync(path.join(tmpdir(), 'world-'));
	temps.push(root);
	const dir = path.join(root, path.basename(from));
	cpSync(from, dir, { recursive: true });
	for (const [file, edit] of Object.entries(edits)) {
		const abs = path.join(dir, file);
		if (edit === null) rmSync(abs);
		else if (typeof edit === 'string') writeFileSync(abs, edit);
		else {
			const before = readFileSync(abs, 'utf8');
			const after = edit(before);
			if (after === before) throw new Error(`edit of ${file} changed nothing`);
			writeFileSync(abs, after);
		}
	}
	return dir;
}

/** Removes every folder made by copyWorld. */
export function removeWorldCopies(): void {
	for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
}

/** 1-based line of the first occurrence of `needle` in `text` (throws if absent). */
export function lineOf(text: string, needle: string): number {
	const at = text.indexOf(needle);
	if (at < 0) throw new Error(`"${needle}" not found`);
	return text.slice(0, at).split('\n').length;
}

/**
 * Writes a town-sized world into `dir`: 140x100 tiles, nine visual layers with four-digit gids
 * (each CSV block is larger than 64 KiB), collisions, 25 sectors, 100 arenas, 300 objects.
 */
export function writeTownSizedWorld(dir: string): string {
	const W = 140;
	const H = 100;
	const T = 32;
	mkdirSync(path.join(dir, 'tilesets'), { recursive: true });
	mkdirSync(path.join(dir, 'personas'));
	const png = new PNG({ width: 40 * T, height: 30 * T });
	writeFileSync(path.join(dir, 'tilesets', 'town.png'), PNG.sync.write(png));
	writeFileSync(
		path.join(dir, 'tilesets', 'town.tsx'),
		`<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.8" name="town" tilewidth="32" tileheight="32" tilecount="1200" columns="40">\n <image source="town.png" width="1280" height="960"/>\n</tileset>\n`
	);
	const layers: string[] = [];
	for (let l = 0; l < 9; l++) {
		// gids of four digits make each CSV block larger than 64 KiB
		const rows: string[] = [];
		for (let y = 0; y < H; y++) rows.push(Array.from({ length: W }, (_, x) => 1000 + ((x + y + l) % 200)).join(','));
		layers.push(` <layer id="${l + 1}" name="visual${l}" width="${W}" height="${H}">\n  <data encoding="csv">\n${rows.join(',\n')}\n</data>\n </layer>`);
	}
	const coll: string[] = [];
	for (let y = 0; y < H; y++) coll.push(Array.from({ length: W }, (_, x) => (x % 28 === 27 && y % 20 !== 10 ? 1 : 0)).join(','));
	layers.push(` <layer id="10" name="collisions" width="${W}" height="${H}">\n  <data encoding="csv">\n${coll.join(',\n')}\n</data>\n </layer>`);
	let id = 0;
	const rect = (name: string, x: number, y: number, w: number, h: number, extra = '') =>
		`  <object id="${++id}" name="${name}" x="${x * T}" y="${y * T}" width="${w * T}" height="${h * T}"${extra}/>`;
	const sectors: string[] = [];
	const arenas: string[] = [];
	const objects: string[] = [];
	for (let sy = 0; sy < 5; sy++)
		for (let sx = 0; sx < 5; sx++) {
			const x0 = sx * 28;
			const y0 = sy * 20;
			sectors.push(rect(`Sector ${sx}-${sy}`, x0, y0, 28, 20));
			for (let a = 0; a < 4; a++) {
				const ax = x0 + (a % 2) * 14;
				const ay = y0 + Math.floor(a / 2) * 10;
				arenas.push(rect(`room ${a}`, ax, ay, 13, 10));
				for (let o = 0; o < 3; o++) objects.push(rect(`thing ${o}`, ax + 2 + o * 3, ay + 3, 2, 1));
			}
		}
	const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="right-down" width="${W}" height="${H}" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" source="tilesets/town.tsx"/>
${layers.join('\n')}
 <objectgroup id="11" name="sectors">\n${sectors.join('\n')}\n </objectgroup>
 <objectgroup id="12" name="arenas">\n${arenas.join('\n')}\n </objectgroup>
 <objectgroup id="13" name="objects">\n${objects.join('\n')}\n </objectgroup>
 <objectgroup id="14" name="spawns">\n  <object id="${++id}" name="s1" x="48" y="48"><point/></object>\n </objectgroup>
</map>
`;
	writeFileSync(path.join(dir, 'big.tmx'), tmx);
	writeFileSync(path.join(dir, 'world.json'), JSON.stringify({ name: 'Big', map: 'big.tmx', start: '2023-02-13T07:00:00', secondsPerStep: 10 }));
	return dir;
}
