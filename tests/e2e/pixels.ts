// What the studio actually drew, read back as pixels: emoji are checked by the colour they put on
// the screen, not by which fonts the page says it has (a font can load and draw nothing).

import { expect, type Locator, type Page } from '@playwright/test';
import { PNG } from 'pngjs';

/** A pixel is "coloured" when it is opaque and far from grey (text, outlines and panels are grey). */
const SATURATION = 60;

/** Coloured pixels of an element's screenshot. */
export async function colouredPixelsOf(target: Locator): Promise<number> {
	const png = PNG.sync.read(await target.screenshot());
	let n = 0;
	for (let i = 0; i < png.data.length; i += 4) {
		const [r, g, b, a] = [png.data[i], png.data[i + 1], png.data[i + 2], png.data[i + 3]];
		if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > SATURATION) n++;
	}
	return n;
}

/**
 * The town's tileset images as transparent pictures of the same size: the map is then drawn on
 * an empty canvas, so whatever is coloured around an agent's head was drawn by its emoji.
 */
export async function blankTiles(page: Page): Promise<void> {
	await page.route(/\/api\/worlds\/[^/]+\/asset\/.+\.png(\?.*)?$/, async (route) => {
		const res = await route.fetch();
		const original = PNG.sync.read(await res.body());
		const blank = new PNG({ width: original.width, height: original.height });
		blank.data.fill(0);
		await route.fulfill({ status: 200, contentType: 'image/png', body: PNG.sync.write(blank) });
	});
}

/** Per agent, the coloured pixels inside the box where the map drew its emoji. */
export async function mapEmojiInk(map: Locator): Promise<Record<string, number>> {
	return map.evaluate((el) => {
		const c = el as HTMLCanvasElement & { mapLabels?: { emoji: { id: string; x: number; y: number; w: number; h: number }[] } };
		const ctx = c.getContext('2d');
		const out: Record<string, number> = {};
		if (!ctx || !c.mapLabels) return out;
		const ratio = c.width / c.getBoundingClientRect().width;
		for (const e of c.mapLabels.emoji) {
			const x = Math.max(0, Math.floor(e.x * ratio));
			const y = Math.max(0, Math.floor(e.y * ratio));
			const w = Math.min(c.width - x, Math.ceil(e.w * ratio));
			const h = Math.min(c.height - y, Math.ceil(e.h * ratio));
			if (w <= 0 || h <= 0) continue;
			const { data } = ctx.getImageData(x, y, w, h);
			let n = 0;
			for (let i = 0; i < data.length; i += 4) {
				if (data[i + 3] > 128 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) n++;
			}
			out[e.id] = n;
		}
		return out;
	});
}

/**
 * The emoji the map drew show at least `min` coloured pixels each: all of them, or a `share` of
 * them where names may cover some in a crowd (the map draws again once its font is in); the
 * agents in `except` (an emoji grey by design) are not counted.
 */
export async function expectMapEmojiInColour(map: Locator, { min = 20, share = 1, except = new Set<string>() } = {}): Promise<void> {
	await expect
		.poll(
			async () => {
				const ink = await mapEmojiInk(map);
				const counts = Object.entries(ink)
					.filter(([id]) => !except.has(id))
					.map(([, n]) => n);
				const coloured = counts.filter((n) => n >= min).length;
				return counts.length > 0 && coloured >= Math.ceil(share * counts.length) ? 'in colour' : JSON.stringify(ink);
			},
			{ message: 'coloured pixels where the map drew each agent’s emoji' }
		)
		.toBe('in colour');
}

/**
 * The emoji elements in `emoji` (those with text) show at least `min` coloured pixels each: all
 * of them, or a `share` of them where some emoji are grey by design (a laptop, a pen).
 */
export async function expectEmojiElementsInColour(emoji: Locator, { min = 20, share = 1 } = {}): Promise<void> {
	await expect(emoji.first()).toBeVisible();
	await expect
		.poll(
			async () => {
				const counts: Record<string, number> = {};
				for (const el of await emoji.all()) {
					const text = ((await el.textContent()) ?? '').trim();
					if (text) counts[`${Object.keys(counts).length} ${text}`] = await colouredPixelsOf(el);
				}
				const values = Object.values(counts);
				const coloured = values.filter((n) => n >= min).length;
				return values.length > 0 && coloured >= Math.ceil(share * values.length) ? 'in colour' : JSON.stringify(counts);
			},
			{ message: 'coloured pixels of each emoji' }
		)
		.toBe('in colour');
}
