// Floor plans of the town's buildings. Coordinates: rooms relative to the building's top-left
// corner (the outer wall is row/column 0), items relative to their room's top-left floor tile.
// Walls are whatever the rooms leave uncovered; doors are gaps in them.

import { item as o, type BuildingSpec, type Item, type RoomSpec } from './town-map';

const chair = (x: number, y: number): Item => o('chair', 'chair', x, y);
const plant = (x: number, y: number): Item => o('plant', 'potted plant', x, y);
const lamp = (x: number, y: number): Item => o('lamp', 'floor lamp', x, y);

/** Decor items may repeat a name; only game objects need unique names. */
function decor(...items: Item[]): Item[] {
	return items;
}

// ---------------------------------------------------------------------------------------------
// Commerce

export const HOBBS_CAFE: BuildingSpec = {
	sector: 'Hobbs Cafe',
	kind: 'cafe',
	size: [18, 16],
	exterior: 'brick',
	rooms: [
		{
			name: 'kitchen',
			at: [1, 1, 10, 4],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0, 2, 1),
				o('kitchen sink', 'sink', 3, 0),
				o('kitchen counter', 'kitchen counter', 4, 0, 3, 1),
				o('dishwasher', 'dishwasher', 7, 0),
				o('pantry shelf', 'storage shelf', 9, 0)
			]
		},
		{
			name: 'restroom',
			at: [12, 1, 5, 4],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('bathroom sink', 'bathroom sink', 1, 0), o('toilet', 'toilet', 4, 0)]
		},
		{
			name: 'cafe',
			at: [1, 6, 16, 9],
			floor: 'wood floor',
			objects: [
				o('coffee machine', 'coffee machine', 1, 0),
				o('back counter', 'counter', 2, 0, 3, 1),
				o('cafe counter', 'counter', 0, 2, 2, 1),
				o('cash register', 'cash register', 2, 2),
				o('pastry display', 'pastry display', 3, 2, 3, 1),
				o('customer tables', 'cafe table', 8, 1, 1, 1, {
					more: [[11, 1, 1, 1], [14, 1, 1, 1], [8, 4, 1, 1], [11, 4, 1, 1], [14, 4, 1, 1]],
					zone: [7, 1, 8, 4]
				}),
				o('bulletin board', 'bulletin board', 15, 0, 1, 1, { state: 'covered in flyers for local events' }),
				o('piano', 'piano', 0, 6),
				o('sofa', 'sofa', 11, 7),
				o('bookshelf', 'bookshelf', 15, 7)
			],
			decor: decor(
				chair(7, 1), chair(10, 1), chair(13, 1), chair(7, 4), chair(10, 4), chair(13, 4),
				plant(0, 8), plant(15, 8), lamp(10, 7), o('rug', 'rug', 12, 6), chair(1, 5)
			)
		}
	],
	doors: [[6, 5], [14, 5], [8, 15], [9, 15]]
};

export const WILLOWS_MARKET: BuildingSpec = {
	sector: 'The Willows Market and Pharmacy',
	kind: 'grocery store and pharmacy',
	size: [21, 16],
	exterior: 'siding',
	rooms: [
		{
			name: 'storage room',
			at: [1, 1, 19, 4],
			floor: 'concrete floor',
			objects: [
				o('storage shelves', 'storage shelf', 0, 0, 6, 1),
				o('delivery crates', 'crates', 8, 0, 3, 1),
				o('walk-in freezer', 'freezer', 13, 0, 2, 1),
				o('supply cabinet', 'filing cabinet', 18, 0)
			]
		},
		{
			name: 'store',
			at: [1, 6, 12, 9],
			floor: 'tile floor',
			objects: [
				o('pantry shelves', 'grocery shelf', 1, 1, 4, 1),
				o('snack shelves', 'grocery shelf', 7, 1, 4, 1),
				o('household goods shelves', 'grocery shelf', 1, 4, 4, 1),
				o('bread and dairy shelves', 'grocery shelf', 7, 4, 4, 1),
				o('drink cooler', 'freezer', 11, 1, 1, 2),
				o('produce stand', 'produce stand', 1, 6, 2, 1),
				o('checkout counter', 'counter', 9, 7, 2, 1),
				o('cash register', 'cash register', 8, 7)
			],
			decor: decor(plant(0, 8), plant(11, 8))
		},
		{
			name: 'pharmacy',
			at: [14, 6, 6, 9],
			floor: 'tile floor',
			wall: 'wall face green',
			objects: [
				o('medicine shelves', 'medicine shelf', 0, 0, 5, 1),
				o('prescription computer', 'computer desk', 5, 2),
				o('pharmacy counter', 'counter', 0, 4, 4, 1),
				o('waiting chairs', 'chair', 3, 8, 3, 1)
			]
		}
	],
	doors: [[3, 5], [13, 12], [13, 13], [6, 15], [7, 15]]
};

export const ROSE_AND_CROWN_PUB: BuildingSpec = {
	sector: 'The Rose and Crown Pub',
	kind: 'pub',
	size: [20, 16],
	exterior: 'brick',
	rooms: [
		{
			name: 'kitchen',
			at: [1, 1, 9, 4],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0, 2, 1),
				o('kitchen sink', 'sink', 3, 0),
				o('kitchen counter', 'kitchen counter', 4, 0, 3, 1),
				o('dishwasher', 'dishwasher', 8, 0)
			]
		},
		{
			name: 'restroom',
			at: [11, 1, 8, 4],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('toilets', 'toilet', 1, 0, 1, 1, { more: [[3, 0, 1, 1]], zone: [1, 0, 3, 1] }), o('sinks', 'bathroom sink', 6, 0, 2, 1)]
		},
		{
			name: 'bar',
			at: [1, 6, 18, 9],
			floor: 'dark wood floor',
			wall: 'wall face pink',
			objects: [
				o('liquor shelf', 'bookshelf', 0, 0, 6, 1),
				o('cash register', 'cash register', 7, 0),
				o('bar counter', 'bar counter', 0, 2, 6, 1),
				o('beer taps', 'beer taps', 6, 2, 2, 1),
				o('bar stools', 'bar stool', 0, 3, 1, 1, { more: [[2, 3, 1, 1], [4, 3, 1, 1], [6, 3, 1, 1]], zone: [0, 3, 7, 1] }),
				o('pool table', 'pool table', 11, 1),
				o('fireplace', 'fireplace', 14, 0, 1, 1, { state: 'unlit' }),
				o('jukebox', 'jukebox', 17, 0, 1, 1, { state: 'off' }),
				o('pub tables', 'table', 11, 5, 1, 1, { more: [[14, 5, 1, 1], [11, 7, 1, 1]], zone: [11, 5, 4, 3] }),
				o('microphone stand', 'microphone stand', 16, 7)
			],
			decor: decor(chair(10, 5), chair(13, 5), chair(10, 7), chair(15, 5), plant(0, 8), lamp(17, 8))
		}
	],
	doors: [[9, 5], [14, 5], [9, 15]]
};

export const TOWN_HALL: BuildingSpec = {
	sector: 'Smallville Town Hall',
	kind: 'town hall',
	size: [19, 16],
	exterior: 'stone',
	rooms: [
		{
			name: 'council chamber',
			at: [1, 1, 17, 8],
			floor: 'red carpet',
			objects: [
				o('podium', 'lectern', 8, 0),
				o('council table', 'dining table', 4, 2, 9, 1),
				o('audience benches', 'bench', 2, 5, 5, 1, { more: [[10, 5, 5, 1]], zone: [2, 5, 13, 1] }),
				o('state flag', 'flag', 6, 0),
				o('town flag', 'flag', 10, 0)
			],
			decor: decor(chair(5, 3), chair(7, 3), chair(9, 3), chair(11, 3), plant(0, 0), plant(16, 0))
		},
		{
			name: 'lobby',
			at: [1, 10, 10, 5],
			floor: 'tile floor',
			objects: [
				o('reception desk', 'reception desk', 3, 1, 3, 1),
				o('notice board', 'bulletin board', 0, 0, 1, 1, { state: 'showing the town meeting schedule' }),
				o('waiting bench', 'bench', 7, 3, 2, 1)
			],
			decor: decor(plant(9, 0), chair(6, 0))
		},
		{
			name: "mayor's office",
			at: [12, 10, 6, 5],
			floor: 'blue carpet',
			objects: [
				o('bookshelf', 'bookshelf', 3, 0, 3, 1),
				o('desk', 'desk', 2, 2, 2, 1),
				o('filing cabinet', 'filing cabinet', 5, 4)
			],
			decor: decor(chair(3, 3), o('flag', 'flag', 0, 0))
		}
	],
	doors: [[5, 9], [11, 12], [5, 15]]
};

export const HARVEY_OAK_SUPPLY: BuildingSpec = {
	sector: 'Harvey Oak Supply Store',
	kind: 'hardware and supply store',
	size: [18, 14],
	exterior: 'siding',
	rooms: [
		{
			name: 'supply store',
			at: [1, 1, 16, 7],
			floor: 'concrete floor',
			objects: [
				o('tool rack', 'tool rack', 0, 0, 3, 1),
				o('paint cans', 'paint cans', 10, 0, 2, 1),
				o('lumber pile', 'lumber pile', 13, 0, 2, 1),
				o('checkout counter', 'counter', 3, 2, 2, 1),
				o('cash register', 'cash register', 5, 2),
				o('hardware shelves', 'storage shelf', 0, 4, 4, 1),
				o('garden supply shelves', 'storage shelf', 9, 4, 5, 1)
			],
			decor: decor(plant(15, 6))
		},
		{
			name: 'storage room',
			at: [1, 9, 9, 4],
			floor: 'concrete floor',
			objects: [
				o('storage shelves', 'storage shelf', 0, 3, 4, 1),
				o('crates', 'crates', 6, 3, 3, 1),
				o('lumber stack', 'lumber pile', 0, 0, 2, 1)
			]
		},
		{
			name: 'workshop',
			at: [11, 9, 6, 4],
			floor: 'concrete floor',
			objects: [
				o('workbench', 'workbench', 0, 3, 3, 1),
				o('wall tools', 'tool rack', 4, 0, 2, 1),
				o('paint supplies', 'paint cans', 5, 3)
			]
		}
	],
	doors: [[8, 0], [5, 8], [13, 8]]
};

// ---------------------------------------------------------------------------------------------
// Oak Hill College

export const OAK_HILL_COLLEGE: BuildingSpec = {
	sector: 'Oak Hill College',
	kind: 'college',
	size: [39, 18],
	exterior: 'stone',
	rooms: [
		{
			name: 'classroom',
			at: [1, 1, 11, 8],
			floor: 'light wood floor',
			objects: [
				o('blackboard', 'blackboard', 3, 0, 5, 1),
				o('lectern', 'lectern', 5, 1),
				o("teacher's desk", 'desk', 0, 1, 2, 1),
				o('student desks', 'school desk', 1, 3, 1, 1, {
					more: [[3, 3, 1, 1], [5, 3, 1, 1], [7, 3, 1, 1], [9, 3, 1, 1], [1, 5, 1, 1], [3, 5, 1, 1], [5, 5, 1, 1], [7, 5, 1, 1], [9, 5, 1, 1]],
					zone: [1, 3, 9, 3]
				}),
				o('globe', 'globe', 10, 0)
			],
			decor: decor(
				chair(1, 4), chair(3, 4), chair(5, 4), chair(7, 4), chair(9, 4),
				chair(1, 6), chair(3, 6), chair(7, 6), chair(9, 6), plant(0, 7)
			)
		},
		{
			name: 'music room',
			at: [13, 1, 9, 8],
			floor: 'blue carpet',
			objects: [
				o('piano', 'piano', 1, 0),
				o('drum kit', 'drum kit', 6, 0),
				o('guitar', 'guitar', 8, 0),
				o('music stands', 'music stand', 2, 4, 1, 1, { more: [[4, 4, 1, 1], [6, 4, 1, 1]], zone: [2, 4, 5, 1] }),
				o('composition desk', 'computer desk', 8, 6)
			],
			decor: decor(chair(2, 5), chair(4, 5), chair(6, 5), chair(7, 6), plant(0, 7))
		},
		{
			name: 'library',
			at: [23, 1, 15, 8],
			floor: 'green carpet',
			objects: [
				o('bookshelves', 'bookshelf', 0, 0, 6, 1, { more: [[8, 0, 7, 1]], zone: [0, 0, 15, 1] }),
				o('reference shelves', 'bookshelf', 0, 3, 4, 1, { more: [[0, 5, 4, 1]], zone: [0, 3, 4, 3] }),
				o('reading tables', 'dining table', 7, 3, 4, 1, { more: [[7, 6, 4, 1]], zone: [7, 3, 4, 4] }),
				o('circulation desk', 'reception desk', 12, 5, 3, 1),
				o('library computer', 'computer desk', 14, 2)
			],
			decor: decor(chair(8, 2), chair(10, 2), chair(8, 4), chair(10, 4), chair(8, 5), chair(10, 5), chair(13, 2), lamp(6, 7), plant(0, 7))
		},
		{ name: 'hallway', at: [1, 10, 37, 2], floor: 'tile floor', arena: false, decor: decor(plant(0, 0), plant(36, 0)) },
		{
			name: 'faculty office',
			at: [1, 13, 10, 4],
			floor: 'beige carpet',
			objects: [
				o('bookshelf', 'bookshelf', 5, 0, 4, 1),
				o('filing cabinet', 'filing cabinet', 9, 0),
				o('desk', 'desk', 1, 1, 2, 1),
				o('armchair', 'armchair', 8, 2)
			],
			decor: decor(chair(1, 2), plant(0, 3), lamp(9, 3))
		},
		{ name: 'lobby', at: [12, 13, 7, 4], floor: 'tile floor', arena: false, decor: decor(plant(0, 3), plant(6, 3)) },
		{
			name: 'cafeteria',
			at: [20, 13, 18, 4],
			floor: 'kitchen tile',
			objects: [
				o('serving counter', 'counter', 0, 0, 4, 1),
				o('coffee machine', 'coffee machine', 4, 0),
				o('drink fridge', 'refrigerator', 17, 0),
				o('cafeteria tables', 'dining table', 6, 2, 4, 1, { more: [[12, 2, 4, 1]], zone: [6, 2, 10, 1] })
			],
			decor: decor(chair(6, 1), chair(9, 1), chair(6, 3), chair(9, 3), chair(12, 1), chair(15, 1), chair(12, 3), chair(15, 3))
		}
	],
	doors: [
		[6, 9], [17, 9], [30, 9],
		[5, 12], [12, 12], [13, 12], [14, 12], [15, 12], [16, 12], [17, 12], [18, 12], [28, 12],
		[14, 17], [15, 17], [16, 17]
	]
};

function studentRoom(name: string, x: number, floor: string, desk: string, extra: Item[]): RoomSpec {
	return {
		name,
		at: [x, 1, 6, 6],
		floor,
		objects: [
			o('bed', 'bed', 0, 0),
			o('desk', desk, 2, 0, 2, 1),
			o('bookshelf', 'bookshelf', 5, 0),
			o('wardrobe', 'wardrobe', 0, 5),
			...extra
		],
		decor: decor(chair(2, 1), lamp(5, 5))
	};
}

export const OAK_HILL_DORM: BuildingSpec = {
	sector: 'Oak Hill College Dorm',
	kind: 'student dormitory',
	size: [34, 18],
	exterior: 'brick',
	rooms: [
		studentRoom("Klaus Mueller's room", 1, 'wood floor', 'desk', [o('reading chair', 'armchair', 4, 3)]),
		studentRoom("Wolfgang Schulz's room", 8, 'light wood floor', 'computer desk', [o('keyboard', 'music stand', 4, 3)]),
		studentRoom("Maria Lopez's room", 15, 'purple carpet', 'computer desk', [o('telescope', 'camera tripod', 4, 3)]),
		studentRoom("Ayesha Khan's room", 22, 'beige carpet', 'desk', [o('reading chair', 'armchair', 4, 3)]),
		{
			name: 'bathroom',
			at: [29, 1, 4, 6],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('shower', 'shower', 0, 0), o('bathroom sink', 'bathroom sink', 2, 0), o('toilet', 'toilet', 3, 0)]
		},
		{ name: 'hallway', at: [1, 8, 32, 2], floor: 'tile floor', arena: false, decor: decor(plant(31, 0)) },
		{
			name: 'common room',
			at: [1, 11, 16, 6],
			floor: 'beige carpet',
			objects: [
				o('television', 'television', 3, 0, 1, 1, { state: 'off' }),
				o('sofa', 'sofa', 2, 2),
				o('armchair', 'armchair', 5, 2),
				o('bookshelf', 'bookshelf', 11, 0, 3, 1),
				o('study table', 'dining table', 10, 3, 4, 1),
				o('pool table', 'pool table', 2, 4)
			],
			decor: decor(chair(10, 2), chair(13, 2), chair(10, 4), chair(13, 4), plant(0, 0), plant(15, 5), lamp(15, 0))
		},
		{
			name: 'kitchen',
			at: [18, 11, 15, 6],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0, 2, 1),
				o('kitchen sink', 'sink', 3, 0),
				o('kitchen counter', 'kitchen counter', 4, 0, 3, 1),
				o('coffee machine', 'coffee machine', 9, 0),
				o('dining table', 'dining table', 3, 3, 5, 1),
				o('washing machine', 'washing machine', 14, 0)
			],
			decor: decor(chair(3, 2), chair(5, 2), chair(7, 2), chair(3, 4), chair(5, 4), chair(7, 4), plant(14, 5))
		}
	],
	doors: [[3, 7], [10, 7], [17, 7], [24, 7], [30, 7], [8, 10], [25, 10], [8, 17], [33, 8]]
};

// ---------------------------------------------------------------------------------------------
// Homes

function artistRoom(name: string, x: number, y: number, w: number, h: number, floor: string, work: Item[]): RoomSpec {
	// bed against the far wall from the door; work items along the other side
	const bedY = y === 1 ? 0 : h - 2;
	return {
		name,
		at: [x, y, w, h],
		floor,
		objects: [o('bed', 'bed', 0, bedY), o('wardrobe', 'wardrobe', w - 1, y === 1 ? 0 : h - 1), ...work],
		decor: decor(plant(0, y === 1 ? h - 1 : 0))
	};
}

export const ARTIST_COLIVING: BuildingSpec = {
	sector: "Artist's co-living space",
	kind: 'shared house for artists',
	size: [30, 19],
	exterior: 'blue siding',
	rooms: [
		artistRoom("Latoya Williams's room", 1, 1, 6, 6, 'light wood floor', [
			o('camera tripod', 'camera tripod', 3, 3),
			o('photo editing desk', 'computer desk', 2, 0, 2, 1)
		]),
		artistRoom("Rajiv Patel's room", 8, 1, 6, 6, 'wood floor', [o('easel', 'easel', 3, 3), o('paint supplies', 'paint cans', 2, 0)]),
		artistRoom("Abigail Chen's room", 15, 1, 6, 6, 'purple carpet', [
			o('drawing tablet desk', 'computer desk', 2, 0, 2, 1),
			o('bookshelf', 'bookshelf', 3, 3)
		]),
		artistRoom("Francisco Lopez's room", 22, 1, 7, 6, 'red carpet', [
			o('dresser', 'dresser', 2, 0),
			o('microphone stand', 'microphone stand', 4, 3),
			o('desk', 'desk', 3, 0, 2, 1)
		]),
		{ name: 'hallway', at: [1, 8, 28, 2], floor: 'tile floor', arena: false, decor: decor(plant(27, 0)) },
		artistRoom("Hailey Johnson's room", 1, 11, 6, 7, 'beige carpet', [o('writing desk', 'desk', 3, 6, 2, 1), o('bookshelf', 'bookshelf', 3, 3)]),
		{
			name: 'bathroom',
			at: [8, 11, 5, 7],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('shower', 'shower', 4, 6), o('toilet', 'toilet', 0, 6), o('bathroom sink', 'bathroom sink', 2, 6), o('bathtub', 'bathtub', 0, 3)]
		},
		{
			name: 'kitchen',
			at: [14, 11, 6, 7],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 6),
				o('stove', 'stove', 1, 6),
				o('kitchen sink', 'sink', 2, 6),
				o('kitchen counter', 'kitchen counter', 3, 6, 2, 1),
				o('dining table', 'dining table', 2, 2, 3, 1)
			],
			decor: decor(chair(2, 1), chair(4, 1), chair(2, 3), chair(4, 3))
		},
		{
			name: 'common room',
			at: [21, 11, 8, 7],
			floor: 'green carpet',
			objects: [
				o('sofa', 'sofa', 1, 1),
				o('television', 'television', 1, 3, 1, 1, { state: 'off' }),
				o('art supplies shelf', 'bookshelf', 6, 0, 2, 1),
				o('easel', 'easel', 6, 4),
				o('piano', 'piano', 0, 6)
			],
			decor: decor(plant(7, 6), lamp(4, 1))
		}
	],
	doors: [[3, 7], [10, 7], [17, 7], [25, 7], [3, 10], [10, 10], [16, 10], [24, 10], [0, 8], [24, 18]]
};

interface FamilyHouseNames {
	sector: string;
	exterior: 'brick' | 'siding' | 'blue siding';
	bedroom: string;
	/** the second bedroom (a child's room or a studio), with its own items */
	second: { name: string; floor: string; objects: Item[] };
	living: string;
	extraLiving?: Item[];
}

/** A family house: living room and kitchen at the front (north door), bedrooms at the back. */
function familyHouse(n: FamilyHouseNames): BuildingSpec {
	return {
		sector: n.sector,
		kind: 'house',
		size: [22, 16],
		exterior: n.exterior,
		rooms: [
			{
				name: 'living room',
				at: [1, 1, 12, 6],
				floor: n.living,
				objects: [
					o('sofa', 'sofa', 1, 1),
					o('coffee table', 'coffee table', 1, 3, 2, 1),
					o('television', 'television', 1, 5, 1, 1, { state: 'off' }),
					o('armchair', 'armchair', 4, 2),
					o('bookshelf', 'bookshelf', 10, 0, 2, 1),
					...(n.extraLiving ?? [])
				],
				decor: decor(plant(0, 0), lamp(11, 5), o('rug', 'rug', 7, 3))
			},
			{
				name: 'kitchen',
				at: [14, 1, 7, 6],
				floor: 'kitchen tile',
				objects: [
					o('refrigerator', 'refrigerator', 0, 0),
					o('stove', 'stove', 1, 0),
					o('kitchen sink', 'sink', 2, 0),
					o('kitchen counter', 'kitchen counter', 3, 0, 2, 1),
					o('dishwasher', 'dishwasher', 5, 0),
					o('dining table', 'dining table', 2, 3, 3, 1)
				],
				decor: decor(chair(2, 2), chair(4, 2), chair(2, 4), chair(4, 4))
			},
			{ name: 'hallway', at: [1, 8, 20, 1], floor: 'wood floor', arena: false },
			{
				name: n.bedroom,
				at: [1, 10, 8, 5],
				floor: 'beige carpet',
				objects: [
					o('bed', 'double bed', 0, 0),
					o('nightstand', 'nightstand', 2, 0),
					o('dresser', 'dresser', 6, 0),
					o('wardrobe', 'wardrobe', 7, 0),
					o('desk', 'desk', 6, 4, 2, 1)
				],
				decor: decor(lamp(0, 4))
			},
			{ name: n.second.name, at: [10, 10, 5, 5], floor: n.second.floor, objects: n.second.objects },
			{
				name: 'bathroom',
				at: [16, 10, 5, 5],
				floor: 'bathroom tile',
				wall: 'wall face blue',
				objects: [o('bathtub', 'bathtub', 0, 4), o('bathroom sink', 'bathroom sink', 4, 0), o('toilet', 'toilet', 4, 4)]
			}
		],
		doors: [[6, 0], [13, 3], [6, 7], [17, 7], [4, 9], [11, 9], [18, 9]]
	};
}

export const LIN_HOUSE = familyHouse({
	sector: "Lin family's house",
	exterior: 'siding',
	bedroom: "Mei and John Lin's bedroom",
	living: 'wood floor',
	extraLiving: [o('piano', 'piano', 7, 0)],
	second: {
		name: "Eddy Lin's bedroom",
		floor: 'blue carpet',
		objects: [
			o('bed', 'bed', 0, 2),
			o('desk', 'computer desk', 3, 0, 2, 1),
			o('guitar', 'guitar', 4, 3),
			o('music stand', 'music stand', 2, 4)
		]
	}
});

export const MOORE_HOUSE = familyHouse({
	sector: "Moore family's house",
	exterior: 'brick',
	bedroom: "Sam and Jennifer Moore's bedroom",
	living: 'dark wood floor',
	extraLiving: [o('fireplace', 'fireplace', 7, 0, 1, 1, { state: 'unlit' })],
	second: {
		name: 'art studio',
		floor: 'light wood floor',
		objects: [
			o('easel', 'easel', 1, 2),
			o('paint supplies', 'paint cans', 4, 0),
			o('work table', 'table', 3, 4),
			o('canvas shelf', 'storage shelf', 2, 0, 2, 1)
		]
	}
});

/** A smaller house: living room and kitchen at the front, bedroom and bathroom at the back. */
function smallHouse(sector: string, exterior: 'brick' | 'siding' | 'blue siding', living: string, bedroomFloor: string, study: Item[]): BuildingSpec {
	return {
		sector,
		kind: 'house',
		size: [18, 14],
		exterior,
		rooms: [
			{
				name: 'living room',
				at: [1, 1, 10, 5],
				floor: living,
				objects: [
					o('sofa', 'sofa', 1, 2),
					o('television', 'television', 1, 4, 1, 1, { state: 'off' }),
					o('bookshelf', 'bookshelf', 6, 0, 3, 1),
					...study
				],
				decor: decor(plant(0, 0), lamp(9, 4))
			},
			{
				name: 'kitchen',
				at: [12, 1, 5, 5],
				floor: 'kitchen tile',
				objects: [
					o('refrigerator', 'refrigerator', 0, 0),
					o('stove', 'stove', 1, 0),
					o('kitchen sink', 'sink', 2, 0),
					o('kitchen counter', 'kitchen counter', 3, 0, 2, 1),
					o('dining table', 'dining table', 2, 3, 2, 1)
				],
				decor: decor(chair(1, 3), chair(4, 3))
			},
			{
				name: 'bedroom',
				at: [1, 7, 10, 6],
				floor: bedroomFloor,
				objects: [
					o('bed', 'double bed', 0, 0),
					o('nightstand', 'nightstand', 2, 0),
					o('wardrobe', 'wardrobe', 9, 0),
					o('dresser', 'dresser', 8, 0)
				],
				decor: decor(lamp(0, 5), o('rug', 'rug', 4, 3))
			},
			{
				name: 'bathroom',
				at: [12, 7, 5, 6],
				floor: 'bathroom tile',
				wall: 'wall face blue',
				objects: [o('shower', 'shower', 4, 5), o('toilet', 'toilet', 0, 5), o('bathroom sink', 'bathroom sink', 4, 0)]
			}
		],
		doors: [[5, 0], [11, 3], [5, 6], [14, 6]]
	};
}

export const ADAM_SMITH_HOUSE = smallHouse("Adam Smith's house", 'siding', 'dark wood floor', 'green carpet', [
	o('writing desk', 'desk', 7, 3, 2, 1),
	o('fireplace', 'fireplace', 9, 0, 1, 1, { state: 'unlit' })
]);

export const YURIKO_HOUSE = smallHouse("Yuriko Yamamoto's house", 'blue siding', 'light wood floor', 'beige carpet', [
	o('home office desk', 'computer desk', 7, 3, 2, 1),
	o('filing cabinet', 'filing cabinet', 9, 0)
]);

export const MORENO_HOUSE: BuildingSpec = {
	sector: "Moreno family's house",
	kind: 'house',
	size: [18, 16],
	exterior: 'blue siding',
	rooms: [
		{
			name: 'living room',
			at: [1, 1, 10, 6],
			floor: 'wood floor',
			objects: [
				o('sofa', 'sofa', 1, 2),
				o('television', 'television', 1, 5, 1, 1, { state: 'off' }),
				o('bookshelf', 'bookshelf', 6, 0, 2, 1),
				o('armchair', 'armchair', 6, 3),
				o('fireplace', 'fireplace', 9, 0, 1, 1, { state: 'unlit' })
			],
			decor: decor(plant(0, 0), lamp(9, 5))
		},
		{
			name: 'kitchen',
			at: [12, 1, 5, 6],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 0),
				o('stove', 'stove', 1, 0),
				o('kitchen sink', 'sink', 2, 0),
				o('kitchen counter', 'kitchen counter', 3, 0, 2, 1),
				o('dining table', 'dining table', 2, 3, 2, 1)
			],
			decor: decor(chair(1, 3), chair(4, 3))
		},
		{ name: 'hallway', at: [1, 8, 16, 1], floor: 'wood floor', arena: false },
		{
			name: "Tom and Jane Moreno's bedroom",
			at: [1, 10, 9, 5],
			floor: 'beige carpet',
			objects: [
				o('bed', 'double bed', 0, 0),
				o('nightstand', 'nightstand', 2, 0),
				o('dresser', 'dresser', 7, 0),
				o('wardrobe', 'wardrobe', 8, 0),
				o('sewing table', 'table', 7, 4)
			],
			decor: decor(lamp(0, 4))
		},
		{
			name: 'bathroom',
			at: [11, 10, 6, 5],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('shower', 'shower', 5, 0), o('toilet', 'toilet', 5, 4), o('bathroom sink', 'bathroom sink', 0, 0)]
		}
	],
	doors: [[5, 0], [11, 3], [5, 7], [14, 7], [5, 9], [13, 9]]
};

export const ISABELLA_APARTMENT: BuildingSpec = {
	sector: "Isabella's Apartment",
	kind: 'apartment',
	size: [14, 12],
	exterior: 'siding',
	rooms: [
		{
			name: 'main room',
			at: [1, 1, 12, 5],
			floor: 'wood floor',
			objects: [
				o('bed', 'bed', 0, 0),
				o('wardrobe', 'wardrobe', 2, 0),
				o('desk', 'desk', 8, 0, 2, 1),
				o('bookshelf', 'bookshelf', 11, 0),
				o('sofa', 'sofa', 7, 3),
				o('television', 'television', 11, 2, 1, 1, { state: 'off' })
			],
			decor: decor(chair(8, 1), plant(3, 0), lamp(11, 4), o('rug', 'rug', 6, 2))
		},
		{
			name: 'kitchen',
			at: [1, 7, 6, 4],
			floor: 'kitchen tile',
			objects: [
				o('refrigerator', 'refrigerator', 0, 3),
				o('stove', 'stove', 1, 3),
				o('kitchen sink', 'sink', 2, 3),
				o('kitchen counter', 'kitchen counter', 3, 3, 2, 1),
				o('dining table', 'table', 4, 1)
			],
			decor: decor(chair(5, 1))
		},
		{
			name: 'bathroom',
			at: [8, 7, 5, 4],
			floor: 'bathroom tile',
			wall: 'wall face blue',
			objects: [o('toilet', 'toilet', 0, 3), o('bathroom sink', 'bathroom sink', 2, 3), o('shower', 'shower', 4, 3)]
		}
	],
	doors: [[6, 0], [3, 6], [10, 6]]
};

/** A one-room apartment (the arena) off a shared hallway; the door is at its top wall. */
function apartment(name: string, x: number, w: number, h: number, floor: string, work: Item): RoomSpec {
	return {
		name,
		at: [x, 4, w, h],
		floor,
		objects: [
			o('bed', 'bed', 0, h - 2),
			o('refrigerator', 'refrigerator', w - 1, 1),
			o('stove', 'stove', w - 1, 2),
			o('kitchen sink', 'sink', w - 1, 3),
			o('dining table', 'table', 1, 4),
			o('shower', 'shower', w - 1, h - 1),
			o('toilet', 'toilet', w - 1, h - 2),
			{ ...work, rects: [[w - 1, h - 4, 1, 1]] },
			o('armchair', 'armchair', 1, h - 4)
		],
		decor: decor(chair(0, 4), plant(0, 0))
	};
}

function apartmentBuilding(sector: string, exterior: 'brick' | 'blue siding', h: number, units: [string, string, Item][]): BuildingSpec {
	const xs = [1, 7, 14];
	const ws = [5, 6, 6];
	return {
		sector,
		kind: 'apartment building',
		size: [21, h + 5],
		exterior,
		rooms: [
			{ name: 'hallway', at: [1, 1, 19, 2], floor: 'tile floor', arena: false, decor: decor(plant(0, 0), plant(18, 0)) },
			...units.map(([name, floor, work], i) => apartment(name, xs[i], ws[i], h, floor, work))
		],
		doors: [[10, 0], [3, 3], [9, 3], [16, 3]]
	};
}

export const MAPLE_APARTMENTS = apartmentBuilding('Maple Street Apartments', 'brick', 11, [
	["Arthur Burton's apartment", 'dark wood floor', o('desk', 'desk', 0, 0)],
	["Ryan Park's apartment", 'blue carpet', o('computer desk', 'computer desk', 0, 0)],
	["Giorgio Rossi's apartment", 'light wood floor', o('desk', 'desk', 0, 0)]
]);

export const ELM_APARTMENTS = apartmentBuilding('Elm Street Apartments', 'blue siding', 9, [
	["Carlos Gomez's apartment", 'wood floor', o('writing desk', 'desk', 0, 0)],
	["Tamara Taylor's apartment", 'purple carpet', o('writing desk', 'desk', 0, 0)],
	["Carmen Ortiz's apartment", 'beige carpet', o('desk', 'computer desk', 0, 0)]
]);
