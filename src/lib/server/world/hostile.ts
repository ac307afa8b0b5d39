// Hostile maps, for the tests and the bench: files a stranger could hand a user to exhaust the
// server's memory or to smuggle a file from outside a world into one. Each builder writes
// into `dir` and returns the path of the map to read or import.

import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { TINY_WORLD_DIR } from './testing';

const TINY_PNG = path.join(TINY_WORLD_DIR, 'tilesets', 'tiny.png');

/** A map of width x height with the given layer XML and an embedded tileset whose image is `image`. */
export function mapXml(width: number, height: number, layers: string, image = 'tiles.png'): string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="right-down" width="${width}" height="${height}" tilewidth="32" tileheight="32" infinite="0" nextlayerid="9" nextobjectid="1">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">
  <image source="${image}" width="64" height="32"/>
 </tileset>
${layers}
</map>
`;
}

const zlibLayer = (id: number, width: number, height: number, data: Buffer) =>
	` <layer id="${id}" name="l${id}" width="${width}" height="${height}">
  <data encoding="base64" compression="zlib">${data.toString('base64')}</data>
 </layer>`;

/** zlib of `bytes` zero bytes (a zeroed buffer costs no memory until written). */
export const zeroBomb = (bytes: number): Buffer => zlib.deflateSync(Buffer.alloc(bytes), { level: 9 });

export interface HostileMap {
	name: string;
	/** the map to read or import */
	file: string;
	/** what a reader must say when it refuses it */
	refusal: RegExp;
}

/**
 * The hostile maps: zlib bombs (a huge width x height, a small map whose data inflates far
 * past its tiles, many large layers), and maps whose tilesets or images lie outside their
 * folder (/etc/passwd, /etc/shadow, a link, a pipe, a text file posing as an image).
 */
export function writeHostileMaps(dir: string): HostileMap[] {
	mkdirSync(dir, { recursive: true });
	const maps: HostileMap[] = [];
	const add = (name: string, file: string, refusal: RegExp) => maps.push({ name, file: path.join(dir, file), refusal });
	const folder = (name: string) => {
		const d = path.join(dir, name);
		mkdirSync(d, { recursive: true });
		copyFileSync(TINY_PNG, path.join(d, 'tiles.png'));
		return d;
	};

	// 1. ~130 KB of zlib standing for a 5000 x 5000 map (100 MB of tile data)
	{
		const side = 5000;
		const d = folder('huge');
		writeFileSync(path.join(d, 'huge.tmx'), mapXml(side, side, zlibLayer(1, side, side, zeroBomb(side * side * 4))));
		add('a 130 KB zlib .tmx of 5000 x 5000 tiles', 'huge/huge.tmx', /5000x5000 tiles.*more than the 4,000,000 allowed \(SIMULACRA_MAX_TILES\)/);
	}
	// 2. a 1000 x 1000 map whose one layer inflates to 128 MB (its tiles take 4 MB)
	{
		const d = folder('inflate');
		writeFileSync(path.join(d, 'inflate.tmx'), mapXml(1000, 1000, zlibLayer(1, 1000, 1000, zeroBomb(128 * 1024 * 1024))));
		add('a 1000 x 1000 .tmx whose zlib data inflates to 128 MB', 'inflate/inflate.tmx', /cannot be decompressed \(it decompresses to more than the 3\.8 MiB the layer's tiles take\)/);
	}
	// 3. 2000 x 2000 with eight layers, each small as zlib
	{
		const d = folder('layers');
		const one = zeroBomb(2000 * 2000 * 4);
		const layers = Array.from({ length: 8 }, (_, k) => zlibLayer(k + 1, 2000, 2000, one)).join('\n');
		writeFileSync(path.join(d, 'layers.tmx'), mapXml(2000, 2000, layers));
		add('a 2000 x 2000 .tmx with 8 zlib layers', 'layers/layers.tmx', /with 8 tile layers, 32,000,000 tiles in all/);
	}
	const small = (image: string) => mapXml(2, 2, ` <layer id="1" name="ground" width="2" height="2">\n  <data encoding="csv">1,1,1,1</data>\n </layer>`, image);
	// 4. a tileset image that is /etc/passwd
	{
		const d = folder('passwd');
		writeFileSync(path.join(d, 'passwd.tmx'), small('/etc/passwd'));
		add('a .tmx whose tileset image is /etc/passwd', 'passwd/passwd.tmx', /image "\/etc\/passwd" lies outside/);
	}
	// 5. a .tmj whose embedded tileset names /etc/shadow
	{
		const d = folder('shadow');
		writeFileSync(
			path.join(d, 'shadow.tmj'),
			JSON.stringify({
				type: 'map',
				orientation: 'orthogonal',
				width: 2,
				height: 2,
				tilewidth: 32,
				tileheight: 32,
				layers: [{ id: 1, name: 'ground', type: 'tilelayer', width: 2, height: 2, data: [1, 1, 1, 1] }],
				tilesets: [{ firstgid: 1, name: 't', tilewidth: 32, tileheight: 32, tilecount: 2, columns: 2, image: '/etc/shadow', imagewidth: 64, imageheight: 32 }]
			})
		);
		add('a .tmj whose embedded tileset names /etc/shadow', 'shadow/shadow.tmj', /image "\/etc\/shadow" lies outside the folder the map is imported from/);
	}
	// 6. an image inside the folder that is a link to /etc/passwd
	{
		const d = folder('link');
		symlinkSync('/etc/passwd', path.join(d, 'linked.png'));
		writeFileSync(path.join(d, 'link.tmx'), small('linked.png'));
		add('a .tmx whose tileset image is a link to /etc/passwd', 'link/link.tmx', /image "linked.png" lies outside/);
	}
	// 7. a text file posing as an image
	{
		const d = folder('text');
		writeFileSync(path.join(d, 'notes.png'), 'root:x:0:0:root:/root:/bin/bash\n');
		writeFileSync(path.join(d, 'text.tmx'), small('notes.png'));
		add('a .tmx whose tileset image is a text file', 'text/text.tmx', /image "notes.png" is not an image/);
	}
	// 8. a tileset file that is a device
	{
		const d = folder('device');
		symlinkSync('/dev/zero', path.join(d, 'zero.tsx'));
		writeFileSync(path.join(d, 'device.tmx'), small('tiles.png').replace(/<tileset firstgid="1"[^]*?<\/tileset>/, '<tileset firstgid="1" source="zero.tsx"/>'));
		add('a .tmx whose tileset is a link to /dev/zero', 'device/device.tmx', /tileset "zero.tsx" lies outside/);
	}
	return maps;
}

export interface HostileResult {
	name: string;
	/** how each reader answered: the world's reader (world check, runs) and the import */
	read: { refused: boolean; message: string; ms: number };
	imported: { refused: boolean; message: string; ms: number };
}

/**
 * Reads every map with the world's reader and imports it into `worldsDir`; each answer with
 * its time. Run in a process of its own to measure the memory it takes (`maxRssMb`).
 */
export async function readHostileMaps(maps: HostileMap[], worldsDir: string): Promise<{ results: HostileResult[]; maxRssMb: number }> {
	const { ProblemList, formatProblem } = await import('../../world/problems');
	const { readMap } = await import('./tmx');
	const { importMap } = await import('./import');
	const results: HostileResult[] = [];
	let n = 0;
	for (const m of maps) {
		let t = performance.now();
		let read = { refused: false, message: '', ms: 0 };
		if (m.file.endsWith('.tmx')) {
			const problems = new ProblemList();
			const parsed = await readMap(m.file, path.dirname(m.file), problems);
			read = { refused: !parsed || problems.errors.length > 0, message: problems.errors.map(formatProblem).join('\n'), ms: performance.now() - t };
		} else read = { refused: true, message: '(not a world map)', ms: 0 };
		t = performance.now();
		let imported: HostileResult['imported'];
		try {
			await importMap(m.file, { name: `hostile-${++n}`, worldsDir });
			imported = { refused: false, message: 'imported', ms: performance.now() - t };
		} catch (e) {
			const problems = (e as { problems?: Parameters<typeof formatProblem>[0][] }).problems;
			imported = { refused: true, message: problems ? problems.map(formatProblem).join('\n') : String(e), ms: performance.now() - t };
		}
		results.push({ name: m.name, read, imported });
	}
	return { results, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}
