// The debugger in a real Chromium: time from a timeline seek to the town drawn at that step
// (50 random seeks in a 2-day, 25-agent run), and frames drawn per second during live playback.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchChromium, startApp } from './app';
import { startRun } from '../src/lib/server/run/runner';




export async function benchUi(): Promise<{ bench: string; figure: string; value: string }[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-ui-'));
	const app = await startApp(home);
	const browser = await launchChromium();
	try {
		const steps = 2 * 8640;
		const run = await startRun({ world: 'smallville', steps, seed: 1, home });
		const { base } = app;
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		await page.goto(`${base}/runs/${run.run}?step=${steps}`);
		await page.locator('[data-buffered="1.00"]').waitFor({ timeout: 120_000 });
		const seeks = await page.evaluate(async (max) => {
			const range = document.querySelector('input[aria-label="Timeline"]') as HTMLInputElement;
			const canvas = document.querySelector('canvas[aria-label="Town map"]') as HTMLCanvasElement;
			let seed = 12345;
			const times: number[] = [];
			for (let i = 0; i < 50; i++) {
				seed = (seed * 1103515245 + 12345) % 2 ** 31;
				const target = String(1 + (seed % max));
				if (target === canvas.dataset.step) continue;
				const t0 = performance.now();
				const drawn = new Promise<void>((resolve) => {
					const obs = new MutationObserver(() => {
						if (canvas.dataset.step === target) {
							obs.disconnect();
							resolve();
						}
					});
					obs.observe(canvas, { attributes: true, attributeFilter: ['data-step'] });
				});
				range.value = target;
				range.dispatchEvent(new Event('input', { bubbles: true }));
				await drawn;
				// the frame is on screen after the next paint
				await new Promise((r) => requestAnimationFrame(() => r(null)));
				times.push(performance.now() - t0);
			}
			return times.sort((a, b) => a - b);
		}, steps);
		const median = seeks[Math.floor(seeks.length / 2)];

		// live playback: a new run, played as fast as it goes; count the frames the map draws
		const live = await (await fetch(`${base}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ world: 'smallville', steps: 3000, seed: 2 }) })).json();
		await page.goto(`${base}/runs/${live.id}`);
		// the new run plays on the server as soon as it starts; the page follows it
		const fps = await page.evaluate(async () => {
			const canvas = document.querySelector('canvas[aria-label="Town map"]') as HTMLCanvasElement;
			let draws = 0;
			const obs = new MutationObserver(() => draws++);
			obs.observe(canvas, { attributes: true, attributeFilter: ['data-step'] });
			await new Promise((r) => setTimeout(r, 1000)); // warm up
			draws = 0;
			const t0 = performance.now();
			await new Promise((r) => setTimeout(r, 5000));
			obs.disconnect();
			return (draws * 1000) / (performance.now() - t0);
		});
		await fetch(`${base}/api/runs/${live.id}/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'pause' }) });
		const name = 'debugger in Chromium, 2-day Smallville run (17,280 steps, 25 agents)';
		return [
			{ bench: name, figure: 'timeline seek to town drawn, median (max) of 50', value: `${median.toFixed(1)} ms (${seeks.at(-1)?.toFixed(1)} ms)` },
			{ bench: 'debugger in Chromium, live playback of Smallville (25 agents), offline, full speed', figure: "map redraws per second (headless, no display refresh cap)", value: fps.toFixed(1) }
		];
	} finally {
		await browser.close();
		app.stop();
		rmSync(home, { recursive: true, force: true });
	}
}
