// The map editor in a real Chromium: the cost of one brush segment while dragging (pointer move
// -> cells painted and redrawn in the layer cache -> composite on screen -> pixels rasterised),
// and of a full composite (a pan), on Smallville (140 x 100 tiles, 10 layers).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, quantile, startApp } from './app';


/** The main-thread cost of one change on the map, ms. */
export interface FrameCost {
	/** the editor's script: the event with its reactive updates, and the composite */
	script: number;
	/** the whole frame: the script, then the browser's style, layout, paint and rasterisation */
	total: number;
}

export interface EditorPaintFigures {
	/** per brush segment */
	segments: FrameCost[];
	/** per full composite (a pan by 64 px) */
	pans: FrameCost[];
	/**
	 * per frame in which a screen-sized canvas changes one pixel and nothing else happens: what
	 * the browser itself spends to show any canvas change (large without a GPU)
	 */
	floor: number[];
}




/**
 * Measures painting on a page that shows the map editor (`[data-testid="map-canvas"]`, ready).
 * Picks the brush and a tile, then drags in `segments` steps of 3 tiles across the map, one
 * pointer move per animation frame, each sent when the page is idle. A segment's cost is the
 * main-thread work it causes: the pointer event and its reactive updates (cells painted and
 * redrawn in the layer cache), the composite in the next animation frame, that frame's style,
 * layout and paint, and the rasterisation left over (forced by reading one pixel back).
 * Nothing is saved: the page keeps the painted tiles as unsaved changes.
 */
export async function measureEditorPaint(page: Page, segments = 200): Promise<EditorPaintFigures> {
	const canvas = page.locator('[data-testid="map-canvas"][data-ready="true"]');
	await canvas.waitFor({ timeout: 120_000 });
	await page.getByRole('button', { name: 'Brush', exact: true }).click();
	// a tile the ground layer (the active layer) does not hold, so every segment changes cells
	await page.getByRole('button', { name: 'Tile 40', exact: true }).click();
	// tsx keeps function names with a `__name` helper that the page does not have
	await page.evaluate('globalThis.__name ??= (f) => f');
	return page.evaluate(async (count) => {
		const el = document.querySelector('[data-testid="map-canvas"]') as HTMLCanvasElement;
		const tiles = el.parentElement!.querySelector('canvas:not([data-testid])') as HTMLCanvasElement;
		const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
		const task = () =>
			new Promise<void>((r) => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => r();
				ch.port2.postMessage(null);
			});
		const microtasks = async () => {
			for (let k = 0; k < 4; k++) await Promise.resolve();
		};
		/**
		 * Resolves when the canvas reports its next composite, with that composite's cost and the
		 * rest of its frame (style, layout, paint: until the next task runs); null when none came.
		 */
		const composited = () =>
			new Promise<{ composite: number; rest: number } | null>((resolve) => {
				const obs = new MutationObserver(() => {
					obs.disconnect();
					clearTimeout(timer);
					const composite = performance.getEntriesByName('map composite').at(-1)?.duration ?? 0;
					const t = performance.now();
					void task().then(() => resolve({ composite, rest: performance.now() - t }));
				});
				const timer = setTimeout(() => {
					obs.disconnect();
					resolve(null);
				}, 1000);
				obs.observe(el, { attributes: true, attributeFilter: ['data-frame'] });
			});
		/** after a frame has been drawn, with nothing else pending */
		const idle = async () => {
			await frame();
			await task();
		};
		const raster = () => {
			const t = performance.now();
			tiles.getContext('2d')!.getImageData(0, 0, 1, 1);
			return performance.now() - t;
		};
		const rect = el.getBoundingClientRect();
		const at = (x: number, y: number) => {
			const size = Number(el.dataset.tileSize);
			const height = Number(el.dataset.tileHeight ?? size);
			const [ox, oy] = (el.dataset.origin ?? '0,0').split(',').map(Number);
			return { clientX: rect.left + ox + (x + 0.5) * size, clientY: rect.top + oy + (y + 0.5) * height };
		};
		const pointer = (type: string, x: number, y: number, buttons: number) =>
			el.dispatchEvent(
				new PointerEvent(type, {
					...at(x, y),
					bubbles: true,
					cancelable: true,
					pointerId: 1,
					pointerType: 'mouse',
					isPrimary: true,
					button: type === 'pointermove' ? -1 : 0,
					buttons
				})
			);

		// a zigzag over the middle of the map, 3 tiles per segment
		const path: [number, number][] = [];
		let x = 20;
		let y = 20;
		let dx = 3;
		for (let i = 0; i <= count; i++) {
			path.push([x, y]);
			if (x + dx > 119 || x + dx < 20) {
				dx = -dx;
				y += 2;
			} else x += dx;
		}
		const segments: { script: number; total: number }[] = [];
		await idle();
		pointer('pointerdown', path[0][0], path[0][1], 1);
		await idle();
		for (let i = 1; i < path.length; i++) {
			await idle();
			const done = composited();
			const t0 = performance.now();
			pointer('pointermove', path[i][0], path[i][1], 1);
			await microtasks();
			const input = performance.now() - t0;
			const drawn = await done;
			if (drawn === null) throw new Error(`the map did not redraw after painting segment ${i}`);
			segments.push({ script: input + drawn.composite, total: input + drawn.composite + drawn.rest + raster() });
		}
		pointer('pointerup', path.at(-1)![0], path.at(-1)![1], 0);

		// full composites: pan with the arrow keys
		const pans: { script: number; total: number }[] = [];
		for (let i = 0; i < 40; i++) {
			await idle();
			const done = composited();
			const t0 = performance.now();
			el.dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'ArrowLeft' : 'ArrowRight', bubbles: true, cancelable: true }));
			await microtasks();
			const input = performance.now() - t0;
			const drawn = await done;
			if (drawn === null) throw new Error('the map did not redraw after panning');
			pans.push({ script: input + drawn.composite, total: input + drawn.composite + drawn.rest + raster() });
		}

		// the browser's own cost of showing a changed canvas: one pixel, outside the map's view
		const floor: number[] = [];
		const probe = document.createElement('canvas');
		probe.width = tiles.width;
		probe.height = tiles.height;
		probe.style.cssText = `position:fixed;left:0;top:0;width:${tiles.style.width};height:${tiles.style.height};pointer-events:none;opacity:0.01`;
		document.body.append(probe);
		const probeCtx = probe.getContext('2d')!;
		for (let i = 0; i < 40; i++) {
			await idle();
			await frame();
			probeCtx.fillRect(i, 0, 1, 1);
			const t = performance.now();
			await task();
			floor.push(performance.now() - t + raster());
		}
		probe.remove();
		return { segments, pans, floor };
	}, segments);
}

export async function benchEditor(): Promise<{ bench: string; figure: string; value: string }[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-editor-'));
	const app = await startApp(home);
	const browser = await launchChromium();
	try {
		const { base } = app;
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		// leaving with unsaved changes asks first; the bench never saves
		page.on('dialog', (d) => void d.accept());
		await page.goto(`${base}/worlds/smallville/edit`);
		const { segments, pans, floor } = await measureEditorPaint(page);
		const figures = (costs: FrameCost[], key: keyof FrameCost) => {
			const sorted = costs.map((c) => c[key]).sort((a, b) => a - b);
			return `${quantile(sorted, 0.5).toFixed(2)} ms (${quantile(sorted, 0.95).toFixed(2)} ms)`;
		};
		const floorSorted = [...floor].sort((a, b) => a - b);
		const name = 'map editor in Chromium without a GPU, Smallville (140 x 100 tiles, 10 layers), whole map in view';
		return [
			{
				bench: name,
				figure: `brush drag, one pointer-move segment (3 tiles): editor script (event, cells painted and redrawn, composite), median (p95) of ${segments.length}`,
				value: figures(segments, 'script')
			},
			{
				bench: name,
				figure: 'brush drag, one pointer-move segment: whole frame (script + browser style, layout, paint, raster), median (p95)',
				value: figures(segments, 'total')
			},
			{
				bench: name,
				figure: 'of which the browser spends on any changed canvas (one pixel changed, nothing else), median',
				value: `${quantile(floorSorted, 0.5).toFixed(2)} ms`
			},
			{
				bench: name,
				figure: `pan (full composite of the view): script, whole frame, median of ${pans.length}`,
				value: `${quantile(
					pans.map((c) => c.script).sort((a, b) => a - b),
					0.5
				).toFixed(2)} ms, ${quantile(
					pans.map((c) => c.total).sort((a, b) => a - b),
					0.5
				).toFixed(2)} ms`
			}
		];
	} finally {
		await browser.close();
		app.stop();
		rmSync(home, { recursive: true, force: true });
	}
}
