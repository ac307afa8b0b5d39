import { describe, expect, it } from 'vitest';
import { effectiveRenames, renameAddress, renamePersona, renameScenario, type ZoneRename } from './references';

const arena = (from: string, to: string): ZoneRename => ({ kind: 'arena', from, to });
const sector = (from: string, to: string): ZoneRename => ({ kind: 'sector', from, to });

describe('references to renamed zones', () => {
	it('a home follows its arena and its sector, in the order renamed; a sector name only its sector', () => {
		expect(renameAddress('Cottage:bedroom', [arena('Cottage:bedroom', 'Cottage:loft')], 'arena')).toEqual({ value: 'Cottage:loft', by: [0] });
		expect(renameAddress('Cottage:bedroom', [sector('Cottage', 'Farm'), arena('Farm:bedroom', 'Farm:loft')], 'arena')).toEqual({
			value: 'Farm:loft',
			by: [0, 1]
		});
		// "Cottage" is not a prefix of "Cottages:hall"; objects and other arenas are not homes
		expect(renameAddress('Cottages:hall', [sector('Cottage', 'Farm')], 'arena').value).toBe('Cottages:hall');
		expect(renameAddress('Cottage:bedroom', [{ kind: 'object', from: 'Cottage:bedroom:bed', to: 'Cottage:bedroom:cot' }], 'arena').by).toEqual([]);
		expect(renameAddress('Cottage', [arena('Cottage:bedroom', 'Cottage:loft'), sector('Cottage', 'Farm')], 'sector')).toEqual({ value: 'Farm', by: [1] });
	});

	it('rewrites a persona\'s home and known places, and a scenario event\'s place, naming each field', () => {
		const persona = { id: 'a', home: 'Cottage:bedroom', knownPlaces: ['Garden', 'Cottage'], spawn: 'Cottage' };
		const r = renamePersona('personas/a.json', persona, [sector('Cottage', 'Farm')]);
		expect(r.value).toEqual({ id: 'a', home: 'Farm:bedroom', knownPlaces: ['Garden', 'Farm'], spawn: 'Cottage' });
		expect(r.updates.map((u) => u.field)).toEqual(['home', 'knownPlaces[1]']);
		expect(persona.home).toBe('Cottage:bedroom');
		expect(renamePersona('personas/a.json', persona, [sector('Pond', 'Lake')])).toEqual({ value: persona, updates: [] });
		// a spawn point's name, only by a spawn rename (a sector of that name is another place)
		expect(renamePersona('personas/a.json', persona, [{ kind: 'spawn', from: 'Cottage', to: 'door' }]).updates).toEqual([
			{ file: 'personas/a.json', field: 'spawn', from: 'Cottage', to: 'door', by: [0] }
		]);
		const scenario = { facts: [{ id: 'x' }, { id: 'p', event: { place: 'Garden', start: 's', end: 'e' } }] };
		const s = renameScenario('scenario.json', scenario, [sector('Garden', 'Orchard')]);
		expect(s.updates).toEqual([{ file: 'scenario.json', field: 'facts[1].event.place', from: 'Garden', to: 'Orchard', by: [0] }]);
		expect((s.value as typeof scenario).facts[1].event?.place).toBe('Orchard');
	});

	it('follows an agreed rename to the zone\'s address now, and drops it once undone or deleted', () => {
		const pending = [{ kind: 'arena' as const, from: 'Cottage:bedroom', to: 'Cottage:loft', ids: [4] }];
		const zones = (address: string) => [
			{ kind: 'sector' as const, address: 'Cottage', ids: [1] },
			{ kind: 'arena' as const, address, ids: [4] }
		];
		expect(effectiveRenames(pending, zones('Cottage:loft'))).toEqual([arena('Cottage:bedroom', 'Cottage:loft')]);
		// renamed again since: the references go to the latest name
		expect(effectiveRenames(pending, zones('Cottage:attic'))).toEqual([arena('Cottage:bedroom', 'Cottage:attic')]);
		expect(effectiveRenames(pending, zones('Cottage:bedroom'))).toEqual([]);
		expect(effectiveRenames(pending, zones('Cottage:loft').slice(0, 1))).toEqual([]);
		// spawn points are followed by their map object too
		const spawnRename = [{ kind: 'spawn' as const, from: 'bob', to: 'robert', ids: [13] }];
		expect(effectiveRenames(spawnRename, [], [{ id: 13, name: 'rob' }])).toEqual([{ kind: 'spawn', from: 'bob', to: 'rob' }]);
	});
});
