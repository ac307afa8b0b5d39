// Reads a whole world folder, collecting every problem it can find rather than stopping at the
// first: loadWorld() throws them, checkWorld() reports them.

import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { PersonaDef, WorldDef } from '../../engine/types';
import { ProblemList, type WorldProblem } from '../../world/problems';
import { checkScenarioEvents, checkSeedMemoryPlaces, readManifest, readPersonas, readScenario, FieldChecker, suggest, type PersonaFile } from './manifest';
import { readMap } from './tmx';
import { ConfinedPathError, linksLeaving, realInside } from '../files';
import { LIMIT_ENV, limits } from '../limits';
import { worldsDir as defaultWorldsDir } from '../paths';
import { analyseZones, type ZoneResult } from '../../world/zones';
import { checkVectorFiles } from './vectors';
import type { LoadedWorld, MapLayerView, MapView, ParsedMap } from '../../world/types';

export interface WorldCounts {
	sectors: number;
	arenas: number;
	objects: number;
	spawns: number;
	personas: number;
	walkable: number;
}

export interface Analysis {
	/** absolute world folder */
	dir: string;
	/** world id (the folder name) */
	id: string;
	errors: WorldProblem[];
	warnings: WorldProblem[];
	counts: WorldCounts;
	/** present only when there are no errors */
	world?: LoadedWorld;
}

/** The seed memories a persona gives its agent: plain and structured. */
const seedCount = (p: PersonaDef) => p.seedMemories.length + (p.memories?.length ?? 0);

/**
 * A bare name is a world in `worldsDir`; anything with a path separator is a folder (or the
 * path of its world.json), relative to the working folder.
 */
export function resolveWorldDir(nameOrPath: string, worldsDir = defaultWorldsDir()): string {
	const isPath =
		nameOrPath.includes('/') ||
		nameOrPath.includes(path.sep) ||
		path.isAbsolute(nameOrPath) ||
		nameOrPath === '.' ||
		nameOrPath === '..';
	if (!isPath) return path.resolve(worldsDir, nameOrPath);
	const abs = path.resolve(nameOrPath);
	return /\.json$/i.test(abs) && !isDirectory(abs) ? path.dirname(abs) : abs;
}

function isDirectory(p: string): boolean {
	try {
		return statSync(p).isDirectory();
	} catch {
		return false;
	}
}

const emptyCounts = (): WorldCounts => ({ sectors: 0, arenas: 0, objects: 0, spawns: 0, personas: 0, walkable: 0 });

export interface AnalyseOptions {
	worldsDir?: string;
	/**
	 * The map to check instead of the saved map file (an editor's unsaved map, from
	 * `parsedMapOf` in src/lib/world/doc.ts).
	 */
	map?: ParsedMap;
}

export async function analyseWorld(nameOrPath: string, opts: AnalyseOptions = {}): Promise<Analysis> {
	const worldsDir = opts.worldsDir ?? defaultWorldsDir();
	const dir = resolveWorldDir(nameOrPath, worldsDir);
	const id = path.basename(dir);
	const problems = new ProblemList();
	const counts = emptyCounts();
	const done = (world?: LoadedWorld): Analysis => ({
		dir,
		id,
		errors: problems.errors,
		warnings: problems.warnings,
		counts,
		...(world && problems.errors.length === 0 ? { world } : {})
	});

	if (nameOrPath.trim() === '') {
		problems.error('.', undefined, 'no world given: pass a world name or the path of a world folder');
		return done();
	}
	if (!isDirectory(dir)) {
		const bare = !nameOrPath.includes('/') && !nameOrPath.includes(path.sep);
		let known = '';
		if (bare && isDirectory(worldsDir)) {
			const names = readdirSync(worldsDir).filter((n) => existsSync(path.join(worldsDir, n, 'world.json')));
			known = names.length ? ` (worlds there: ${names.join(', ')})` : ' (it holds no worlds)';
		}
		problems.error(
			nameOrPath,
			undefined,
			bare ? `no world named "${nameOrPath}" in ${worldsDir}${known}` : `world folder ${dir} not found`
		);
		return done();
	}

	const { manifest, map: mapFile } = await readManifest(dir, problems);
	let zones: ZoneResult | undefined;
	let mapView: MapView | undefined;
	if (mapFile || opts.map) {
		const parsed = opts.map ?? (await readWorldMap(dir, mapFile!, problems));
		if (parsed) {
			zones = analyseZones(parsed, problems);
			mapView = {
				width: parsed.width,
				height: parsed.height,
				tileWidth: parsed.tileWidth,
				tileHeight: parsed.tileHeight,
				layers: parsed.tileLayers.map((l) => {
					const view: MapLayerView = { name: l.name, visible: l.visible, opacity: l.opacity, data: l.data };
					if (l.flips) view.flips = l.flips;
					return view;
				}),
				tilesets: parsed.tilesets,
				zones: zones.zones,
				spawns: zones.spawnViews
			};
			counts.sectors = zones.sectors.length;
			counts.arenas = zones.sectors.reduce((n, s) => n + s.arenas.length, 0);
			counts.objects = zones.sectors.reduce((n, s) => n + s.arenas.reduce((m, a) => m + a.objects.length, 0), 0);
			counts.spawns = zones.spawnViews.length;
			counts.walkable = zones.walkable;
		}
	}

	const { files: personaFiles, stems: personaStems } = await readPersonas(dir, problems);
	counts.personas = personaStems.length;
	const personas: PersonaDef[] = [];
	const spawnUsers = new Map<string, string>();
	const nameUsers = new Map<string, string>();
	for (const pf of personaFiles) {
		if (pf.def) personas.push(pf.def);
		const value = pf.doc.value as { name?: unknown } | null;
		const name = value && typeof value === 'object' && typeof value.name === 'string' ? value.name.trim() : '';
		if (name) {
			const other = nameUsers.get(name.toLowerCase());
			if (other !== undefined)
				new FieldChecker(problems, pf).error(
					['name'],
					`duplicate persona name "${name}": ${other}.json has it too; agents are told apart by name`
				);
			else nameUsers.set(name.toLowerCase(), pf.stem);
		}
		// without a readable map there is nothing to check places against
		if (zones) checkPersonaPlaces(pf, zones, problems, spawnUsers);
	}
	for (const pf of personaFiles) checkSeedMemoryPlaces(pf, { start: manifest?.start, personas: personaStems }, problems);
	personas.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	// the stored vectors of their seed memories (personas/<id>.vectors), read when a run starts
	const seedVectors = await checkVectorFiles(dir, new Map(personaFiles.flatMap((pf) => (pf.def ? [[pf.stem, pf.def] as const] : []))), personaStems, problems);

	const scenario = await readScenario(dir, problems);
	if (scenario.file) {
		const c = new FieldChecker(problems, scenario.file);
		// persona ids are file names; broken persona files report their own errors
		const ids = new Set(personaStems);
		scenario.seeds.forEach((seed, n) => {
			if (ids.has(seed.agent)) return;
			const k = scenario.seedIndex[n];
			const s = suggest(seed.agent, [...ids]);
			c.error(['seeds', k, 'agent'], `seed "${seed.id}": there is no persona "${seed.agent}"${s ? `; did you mean "${s}"?` : ''}`);
		});
		if (zones) checkScenarioEvents(scenario, { sectors: zones.sectors.map((x) => x.name), personas: [...ids] }, problems);
		// what an agent starts with: its persona's seed memories and the scenario's seeds for it
		const max = limits().maxSeedMemories;
		const counts = new Map(personas.map((p) => [p.id, seedCount(p)]));
		scenario.seeds.forEach((seed, n) => {
			const before = counts.get(seed.agent);
			if (before === undefined) return;
			counts.set(seed.agent, before + 1);
			if (before + 1 !== max + 1) return;
			const mine = personas.find((p) => p.id === seed.agent);
			const own = mine ? seedCount(mine) : 0;
			const total = own + scenario.seeds.filter((x) => x.agent === seed.agent).length;
			c.error(
				['seeds', scenario.seedIndex[n], 'agent'],
				`seed "${seed.id}": "${seed.agent}" would start with ${total.toLocaleString('en')} seed memories (${own.toLocaleString('en')} from its persona, the rest from this file), more than the ${max.toLocaleString('en')} an agent may start with (${LIMIT_ENV.maxSeedMemories})`
			);
		});
	}

	// every other link out of the folder: a run's copy of the world refuses them too
	for (const link of await linksLeaving(dir)) {
		const message = `refused: ${link.message}`;
		if (!problems.errors.some((p) => p.file === link.rel && p.message === message)) problems.error(link.rel, undefined, message);
	}

	if (problems.errors.length || !manifest || !zones || !mapView) return done();
	const def: WorldDef = {
		id,
		name: manifest.name,
		width: mapView.width,
		height: mapView.height,
		tileWidth: mapView.tileWidth,
		tileHeight: mapView.tileHeight,
		collision: zones.collision,
		sectors: zones.sectors,
		spawns: zones.spawns,
		personas,
		seeds: scenario.seeds,
		facts: scenario.facts,
		start: manifest.start,
		secondsPerStep: manifest.secondsPerStep,
		settings: manifest.settings,
		...(seedVectors ? { seedVectors } : {})
	};
	return done({ dir, def, map: mapView, warnings: problems.warnings });
}

/**
 * Reads the map world.json names (a path inside the world folder, checked by `checkManifest`)
 * confined like the world's other files: a link out of the folder is refused naming the link.
 */
async function readWorldMap(dir: string, mapFile: string, problems: ProblemList): Promise<ParsedMap | undefined> {
	const rel = path.relative(dir, path.resolve(dir, mapFile)).split(path.sep).join('/');
	try {
		await realInside(dir, rel, 'file');
	} catch (e) {
		if (!(e instanceof ConfinedPathError)) throw e;
		problems.error(rel, undefined, `refused: ${e.message}`);
		return undefined;
	}
	// read where world.json says it is: its tilesets are found from there
	return readMap(path.resolve(dir, rel), dir, problems);
}

/**
 * The places a persona names (home, spawn, known places) against the map's zones. `spawnUsers`
 * (spawn name -> persona id) collects who starts where, to warn about two on one spawn.
 */
export function checkPersonaPlaces(
	pf: PersonaFile,
	zones: ZoneResult,
	problems: ProblemList,
	spawnUsers = new Map<string, string>()
): void {
	const c = new FieldChecker(problems, pf);
	const { home, spawn, knownPlaces } = pf.places;
	const sectorNames = zones.sectors.map((x) => x.name);
	if (home !== undefined) {
		const [sectorName, arenaName] = home.split(':');
		const sector = zones.sectors.find((s) => s.name === sectorName);
		if (!sector) {
			const s = suggest(sectorName, sectorNames);
			c.error(['home'], `home "${home}": there is no sector "${sectorName}" on the map${s ? `; did you mean "${s}"?` : ''}`);
		} else if (!sector.arenas.some((a) => a.name === arenaName)) {
			const names = sector.arenas.map((a) => a.name);
			c.error(
				['home'],
				`home "${home}": sector "${sectorName}" has no arena "${arenaName}" (its arenas: ${names.join(', ') || 'none'})`
			);
		}
	}
	if (spawn !== undefined) {
		if (!zones.spawnNames.has(spawn)) {
			const s = suggest(spawn, [...zones.spawnNames]);
			c.error(['spawn'], `spawn "${spawn}" is not on the map's spawns layer${s ? `; did you mean "${s}"?` : ''}`);
		} else if (spawnUsers.has(spawn))
			c.warn(['spawn'], `spawn "${spawn}" is also used by ${spawnUsers.get(spawn)}; both start on one tile`);
		else spawnUsers.set(spawn, pf.stem);
	}
	// a sector (all its arenas) or one arena of it, `Sector:Arena`
	knownPlaces?.forEach((place, k) => {
		const [sectorName, arenaName, ...rest] = place.split(':');
		const sector = zones.sectors.find((x) => x.name === sectorName);
		if (rest.length > 0) c.error(['knownPlaces', k], `known place "${place}" is neither a sector nor Sector:Arena`);
		else if (!sector) {
			const s = suggest(sectorName, sectorNames);
			c.error(['knownPlaces', k], `known place "${place}" is not a sector on the map${s ? `; did you mean "${s}"?` : ''}`);
		} else if (arenaName !== undefined && !sector.arenas.some((a) => a.name === arenaName)) {
			const names = sector.arenas.map((a) => a.name);
			c.error(['knownPlaces', k], `known place "${place}": sector "${sectorName}" has no arena "${arenaName}" (its arenas: ${names.join(', ') || 'none'})`);
		}
	});
}
