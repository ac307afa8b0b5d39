// The environment tree graph: what is shown, what each node says, and where it sits.
import { describe, expect, it } from 'vitest';
import { loadWorld } from '$lib/server/world/load';
import { sectorViews, type SectorView } from '../shared/world-view';
import {
	NODE_HEIGHT,
	NODE_WIDTH,
	ROOT_ID,
	ancestorsOf,
	buildGraph,
	defaultCollapsed,
	layoutCache,
	descendantCount,
	knownSummary,
	parentAddresses,
	renameCollapsed,
	resolvePlace,
	type PlaceNode
} from './tree-graph';

function sector(name: string, kind: string, arenas: Record<string, Record<string, string>>): SectorView {
	return {
		name,
		kind,
		arenas: Object.entries(arenas).map(([arena, objects]) => ({
			name: arena,
			address: `${name}:${arena}`,
			objects: Object.entries(objects).map(([object, state]) => ({ name: object, address: `${name}:${arena}:${object}`, state }))
		}))
	};
}

// Two sectors with the same arena and object names: addresses keep them apart.
const TOWN: SectorView[] = [
	sector('Cottage', 'home', { kitchen: { stove: 'idle', fridge: 'closed' }, bedroom: { bed: 'made' } }),
	sector('Inn', 'lodging', { kitchen: { stove: 'cooking' }, hall: {} })
];
const NONE = new Set<string>();

const ids = (nodes: PlaceNode[]) => nodes.map((n) => n.id).sort();
const byId = (nodes: PlaceNode[], id: string) => nodes.find((n) => n.id === id)!;

/** No two nodes of the same rank (same x) overlap vertically. */
function expectNoOverlap(nodes: PlaceNode[]): void {
	const ranks = new Map<number, PlaceNode[]>();
	for (const n of nodes) ranks.set(n.position.x, [...(ranks.get(n.position.x) ?? []), n]);
	for (const rank of ranks.values()) {
		const ys = rank.map((n) => n.position.y).sort((a, b) => a - b);
		for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(NODE_HEIGHT);
	}
}

describe('buildGraph', () => {
	it('has one node per place plus the world, one edge per parent link', () => {
		const { nodes, edges } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '' });
		// 1 world + 2 sectors + 4 arenas + 4 objects
		expect(nodes).toHaveLength(11);
		expect(edges).toHaveLength(10);
		const root = byId(nodes, ROOT_ID);
		expect(root.data).toMatchObject({ label: 'Tiny', kind: 'world', address: ROOT_ID, childCount: 2, collapsed: false });
		expect(byId(nodes, 'Cottage').data).toMatchObject({ kind: 'sector', detail: 'home', childCount: 2 });
		expect(byId(nodes, 'Inn:kitchen:stove').data).toMatchObject({ label: 'stove', kind: 'object', detail: 'cooking', childCount: 0 });
		expect(byId(nodes, 'Inn:hall').data).toMatchObject({ kind: 'arena', childCount: 0 });
		for (const e of edges) {
			expect(nodes.some((n) => n.id === e.source)).toBe(true);
			expect(nodes.some((n) => n.id === e.target)).toBe(true);
		}
		expect(edges.find((e) => e.target === 'Cottage:kitchen:fridge')?.source).toBe('Cottage:kitchen');
		// without a spatial memory nothing is marked known or unknown
		expect(nodes.every((n) => n.data.known === undefined)).toBe(true);
	});

	it('keeps ids unique when names repeat in different sectors, and when a name repeats in one place', () => {
		const { nodes } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '' });
		expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
		expect(ids(nodes.filter((n) => n.data.label === 'stove'))).toEqual(['Cottage:kitchen:stove', 'Inn:kitchen:stove']);

		// a broken map (two arenas named alike, a sector named like the root) still draws
		const dup: SectorView[] = [
			sector('world', 'odd', {}),
			sector('Inn', 'lodging', { hall: { chair: 'idle' } }),
			sector('Inn', 'lodging', { hall: { chair: 'idle' } })
		];
		const g = buildGraph(dup, { worldName: 'W', collapsed: NONE, query: '' });
		expect(new Set(g.nodes.map((n) => n.id)).size).toBe(g.nodes.length);
		expect(g.nodes.filter((n) => n.data.address === 'Inn:hall:chair')).toHaveLength(2);
		expect(byId(g.nodes, 'world').data.kind).toBe('world');
		expect(byId(g.nodes, 'world#2').data).toMatchObject({ kind: 'sector', address: 'world' });
		expect(new Set(g.edges.map((e) => e.id)).size).toBe(g.edges.length);
	});

	it('hides the descendants of collapsed nodes and marks them collapsed', () => {
		const { nodes, edges } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: new Set(['Cottage', 'Inn:kitchen']), query: '' });
		expect(ids(nodes)).toEqual(['Cottage', 'Inn', 'Inn:hall', 'Inn:kitchen', ROOT_ID].sort());
		expect(byId(nodes, 'Cottage').data.collapsed).toBe(true);
		expect(byId(nodes, 'Inn:kitchen').data.collapsed).toBe(true);
		expect(byId(nodes, 'Inn').data.collapsed).toBe(false);
		expect(edges).toHaveLength(4);

		// a collapsed leaf has nothing to hide
		const leaf = buildGraph(TOWN, { worldName: 'Tiny', collapsed: new Set(['Inn:hall']), query: '' });
		expect(byId(leaf.nodes, 'Inn:hall').data.collapsed).toBe(false);

		const root = buildGraph(TOWN, { worldName: 'Tiny', collapsed: new Set([ROOT_ID]), query: '' });
		expect(ids(root.nodes)).toEqual([ROOT_ID]);
		expect(root.edges).toEqual([]);
	});

	it('searches names case-insensitively and keeps the ancestors of matches', () => {
		const { nodes } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: new Set(['Cottage', 'Inn']), query: ' STOVE ' });
		// collapsing is set aside while searching: both stoves show, under collapsed sectors too
		expect(ids(nodes)).toEqual(
			[ROOT_ID, 'Cottage', 'Cottage:kitchen', 'Cottage:kitchen:stove', 'Inn', 'Inn:kitchen', 'Inn:kitchen:stove'].sort()
		);
		expect(nodes.filter((n) => n.data.match).map((n) => n.id).sort()).toEqual(['Cottage:kitchen:stove', 'Inn:kitchen:stove']);
		expect(nodes.every((n) => !n.data.collapsed)).toBe(true);

		// a match on an inner node does not bring its children along
		const inn = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: 'inn' });
		expect(ids(inn.nodes)).toEqual(['Inn', ROOT_ID]);

		const none = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: 'piano' });
		expect(ids(none.nodes)).toEqual([ROOT_ID]);

		const blank = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '   ' });
		expect(blank.nodes).toHaveLength(11);
		expect(blank.nodes.some((n) => n.data.match)).toBe(false);
	});

	it('marks what an agent knows', () => {
		const known = { Cottage: { kitchen: ['stove'] }, Elsewhere: { x: ['y'] } };
		const { nodes } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '', known });
		const k = (id: string) => byId(nodes, id).data.known;
		expect(k(ROOT_ID)).toBe(true);
		expect(k('Cottage')).toBe(true);
		expect(k('Cottage:kitchen')).toBe(true);
		expect(k('Cottage:kitchen:stove')).toBe(true);
		expect(k('Cottage:kitchen:fridge')).toBe(false);
		expect(k('Cottage:bedroom')).toBe(false);
		expect(k('Cottage:bedroom:bed')).toBe(false);
		expect(k('Inn')).toBe(false);
		// the same names in another sector are not known
		expect(k('Inn:kitchen')).toBe(false);
		expect(k('Inn:kitchen:stove')).toBe(false);
		// places outside the world are not counted
		expect(knownSummary(TOWN, known)).toEqual({ known: 3, total: 10 });
		expect(knownSummary(TOWN, {})).toEqual({ known: 0, total: 10 });
	});

	it('flags the selected place', () => {
		const { nodes } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '', selected: 'Inn:kitchen' });
		expect(nodes.filter((n) => n.data.selected).map((n) => n.id)).toEqual(['Inn:kitchen']);
	});

	it('lays the tree out left to right, fixed sizes, no overlaps within a rank', () => {
		const { nodes } = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '' });
		const x = (id: string) => byId(nodes, id).position.x;
		expect(x(ROOT_ID)).toBeLessThan(x('Cottage'));
		expect(x('Cottage')).toBe(x('Inn'));
		expect(x('Cottage')).toBeLessThan(x('Cottage:kitchen'));
		expect(x('Cottage:kitchen')).toBe(x('Inn:hall'));
		expect(x('Cottage:kitchen')).toBeLessThan(x('Cottage:kitchen:stove'));
		expect(x('Cottage:kitchen:stove')).toBe(x('Inn:kitchen:stove'));
		expect(x('Cottage:kitchen') - x('Cottage')).toBeGreaterThanOrEqual(NODE_WIDTH);
		for (const n of nodes) expect([n.width, n.height]).toEqual([NODE_WIDTH, NODE_HEIGHT]);
		const spots = new Set(nodes.map((n) => `${n.position.x},${n.position.y}`));
		expect(spots.size).toBe(nodes.length);
		expectNoOverlap(nodes);
		const y = (id: string) => byId(nodes, id).position.y;
		expect(y('Cottage')).toBeLessThan(y('Inn'));
		expect(y('Cottage:kitchen')).toBeLessThan(y('Cottage:bedroom'));
		expect(y('Cottage:kitchen:stove')).toBeLessThan(y('Cottage:kitchen:fridge'));
		// a sector sits within the vertical span of its arenas
		const cottage = byId(nodes, 'Cottage').position.y;
		const arenaYs = ['Cottage:kitchen', 'Cottage:bedroom'].map((id) => byId(nodes, id).position.y);
		expect(cottage).toBeGreaterThanOrEqual(Math.min(...arenaYs));
		expect(cottage).toBeLessThanOrEqual(Math.max(...arenaYs));
	});

	it('lays out again only when the nodes shown change', () => {
		const cache = layoutCache();
		const a = buildGraph(TOWN, { worldName: 'Tiny', collapsed: NONE, query: '', cache });
		const kept = cache.positions;
		// a new selection, a spatial memory and a changed object state keep the layout
		const changed = TOWN.map((s) => ({ ...s, arenas: s.arenas.map((r) => ({ ...r, objects: r.objects.map((o) => ({ ...o, state: 'off' })) })) }));
		const b = buildGraph(changed, { worldName: 'Tiny', collapsed: NONE, query: '', cache, selected: 'Inn', known: {} });
		expect(cache.positions).toBe(kept);
		expect(b.nodes.map((n) => n.position)).toEqual(a.nodes.map((n) => n.position));
		expect(byId(b.nodes, 'Inn:kitchen:stove').data.detail).toBe('off');
		// collapsing lays out again
		const c = buildGraph(TOWN, { worldName: 'Tiny', collapsed: new Set(['Cottage']), query: '', cache });
		expect(cache.positions).not.toBe(kept);
		expect(c.nodes).toHaveLength(6);
		expectNoOverlap(c.nodes);
	});

	it('handles Smallville: objects start hidden, and the whole tree lays out', async () => {
		const sectors = sectorViews((await loadWorld('smallville')).def);
		const arenas = sectors.flatMap((s) => s.arenas);
		const objects = arenas.flatMap((a) => a.objects);
		expect([sectors.length, arenas.length, objects.length]).toEqual([17, 70, 353]);

		const collapsed = defaultCollapsed(sectors);
		expect(collapsed.size).toBe(arenas.filter((a) => a.objects.length > 0).length);
		let t = performance.now();
		const first = buildGraph(sectors, { worldName: 'Smallville', collapsed, query: '' });
		const firstMs = performance.now() - t;
		expect(first.nodes).toHaveLength(1 + 17 + 70);
		expectNoOverlap(first.nodes);

		t = performance.now();
		const all = buildGraph(sectors, { worldName: 'Smallville', collapsed: NONE, query: '' });
		const allMs = performance.now() - t;
		expect(all.nodes).toHaveLength(1 + 17 + 70 + 353);
		expect(all.edges).toHaveLength(17 + 70 + 353);
		expect(new Set(all.nodes.map((n) => n.id)).size).toBe(all.nodes.length);
		expectNoOverlap(all.nodes);
		// siblings read top to bottom in the world's order
		const ys = sectors.map((s) => byId(all.nodes, s.name).position.y);
		expect(ys).toEqual([...ys].sort((a, b) => a - b));
		console.log(
			`buildGraph on Smallville: ${first.nodes.length} nodes (objects collapsed) in ${firstMs.toFixed(1)} ms, ` +
				`${all.nodes.length} nodes (all open) in ${allMs.toFixed(1)} ms`
		);
	});
});

describe('tree helpers', () => {
	it('collapses nothing in a small tree', () => {
		expect(defaultCollapsed(TOWN)).toEqual(new Set());
		expect(defaultCollapsed(TOWN, 5)).toEqual(new Set(['Cottage:kitchen', 'Cottage:bedroom', 'Inn:kitchen']));
	});

	it('lists the nodes that have children', () => {
		expect(parentAddresses(TOWN)).toEqual(new Set([ROOT_ID, 'Cottage', 'Cottage:kitchen', 'Cottage:bedroom', 'Inn', 'Inn:kitchen']));
		expect(parentAddresses([])).toEqual(new Set());
	});

	it('finds ancestors and the deepest place on an address', () => {
		expect(ancestorsOf('Inn:kitchen:stove')).toEqual([ROOT_ID, 'Inn', 'Inn:kitchen']);
		expect(ancestorsOf('Inn')).toEqual([ROOT_ID]);
		expect(ancestorsOf(ROOT_ID)).toEqual([]);
		expect(resolvePlace(TOWN, 'Inn:kitchen:stove')).toBe('Inn:kitchen:stove');
		expect(resolvePlace(TOWN, 'Inn:kitchen:sink')).toBe('Inn:kitchen');
		expect(resolvePlace(TOWN, 'Inn:cellar')).toBe('Inn');
		expect(resolvePlace(TOWN, 'Nowhere:kitchen')).toBeNull();
		expect(resolvePlace(TOWN, '')).toBeNull();
		expect(resolvePlace(TOWN, null)).toBeNull();
		expect(resolvePlace(TOWN, ROOT_ID)).toBe(ROOT_ID);
	});

	it('moves collapsed entries along with a rename', () => {
		const moved = renameCollapsed(new Set(['Inn', 'Inn:kitchen', 'Innkeeper', 'Cottage:kitchen']), 'Inn', 'Tavern');
		expect(moved).toEqual(new Set(['Tavern', 'Tavern:kitchen', 'Innkeeper', 'Cottage:kitchen']));
	});

	it('counts what a delete takes along', () => {
		expect(descendantCount(TOWN, 'Cottage')).toBe(5);
		expect(descendantCount(TOWN, 'Cottage:kitchen')).toBe(2);
		expect(descendantCount(TOWN, 'Cottage:kitchen:stove')).toBe(0);
		expect(descendantCount(TOWN, 'Inn:hall')).toBe(0);
		expect(descendantCount(TOWN, 'Nowhere')).toBe(0);
	});
});
