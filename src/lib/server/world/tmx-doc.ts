// Reading and writing the editable map (MapDoc, src/lib/world/doc.ts). Reading goes through the
// same strict scan as the world reader (`scanMap` in tmx.ts), so a map the world refuses is
// refused here too, with the same messages. Writing is our own: a .tmx that Tiled opens and
// edits and tmx-parser reads, with everything the doc keeps as XML written back as read.

import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import {
	type DocLayer,
	type DocObject,
	type DocObjectLayer,
	type DocTileLayer,
	type DocTileset,
	type MapDoc
} from '../../world/doc';
import { ProblemList, WorldError, type WorldProblem } from '../../world/problems';
import type { XmlElement } from '../../world/xml';
import { PathError, resolveInside, splitRelativePath } from '../files';
import { writeFileAtomicAsync } from '../fs/atomic';
import { readTextCapped } from '../limits';
import { relativeTo, scanMap, type MapScan, type ScanOptions } from './tmx';

// ---- reading -----------------------------------------------------------------------------------

/**
 * Reads `file` (relative to `worldDir`) into a MapDoc. Throws PathError for a path outside the
 * world folder or a missing file, and WorldError (file + line + the feature) for a map the
 * world cannot hold: infinite or non-orthogonal maps, chunks, zstd, group layers, templates,
 * unknown encodings, wrong data lengths, missing tilesets or images, unknown tile ids.
 */
export async function readMapDoc(worldDir: string, file: string): Promise<MapDoc> {
	const abs = await resolveInside(worldDir, file);
	const { doc } = await readMapDocAt(abs, await realpath(worldDir));
	return doc;
}

/**
 * Reads the map at `mapAbs`; paths (the doc's file, tileset images, problems) are relative to
 * `baseDir`. Warnings of the scan (image layers, image sizes) come back beside the doc.
 */
export async function readMapDocAt(
	mapAbs: string,
	baseDir: string,
	opts: ScanOptions = {}
): Promise<{ doc: MapDoc; warnings: WorldProblem[] }> {
	const problems = new ProblemList();
	const file = relativeTo(baseDir, mapAbs);
	let xml: string;
	try {
		xml = await readTextCapped(mapAbs);
	} catch (e) {
		throw new WorldError([{ file, message: `cannot read the map file: ${(e as Error).message}` }], `map "${file}"`);
	}
	const scan = await scanMap(xml, mapAbs, baseDir, problems, opts);
	if (!scan || problems.errors.length) throw new WorldError(problems.errors, `map "${file}"`);
	return { doc: docOfScan(scan), warnings: problems.warnings };
}

const LAYER_ATTRS = ['id', 'name', 'visible', 'opacity'];
const TILE_LAYER_ATTRS = [...LAYER_ATTRS, 'width', 'height'];
const OBJECT_ATTRS = ['id', 'name', 'x', 'y', 'width', 'height'];

function without(attrs: Record<string, string>, drop: readonly string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(attrs)) if (!drop.includes(k)) out[k] = v;
	return out;
}

/**
 * A copy of `el` without the indentation: the text of an element that has child elements is
 * dropped when it is only whitespace (the writer indents afresh). Any other text is kept.
 */
export function cleanXml(el: XmlElement): XmlElement {
	const children = el.children.map(cleanXml);
	const text = children.length && el.text.trim() === '' ? '' : el.text;
	return { name: el.name, attrs: { ...el.attrs }, children, text, line: el.line };
}

const propertiesOf = (el: XmlElement): XmlElement[] =>
	el.children.filter((c) => c.name === 'properties').flatMap((p) => p.children.map(cleanXml));

function opacityOf(el: XmlElement): number {
	const v = Number(el.attrs.opacity ?? 1);
	return Number.isFinite(v) ? v : 1;
}

/** The scanned map as a doc. Missing layer and object ids (maps older than Tiled 1.2) are numbered. */
export function docOfScan(scan: MapScan): MapDoc {
	const { root } = scan;
	const counter = (attr: string) => {
		const v = Number(root.attrs[attr]);
		return Number.isInteger(v) && v > 0 ? v : 1;
	};
	// ids present in the file come first; missing ones are numbered after the largest
	const idOf = (el: XmlElement) => (el.attrs.id === undefined ? undefined : Number(el.attrs.id));
	let maxLayer = 0;
	let maxObject = 0;
	for (const l of scan.layers) {
		maxLayer = Math.max(maxLayer, idOf(l.el) ?? 0);
		if (l.kind === 'object') for (const o of l.objectEls) maxObject = Math.max(maxObject, idOf(o) ?? 0);
	}
	let nextLayerId = Math.max(counter('nextlayerid'), maxLayer + 1);
	let nextObjectId = Math.max(counter('nextobjectid'), maxObject + 1);

	const byEl = new Map<XmlElement, MapScan['layers'][number]>(scan.layers.map((l) => [l.el, l]));
	const tilesetByEl = new Map(scan.tilesets.map((t) => [t.el, t]));
	const doc: MapDoc = {
		file: scan.file,
		width: scan.width,
		height: scan.height,
		tileWidth: scan.tileWidth,
		tileHeight: scan.tileHeight,
		nextLayerId: 0,
		nextObjectId: 0,
		attrs: { ...root.attrs },
		properties: [],
		tilesets: [],
		layers: [],
		extra: []
	};
	// the map's orientation is part of the model (orthogonal); Tiled needs it written
	doc.attrs.orientation ??= 'orthogonal';
	for (const el of root.children) {
		if (el.name === 'properties') {
			doc.properties.push(...el.children.map(cleanXml));
			continue;
		}
		if (el.name === 'tileset') {
			const t = tilesetByEl.get(el)!;
			doc.tilesets.push(
				t.source !== undefined
					? { firstGid: t.firstGid, source: t.source, view: t.view }
					: { firstGid: t.firstGid, xml: cleanXml(el), view: t.view }
			);
			continue;
		}
		const scanned = byEl.get(el);
		if (!scanned) {
			doc.extra.push(cleanXml(el));
			continue;
		}
		const base = {
			id: idOf(el) ?? nextLayerId++,
			name: el.attrs.name ?? '',
			visible: el.attrs.visible !== '0',
			opacity: opacityOf(el),
			properties: propertiesOf(el)
		};
		if (scanned.kind === 'tile') {
			doc.layers.push({
				...base,
				kind: 'tile',
				attrs: without(el.attrs, TILE_LAYER_ATTRS),
				encoding: scanned.encoding,
				...(scanned.compression ? { compression: scanned.compression } : {}),
				data: Array.from(scanned.gids)
			});
		} else if (scanned.kind === 'object') {
			const objects: DocObject[] = scanned.layer.objects.map((o, k) => {
				const oel = scanned.objectEls[k];
				return {
					id: o.id ?? nextObjectId++,
					name: o.name,
					x: o.x,
					y: o.y,
					width: o.width,
					height: o.height,
					attrs: without(oel.attrs, OBJECT_ATTRS),
					properties: propertiesOf(oel),
					shape: oel.children.filter((c) => c.name !== 'properties').map(cleanXml)
				};
			});
			doc.layers.push({ ...base, kind: 'object', attrs: without(el.attrs, LAYER_ATTRS), objects });
		} else {
			// the layer's properties live in `properties`; the element keeps the rest (its <image>)
			const xml = cleanXml({ ...el, children: el.children.filter((c) => c.name !== 'properties') });
			doc.layers.push({ ...base, kind: 'other', attrs: without(el.attrs, LAYER_ATTRS), xml });
		}
	}
	doc.nextLayerId = nextLayerId;
	doc.nextObjectId = nextObjectId;
	return doc;
}

// ---- writing -----------------------------------------------------------------------------------

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttr = (s: string) =>
	s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/\n/g, '&#10;')
		.replace(/\r/g, '&#13;')
		.replace(/\t/g, '&#9;');

const attrText = (attrs: Record<string, string>) =>
	Object.entries(attrs)
		.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
		.join('');

const pad = (depth: number) => ' '.repeat(depth);

/**
 * One element as XML at `depth` (one space per level, as Tiled writes). An element with child
 * elements and no text of its own is indented; the text of a leaf (a multi-line string
 * property) is written exactly; mixed content is written without added whitespace.
 */
export function xmlText(el: XmlElement, depth = 0): string {
	const open = `${pad(depth)}<${el.name}${attrText(el.attrs)}`;
	if (!el.children.length) return el.text === '' ? `${open}/>` : `${open}>${escapeText(el.text)}</${el.name}>`;
	if (el.text.trim() === '')
		return `${open}>\n${el.children.map((c) => xmlText(c, depth + 1)).join('\n')}\n${pad(depth)}</${el.name}>`;
	return `${open}>${escapeText(el.text)}${el.children.map((c) => xmlText(c, 0)).join('')}</${el.name}>`;
}

const num = (n: number) => String(n);

function propertiesXml(props: readonly XmlElement[], depth: number): string[] {
	if (!props.length) return [];
	return [`${pad(depth)}<properties>`, ...props.map((p) => xmlText(p, depth + 1)), `${pad(depth)}</properties>`];
}

function layerAttrs(l: DocLayer, extra: Record<string, string>): Record<string, string> {
	return {
		id: num(l.id),
		name: l.name,
		...extra,
		...l.attrs,
		...(l.visible ? {} : { visible: '0' }),
		...(l.opacity !== 1 ? { opacity: num(l.opacity) } : {})
	};
}

function tileDataXml(l: DocTileLayer, width: number): string[] {
	if (l.encoding === 'csv') {
		const rows: string[] = [];
		for (let at = 0; at < l.data.length; at += width) rows.push(l.data.slice(at, at + width).join(','));
		return ['  <data encoding="csv">', rows.join(',\n'), '</data>'];
	}
	if (l.encoding === 'base64') {
		const raw = Buffer.alloc(l.data.length * 4);
		l.data.forEach((g, k) => raw.writeUInt32LE(g >>> 0, k * 4));
		const bytes = l.compression === 'zlib' ? zlib.deflateSync(raw) : l.compression === 'gzip' ? zlib.gzipSync(raw) : raw;
		const attrs = attrText({ encoding: 'base64', ...(l.compression ? { compression: l.compression } : {}) });
		return [`  <data${attrs}>`, `   ${bytes.toString('base64')}`, '  </data>'];
	}
	return ['  <data>', ...l.data.map((g) => (g ? `   <tile gid="${g >>> 0}"/>` : '   <tile/>')), '  </data>'];
}

function objectXml(o: DocObject): string[] {
	const attrs = attrText({
		id: num(o.id),
		...(o.name !== '' ? { name: o.name } : {}),
		x: num(o.x),
		y: num(o.y),
		...(o.width !== 0 ? { width: num(o.width) } : {}),
		...(o.height !== 0 ? { height: num(o.height) } : {}),
		...o.attrs
	});
	const inner = [...propertiesXml(o.properties, 3), ...o.shape.map((s) => xmlText(s, 3))];
	if (!inner.length) return [`  <object${attrs}/>`];
	return [`  <object${attrs}>`, ...inner, '  </object>'];
}

function tilesetXml(t: DocTileset): string {
	if (t.xml) {
		const attrs = { firstgid: num(t.firstGid), ...without(t.xml.attrs, ['firstgid']) };
		return xmlText({ ...t.xml, attrs }, 1);
	}
	return ` <tileset firstgid="${t.firstGid}" source="${escapeAttr(t.source ?? '')}"/>`;
}

function layerXml(l: DocLayer, doc: MapDoc): string[] {
	if (l.kind === 'tile') {
		const attrs = attrText(layerAttrs(l, { width: num(doc.width), height: num(doc.height) }));
		return [` <layer${attrs}>`, ...propertiesXml(l.properties, 2), ...tileDataXml(l, doc.width), ' </layer>'];
	}
	if (l.kind === 'object') {
		const inner = [...propertiesXml(l.properties, 2), ...l.objects.flatMap(objectXml)];
		const attrs = attrText(layerAttrs(l, {}));
		return inner.length ? [` <objectgroup${attrs}>`, ...inner, ' </objectgroup>'] : [` <objectgroup${attrs}/>`];
	}
	const children = l.xml.children.filter((c) => c.name !== 'properties');
	const inner = [...propertiesXml(l.properties, 2), ...children.map((c) => xmlText(c, 2))];
	const attrs = attrText(layerAttrs(l, {}));
	return inner.length ? [` <${l.xml.name}${attrs}>`, ...inner, ` </${l.xml.name}>`] : [` <${l.xml.name}${attrs}/>`];
}

/** The attributes of <map> as written: the doc's attributes with its typed fields. */
export function mapAttrs(doc: MapDoc): Record<string, string> {
	return {
		...doc.attrs,
		orientation: doc.attrs.orientation ?? 'orthogonal',
		width: num(doc.width),
		height: num(doc.height),
		tilewidth: num(doc.tileWidth),
		tileheight: num(doc.tileHeight),
		nextlayerid: num(doc.nextLayerId),
		nextobjectid: num(doc.nextObjectId)
	};
}

/** The doc as the text of a .tmx file. Assumes a consistent doc (see `checkMapDoc`). */
export function writeMapDoc(doc: MapDoc): string {
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<map${attrText(mapAttrs(doc))}>`,
		...doc.extra.map((e) => xmlText(e, 1)),
		...propertiesXml(doc.properties, 1),
		...doc.tilesets.map(tilesetXml),
		...doc.layers.flatMap((l) => layerXml(l, doc)),
		'</map>',
		''
	];
	return lines.join('\n');
}

// ---- saving ------------------------------------------------------------------------------------

const XML_NAME = /^[A-Za-z_:][\w.:-]*$/;
// characters XML 1.0 cannot hold at all (tab, newline and carriage return are fine)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/**
 * Problems that would make the written map wrong: sizes, tile data, ids. Raises
 * `nextLayerId` / `nextObjectId` above every id in use (never lowers them).
 */
export function checkMapDoc(doc: MapDoc): WorldProblem[] {
	const problems: WorldProblem[] = [];
	const bad = (where: string | undefined, message: string) =>
		problems.push(where ? { file: doc.file, where, message } : { file: doc.file, message });
	const positive = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
	for (const [k, v] of [
		['width', doc.width],
		['height', doc.height],
		['tileWidth', doc.tileWidth],
		['tileHeight', doc.tileHeight]
	] as const)
		if (!positive(v)) bad(undefined, `the map's ${k} must be a positive whole number, not ${v}`);
	if (problems.length) return problems;
	const count = doc.width * doc.height;
	const layerIds = new Map<number, string>();
	const objectIds = new Map<number, string>();
	let maxLayer = 0;
	let maxObject = 0;
	for (const t of doc.tilesets) {
		if (!positive(t.firstGid)) bad(`tileset "${t.view.name}"`, `firstGid ${t.firstGid} must be a positive whole number`);
		if ((t.source === undefined) === (t.xml === undefined))
			bad(`tileset "${t.view.name}"`, 'a tileset is either external (source) or embedded (xml)');
	}
	for (const l of doc.layers) {
		const where = `layer ${l.id} "${l.name}"`;
		if (!positive(l.id)) bad(where, `layer id ${l.id} must be a positive whole number`);
		else if (layerIds.has(l.id)) bad(where, `layer id ${l.id} is also used by ${layerIds.get(l.id)}`);
		else layerIds.set(l.id, where);
		maxLayer = Math.max(maxLayer, l.id);
		if (!(Number.isFinite(l.opacity) && l.opacity >= 0 && l.opacity <= 1)) bad(where, `opacity ${l.opacity} must be between 0 and 1`);
		if (l.kind === 'tile') {
			if (l.data.length !== count) bad(where, `the layer has ${l.data.length} tiles but a ${doc.width}x${doc.height} map needs ${count}`);
			const wrong = l.data.findIndex((g) => !(Number.isInteger(g) && g >= 0 && g <= 0xffffffff));
			if (wrong >= 0) bad(where, `tile ${wrong} holds ${l.data[wrong]}, which is not a tile id`);
			if (!['csv', 'base64', 'xml'].includes(l.encoding)) bad(where, `unknown encoding "${l.encoding}"`);
			if (l.compression !== undefined && (l.encoding !== 'base64' || !['zlib', 'gzip'].includes(l.compression)))
				bad(where, `compression "${l.compression}" needs base64 data and is zlib or gzip`);
		} else if (l.kind === 'object') {
			for (const o of (l as DocObjectLayer).objects) {
				const ow = `${where}, object ${o.id}${o.name ? ` "${o.name}"` : ''}`;
				if (!positive(o.id)) bad(ow, `object id ${o.id} must be a positive whole number`);
				else if (objectIds.has(o.id)) bad(ow, `object id ${o.id} is also used by ${objectIds.get(o.id)}`);
				else objectIds.set(o.id, ow);
				maxObject = Math.max(maxObject, o.id);
				for (const k of ['x', 'y', 'width', 'height'] as const)
					if (!Number.isFinite(o[k])) bad(ow, `${k} ${o[k]} is not a number`);
			}
		}
	}
	// the kept XML must stay well-formed when written: names, and no control characters
	const xmlProblem = (e: XmlElement): string | undefined => {
		if (!XML_NAME.test(e.name)) return `"${e.name}" is not an XML element name`;
		for (const [k, v] of Object.entries(e.attrs)) {
			if (!XML_NAME.test(k)) return `"${k}" is not an XML attribute name (in <${e.name}>)`;
			if (CONTROL.test(v)) return `the attribute ${k} of <${e.name}> holds a control character`;
		}
		if (CONTROL.test(e.text)) return `the text of <${e.name}> holds a control character`;
		for (const c of e.children) {
			const wrong = xmlProblem(c);
			if (wrong) return wrong;
		}
		return undefined;
	};
	const checkXml = (where: string | undefined, els: readonly XmlElement[]) => {
		for (const e of els) {
			const wrong = xmlProblem(e);
			if (wrong) bad(where, wrong);
		}
	};
	const checkAttrs = (where: string | undefined, attrs: Record<string, string>) =>
		checkXml(where, [{ name: 'attrs', attrs, children: [], text: '', line: 0 }]);
	checkAttrs(undefined, doc.attrs);
	checkXml('map properties', doc.properties);
	checkXml(undefined, doc.extra);
	for (const t of doc.tilesets) {
		if (t.xml) checkXml(`tileset "${t.view.name}"`, [t.xml]);
		if (t.source !== undefined && CONTROL.test(t.source)) bad(`tileset "${t.view.name}"`, 'the source holds a control character');
	}
	for (const l of doc.layers) {
		const where = `layer ${l.id} "${l.name}"`;
		if (CONTROL.test(l.name)) bad(where, 'the name holds a control character');
		checkAttrs(where, l.attrs);
		checkXml(where, l.properties);
		if (l.kind === 'other') checkXml(where, [l.xml]);
		if (l.kind === 'object')
			for (const o of l.objects) {
				const ow = `${where}, object ${o.id}`;
				if (CONTROL.test(o.name)) bad(ow, 'the name holds a control character');
				checkAttrs(ow, o.attrs);
				checkXml(ow, [...o.properties, ...o.shape]);
			}
	}
	if (problems.length) return problems;
	doc.nextLayerId = Math.max(Number.isInteger(doc.nextLayerId) ? doc.nextLayerId : 1, maxLayer + 1);
	doc.nextObjectId = Math.max(Number.isInteger(doc.nextObjectId) ? doc.nextObjectId : 1, maxObject + 1);
	return problems;
}

/**
 * Checks the doc, writes it and checks that the written map reads back (tilesets found, every
 * tile id defined), then replaces `worldDir/doc.file` atomically (../fs/atomic.ts: temporary file, sync, rename).
 * Updates the doc to what a new read would give: the next-id counters raised above the ids in
 * use and the map attributes. Throws PathError for a file outside the world folder and
 * WorldError for a doc that would not make a readable map (nothing is written then).
 */
export async function saveMapDoc(worldDir: string, doc: MapDoc): Promise<void> {
	const segments = splitRelativePath(doc.file);
	if (!/\.tmx$/i.test(doc.file)) throw new PathError('invalid', `Refused path "${doc.file}": a map is saved as a .tmx file`);
	const problems = checkMapDoc(doc);
	if (problems.length) throw new WorldError(problems, `map "${doc.file}"`);

	const root = await realpath(worldDir);
	const dir = segments.length > 1 ? await resolveInside(worldDir, segments.slice(0, -1).join('/'), 'directory') : root;
	const target = path.join(dir, segments[segments.length - 1]);
	const existing = await lstat(target).catch(() => undefined);
	if (existing && !existing.isFile()) throw new PathError('invalid', `Refused path "${doc.file}": it is not a plain file`);

	const xml = writeMapDoc(doc);
	const check = new ProblemList();
	const scan = await scanMap(xml, target, root, check);
	if (!scan || check.errors.length) throw new WorldError(check.errors, `map "${doc.file}"`);

	await writeFileAtomicAsync(target, xml);
	// the doc now reads as the saved file does
	doc.attrs = mapAttrs(doc);
}
