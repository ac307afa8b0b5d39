// How the environment graph fits its pane without going below readable text: names grow in
// graph units as the view zooms out (TreeNode), down to the smallest zoom where they still reach
// READABLE_PX on screen; "Fit" stops earlier, where names keep most of their letters.

/** Names are drawn at least this many CSS pixels high, at any zoom. */
export const READABLE_PX = 10.5;
/** The largest name size in graph units (a node is 46 units high). */
export const MAX_NAME_UNITS = 22;
/** The smallest zoom: a name at MAX_NAME_UNITS is still READABLE_PX on screen. */
export const MIN_ZOOM = Math.ceil((READABLE_PX / MAX_NAME_UNITS) * 100) / 100;
/** "Fit" zooms out no further than this. */
export const FIT_MIN_ZOOM = 0.75;

interface Bounds {
	x: number;
	y: number;
	width: number;
	height: number;
}

/**
 * The view that shows `bounds` (graph units) in a `width` x `height` pane: all of it, centred,
 * when that is readable; otherwise its top-left part (the world and the first sectors) at the
 * smallest fitting zoom, along the side that does not fit.
 */
export function fitReadable(bounds: Bounds, width: number, height: number, padding = 16): { x: number; y: number; zoom: number } {
	const fits = Math.min((width - 2 * padding) / Math.max(1, bounds.width), (height - 2 * padding) / Math.max(1, bounds.height));
	const zoom = Math.max(FIT_MIN_ZOOM, Math.min(1, fits));
	const x = bounds.width * zoom <= width - 2 * padding ? (width - bounds.width * zoom) / 2 - bounds.x * zoom : padding - bounds.x * zoom;
	const y = bounds.height * zoom <= height - 2 * padding ? (height - bounds.height * zoom) / 2 - bounds.y * zoom : padding - bounds.y * zoom;
	return { x, y, zoom };
}
