import { describe, expect, it } from 'vitest';
import { MAX_SCALE, MIN_SCALE, MapViewport } from './viewport.svelte';

function view(width = 800, height = 600): MapViewport {
	const vp = new MapViewport();
	vp.resize(width, height);
	return vp;
}

describe('MapViewport', () => {
	it('converts between world and screen points', () => {
		const vp = view();
		vp.scale = 2;
		vp.offsetX = 10;
		vp.offsetY = -20;
		expect(vp.toScreen({ wx: 5, wy: 5 })).toEqual({ sx: 20, sy: -10 });
		expect(vp.toWorld({ sx: 20, sy: -10 })).toEqual({ wx: 5, wy: 5 });
	});

	it('keeps the point under the cursor fixed while zooming', () => {
		const vp = view();
		const anchor = { sx: 300, sy: 200 };
		const before = vp.toWorld(anchor);
		vp.zoomAt(1.5, anchor);
		expect(vp.scale).toBeCloseTo(1.5);
		const after = vp.toWorld(anchor);
		expect(after.wx).toBeCloseTo(before.wx);
		expect(after.wy).toBeCloseTo(before.wy);
	});

	it('clamps the zoom', () => {
		const vp = view();
		vp.zoomAt(1000);
		expect(vp.scale).toBe(MAX_SCALE);
		vp.zoomAt(1e-6);
		expect(vp.scale).toBe(MIN_SCALE);
	});

	it('fits a map inside the view, centred', () => {
		const vp = view(800, 600);
		vp.fit(4480, 3200, 0);
		// The width is the tighter side: 800 / 4480 < 600 / 3200.
		expect(vp.scale).toBeCloseTo(800 / 4480);
		expect(vp.offsetX).toBeCloseTo(0);
		expect(vp.offsetY).toBeCloseTo((600 - 3200 * vp.scale) / 2);
	});

	it('centres on a point', () => {
		const vp = view(800, 600);
		vp.centerOn({ wx: 100, wy: 50 }, 2);
		expect(vp.toScreen({ wx: 100, wy: 50 })).toEqual({ sx: 400, sy: 300 });
	});

	it('pans by screen pixels', () => {
		const vp = view();
		vp.panBy(15, -5);
		expect(vp.toScreen({ wx: 0, wy: 0 })).toEqual({ sx: 15, sy: -5 });
	});
});
