// Importing the reference implementation's town and one of its simulations as a new world:
//
//   npm run simulacra -- world import <checkout> --storage <simulation> --name <id>
//
// The Tiled map (static_dirs/assets/<town>/visuals/*.json) brings its layers and tilesets; a
// tileset image the checkout lacks (the paid tile art) gets a placeholder of the same size, named
// like the original so that the real image can be dropped in later. The mazes give the
// collisions, the environment tree (every sector, arena and game object they use, named by the
// special-block CSVs) and the spawning locations; the simulation (storage/<simulation>/) gives
// the clock (reverie/meta.json), one persona per persona folder (scratch.json, the places of
// spatial_memory.json, the memories of nodes.json as structured seed memories with their kinds,
// times, importance and evidence, and their vectors of embeddings.json in personas/<id>.vectors)
// starting on its tile of environment/<step>.json.
//
// Everything is read and checked before anything is written; the world is built in a hidden
// folder beside the worlds, checked like any world (`world check`) and only then moved into
// place, so a failed import leaves nothing behind.

import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatIso } from '../../engine/clock';
import { DEFAULT_SETTINGS } from '../../engine/types';
import { WorldError, formatProblem, type WorldProblem } from '../../world/problems';
import { worldsDir as defaultWorldsDir } from '../paths';
import { formatBytes, LIMIT_ENV, limits } from '../limits';
import { checkWorld } from './check';
import { importMap } from './import';
import { WORLD_ID } from '../../shared/ids';
import { isRecord } from '../../shared/guards';
import { readMapDocAt, writeMapDoc } from './tmx-doc';
import { personaId, RefFiles } from './reference/files';
import { readMaze, type RefMaze } from './reference/maze';
import { memoriesOf } from './reference/memories';
import { placeholderPng } from './reference/placeholder';
import { readEmbeddings, readEnvironment, readMeta, readNodes, readScratch, readSpatial, type RefMeta, type RefNode, type RefScratch } from './reference/simulation';
import { encodeVectors, vectorsRel } from './vectors';
import { addTownLayers, blockOutside, townZones, type TownZones } from './reference/town';

export interface ReferenceImportReport {
	ok: true;
	world: string;
	/** the world's name (world.json) */
	name: string;
	dir: string;
	map: string;
	/** the checkout's simulation the personas and clock come from */
	simulation: string;
	start: string;
	secondsPerStep: number;
	/**
	 * `seedMemories`: how many memories of nodes.json the persona starts with (its `memories`);
	 * `vectors`: those whose vectors of embeddings.json the world keeps (`file`, relative to the
	 * world), or why none are kept
	 */
	personas: { id: string; name: string; home: string; tile: [number, number]; knownPlaces: number; seedMemories: number; vectors: KeptVectors }[];
	zones: { sectors: number; arenas: number; objects: number; spawns: number };
	layers: { name: string; kind: 'tile' | 'object' | 'image'; visible: boolean }[];
	/** tileset images the checkout lacks, as the map names them; each got a placeholder */
	missingImages: string[];
	warnings: string[];
	ms: number;
}

/** The folder that holds static_dirs/ and storage/ (a checkout's environment/frontend_server). */
export function frontendOf(checkout: string): RefFiles {
	const root = path.resolve(checkout);
	if (!existsSync(root)) throw new WorldError([{ file: checkout, message: 'folder not found' }], 'import');
	for (const base of ['environment/frontend_server', 'frontend_server', '']) {
		const files = new RefFiles(root, base);
		if (files.isDir('static_dirs/assets') && (files.isDir('storage') || files.isDir('compressed_storage'))) return files;
	}
	throw new WorldError(
		[
			{
				file: checkout,
				message:
					'not a checkout of the reference implementation (joonspk-research/generative_agents): expected environment/frontend_server/static_dirs/assets/<town>/matrix/maze_meta_info.json and environment/frontend_server/storage/<simulation>/reverie/meta.json'
			}
		],
		'import'
	);
}

/** The simulations a checkout holds (folders of storage/ with reverie/meta.json). */
export function listSimulations(frontend: RefFiles): string[] {
	const dir = frontend.abs('storage');
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((n) => existsSync(path.join(dir, n, 'reverie', 'meta.json')))
		.sort();
}

/** A persona's vectors as the world keeps them (personas/<id>.vectors), or why it keeps none. */
export type KeptVectors = { kept: number; dimension: number; file: string; bytes: number } | { kept: 0; reason: string };

interface PersonaPlan {
	id: string;
	scratch: RefScratch;
	folder: string;
	nodes: RefNode[];
	json: Record<string, unknown>;
	tile: { x: number; y: number };
	vectors?: KeptVectors;
	/** the side file's bytes, when vectors are kept */
	vectorFile?: Buffer;
}

/** Tileset images of the Tiled JSON map, relative to its folder, with the size the map declares. */
interface MapImage {
	rel: string;
	tileset: string;
	index: number;
	width: number;
	height: number;
	tileWidth: number;
	tileHeight: number;
	margin: number;
	spacing: number;
}

function mapImages(files: RefFiles, rel: string, map: unknown): MapImage[] {
	const out: MapImage[] = [];
	if (!isRecord(map) || !Array.isArray(map.tilesets)) return out;
	map.tilesets.forEach((t, k) => {
		if (!isRecord(t) || typeof t.image !== 'string') return;
		const where = `tilesets[${k}] "${String(t.name ?? '')}"`;
		const image = t.image.replace(/\\/g, '/');
		if (path.isAbsolute(image) || image.split('/').includes('..')) {
			files.error(rel, where, `the image "${t.image}" lies outside the map's folder`);
			return;
		}
		const n = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
		const tileWidth = n(t.tilewidth, n(map.tilewidth, 32));
		const tileHeight = n(t.tileheight, n(map.tileheight, 32));
		const columns = n(t.columns, 0);
		const count = n(t.tilecount, 0);
		const width = n(t.imagewidth, columns * tileWidth);
		const height = n(t.imageheight, columns ? Math.ceil(count / columns) * tileHeight : 0);
		out.push({ rel: image, tileset: String(t.name ?? `tileset ${k}`), index: k, width, height, tileWidth, tileHeight, margin: n(t.margin, 0), spacing: n(t.spacing, 0) });
	});
	return out;
}

/**
 * Imports the town of a reference checkout with the personas of `storage/<simulation>` as the
 * new world `name` in `worldsDir` (SIMULACRA_WORLDS or worlds/). Throws WorldError naming every
 * file and row at fault; nothing is written then.
 */
export async function importReference(checkout: string, opts: { simulation: string; name: string; worldsDir?: string; title?: string }): Promise<ReferenceImportReport> {
	const t0 = performance.now();
	const { name, simulation } = opts;
	const worlds = path.resolve(opts.worldsDir ?? defaultWorldsDir());
	if (!WORLD_ID.test(name))
		throw new WorldError([{ file: name, message: `"${name}" is not a world name: use lowercase letters, digits, "-" and "_" (at most 64, starting with a letter or digit), e.g. "the-ville"` }], 'import');
	if (existsSync(path.join(worlds, name))) throw new WorldError([{ file: name, message: `a world named "${name}" already exists in ${worlds}` }], 'import');

	const front = frontendOf(checkout);
	if (!/^[\w .-]+$/.test(simulation) || simulation === '.' || simulation === '..')
		throw new WorldError([{ file: simulation, message: `"${simulation}" is not the name of a simulation folder of storage/` }], 'import');
	const sim = front.sub(`storage/${simulation}`);
	if (!sim.isDir('')) {
		const known = listSimulations(front);
		throw new WorldError(
			[{ file: sim.rel(''), message: `no simulation "${simulation}" in ${front.rel('storage') || 'storage'}${known.length ? ` (it holds: ${known.join(', ')})` : ''}` }],
			'import'
		);
	}

	// ---- read and check everything -------------------------------------------------------------
	const meta = await readMeta(sim, 'reverie/meta.json');
	sim.failIfErrors('import');
	const { maze: town } = meta as RefMeta;
	const assets = front.sub(`static_dirs/assets/${town}`);
	if (!assets.isDir(''))
		throw new WorldError([{ file: sim.rel('reverie/meta.json'), message: `"maze_name" is "${town}", but ${assets.rel('')} does not exist` }], 'import');
	const maze = await readMaze(assets.sub('matrix'));
	const visuals = assets.sub('visuals');
	const mapNames = visuals.isDir('') ? readdirSync(visuals.abs('')).filter((f) => /\.(json|tmj)$/i.test(f)).sort() : [];
	const mapName = mapNames.find((f) => f.startsWith(`${town}_`)) ?? mapNames[0];
	if (!mapName) assets.error('visuals', undefined, `holds no Tiled map (.json): the reference's front end draws the town from visuals/${town}_jan7.json`);
	const mapJson = mapName ? await visuals.plainJson(mapName) : undefined;
	const images = mapName ? mapImages(visuals, mapName, mapJson) : [];
	sim.failIfErrors('import');

	const m = meta as RefMeta;
	const z = townZones(maze as RefMaze);
	const plans = await readPersonas(sim, m, maze as RefMaze, z);
	sim.failIfErrors('import');

	// ---- build it in a hidden folder ----------------------------------------------------------
	await mkdir(worlds, { recursive: true });
	const stage = path.join(worlds, `.import-${name}-${randomBytes(4).toString('hex')}`);
	try {
		const stagedVisuals = path.join(stage, 'visuals');
		await mkdir(stagedVisuals, { recursive: true });
		await copyFile(visuals.abs(mapName!), path.join(stagedVisuals, mapName!));
		const missing: string[] = [];
		for (const img of images) {
			const to = path.join(stagedVisuals, ...img.rel.split('/'));
			await mkdir(path.dirname(to), { recursive: true });
			if (visuals.isFile(img.rel)) await copyFile(visuals.abs(img.rel), to);
			else {
				missing.push(visuals.rel(img.rel));
				if (!(img.width > 0 && img.height > 0))
					throw new WorldError([{ file: visuals.rel(mapName!), where: `tilesets[${img.index}] "${img.tileset}"`, message: `the image "${img.rel}" is missing and the map does not say its size (imagewidth, imageheight), so no placeholder can be made` }], 'import');
				await writeFile(to, placeholderPng({ ...img, seed: img.tileset }));
			}
		}
		const stagedWorlds = path.join(stage, 'worlds');
		const imported = await importMap(path.join(stagedVisuals, mapName!), { name, worldsDir: stagedWorlds }).catch((e: unknown) => {
			if (e instanceof WorldError) throw new WorldError(e.problems.map((p) => ({ ...p, file: p.file === mapName ? visuals.rel(mapName) : p.file })), 'import');
			throw e;
		});
		const dir = imported.dir;
		const mapFile = path.join(dir, `${name}.tmx`);
		const { doc } = await readMapDocAt(mapFile, dir);
		const mz = maze as RefMaze;
		if (doc.width !== mz.width || doc.height !== mz.height)
			throw new WorldError(
				[{ file: visuals.rel(mapName!), message: `the map is ${doc.width} x ${doc.height} tiles but maze_meta_info.json says the mazes are ${mz.width} x ${mz.height}` }],
				'import'
			);
		const outside = blockOutside(
			mz,
			plans.map((p) => p.tile.y * mz.width + p.tile.x)
		);
		const hidden = addTownLayers(
			doc,
			mz,
			z,
			plans.map((p) => ({ name: p.id, ...p.tile }))
		);
		await writeFile(mapFile, writeMapDoc(doc));
		const { warning: settingsWarning, ...manifest } = manifestOf(mz, m, plans, `${name}.tmx`) as { warning?: string; name: string };
		if (opts.title?.trim()) manifest.name = opts.title.trim();
		await writeFile(path.join(dir, 'world.json'), JSON.stringify(manifest, null, '\t') + '\n');
		for (const p of plans) {
			await writeFile(path.join(dir, 'personas', `${p.id}.json`), JSON.stringify(p.json, null, '\t') + '\n');
			if (p.vectorFile) await writeFile(path.join(dir, ...vectorsRel(p.id).split('/')), p.vectorFile);
		}

		const check = await checkWorld(dir);
		if (!check.ok) throw new WorldError(check.errors, `the imported world "${name}"`);

		const warnings = [
			...sim.problems.warnings.map(formatProblem),
			...z.warnings,
			...(settingsWarning ? [settingsWarning] : []),
			...(missing.length
				? [
						`${missing.length} tileset image(s) are missing from the checkout (the tile art of the reference is a separate asset pack); each was replaced by a placeholder of the same size in tilesets/ under the same file name: copy the real images there to see the town as drawn`
					]
				: []),
			...(outside
				? [
						`${outside.toLocaleString('en')} walkable tiles of the collision maze lie outside the town (areas at the map's edge that no persona can reach from its tile); they are blocked, so that the town is the world's walkable area`
					]
				: []),
			...(hidden.length ? [`the reference's block layers are kept hidden (${hidden.join(', ')}): the collisions and zones come from its mazes`] : [])
		];
		const report: ReferenceImportReport = {
			ok: true,
			world: name,
			name: manifest.name,
			dir: path.join(worlds, name),
			map: path.join(worlds, name, `${name}.tmx`),
			simulation,
			start: formatIso(m.now),
			secondsPerStep: m.secondsPerStep,
			personas: plans.map((p) => ({
				id: p.id,
				name: p.scratch.name,
				home: p.json.home as string,
				tile: [p.tile.x, p.tile.y],
				knownPlaces: (p.json.knownPlaces as string[]).length,
				seedMemories: (p.json.memories as object[] | undefined)?.length ?? 0,
				vectors: p.vectors ?? { kept: 0, reason: 'no seed memories' }
			})),
			zones: { sectors: check.counts.sectors, arenas: check.counts.arenas, objects: check.counts.objects, spawns: check.counts.spawns },
			layers: doc.layers.map((l) => ({ name: l.name, kind: l.kind === 'other' ? 'image' : l.kind, visible: l.visible })),
			missingImages: missing,
			warnings,
			ms: 0
		};
		if (existsSync(path.join(worlds, name))) throw new WorldError([{ file: name, message: `a world named "${name}" already exists in ${worlds}` }], 'import');
		await rename(dir, path.join(worlds, name));
		report.ms = Math.round(performance.now() - t0);
		return report;
	} finally {
		await rm(stage, { recursive: true, force: true });
	}
}

/** Every persona of the simulation's meta.json, read and checked against the town. */
async function readPersonas(sim: RefFiles, meta: RefMeta, maze: RefMaze, zones: TownZones): Promise<PersonaPlan[]> {
	const env = await readEnvironment(sim, `environment/${meta.step}.json`, meta.personas, maze);
	const arenasOf = new Map<string, string[]>();
	for (const a of zones.arenas) arenasOf.set(a.sector, [...(arenasOf.get(a.sector) ?? []), a.name]);
	const folders = sim.isDir('personas') ? readdirSync(sim.abs('personas')) : [];
	for (const f of folders) if (!meta.personas.includes(f) && !f.startsWith('.')) sim.warn(`personas/${f}`, undefined, `is not among the persona_names of ${meta.file}; it is left out`);
	const plans: PersonaPlan[] = [];
	const ids = new Set<string>();
	for (const [k, name] of meta.personas.entries()) {
		const folder = `personas/${name}`;
		if (!sim.isDir(folder)) {
			sim.error(meta.file, `persona_names[${k}]`, `names "${name}", but there is no folder ${sim.rel(folder)}`);
			continue;
		}
		const scratch = await readScratch(sim, `${folder}/bootstrap_memory/scratch.json`);
		const spatial = await readSpatial(sim, `${folder}/bootstrap_memory/spatial_memory.json`);
		const nodes = await readNodes(sim, `${folder}/bootstrap_memory/associative_memory/nodes.json`);
		const tile = env?.get(name);
		if (!scratch || !spatial || !nodes || !tile) continue;
		if (scratch.name !== name) sim.warn(scratch.file, '"name"', `is "${scratch.name}" but the folder is "${name}"; the scratch's name is used`);
		let id = personaId(scratch.name);
		for (let n = 2; ids.has(id); n++) id = `${personaId(scratch.name)}-${n}`;
		ids.add(id);
		// home: the living area without the world's name
		const parts = scratch.livingArea.split(':').map((s) => s.trim());
		const [sector, arena] = parts.length >= 3 ? parts.slice(1, 3) : parts.length === 2 && arenasOf.has(parts[1]) ? [parts[1], arenasOf.get(parts[1])![0]] : parts.slice(0, 2);
		if (!sector || !arena || !arenasOf.get(sector)?.includes(arena)) {
			sim.error(scratch.file, '"living_area"', `"${scratch.livingArea}" is not an arena of the town (the mazes' sectors and arenas)`);
			continue;
		}
		const t = tile.y * maze.width + tile.x;
		if (maze.collision[t]) {
			sim.error(`environment/${meta.step}.json`, `"${name}"`, `"${name}" stands at (${tile.x}, ${tile.y}), a blocked tile of the collision maze`);
			continue;
		}
		// the arenas it knows: a whole sector when it knows every arena of it, else each `Sector:Arena`
		const sectors = Object.keys(spatial).filter((s) => s !== sector);
		const unknown = sectors.filter((s) => !arenasOf.has(s));
		if (unknown.length) sim.warn(`${folder}/bootstrap_memory/spatial_memory.json`, undefined, `names sectors the town does not have (${unknown.join(', ')}); they are left out`);
		const known = sectors.flatMap((s) => {
			const arenas = arenasOf.get(s);
			if (!arenas) return [];
			const named = arenas.filter((a) => Object.hasOwn(spatial[s], a));
			return named.length === arenas.length || named.length === 0 ? [s] : named.map((a) => `${s}:${a}`);
		});
		plans.push({
			id,
			scratch,
			folder,
			tile,
			nodes,
			json: {
				id,
				name: scratch.name,
				firstName: scratch.firstName,
				lastName: scratch.lastName,
				age: scratch.age,
				innate: scratch.innate,
				learned: scratch.learned,
				currently: scratch.currently,
				lifestyle: scratch.lifestyle,
				dailyPlanRequirement: scratch.dailyPlanReq,
				home: `${sector}:${arena}`,
				spawn: id,
				knownPlaces: known,
				seedMemories: [],
				perception: { visionRadius: scratch.visionR, attentionBandwidth: scratch.attBandwidth, retention: scratch.retention }
			}
		});
	}
	const idOf = new Map(plans.map((p) => [p.scratch.name.toLowerCase(), p.id]));
	for (const p of plans) {
		const { memories, embeddingKeys } = seedMemoriesOf(sim, p, meta.now, idOf);
		// after seedMemories, before perception: the documented order
		const { perception, ...fields } = p.json;
		if (memories.length) p.json = { ...fields, memories, perception };
		await keepVectors(sim, p, memories, embeddingKeys);
	}
	return plans;
}

/**
 * A persona's nodes.json as the structured seed memories of its world (personas/<id>.json
 * `memories`): kind (reference/memories.ts), time, importance (poignancy), evidence (node keys
 * as ids), the other party of a conversation (a persona id) and keywords, the most recent
 * SIMULACRA_MAX_SEED_MEMORIES of them; with the text each was embedded by in embeddings.json
 * (its `embedding_key`).
 */
function seedMemoriesOf(sim: RefFiles, p: PersonaPlan, start: number, idOf: Map<string, string>): { memories: SeedMemoryJson[]; embeddingKeys: string[] } {
	const rel = `${p.folder}/bootstrap_memory/associative_memory`;
	const all = memoriesOf(p.nodes, p.scratch.name, start);
	const max = limits().maxSeedMemories;
	const from = Math.max(0, all.length - max);
	if (from > 0)
		sim.warn(
			`${rel}/nodes.json`,
			undefined,
			`${all.length.toLocaleString('en')} memories, more than the ${max.toLocaleString('en')} an agent may start with (${LIMIT_ENV.maxSeedMemories}): the ${from.toLocaleString('en')} oldest are left out, and evidence citing them`
		);
	const late = all.filter((m) => m.created > start).length;
	if (late)
		sim.warn(`${rel}/nodes.json`, undefined, `${late} memories were made after the simulation's current time (${formatIso(start)}); they count as made then`);
	const kept = all.slice(from);
	const memories = kept.map((m, k) => {
		const i = from + k;
		const evidence = m.evidence.filter((e) => e >= from && e < i).map((e) => all[e].node.key);
		const other = m.with === undefined ? undefined : idOf.get(m.with.toLowerCase());
		return {
			id: m.node.key,
			kind: m.kind,
			description: m.description,
			created: formatIso(Math.min(m.created, start)),
			importance: m.importance,
			...(evidence.length ? { evidence } : {}),
			...(other !== undefined && other !== p.id ? { with: other } : {}),
			...(m.node.keywords.length ? { keywords: m.node.keywords } : {})
		};
	});
	return { memories, embeddingKeys: kept.map((m) => m.node.embeddingKey) };
}

interface SeedMemoryJson {
	id: string;
	description: string;
}

/**
 * The vectors of embeddings.json for the persona's seed memories (by each node's
 * `embedding_key`), as the file personas/<id>.vectors (./vectors.ts): those of the dimension most
 * of them have; a memory whose text has none has none (a run embeds it). A run whose embedder
 * has that dimension stores the memories with them.
 */
async function keepVectors(sim: RefFiles, p: PersonaPlan, memories: SeedMemoryJson[], keys: string[]): Promise<void> {
	const rel = `${p.folder}/bootstrap_memory/associative_memory/embeddings.json`;
	const none = (reason: string) => {
		p.vectors = { kept: 0, reason };
	};
	if (memories.length === 0) return none('no seed memories');
	if (!sim.isFile(rel)) return none('no embeddings.json');
	// a file that cannot be read costs the vectors, not the import
	const before = sim.problems.errors.length;
	const table = await readEmbeddings(sim, rel);
	const unread = sim.problems.errors.splice(before);
	for (const e of unread) sim.problems.warn(e.file, e.where, `${e.message}; the vectors are not kept: a run embeds the seed memories with its own embedder`);
	if (unread.length) return none('embeddings.json cannot be read');
	if (table.size === 0) return none('embeddings.json holds no vectors');
	const found = keys.map((k) => table.get(k));
	const counts = new Map<number, number>();
	for (const v of found) if (v) counts.set(v.length, (counts.get(v.length) ?? 0) + 1);
	if (counts.size === 0) return none("embeddings.json holds no vector of its memories' texts");
	// the dimension most of them have (the larger of two as common)
	const [dimension] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0];
	const other = found.filter((v) => v && v.length !== dimension).length;
	if (other)
		sim.warn(rel, undefined, `${other} of the memories' vectors have another dimension than the ${dimension} of the others; those memories are embedded by the run`);
	const entries = memories.flatMap((m, i) => (found[i]?.length === dimension ? [{ id: m.id, description: m.description, vector: found[i]! }] : []));
	const file = encodeVectors(p.id, dimension, entries);
	const max = limits().maxSeedVectorBytes;
	if (file.length > max) {
		sim.warn(rel, undefined, `the vectors of ${entries.length} memories take ${formatBytes(file.length)}, more than the ${formatBytes(max)} a world's vectors file may (${LIMIT_ENV.maxSeedVectorBytes}); they are not kept: a run embeds the seed memories with its own embedder`);
		return none(`more than ${LIMIT_ENV.maxSeedVectorBytes}`);
	}
	p.vectors = { kept: entries.length, dimension, file: vectorsRel(p.id), bytes: file.length };
	p.vectorFile = file;
}

/** world.json: the clock of the simulation, the retrieval and reflection settings of its personas. */
function manifestOf(maze: RefMaze, meta: RefMeta, plans: PersonaPlan[], map: string): object {
	const first = plans[0]?.scratch;
	const d = DEFAULT_SETTINGS;
	const same = (f: (s: RefScratch) => number) => plans.every((p) => f(p.scratch) === f(first!));
	const keys = { recencyW: 'recency_w', relevanceW: 'relevance_w', importanceW: 'importance_w', recencyDecay: 'recency_decay', importanceTriggerMax: 'importance_trigger_max' } as const;
	const differ = (Object.keys(keys) as (keyof typeof keys)[]).filter((k) => first && !same((s) => s[k])).map((k) => keys[k]);
	const settings = {
		perception: { ...d.perception, ...(first && same((s) => s.visionR) ? { visionRadius: first.visionR } : {}) },
		retrieval: {
			weights: first ? { recency: first.recencyW, importance: first.importanceW, relevance: first.relevanceW } : d.retrieval.weights,
			decay: first?.recencyDecay ?? d.retrieval.decay,
			topK: d.retrieval.topK,
			k: d.retrieval.k
		},
		reflection: { threshold: first?.importanceTriggerMax ?? d.reflection.threshold },
		conversation: d.conversation
	};
	return {
		...(differ.length ? { warning: `the personas' scratch.json differ in ${differ.join(', ')}; world.json takes the first persona's (${first!.name}): retrieval and reflection settings are the world's` } : {}),
		name: `${maze.worldName.replace(/^the /, 'The ')} (${meta.personas.length} agents)`,
		map,
		start: formatIso(meta.now),
		secondsPerStep: meta.secondsPerStep,
		defaults: settings
	};
}

export type { WorldProblem };
