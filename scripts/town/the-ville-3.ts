// The Ville (3 agents): a 40 x 30 corner of town with Hobbs Cafe, the college dorm, Isabella's
// apartment and a small park, for quick and cheap runs with Isabella, Maria and Klaus.

import { dirtPath, lake, paintGrass, paintStreets, scatterFlowers, scatterTrees, streetLamps, woodedBorder } from './landscape';
import type { PersonaSource } from './personas';
import { item as o, TownMap, type BuildingSpec, type Item, type Rect } from './town-map';

export const VILLE3_SIZE = [40, 30] as const;
export const VILLE3_CAST = ['isabella-rodriguez', 'maria-lopez', 'klaus-mueller'];

const chair = (x: number, y: number): Item => o('chair', 'chair', x, y);

const SMALL_CAFE: BuildingSpec = {
	sector: 'Hobbs Cafe',
	kind: 'cafe',
	size: [16, 10],
	exterior: 'brick',
	rooms: [
		{
			name: 'kitchen',
			at: [1, 1, 8, 3],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0, 2, 1),
				o('kitchen sink', 'sink', 3, 0),
				o('kitchen counter', 'kitchen counter', 4, 0, 3, 1)
			]
		},
		{
			name: 'restroom',
			at: [10, 1, 5, 3],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('bathroom sink', 'bathroom sink', 1, 0), o('toilet', 'toilet', 4, 0)]
		},
		{
			name: 'cafe',
			at: [1, 5, 14, 4],
			floor: 'wood floor',
			objects: [
				o('coffee machine', 'coffee machine', 1, 0),
				o('back counter', 'counter', 2, 0, 2, 1),
				o('cafe counter', 'counter', 0, 2, 2, 1),
				o('cash register', 'cash register', 2, 2),
				o('pastry display', 'pastry display', 3, 2),
				o('customer tables', 'cafe table', 8, 1, 1, 1, { more: [[11, 1, 1, 1], [8, 3, 1, 1], [11, 3, 1, 1]], zone: [7, 1, 5, 3] }),
				o('piano', 'piano', 12, 0),
				o('bookshelf', 'bookshelf', 13, 3)
			],
			decor: [chair(7, 1), chair(10, 1), chair(7, 3), chair(10, 3), o('plant', 'potted plant', 0, 3)]
		}
	],
	doors: [[5, 4], [12, 4], [7, 9]]
};

const SMALL_APARTMENT: BuildingSpec = {
	sector: "Isabella's Apartment",
	kind: 'apartment',
	size: [12, 10],
	exterior: 'siding',
	rooms: [
		{
			name: 'kitchen',
			at: [1, 1, 5, 3],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0),
				o('kitchen sink', 'sink', 2, 0),
				o('dining table', 'table', 4, 1)
			]
		},
		{
			name: 'bathroom',
			at: [7, 1, 4, 3],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('toilet', 'toilet', 0, 0), o('bathroom sink', 'bathroom sink', 1, 0), o('shower', 'shower', 3, 0)]
		},
		{
			name: 'main room',
			at: [1, 5, 10, 4],
			floor: 'wood floor',
			objects: [
				o('bed', 'bed', 0, 0),
				o('wardrobe', 'wardrobe', 1, 0),
				o('desk', 'desk', 4, 0, 2, 1),
				o('sofa', 'sofa', 6, 2),
				o('television', 'television', 9, 3, 1, 1, { state: 'off' })
			],
			decor: [chair(4, 1), o('rug', 'rug', 3, 2)]
		}
	],
	doors: [[3, 4], [8, 4], [5, 9]]
};

const SMALL_DORM: BuildingSpec = {
	sector: 'Oak Hill College Dorm',
	kind: 'student dormitory',
	size: [22, 11],
	exterior: 'brick',
	rooms: [
		{
			name: 'common room',
			at: [1, 1, 20, 3],
			floor: 'beige carpet',
			objects: [
				o('television', 'television', 4, 0, 1, 1, { state: 'off' }),
				o('sofa', 'sofa', 4, 2),
				o('bookshelf', 'bookshelf', 15, 0, 3, 1),
				o('study table', 'dining table', 11, 1, 3, 1)
			],
			decor: [chair(11, 2), chair(12, 2), o('plant', 'potted plant', 19, 2)]
		},
		{
			name: "Klaus Mueller's room",
			at: [1, 5, 5, 5],
			floor: 'wood floor',
			objects: [o('bed', 'bed', 0, 3), o('desk', 'desk', 3, 4, 2, 1), o('bookshelf', 'bookshelf', 4, 1), o('wardrobe', 'wardrobe', 0, 0)],
			decor: [chair(3, 3)]
		},
		{
			name: "Maria Lopez's room",
			at: [7, 5, 5, 5],
			floor: 'purple carpet',
			objects: [o('bed', 'bed', 0, 3), o('desk', 'computer desk', 3, 4, 2, 1), o('telescope', 'camera tripod', 4, 1), o('wardrobe', 'wardrobe', 0, 0)],
			decor: [chair(3, 3)]
		},
		{
			name: 'bathroom',
			at: [13, 5, 4, 5],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('shower', 'shower', 0, 4), o('bathroom sink', 'bathroom sink', 2, 4), o('toilet', 'toilet', 3, 4)]
		},
		{
			name: 'kitchen',
			at: [18, 5, 3, 5],
			floor: 'kitchen tile',
			objects: [o('refrigerator', 'refrigerator', 0, 4), o('stove', 'stove', 1, 4), o('kitchen sink', 'sink', 2, 4), o('coffee machine', 'coffee machine', 2, 1)]
		}
	],
	doors: [[3, 4], [9, 4], [14, 4], [19, 4], [10, 0]]
};

function park(m: TownMap): void {
	const sector = 'Johnson Park';
	m.addSector(sector, 'park', [[25, 17, 13, 11]]);
	dirtPath(m, [30, 17, 1, 11]);
	const lakeArena: Rect = [31, 17, 7, 6];
	m.addArena(sector, 'lake', [lakeArena]);
	const { water } = lake(m, [32, 18, 5, 3]);
	m.addObject(sector, 'lake', 'lake', water, 'calm');
	m.placeItems(sector, 'lake', [31, 17], [o('lakeside bench', 'bench', 3, 5)], 'furniture');
	const lawn: Rect = [25, 23, 13, 5];
	m.addArena(sector, 'lawn', [[25, 18, 5, 5], lawn]);
	m.placeItems(sector, 'lawn', [25, 23], [
		o('park bench', 'bench', 1, 1),
		o('picnic table', 'picnic table', 10, 3)
	], 'furniture');
	m.placeItems(sector, 'lawn', [25, 18], [o('flower bed', 'flower bed', 1, 1, 2, 2)], 'furniture');
	scatterTrees(m, [25, 17, 13, 11], 0.35, 43, 0.15, true);
}

export function buildTheVille3(personas: PersonaSource[]): TownMap {
	const [W, H] = VILLE3_SIZE;
	const m = new TownMap('the-ville-3', W, H);
	paintGrass(m);
	woodedBorder(m, 2);
	paintStreets(m, { horizontal: [14], vertical: [], from: [2, 2], to: [W - 3, H - 3] });
	m.placeBuilding(SMALL_CAFE, 3, 2);
	m.placeBuilding(SMALL_APARTMENT, 22, 2);
	m.placeBuilding(SMALL_DORM, 2, 17);
	park(m);
	streetLamps(m, 8);
	scatterTrees(m, [2, 2, W - 4, H - 4], 0.3, 31, 0.08);
	scatterFlowers(m, [2, 2, W - 4, H - 4], 0.05, 37);
	const spawns: Record<string, [number, number]> = {
		'isabella-rodriguez': [1, 1],
		'maria-lopez': [1, 3],
		'klaus-mueller': [1, 3]
	};
	for (const p of personas) m.addSpawn(p.id, p.home, ...spawns[p.id]);
	m.validate();
	return m;
}
