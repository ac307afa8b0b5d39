// `world check`: every problem of a world folder at once, plus the environment tree.

import type { WorldDef } from '../../engine/types';
import { analyseWorld, type AnalyseOptions } from './analyse';
import type { WorldProblem } from '../../world/problems';

export interface WorldCheck {
	ok: boolean;
	/** world id (folder name) */
	world: string;
	errors: WorldProblem[];
	warnings: WorldProblem[];
	counts: { sectors: number; arenas: number; objects: number; spawns: number; personas: number; walkable: number };
}

/** Checks a world folder; never throws for bad input (problems come back in `errors`). */
export async function checkWorld(nameOrPath: string, opts: AnalyseOptions = {}): Promise<WorldCheck> {
	try {
		const a = await analyseWorld(nameOrPath, opts);
		return { ok: a.errors.length === 0, world: a.id, errors: a.errors, warnings: a.warnings, counts: a.counts };
	} catch (e) {
		// a failure of the reader itself, reported like any other problem
		return {
			ok: false,
			world: nameOrPath,
			errors: [{ file: nameOrPath, message: `the world could not be checked: ${(e as Error)?.message ?? String(e)}` }],
			warnings: [],
			counts: { sectors: 0, arenas: 0, objects: 0, spawns: 0, personas: 0, walkable: 0 }
		};
	}
}

/**
 * The environment tree as indented text:
 *   World name
 *     Sector (kind)
 *       arena
 *         object [state]
 */
export function formatWorldTree(def: WorldDef): string {
	const lines = [def.name];
	for (const s of def.sectors) {
		lines.push(`  ${s.name}${s.kind ? ` (${s.kind})` : ''}`);
		for (const a of s.arenas) {
			lines.push(`    ${a.name}`);
			for (const o of a.objects) lines.push(`      ${o.name} [${o.defaultState}]`);
		}
	}
	return lines.join('\n') + '\n';
}

export function worldTreeJson(def: WorldDef): object {
	return {
		id: def.id,
		name: def.name,
		sectors: def.sectors.map((s) => ({
			name: s.name,
			kind: s.kind,
			arenas: s.arenas.map((a) => ({
				name: a.name,
				address: a.address,
				walkable: a.walkable.length,
				objects: a.objects.map((o) => ({ name: o.name, address: o.address, state: o.defaultState }))
			}))
		}))
	};
}
