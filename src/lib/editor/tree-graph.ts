// The environment tree as a node graph: which places are shown (collapse, search), what each
// node says (name, kind, sector kind or object state, known to an agent or not) and where it
// sits (a left-to-right dagre layout: world -> sectors -> arenas -> objects). Pure: the graph
// component (src/lib/ui/editor/TreeGraph.svelte) draws what this returns.

import { graphlib, layout } from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/svelte';
import type { SectorView } from '../shared/world-view';

/** The id (and address) of the root node: the world itself. */
export const ROOT_ID = 'world';

export type PlaceKind = 'world' | 'sector' | 'arena' | 'object';

/** The child kind each kind holds (what "Add …" on a node of that kind adds). */
export const CHILD_KIND: Record<PlaceKind, Exclude<PlaceKind, 'world'> | null> = {
	world: 'sector',
	sector: 'arena',
	arena: 'object',
	object: null
};

/** An agent's spatial memory: sector -> arena -> object names. */
export type KnownPlaces = Record<string, Record<string, string[]>>;

type PlaceNodeData = {
	label: string;
	kind: PlaceKind;
	/** a sector's kind, an object's state; '' otherwise */
	detail: string;
	/** `sector`, `sector:arena`, `sector:arena:object`; ROOT_ID for the world */
	address: string;
	/** children in the whole tree, whether shown or not */
	childCount: number;
	/** has children and they are hidden because the node is collapsed */
	collapsed: boolean;
	/** with a spatial memory: whether the agent knows the place; undefined without one */
	known: boolean | undefined;
	/** the name contains the search query */
	match: boolean;
	selected: boolean;
};

export type PlaceNode = Node<PlaceNodeData, 'place'>;

interface TreeGraph {
	nodes: PlaceNode[];
	edges: Edge[];
}

interface GraphOptions {
	worldName: string;
	/** addresses of collapsed nodes (ROOT_ID for the world) */
	collapsed: ReadonlySet<string>;
	/** case-insensitive substring of a place's name; blank shows every place */
	query: string;
	known?: KnownPlaces;
	selected?: string | null;
	/** keeps the last layout, so a change that shows the same nodes is not laid out again */
	cache?: LayoutCache;
}

/** The last layout computed, keyed by the nodes shown and their links. */
interface LayoutCache {
	key: string;
	positions: Map<string, { x: number; y: number }>;
}

export function layoutCache(): LayoutCache {
	return { key: '', positions: new Map() };
}

/** Every node has this size; the layout and the node component agree on it. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 46;
const NODE_GAP = 10;
const RANK_GAP = 56;

/** Above this many places the first view hides objects (every arena starts collapsed). */
const DEFAULT_COLLAPSE_LIMIT = 150;

interface Place {
	id: string;
	address: string;
	label: string;
	kind: PlaceKind;
	detail: string;
	known: boolean | undefined;
	children: Place[];
}

/** Builds the whole tree; a node whose id is taken (a repeated name) gets `#2`, `#3`… */
function placeTree(sectors: readonly SectorView[], worldName: string, known?: KnownPlaces): Place {
	const used = new Set<string>();
	const idFor = (address: string): string => {
		let id = address;
		for (let n = 2; used.has(id); n++) id = `${address}#${n}`;
		used.add(id);
		return id;
	};
	const root: Place = {
		id: idFor(ROOT_ID),
		address: ROOT_ID,
		label: worldName,
		kind: 'world',
		detail: '',
		known: known ? true : undefined,
		children: []
	};
	for (const s of sectors) {
		const knownArenas = known?.[s.name];
		const sector: Place = {
			id: idFor(s.name),
			address: s.name,
			label: s.name,
			kind: 'sector',
			detail: s.kind,
			known: known ? knownArenas !== undefined : undefined,
			children: []
		};
		root.children.push(sector);
		for (const a of s.arenas) {
			const knownObjects = knownArenas?.[a.name];
			const arena: Place = {
				id: idFor(a.address),
				address: a.address,
				label: a.name,
				kind: 'arena',
				detail: '',
				known: known ? knownObjects !== undefined : undefined,
				children: []
			};
			sector.children.push(arena);
			for (const o of a.objects)
				arena.children.push({
					id: idFor(o.address),
					address: o.address,
					label: o.name,
					kind: 'object',
					detail: o.state,
					known: known ? (knownObjects?.includes(o.name) ?? false) : undefined,
					children: []
				});
		}
	}
	return root;
}

/**
 * The graph to draw. Collapsed nodes hide their descendants. With a query, only the places whose
 * name contains it and their ancestors are shown (others are left out, not dimmed), and
 * collapsing is set aside so that every match shows (no node counts as collapsed then).
 */
export function buildGraph(sectors: readonly SectorView[], opts: GraphOptions): TreeGraph {
	const root = placeTree(sectors, opts.worldName, opts.known);
	const needle = opts.query.trim().toLowerCase();
	const selected = opts.selected ?? null;
	const shown: { place: Place; parent: Place | null; match: boolean; collapsed: boolean }[] = [];

	const matches = (p: Place): boolean => needle !== '' && p.kind !== 'world' && p.label.toLowerCase().includes(needle);

	if (needle) {
		// A place is kept when it matches or keeps a descendant; the world always stays.
		const kept = new Set<Place>();
		const keep = (p: Place): boolean => {
			let any = false;
			for (const c of p.children) if (keep(c)) any = true;
			if (any || matches(p) || p.kind === 'world') kept.add(p);
			return kept.has(p);
		};
		keep(root);
		const walk = (p: Place, parent: Place | null): void => {
			shown.push({ place: p, parent, match: matches(p), collapsed: false });
			for (const c of p.children) if (kept.has(c)) walk(c, p);
		};
		walk(root, null);
	} else {
		const walk = (p: Place, parent: Place | null): void => {
			const isCollapsed = p.children.length > 0 && opts.collapsed.has(p.address);
			shown.push({ place: p, parent, match: false, collapsed: isCollapsed });
			if (!isCollapsed) for (const c of p.children) walk(c, p);
		};
		walk(root, null);
	}

	const ids = shown.map((s) => s.place.id);
	const links = shown.filter((s) => s.parent).map((s) => [s.parent!.id, s.place.id] as const);
	const key = JSON.stringify(shown.map((s) => [s.parent?.id ?? null, s.place.id]));
	let positions: Map<string, { x: number; y: number }>;
	if (opts.cache && opts.cache.key === key) positions = opts.cache.positions;
	else {
		positions = layoutTree(ids, links);
		if (opts.cache) Object.assign(opts.cache, { key, positions });
	}

	const nodes: PlaceNode[] = shown.map(({ place, match, collapsed }) => {
		const at = positions.get(place.id)!;
		return {
			id: place.id,
			type: 'place',
			position: at,
			width: NODE_WIDTH,
			height: NODE_HEIGHT,
			data: {
				label: place.label,
				kind: place.kind,
				detail: place.detail,
				address: place.address,
				childCount: place.children.length,
				collapsed,
				known: place.known,
				match,
				selected: selected !== null && place.address === selected
			}
		};
	});
	const edges: Edge[] = shown
		.filter((s) => s.parent)
		.map(({ place, parent }) => ({ id: `${parent!.id}->${place.id}`, source: parent!.id, target: place.id }));
	return { nodes, edges };
}

/** Top-left corners from dagre (which gives centres), left to right by depth. */
function layoutTree(ids: readonly string[], links: readonly (readonly [string, string])[]): Map<string, { x: number; y: number }> {
	const g = new graphlib.Graph();
	// A tree has no crossings to minimise: the first ordering (depth first, in the world's order)
	// is kept, and the tight-tree ranker gives every edge length one; both halve the time taken.
	g.setGraph({ rankdir: 'LR', nodesep: NODE_GAP, ranksep: RANK_GAP, marginx: NODE_GAP, marginy: NODE_GAP, ranker: 'tight-tree' });
	g.setDefaultEdgeLabel(() => ({}));
	for (const id of ids) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
	for (const [from, to] of links) g.setEdge(from, to);
	layout(g, { disableOptimalOrderHeuristic: true });
	const out = new Map<string, { x: number; y: number }>();
	for (const id of ids) {
		const n = g.node(id) as { x: number; y: number };
		out.set(id, { x: n.x - NODE_WIDTH / 2, y: n.y - NODE_HEIGHT / 2 });
	}
	return out;
}

/** How many places (sectors, arenas, objects) the tree has. */
function placeCount(sectors: readonly SectorView[]): number {
	let n = 0;
	for (const s of sectors) {
		n += 1 + s.arenas.length;
		for (const a of s.arenas) n += a.objects.length;
	}
	return n;
}

/**
 * The first view's collapsed set: nothing for a small tree; for one of more than `limit` nodes,
 * every arena that holds objects, so the first view shows the world, its sectors and arenas.
 */
export function defaultCollapsed(sectors: readonly SectorView[], limit = DEFAULT_COLLAPSE_LIMIT): Set<string> {
	if (1 + placeCount(sectors) <= limit) return new Set();
	return new Set(sectors.flatMap((s) => s.arenas.filter((a) => a.objects.length > 0).map((a) => a.address)));
}

/** Every node address that has children: "collapse all" collapses these. */
export function parentAddresses(sectors: readonly SectorView[]): Set<string> {
	const out = new Set<string>();
	if (sectors.length) out.add(ROOT_ID);
	for (const s of sectors) {
		if (s.arenas.length) out.add(s.name);
		for (const a of s.arenas) if (a.objects.length) out.add(a.address);
	}
	return out;
}

/** The addresses above a place, the world first: `S:A:O` -> world, S, S:A. */
export function ancestorsOf(address: string): string[] {
	if (address === ROOT_ID) return [];
	const parts = address.split(':');
	const out = [ROOT_ID];
	for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join(':'));
	return out;
}

/**
 * The deepest place of the tree on the way to `address` (an agent may stand on an address the
 * tree does not have, e.g. an object of an arena's floor); null when not even the sector exists.
 */
export function resolvePlace(sectors: readonly SectorView[], address: string | null | undefined): string | null {
	if (!address) return null;
	if (address === ROOT_ID) return ROOT_ID;
	const [sectorName, arenaName, objectName] = address.split(':');
	const sector = sectors.find((s) => s.name === sectorName);
	if (!sector) return null;
	const arena = arenaName === undefined ? undefined : sector.arenas.find((a) => a.name === arenaName);
	if (!arena) return sector.name;
	const object = objectName === undefined ? undefined : arena.objects.find((o) => o.name === objectName);
	return object ? object.address : arena.address;
}

/** How many of the tree's places (sectors, arenas, objects) a spatial memory holds. */
export function knownSummary(sectors: readonly SectorView[], known: KnownPlaces): { known: number; total: number } {
	let n = 0;
	for (const s of sectors) {
		const arenas = known[s.name];
		if (!arenas) continue;
		n++;
		for (const a of s.arenas) {
			const objects = arenas[a.name];
			if (!objects) continue;
			n++;
			for (const o of a.objects) if (objects.includes(o.name)) n++;
		}
	}
	return { known: n, total: placeCount(sectors) };
}

/** The collapsed set after a rename: entries at or under the old address move to the new one. */
export function renameCollapsed(collapsed: ReadonlySet<string>, from: string, to: string): Set<string> {
	const out = new Set<string>();
	for (const a of collapsed) {
		if (a === from) out.add(to);
		else if (a.startsWith(`${from}:`)) out.add(to + a.slice(from.length));
		else out.add(a);
	}
	return out;
}

/** How many places sit under a place (what deleting it also deletes). */
export function descendantCount(sectors: readonly SectorView[], address: string): number {
	if (address === ROOT_ID) return placeCount(sectors);
	const [sectorName, arenaName] = address.split(':');
	const sector = sectors.find((s) => s.name === sectorName);
	if (!sector) return 0;
	if (arenaName === undefined) return sector.arenas.reduce((n, a) => n + 1 + a.objects.length, 0);
	if (address.split(':').length > 2) return 0;
	return sector.arenas.find((a) => a.name === arenaName)?.objects.length ?? 0;
}
