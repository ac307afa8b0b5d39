import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorld, formatWorldTree, worldTreeJson, type WorldCheck } from './check';
import { loadWorld } from './load';
import { copyWorld, lineOf, removeWorldCopies, TINY_WORLD_DIR, type WorldEdits } from './testing';

afterAll(removeWorldCopies);

const TMX = readFileSync(path.join(TINY_WORLD_DIR, 'tiny.tmx'), 'utf8');
const tmxLine = (needle: string) => lineOf(TMX, needle);

async function check(edits: WorldEdits): Promise<WorldCheck> {
	return checkWorld(copyWorld(edits));
}

/** The world has exactly these errors (file, where, message pattern). */
function expectErrors(r: WorldCheck, expected: { file: string; where?: string | RegExp; message: RegExp }[]) {
	expect(r.ok).toBe(false);
	expect(r.errors).toHaveLength(expected.length);
	expected.forEach((e, k) => {
		expect(r.errors[k].file).toBe(e.file);
		if (e.where instanceof RegExp) expect(r.errors[k].where).toMatch(e.where);
		else expect(r.errors[k].where).toBe(e.where);
		expect(r.errors[k].message).toMatch(e.message);
	});
}

const tile = (x: number, y: number) => y * 12 + x;

const editTmx = (from: string, to: string): WorldEdits => ({ 'tiny.tmx': (t) => t.replace(from, to) });

/** Edits the CSV data of the n-th tile layer (0 ground, 1 walls, 2 collisions). */
const editLayer = (n: number, edit: (gids: string[]) => void): WorldEdits => ({
	'tiny.tmx': (t) => {
		let k = 0;
		return t.replace(/<data encoding="csv">\n([^<]*)<\/data>/g, (m, csv: string) => {
			if (k++ !== n) return m;
			const gids = csv.split(',');
			edit(gids);
			return `<data encoding="csv">\n${gids.join(',')}</data>`;
		});
	}
});

describe('checkWorld on the valid fixture', () => {
	it('is ok, without warnings, and counts the world', async () => {
		const r = await checkWorld(TINY_WORLD_DIR);
		expect(r).toEqual({
			ok: true,
			world: 'tiny',
			errors: [],
			warnings: [],
			counts: { sectors: 2, arenas: 3, objects: 5, spawns: 2, personas: 2, walkable: 81 }
		});
	});
});

describe('maps tmx-parser cannot represent are refused, naming the feature and line', () => {
	it('malformed XML', async () => {
		const r = await check(editTmx('</objectgroup>', '</objectgrup>'));
		expectErrors(r, [
			{
				file: 'tiny.tmx',
				where: `line ${tmxLine('</objectgroup>')}, column 2`,
				message: new RegExp(`malformed XML: </objectgrup> does not match <objectgroup> opened on line ${tmxLine('name="sectors"')}`)
			}
		]);
	});

	it('infinite maps', async () => {
		const r = await check(editTmx('infinite="0"', 'infinite="1"'));
		expectErrors(r, [{ file: 'tiny.tmx', where: 'line 2', message: /infinite maps are not supported/ }]);
	});

	it('chunked layer data', async () => {
		const r = await check(
			editTmx('<data encoding="csv">\n1,1', '<data encoding="csv">\n<chunk x="0" y="0" width="16" height="16">1</chunk>\n1,1')
		);
		expectErrors(r, [{ file: 'tiny.tmx', where: `line ${tmxLine('<data') + 1}`, message: /layer "ground": chunked tile data \(<chunk>\)/ }]);
	});

	for (const orientation of ['isometric', 'staggered', 'hexagonal']) {
		it(`${orientation} maps`, async () => {
			const r = await check(editTmx('orientation="orthogonal"', `orientation="${orientation}"`));
			expectErrors(r, [
				{ file: 'tiny.tmx', where: 'line 2', message: new RegExp(`^${orientation} maps are not supported`) }
			]);
		});
	}

	it('group layers', async () => {
		const r = await check({
			'tiny.tmx': (t) =>
				t
					.replace(' <objectgroup id="5" name="arenas"', ' <group id="9" name="zones">\n <objectgroup id="5" name="arenas"')
					.replace(' <objectgroup id="6"', ' </group>\n <objectgroup id="6"')
		});
		expectErrors(r, [
			{ file: 'tiny.tmx', where: `line ${tmxLine('name="arenas"')}`, message: /group layer "zones" is not supported/ }
		]);
	});

	it('zstd compression', async () => {
		const r = await check({
			'tiny.tmx': (t) =>
				t.replace(/(<layer id="2" name="walls"[^>]*>\n {2})<data encoding="csv">[^<]*<\/data>/, '$1<data encoding="base64" compression="zstd">KLUv/QBYAAA=</data>')
		});
		expectErrors(r, [
			{ file: 'tiny.tmx', where: `line ${tmxLine('name="walls"') + 1}`, message: /layer "walls": zstd compression is not supported/ }
		]);
	});

	it('unknown encodings and compressions', async () => {
		const enc = await check(editTmx('<data encoding="csv">', '<data encoding="hex">'));
		expectErrors(enc, [{ file: 'tiny.tmx', where: 'line 5', message: /layer "ground": unknown tile data encoding "hex"/ }]);
		const comp = await check(editTmx('<data encoding="csv">', '<data encoding="base64" compression="lz4">'));
		expectErrors(comp, [{ file: 'tiny.tmx', where: 'line 5', message: /unknown compression "lz4"/ }]);
	});

	it('tile data of the wrong length', async () => {
		const r = await check(editLayer(1, (g) => g.pop()));
		expectErrors(r, [
			{ file: 'tiny.tmx', where: `line ${tmxLine('name="walls"') + 1}`, message: /layer "walls" has 119 tiles but a 12x10 map needs 120/ }
		]);
	});

	it('CSV values that are not tile ids, naming their line', async () => {
		const r = await check(editLayer(0, (g) => (g[25] = 'x')));
		expectErrors(r, [{ file: 'tiny.tmx', where: 'line 8', message: /layer "ground": CSV value 26 "x" is not a tile id/ }]);
	});

	it('tile ids no tileset defines', async () => {
		const r = await check(editLayer(1, (g) => (g[14] = '3')));
		expectErrors(r, [{ file: 'tiny.tmx', where: `line ${tmxLine('name="walls"')}`, message: /1 tile uses a tile id no tileset defines \(first at tile \(2, 1\), gid 3\)/ }]);
	});

	it('template objects', async () => {
		const r = await check(editTmx('<object id="7" name="stove"', '<object id="7" template="stove.tx" name="stove"'));
		expectErrors(r, [
			{
				file: 'tiny.tmx',
				where: `line ${tmxLine('name="stove"')}`,
				message: /layer "objects", object 7 "stove": template objects are not supported/
			}
		]);
	});

	it('a missing tileset file', async () => {
		const r = await check(editTmx('source="tilesets/tiny.tsx"', 'source="tilesets/town.tsx"'));
		expectErrors(r, [{ file: 'tiny.tmx', where: 'line 3', message: /tileset file "tilesets\/town.tsx" not found/ }]);
	});

	it('a missing tileset image', async () => {
		const r = await check({ 'tilesets/tiny.png': null });
		expectErrors(r, [
			{ file: 'tilesets/tiny.tsx', where: 'line 3', message: /tileset "tiny": image file "tilesets\/tiny.png" not found/ }
		]);
	});

	it('a malformed tileset file', async () => {
		const r = await check({ 'tilesets/tiny.tsx': (t) => t.replace('<image', '<image <') });
		expectErrors(r, [{ file: 'tilesets/tiny.tsx', where: /^line 3, column \d+$/, message: /^malformed XML/ }]);
	});
});

describe('zones', () => {
	it('a zone outside the map names layer, object id and name', async () => {
		const r = await check(editTmx('name="lawn" x="256" y="160" width="128"', 'name="lawn" x="256" y="160" width="160"'));
		expect(r.errors[0]).toEqual({
			file: 'tiny.tmx',
			where: `layer "arenas", object 6 "lawn", line ${tmxLine('<object id="6"')}`,
			message: 'the rectangle (tiles 8..12, 5..9) lies outside the 12x10 map',
			at: { kind: 'object', id: 6 }
		});
	});

	it('a rectangle off the tile grid', async () => {
		const r = await check(editTmx('name="desk" x="160"', 'name="desk" x="170"'));
		expectErrors(r, [
			{ file: 'tiny.tmx', where: /^layer "objects", object 10 "desk", line \d+$/, message: /not on tile boundaries \(x=170/ }
		]);
	});

	it('zones must be rectangles with names', async () => {
		const r = await check(
			editTmx('<object id="10" name="desk" x="160" y="256" width="32" height="32"/>', '<object id="10" name="desk" x="160" y="256" width="32" height="32"><ellipse/></object>\n  <object id="30" x="160" y="224" width="32" height="32"/>')
		);
		expectErrors(r, [
			{ file: 'tiny.tmx', where: /object 10 "desk"/, message: /a zone must be a rectangle, not an ellipse/ },
			{ file: 'tiny.tmx', where: /^layer "objects", object 30, line/, message: /a zone needs a name/ }
		]);
	});

	it('an arena spanning two sectors', async () => {
		const r = await check(editTmx('name="bedroom" x="0" y="160" width="256"', 'name="bedroom" x="0" y="160" width="288"'));
		expect(r.errors[0]).toMatchObject({
			where: expect.stringMatching(/^layer "arenas", object 4 "bedroom"/),
			message: 'the rectangle spans 2 sectors ("Cottage", "Garden"); it must lie inside exactly one'
		});
	});

	it('an object outside every arena', async () => {
		// shrink the bedroom so the desk at (5,8) falls outside it
		const r = await check(editTmx('name="bedroom" x="0" y="160" width="256"', 'name="bedroom" x="0" y="160" width="128"'));
		expectErrors(r, [{ file: 'tiny.tmx', where: /object 10 "desk"/, message: /^the rectangle is not inside any arena$/ }]);
	});

	it('an object inside walls', async () => {
		const r = await check(editTmx('name="desk" x="160" y="256"', 'name="desk" x="0" y="288"'));
		expectErrors(r, [
			{ file: 'tiny.tmx', where: /object 10 "desk"/, message: /object "Cottage:bedroom:desk" is inside walls/ }
		]);
	});

	it('rectangles with one name and parent are one zone, touching or not', async () => {
		const w = await loadWorld(
			copyWorld(
				editTmx(
					'<object id="10" name="desk"',
					'<object id="30" name="table" x="160" y="64" width="32" height="32"/>\n  <object id="31" name="bed" x="160" y="192" width="32" height="32"/>\n  <object id="10" name="desk"'
				)
			)
		);
		const [kitchen, bedroom] = w.def.sectors[0].arenas;
		expect(kitchen.objects.find((o) => o.name === 'table')!.tiles).toEqual([27, 28, 29]);
		const bed = bedroom.objects.find((o) => o.name === 'bed')!;
		expect(bed.tiles).toEqual([tile(1, 6), tile(5, 6), tile(1, 7)]);
		expect(bed.access).toEqual([tile(1, 5), tile(5, 5), tile(2, 6), tile(4, 6), tile(5, 6), tile(6, 6), tile(2, 7), tile(5, 7), tile(1, 8)]);
		expect(w.map.zones.find((z) => z.address === 'Cottage:bedroom:bed')?.rects).toHaveLength(2);
		expect(w.warnings).toEqual([]);
	});

	it('rectangles with one name and parent but different properties are duplicates', async () => {
		const objects = await check(
			editTmx('<object id="10" name="desk"', '<object id="30" name="stove" x="160" y="64" width="32" height="32">\n   <properties>\n    <property name="state" value="on"/>\n   </properties>\n  </object>\n  <object id="10" name="desk"')
		);
		expectErrors(objects, [
			{
				file: 'tiny.tmx',
				where: /^layer "objects", object 30 "stove"/,
				message: /^duplicate object "Cottage:kitchen:stove": object 7 has state "off" but object 30 has state "on"/
			}
		]);
		// a second sector "Cottage" of another kind, where the garden was
		const sectors = await check(editTmx('name="Garden"', 'name="Cottage"'));
		expect(sectors.errors.map((e) => e.message)).toContainEqual(
			expect.stringMatching(/^duplicate sector "Cottage": object 1 has kind "house" but object 2 has kind "park"/)
		);
	});

	it('the same arena name in two sectors makes two arenas', async () => {
		const w = await loadWorld(copyWorld({ 'tiny.tmx': (t) => t.replaceAll('name="lawn"', 'name="kitchen"') }));
		expect(w.def.sectors.flatMap((s) => s.arenas.map((a) => a.address))).toEqual(['Cottage:kitchen', 'Cottage:bedroom', 'Garden:kitchen']);
	});

	it('overlapping sectors', async () => {
		const r = await check(
			editTmx(' </objectgroup>\n <objectgroup id="5"', '  <object id="30" name="Shed" x="320" y="0" width="64" height="64"/>\n </objectgroup>\n <objectgroup id="5"')
		);
		expectErrors(r, [{ file: 'tiny.tmx', where: /^layer "sectors", object 30 "Shed"/, message: /^sectors "Garden" and "Shed" overlap \(first at tile \(10, 0\)\)$/ }]);
		expect(r.warnings.map((w) => w.message)).toEqual(['sector "Shed" has no arenas']);
	});

	it('a spawn inside a wall or outside the map names the spawn', async () => {
		const wall = await check(editTmx('name="alice" x="80"', 'name="alice" x="16"'));
		expectErrors(wall, [
			{
				file: 'tiny.tmx',
				where: `layer "spawns", object 12 "alice", line ${tmxLine('name="alice"')}`,
				message: /^spawn "alice" at tile \(0, 6\) is on a blocked tile/
			}
		]);
		const outside = await check(editTmx('name="bob" x="304"', 'name="bob" x="400"'));
		expectErrors(outside, [{ file: 'tiny.tmx', where: /object 13 "bob"/, message: /^spawn "bob" at tile \(12, 3\) lies outside the 12x10 map$/ }]);
	});

	it('an unreachable arena is a warning', async () => {
		const r = await check(editLayer(2, (g) => (g[4 * 12 + 3] = '2'))); // close the bedroom door
		expect(r.ok).toBe(true);
		expect(r.warnings.map((w) => w.message)).toEqual([
			'arena "Cottage:bedroom" cannot be reached: no walkable path leads to it from the main walkable area',
			'spawn "alice" at tile (2, 6) is cut off from the main walkable area'
		]);
		expect(r.warnings[0].where).toMatch(/^layer "arenas", object 4 "bedroom"/);
	});

	it('special layers must have the right kind and exact names', async () => {
		const r = await check(editTmx('name="collisions"', 'name="Collisions"'));
		expect(r.errors.map((e) => e.message)).toEqual(['layer "Collisions" must be named "collisions" exactly (lowercase, no spaces)']);
		const shifted = await check(editTmx('name="arenas" visible="0"', 'name="arenas" visible="0" offsetx="16"'));
		expectErrors(shifted, [{ file: 'tiny.tmx', where: `line ${tmxLine('name="arenas"')}`, message: /^layer "arenas" is shifted/ }]);
		const missing = await check(editTmx('name="spawns"', 'name="starts"'));
		expect(missing.errors.map((e) => e.message)).toEqual([
			'the map has no object layer named "spawns"',
			'spawn "alice" is not on the map\'s spawns layer',
			'spawn "bob" is not on the map\'s spawns layer'
		]);
		const noSectors = await check(editTmx('name="sectors"', 'name="districts"'));
		expect(noSectors.errors.map((e) => e.message)).toEqual([
			'the map has no object layer named "sectors"',
			'home "Cottage:bedroom": there is no sector "Cottage" on the map',
			'known place "Garden" is not a sector on the map',
			'home "Cottage:kitchen": there is no sector "Cottage" on the map'
		]);
	});
});

describe('world.json', () => {
	it('reports every bad field with its line', async () => {
		const r = await check({
			'world.json': (t) =>
				t
					.replace('"secondsPerStep": 10,', '"secondsPerStep": 0,\n  "seconds": 3,')
					.replace('2023-02-13T07:00:00', '2023-02-30T07:00:00')
					.replace('"visionRadius": 4', '"visionRadus": 4')
					.replace('"relevance": 2', '"relevance": "high"')
		});
		expectErrors(r, [
			{ file: 'world.json', where: 'line 6', message: /^unknown field "seconds"/ },
			{ file: 'world.json', where: 'line 4', message: /^"start" must be a calendar time written YYYY-MM-DDTHH:MM:SS/ },
			{ file: 'world.json', where: 'line 5', message: /^"secondsPerStep" must be a positive whole number, not 0$/ },
			{ file: 'world.json', where: 'line 8', message: /^unknown field "defaults.perception.visionRadus"; did you mean "visionRadius"\?$/ },
			{ file: 'world.json', where: 'line 9', message: /^"defaults.retrieval.weights.relevance" must be a number, 0 or more, not a string$/ }
		]);
	});

	it('names a missing map file', async () => {
		const r = await check({ 'world.json': (t) => t.replace('"tiny.tmx"', '"town.tmx"') });
		expectErrors(r, [{ file: 'world.json', where: 'line 3', message: /^map file "town.tmx" not found$/ }]);
	});
});

describe('personas and scenario', () => {
	it('an unknown persona field names file and line', async () => {
		const r = await check({ 'personas/bob-diaz.json': (t) => t.replace('"age": 31,', '"age": 31,\n  "hobbies": [],') });
		expectErrors(r, [{ file: 'personas/bob-diaz.json', where: 'line 7', message: /^unknown field "hobbies" \(persona fields: id, name,/ }]);
	});

	it('a misspelt field is both unknown and missing', async () => {
		const r = await check({ 'personas/bob-diaz.json': (t) => t.replace('"knownPlaces"', '"knownPlace"') });
		expectErrors(r, [
			{ file: 'personas/bob-diaz.json', where: 'line 14', message: /^unknown field "knownPlace"; did you mean "knownPlaces"\?$/ },
			{ file: 'personas/bob-diaz.json', message: /^missing field "knownPlaces"$/ }
		]);
	});

	it('checks places against the map and the id against the file name', async () => {
		const r = await check({
			'personas/alice-chen.json': (t) =>
				t
					.replace('"Cottage:bedroom"', '"Cottage:attic"')
					.replace('"spawn": "alice"', '"spawn": "alicia"')
					.replace('["Garden"]', '["Gardn"]')
					.replace('"id": "alice-chen"', '"id": "alice"')
		});
		const file = 'personas/alice-chen.json';
		expectErrors(r, [
			{ file, where: 'line 2', message: /^"id" is "alice" but the file is named alice-chen.json/ },
			{ file, where: 'line 12', message: /^home "Cottage:attic": sector "Cottage" has no arena "attic" \(its arenas: kitchen, bedroom\)$/ },
			{ file, where: 'line 13', message: /^spawn "alicia" is not on the map's spawns layer; did you mean "alice"\?$/ },
			{ file, where: 'line 14', message: /^known place "Gardn" is not a sector on the map; did you mean "Garden"\?$/ }
		]);
	});

	it('wrong types and a missing optional field', async () => {
		const r = await check({
			'personas/alice-chen.json': (t) =>
				t.replace('"age": 29', '"age": "29"').replace('"visionRadius": 6', '"visionRadius": 0').replace('"Cottage:bedroom"', '"Cottage"')
		});
		expect(r.errors.map((e) => [e.where, e.message])).toEqual([
			['line 6', '"age" must be a whole number, 0 or more, not a string'],
			['line 12', '"home" must be a Sector:Arena address, e.g. "Hobbs Cafe:cafe" (got "Cottage")'],
			['line 16', '"perception.visionRadius" must be a positive whole number, not 0']
		]);
	});

	it('JSON syntax errors name line and column', async () => {
		const r = await check({ 'personas/alice-chen.json': (t) => t.replace('"age": 29,', '"age": 29,,') });
		expectErrors(r, [
			{ file: 'personas/alice-chen.json', where: 'line 6, column 13', message: /^invalid JSON: expected a key in double quotes, found ","$/ }
		]);
	});

	it('a scenario event must happen in a sector of the map, hosted by a persona', async () => {
		const r = await check({
			'scenario.json': (t) =>
				t.replace(
					'"keywords": ["picnic"] }',
					'"keywords": ["picnic"],\n      "event": { "place": "Gardn", "start": "2023-02-13T12:00:00", "end": "2023-02-13T13:00:00", "host": "alice-chan" } }'
				)
		});
		const messages = r.errors.filter((e) => e.file === 'scenario.json').map((e) => e.message);
		expect(messages).toEqual([
			'fact "picnic": there is no sector "Gardn" on the map; did you mean "Garden"?',
			'fact "picnic": there is no persona "alice-chan"; did you mean "alice-chen"?'
		]);
	});

	it('scenario seeds must name personas', async () => {
		const r = await check({ 'scenario.json': (t) => t.replace('"agent": "alice-chen"', '"agent": "alice-chan"') });
		expectErrors(r, [{ file: 'scenario.json', where: 'line 3', message: /^seed "picnic": there is no persona "alice-chan"; did you mean "alice-chen"\?$/ }]);
	});
});

describe('checkWorld collects everything and never throws', () => {
	it('reports problems of several files at once', async () => {
		const r = await check({
			'world.json': (t) => t.replace('"name"', '"title": "x",\n  "name"'),
			'tiny.tmx': (t) => t.replace('name="alice" x="80"', 'name="alice" x="16"'),
			'personas/bob-diaz.json': (t) => t.replace('"age": 31', '"age": -1'),
			'scenario.json': (t) => t.replace('"keywords": ["picnic"]', '"keywords": "picnic"')
		});
		expect(r.errors.map((e) => e.file).sort()).toEqual(['personas/bob-diaz.json', 'scenario.json', 'tiny.tmx', 'world.json']);
		expect(r.counts.sectors).toBe(2);
	});

	it('reports a missing world with the worlds there', async () => {
		const r = await checkWorld('nowhere', { worldsDir: path.dirname(TINY_WORLD_DIR) });
		expect(r.ok).toBe(false);
		expect(r.errors).toEqual([
			{ file: 'nowhere', message: `no world named "nowhere" in ${path.dirname(TINY_WORLD_DIR)} (worlds there: tiny)` }
		]);
		expect((await checkWorld('')).errors[0].message).toMatch(/^no world given/);
		const p = await checkWorld('./no/such/folder');
		expect(p.errors[0].message).toMatch(/^world folder .*no\/such\/folder not found$/);
	});

	it('reports a missing world.json and still checks the personas', async () => {
		const r = await check({ 'world.json': null, 'personas/bob-diaz.json': (t) => t.replace('"age"', '"agee"') });
		expect(r.errors.map((e) => `${e.file}: ${e.message}`)).toEqual([
			'world.json: file not found',
			'personas/bob-diaz.json: unknown field "agee"; did you mean "age"?',
			'personas/bob-diaz.json: missing field "age"'
		]);
	});
});

describe('the environment tree', () => {
	it('formats as indented text and as JSON', async () => {
		const { def } = await loadWorld(TINY_WORLD_DIR);
		expect(formatWorldTree(def)).toBe(
			[
				'Tiny Town',
				'  Cottage (house)',
				'    kitchen',
				'      stove [off]',
				'      table [idle]',
				'    bedroom',
				'      bed [idle]',
				'      desk [idle]',
				'  Garden (park)',
				'    lawn',
				'      bench [idle]',
				''
			].join('\n')
		);
		const json = worldTreeJson(def) as { sectors: { arenas: { address: string; walkable: number; objects: unknown[] }[] }[] };
		expect(json).toMatchObject({ id: 'tiny', name: 'Tiny Town' });
		expect(json.sectors[1].arenas[0]).toEqual({
			name: 'lawn',
			address: 'Garden:lawn',
			walkable: 40,
			objects: [{ name: 'bench', address: 'Garden:lawn:bench', state: 'idle' }]
		});
	});
});
