// Smallville: the 140 x 100 town of the Generative Agents paper, laid out as a street grid of
// twelve blocks. Rows of blocks (tiles): 2-23, 28-49, 54-74, 79-97; columns: 2-44, 49-91, 96-137.

import * as B from './buildings';
import { dirtPath, lake, paintGrass, paintStreets, scatterFlowers, scatterTrees, streetLamps, woodedBorder } from './landscape';
import type { PersonaSource } from './personas';
import { item as o, TownMap, type Rect } from './town-map';

export const SMALLVILLE_SIZE = [140, 100] as const;

function johnsonPark(m: TownMap): void {
	const sector = 'Johnson Park';
	m.addSector(sector, 'park', [[49, 2, 43, 22]]);
	dirtPath(m, [49, 13, 43, 1]);
	dirtPath(m, [68, 2, 1, 22]);

	const garden: Rect = [50, 3, 17, 9];
	m.addArena(sector, 'garden', [garden]);
	m.placeItems(sector, 'garden', [garden[0], garden[1]], [
		o('flower beds', 'flower bed', 1, 1, 3, 2, { more: [[6, 1, 3, 2], [11, 1, 3, 2]], zone: [1, 1, 13, 2] }),
		o('vegetable patch', 'vegetable patch', 1, 5, 5, 3),
		o('garden shed', 'garden shed', 15, 0),
		o('garden bench', 'bench', 8, 6, 2, 1),
		o('apple tree', 'tree', 13, 6),
		o('watering can', 'watering can', 10, 5)
	], 'furniture');

	const lakeArena: Rect = [70, 3, 21, 10];
	m.addArena(sector, 'lake', [lakeArena]);
	const { water, dock } = lake(m, [72, 4, 17, 7], 80, 2);
	m.addObject(sector, 'lake', 'lake', water, 'calm');
	if (dock) m.addObject(sector, 'lake', 'fishing dock', [dock]);
	m.placeItems(sector, 'lake', [lakeArena[0], lakeArena[1]], [o('west lakeside bench', 'bench', 3, 9), o('east lakeside bench', 'bench', 16, 9)], 'furniture');

	const picnic: Rect = [50, 15, 17, 8];
	m.addArena(sector, 'picnic area', [picnic]);
	m.placeItems(sector, 'picnic area', [picnic[0], picnic[1]], [
		o('picnic tables', 'picnic table', 2, 1, 2, 1, { more: [[7, 1, 2, 1], [2, 4, 2, 1], [7, 4, 2, 1]], zone: [2, 1, 7, 4] }),
		o('grill', 'grill', 12, 1)
	], 'furniture');
	m.placeItems(sector, null, [picnic[0], picnic[1]], [o('trash can', 'trash can', 13, 5)], 'decor');

	const playground: Rect = [70, 15, 21, 8];
	m.addArena(sector, 'playground', [playground]);
	m.fillGround([86, 16, 3, 3], 'sand', 'shore');
	m.addObject(sector, 'playground', 'sandbox', [[86, 16, 3, 3]]);
	scatterTrees(m, [49, 2, 43, 22], 0.35, 41, 0.12, true);
	m.placeItems(sector, 'playground', [playground[0], playground[1]], [
		o('fountain', 'fountain', 9, 2),
		o('swing set', 'swing set', 3, 1, 1, 1, { more: [[5, 1, 1, 1]], zone: [3, 1, 3, 1] }),
		o('park benches', 'bench', 6, 5, 1, 1, { more: [[13, 5, 1, 1]], zone: [6, 5, 8, 1] })
	], 'furniture');
}

/** Mailboxes beside the front paths of homes. */
function mailbox(m: TownMap, x: number, y: number): void {
	if (m.getTerrain(x, y) === 'grass') m.drawSprite('decor', 'mailbox', [x, y, 1, 1]);
}

export function buildSmallville(personas: PersonaSource[]): TownMap {
	const [W, H] = SMALLVILLE_SIZE;
	const m = new TownMap('smallville', W, H);
	paintGrass(m);
	woodedBorder(m, 2);
	paintStreets(m, { horizontal: [25, 51, 76], vertical: [46, 93], from: [2, 2], to: [W - 3, H - 3] });

	// row 1: college, park, artists
	m.placeBuilding(B.OAK_HILL_COLLEGE, 4, 3);
	johnsonPark(m);
	m.placeBuilding(B.ARTIST_COLIVING, 98, 3);
	// row 2: dorm, cafe and market, pub and town hall
	m.placeBuilding(B.OAK_HILL_DORM, 6, 30);
	m.placeBuilding(B.HOBBS_CAFE, 51, 31);
	m.placeBuilding(B.WILLOWS_MARKET, 70, 31);
	m.placeBuilding(B.ROSE_AND_CROWN_PUB, 97, 31);
	m.placeBuilding(B.TOWN_HALL, 118, 31);
	// row 3: family houses, Isabella's apartment, supply store, apartments
	m.placeBuilding(B.LIN_HOUSE, 4, 57);
	m.placeBuilding(B.MORENO_HOUSE, 27, 57);
	m.placeBuilding(B.ISABELLA_APARTMENT, 51, 57);
	m.placeBuilding(B.MOORE_HOUSE, 68, 57);
	m.placeBuilding(B.HARVEY_OAK_SUPPLY, 98, 57);
	m.placeBuilding(B.MAPLE_APARTMENTS, 117, 57);
	// row 4: Adam Smith and his neighbour Yuriko Yamamoto, more apartments
	m.placeBuilding(B.ADAM_SMITH_HOUSE, 4, 81);
	m.placeBuilding(B.YURIKO_HOUSE, 24, 81);
	m.placeBuilding(B.ELM_APARTMENTS, 52, 81);

	// a small pond in the southern woods, just scenery
	lake(m, [110, 84, 9, 5]);

	for (const [x, y] of [[11, 56], [33, 56], [58, 56], [75, 56], [10, 80], [30, 80], [63, 80], [128, 56]]) mailbox(m, x, y);
	streetLamps(m, 8);
	scatterTrees(m, [2, 2, W - 4, H - 4], 0.3, 11, 0.08);
	scatterFlowers(m, [2, 2, W - 4, H - 4], 0.05, 23);

	for (const p of personas) m.addSpawn(p.id, p.home, p.spawnAt[0], p.spawnAt[1]);
	m.validate();
	return m;
}
