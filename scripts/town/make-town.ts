// Generates the default worlds from the declarative layouts in this folder:
//
//   npx tsx scripts/town/make-town.ts [worldsDir]   (default: worlds/)
//
// writes <worldsDir>/smallville/ and <worldsDir>/the-ville-3/: tileset, map, personas,
// world.json and scenario.json. Output is deterministic, so the committed files can be
// checked against a fresh run.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_WORLDS_DIR, layoutSheet, writeTileset } from './make-tileset';
import { PERSONAS, type PersonaSource } from './personas';
import { buildSmallville } from './smallville';
import { buildTheVille3, VILLE3_CAST } from './the-ville-3';
import type { TownMap } from './town-map';

const DEFAULTS = {
	perception: { visionRadius: 8, attentionBandwidth: 8, retention: 8 },
	retrieval: {
		weights: { recency: 1, importance: 1, relevance: 1 },
		decay: 0.995,
		topK: 30,
		k: { summary: 30, plan: 30, reaction: 30, conversation: 50, dialogue: 15, onMind: 0 }
	},
	reflection: { threshold: 150 },
	conversation: { maxTurns: 8, cooldownMinutes: 60 }
};

const START = '2023-02-13T07:00:00';

export const PARTY_SEED = {
	id: 'valentines-party',
	agent: 'isabella-rodriguez',
	memory:
		"Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe on February 14 from 5pm to 7pm, and she wants to invite her friends and customers"
};
export const PARTY_FACT: { id: string; label: string; keywords: string[]; event?: Record<string, string> } = {
	id: 'valentines-party',
	label: "Valentine's Day party at Hobbs Cafe",
	keywords: ['valentine', 'party'],
	event: { place: 'Hobbs Cafe', start: '2023-02-14T17:00:00', end: '2023-02-14T19:00:00', host: 'isabella-rodriguez' }
};

export const MAYOR_SEED = {
	id: 'mayor-election',
	agent: 'sam-moore',
	memory: 'Sam Moore is running for mayor in the upcoming local election'
};
export const MAYOR_FACT = { id: 'mayor-election', label: 'Sam Moore is running for mayor', keywords: ['mayor', 'election'] };

function json(value: unknown): string {
	return `${JSON.stringify(value, null, '\t')}\n`;
}

/** The persona file: the documented fields, in the documented order. */
function personaFile(p: PersonaSource): Record<string, unknown> {
	const homeSector = p.home.split(':')[0];
	return {
		id: p.id,
		name: p.name,
		firstName: p.firstName,
		lastName: p.lastName,
		age: p.age,
		innate: p.innate,
		learned: p.learned,
		currently: p.currently,
		lifestyle: p.lifestyle,
		dailyPlanRequirement: p.dailyPlanRequirement,
		home: p.home,
		spawn: p.id,
		knownPlaces: [homeSector, ...p.knownPlaces.filter((s) => s !== homeSector)],
		seedMemories: p.seedMemories
	};
}

export interface WorldOutput {
	id: string;
	name: string;
	map: TownMap;
	personas: PersonaSource[];
	scenario: { seeds: (typeof PARTY_SEED)[]; facts: (typeof PARTY_FACT)[] };
}

export function writeWorld(outDir: string, w: WorldOutput): string[] {
	const dir = path.join(outDir, w.id);
	const personaDir = path.join(dir, 'personas');
	fs.mkdirSync(personaDir, { recursive: true });
	// stale persona files from an earlier layout would be loaded as residents
	for (const f of fs.readdirSync(personaDir)) if (f.endsWith('.json')) fs.rmSync(path.join(personaDir, f));
	const written: string[] = [];
	const write = (rel: string, text: string) => {
		fs.writeFileSync(path.join(dir, rel), text);
		written.push(path.join(w.id, rel));
	};
	writeTileset(dir, layoutSheet());
	written.push(path.join(w.id, 'tilesets/town.png'), path.join(w.id, 'tilesets/town.tsx'));
	write(`${w.id}.tmx`, w.map.toTmx());
	write('world.json', json({ name: w.name, map: `${w.id}.tmx`, start: START, secondsPerStep: 10, defaults: DEFAULTS }));
	write('scenario.json', json(w.scenario));
	for (const p of w.personas) write(`personas/${p.id}.json`, json(personaFile(p)));
	return written;
}

/** Persona sources for the small map: only its cast, only places that exist there. */
function villePersonas(map: TownMap): PersonaSource[] {
	const cast = PERSONAS.filter((p) => VILLE3_CAST.includes(p.id));
	const absent = PERSONAS.filter((p) => !VILLE3_CAST.includes(p.id)).map((p) => p.name);
	const sectors = new Set(map.sectors.map((s) => s.name));
	return cast.map((p) => ({
		...p,
		knownPlaces: p.knownPlaces.filter((s) => sectors.has(s)),
		seedMemories: p.seedMemories.filter((m) => !absent.some((name) => m.includes(name)))
	}));
}

/** Builds both default worlds into `outDir`; returns the written paths relative to it. */
export function generateWorlds(outDir: string): string[] {
	const smallville = buildSmallville(PERSONAS);
	const written = writeWorld(outDir, {
		id: 'smallville',
		name: 'Smallville',
		map: smallville,
		personas: PERSONAS,
		scenario: { seeds: [PARTY_SEED, MAYOR_SEED], facts: [PARTY_FACT, MAYOR_FACT] }
	});
	const castSources = PERSONAS.filter((p) => VILLE3_CAST.includes(p.id));
	const ville = buildTheVille3(castSources);
	written.push(
		...writeWorld(outDir, {
			id: 'the-ville-3',
			name: 'The Ville (3 agents)',
			map: ville,
			personas: villePersonas(ville),
			scenario: { seeds: [PARTY_SEED], facts: [PARTY_FACT] }
		})
	);
	return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const out = path.resolve(process.argv[2] ?? DEFAULT_WORLDS_DIR);
	try {
		const files = generateWorlds(out);
		console.log(`wrote ${files.length} files to ${out}`);
	} catch (err) {
		console.error(err instanceof Error ? err.message : String(err));
		process.exit(1);
	}
}
