// References to a place of the map by its name, outside the map: a persona's `home`
// (Sector:Arena), `knownPlaces` (sector names) and `spawn` (a spawn point's name), a scenario
// fact's `event.place` (a sector name). Renaming a sector, an arena or a spawn point in the
// editor changes its address; these functions find what names the old one and rewrite it, as
// Tiled keeps object references when an object changes. Pure and browser-safe: the editor
// decides which renames to carry over, the server writes the files.

import type { ZoneKind } from '../world/doc';
import { isRecord } from '../shared/guards';

/** A zone (or spawn point) renamed in the map: its full address before and after (`Sector`, `Sector:Arena`, a spawn's name). */
export interface ZoneRename {
	kind: ZoneKind | 'spawn';
	from: string;
	to: string;
}

/** One field of a world file that names a renamed zone, and what it becomes. */
export interface ReferenceUpdate {
	/** relative to the world folder: `personas/<id>.json`, `scenario.json` */
	file: string;
	/** the JSON field, as problems name it: `home`, `knownPlaces[1]`, `facts[0].event.place` */
	field: string;
	from: string;
	to: string;
	/** indices (in the list given) of the renames that changed it */
	by: number[];
}


/**
 * `value` after the renames, in order, applied to an address of `what`: a `home` follows its
 * sector's and its arena's renames, a sector name only its sector's. Also answers which renames
 * changed it.
 */
export function renameAddress(value: string, renames: readonly ZoneRename[], what: 'arena' | 'sector'): { value: string; by: number[] } {
	let v = value;
	const by: number[] = [];
	renames.forEach((r, i) => {
		if (r.from === r.to) return;
		if (r.kind === 'sector') {
			if (v === r.from) {
				v = r.to;
				by.push(i);
			} else if (what === 'arena' && v.startsWith(`${r.from}:`)) {
				v = r.to + v.slice(r.from.length);
				by.push(i);
			}
		} else if (r.kind === 'arena' && what === 'arena' && v === r.from) {
			v = r.to;
			by.push(i);
		}
	});
	return { value: v, by };
}

/** A persona file's content with its places renamed, and the fields that changed (none: the same object). */
export function renamePersona(
	file: string,
	persona: unknown,
	renames: readonly ZoneRename[]
): { value: unknown; updates: ReferenceUpdate[] } {
	if (!isRecord(persona)) return { value: persona, updates: [] };
	const updates: ReferenceUpdate[] = [];
	let next = persona;
	if (typeof persona.home === 'string') {
		const r = renameAddress(persona.home, renames, 'arena');
		if (r.value !== persona.home) {
			updates.push({ file, field: 'home', from: persona.home, to: r.value, by: r.by });
			next = { ...next, home: r.value };
		}
	}
	if (typeof persona.spawn === 'string') {
		let spawn = persona.spawn;
		const by: number[] = [];
		renames.forEach((r, i) => {
			if (r.kind === 'spawn' && r.from !== r.to && spawn === r.from) {
				spawn = r.to;
				by.push(i);
			}
		});
		if (spawn !== persona.spawn) {
			updates.push({ file, field: 'spawn', from: persona.spawn, to: spawn, by });
			next = { ...next, spawn };
		}
	}
	if (Array.isArray(persona.knownPlaces)) {
		let changed = false;
		const places = persona.knownPlaces.map((p: unknown, k) => {
			if (typeof p !== 'string') return p;
			// a sector, or one arena of it (`Sector:Arena`)
			const r = renameAddress(p, renames, p.includes(':') ? 'arena' : 'sector');
			if (r.value === p) return p;
			changed = true;
			updates.push({ file, field: `knownPlaces[${k}]`, from: p, to: r.value, by: r.by });
			return r.value;
		});
		if (changed) next = { ...next, knownPlaces: places };
	}
	return { value: next, updates };
}

/** scenario.json's content with each fact's event place renamed, and the fields that changed. */
export function renameScenario(file: string, scenario: unknown, renames: readonly ZoneRename[]): { value: unknown; updates: ReferenceUpdate[] } {
	if (!isRecord(scenario) || !Array.isArray(scenario.facts)) return { value: scenario, updates: [] };
	const updates: ReferenceUpdate[] = [];
	const facts = scenario.facts.map((fact: unknown, k) => {
		if (!isRecord(fact) || !isRecord(fact.event) || typeof fact.event.place !== 'string') return fact;
		const place = fact.event.place;
		const r = renameAddress(place, renames, 'sector');
		if (r.value === place) return fact;
		updates.push({ file, field: `facts[${k}].event.place`, from: place, to: r.value, by: r.by });
		return { ...fact, event: { ...fact.event, place: r.value } };
	});
	return updates.length ? { value: { ...scenario, facts }, updates } : { value: scenario, updates };
}

/** A rename the author agreed to carry over, with the map objects that make the zone (to follow it). */
export interface PendingRename extends ZoneRename {
	ids: number[];
}

/**
 * The renames to carry over for the map as it is now: each agreed rename from its old address to
 * the zone's (or spawn point's) address now, found by its map objects, left out when it is gone
 * or has its old address again (the rename was undone).
 */
export function effectiveRenames(
	pending: readonly PendingRename[],
	zones: readonly { kind: ZoneKind; address: string; ids: number[] }[],
	spawns: readonly { id: number; name: string }[] = []
): ZoneRename[] {
	const places = [...zones, ...spawns.map((s) => ({ kind: 'spawn' as const, address: s.name, ids: [s.id] }))];
	const out: ZoneRename[] = [];
	for (const p of pending) {
		const zone = places.find((z) => z.kind === p.kind && z.ids.some((id) => id >= 0 && p.ids.includes(id)));
		if (!zone || zone.address === p.from) continue;
		out.push({ kind: p.kind, from: p.from, to: zone.address });
	}
	return out;
}

/** "personas/alice.json: home "A:b" → "A:c"" lines, for a question or a report. */
export function updateLines(updates: readonly ReferenceUpdate[]): string[] {
	return updates.map((u) => `${u.file}: ${u.field} "${u.from}" → "${u.to}"`);
}
