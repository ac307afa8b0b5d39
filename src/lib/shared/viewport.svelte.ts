// Pan and zoom of the town map. World coordinates are map pixels; screen coordinates are CSS
// pixels of the canvas. screen = world * scale + offset.

export interface ScreenPoint {
	readonly sx: number;
	readonly sy: number;
}

export interface WorldPoint {
	readonly wx: number;
	readonly wy: number;
}

export const MIN_SCALE = 0.05;
export const MAX_SCALE = 8;
export const ZOOM_STEP = 1.25;

function clamp(v: number, lo: number, hi: number): number {
	return Math.min(hi, Math.max(lo, v));
}

export class MapViewport {
	scale = $state(1);
	offsetX = $state(0);
	offsetY = $state(0);
	/** size of the view in CSS pixels, kept up to date by the map component */
	viewWidth = $state(0);
	viewHeight = $state(0);

	toScreen(p: WorldPoint): ScreenPoint {
		return { sx: p.wx * this.scale + this.offsetX, sy: p.wy * this.scale + this.offsetY };
	}

	toWorld(p: ScreenPoint): WorldPoint {
		return { wx: (p.sx - this.offsetX) / this.scale, wy: (p.sy - this.offsetY) / this.scale };
	}

	resize(width: number, height: number): void {
		this.viewWidth = width;
		this.viewHeight = height;
	}

	panBy(dx: number, dy: number): void {
		this.offsetX += dx;
		this.offsetY += dy;
	}

	/** Zooms by `factor` keeping the world point under `anchor` (default: view centre) fixed. */
	zoomAt(factor: number, anchor: ScreenPoint = { sx: this.viewWidth / 2, sy: this.viewHeight / 2 }): void {
		const before = this.toWorld(anchor);
		this.scale = clamp(this.scale * factor, MIN_SCALE, MAX_SCALE);
		this.offsetX = anchor.sx - before.wx * this.scale;
		this.offsetY = anchor.sy - before.wy * this.scale;
	}

	/** Shows the whole `width` x `height` world area centred in the view. */
	fit(width: number, height: number, margin = 16): void {
		const viewW = this.viewWidth;
		const viewH = this.viewHeight;
		if (width <= 0 || height <= 0 || viewW <= 2 * margin || viewH <= 2 * margin) return;
		const s = Math.min((viewW - 2 * margin) / width, (viewH - 2 * margin) / height);
		this.scale = clamp(s, MIN_SCALE, MAX_SCALE);
		this.offsetX = (viewW - width * this.scale) / 2;
		this.offsetY = (viewH - height * this.scale) / 2;
	}

	/** Puts world point `p` at the centre of the view, optionally at a new scale. */
	centerOn(p: WorldPoint, scale = this.scale): void {
		this.scale = clamp(scale, MIN_SCALE, MAX_SCALE);
		this.offsetX = this.viewWidth / 2 - p.wx * this.scale;
		this.offsetY = this.viewHeight / 2 - p.wy * this.scale;
	}
}
