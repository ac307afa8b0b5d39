// A tiny pixel-art toolkit: an RGBA canvas with clipped, alpha-blended primitives and a
// seeded random source, so every drawing is reproducible byte for byte.

export type Rgba = [number, number, number, number];

/** `#rrggbb` or `#rrggbbaa` to RGBA. */
export function hex(color: string): Rgba {
	const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color);
	if (!m) throw new Error(`bad colour ${color}`);
	const n = parseInt(m[1], 16);
	const a = m[2] === undefined ? 255 : parseInt(m[2], 16);
	return [(n >> 16) & 255, (n >> 8) & 255, n & 255, a];
}

/** Lighten (amount > 0) or darken (amount < 0) a colour, amount in -1..1. */
export function shade(color: string, amount: number): string {
	const [r, g, b, a] = hex(color);
	const f = (c: number) =>
		Math.round(amount >= 0 ? c + (255 - c) * amount : c * (1 + amount))
			.toString(16)
			.padStart(2, '0');
	const alpha = a === 255 ? '' : a.toString(16).padStart(2, '0');
	return `#${f(r)}${f(g)}${f(b)}${alpha}`;
}

/** mulberry32: small, fast and good enough for texture noise. */
export function rng(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** FNV-1a hash of a string, used to seed per-tile noise from the tile's name. */
export function hashString(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

export class Canvas {
	readonly data: Uint8Array;
	constructor(
		readonly width: number,
		readonly height: number
	) {
		this.data = new Uint8Array(width * height * 4);
	}

	/** Alpha-blend one pixel (source-over). */
	px(x: number, y: number, color: string): void {
		x = Math.floor(x);
		y = Math.floor(y);
		if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
		const [r, g, b, a] = hex(color);
		const i = (y * this.width + x) * 4;
		const d = this.data;
		if (a === 255 || d[i + 3] === 0) {
			d[i] = r;
			d[i + 1] = g;
			d[i + 2] = b;
			d[i + 3] = a;
			return;
		}
		const sa = a / 255;
		const da = d[i + 3] / 255;
		const oa = sa + da * (1 - sa);
		const mix = (s: number, dst: number) => Math.round((s * sa + dst * da * (1 - sa)) / oa);
		d[i] = mix(r, d[i]);
		d[i + 1] = mix(g, d[i + 1]);
		d[i + 2] = mix(b, d[i + 2]);
		d[i + 3] = Math.round(oa * 255);
	}

	rect(x: number, y: number, w: number, h: number, color: string): void {
		for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.px(x + i, y + j, color);
	}

	frame(x: number, y: number, w: number, h: number, color: string): void {
		this.rect(x, y, w, 1, color);
		this.rect(x, y + h - 1, w, 1, color);
		this.rect(x, y + 1, 1, h - 2, color);
		this.rect(x + w - 1, y + 1, 1, h - 2, color);
	}

	ellipse(cx: number, cy: number, rx: number, ry: number, color: string): void {
		for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++) {
			for (let x = Math.floor(cx - rx); x <= Math.ceil(cx + rx); x++) {
				const dx = (x + 0.5 - cx) / rx;
				const dy = (y + 0.5 - cy) / ry;
				if (dx * dx + dy * dy <= 1) this.px(x, y, color);
			}
		}
	}

	disc(cx: number, cy: number, r: number, color: string): void {
		this.ellipse(cx, cy, r, r, color);
	}

	/** Random dots of the given colours over a rectangle. */
	speckle(
		x: number,
		y: number,
		w: number,
		h: number,
		colors: string[],
		density: number,
		rand: () => number
	): void {
		for (let j = 0; j < h; j++) {
			for (let i = 0; i < w; i++) {
				if (rand() < density) this.px(x + i, y + j, colors[Math.floor(rand() * colors.length)]);
			}
		}
	}

	/** A piece of furniture seen from above: soft shadow, fill, dark outline, lit top edge. */
	box(x: number, y: number, w: number, h: number, fill: string, outline = '#2b2118'): void {
		this.rect(x + 2, y + 2, w, h, '#00000040');
		this.rect(x, y, w, h, fill);
		this.frame(x, y, w, h, outline);
		this.rect(x + 1, y + 1, w - 2, 1, shade(fill, 0.3));
		this.rect(x + 1, y + h - 2, w - 2, 1, shade(fill, -0.2));
	}

	/** Copy a w x h block from another canvas. */
	blit(src: Canvas, sx: number, sy: number, dx: number, dy: number, w: number, h: number): void {
		for (let j = 0; j < h; j++) {
			for (let i = 0; i < w; i++) {
				const si = ((sy + j) * src.width + sx + i) * 4;
				const di = ((dy + j) * this.width + dx + i) * 4;
				for (let k = 0; k < 4; k++) this.data[di + k] = src.data[si + k];
			}
		}
	}
}
