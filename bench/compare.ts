// The compare page in a real Chromium, on two one-day Smallville runs (./day-runs.ts): the time
// from navigation start of /compare?a=&b= to the page ready (the diff shown and both maps
// drawn). Cold is the first open after the server starts (route code loaded, both worlds read,
// the diff computed; the median of a few server starts); warm is a re-open in the same tab (the
// server keeps the diff).

import type { Page } from '@playwright/test';
import { computeDiff } from '../src/lib/server/diff/diff';
import { launchChromium, quantile, startApp, type App } from './app';
import { dayRuns, FORK_AT } from './day-runs';

const READY = '[data-testid="compare-page"][data-ready="true"]';

/**
 * Records, in every document the page opens, when the compare page first turns ready
 * (`__readyAt`, ms since the navigation started).
 */
async function watchReady(page: Page): Promise<void> {
	// tsx keeps function names with a `__name` helper that the page does not have
	await page.addInitScript('globalThis.__name ??= (f) => f');
	await page.addInitScript((selector: string) => {
		const w = window as unknown as { __readyAt?: number };
		const check = () => {
			if (w.__readyAt === undefined && document.querySelector(selector)) {
				w.__readyAt = performance.now();
				observer.disconnect();
			}
		};
		const observer = new MutationObserver(check);
		observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
	}, READY);
}

interface Open {
	/** navigation start -> page ready */
	ready: number;
	/** navigation start -> first byte of the page */
	firstByte: number;
}

async function open(page: Page, url: string): Promise<Open> {
	await page.goto(url, { waitUntil: 'commit' });
	try {
		await page.waitForFunction(() => (window as unknown as { __readyAt?: number }).__readyAt !== undefined, null, { timeout: 120_000, polling: 50 });
	} catch (err) {
		const root = page.locator('[data-testid="compare-page"]');
		const state = (await root.count()) ? `data-ready="${await root.getAttribute('data-ready')}": ${(await root.innerText()).slice(0, 500)}` : 'no compare page';
		throw new Error(`${url} was not ready within 120 s (${state})`, { cause: err });
	}
	const out = await page.evaluate(() => ({
		ready: (window as unknown as { __readyAt: number }).__readyAt,
		firstByte: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? 0
	}));
	// the chunk of frames fetched once the page is ready arrives before the next navigation
	await page.waitForLoadState('networkidle');
	return out;
}

/** Five re-opens of a page already opened once, sorted by time to ready. */
async function reopens(page: Page, url: string): Promise<Open[]> {
	const warm: Open[] = [];
	for (let i = 0; i < 5; i++) warm.push(await open(page, url));
	return warm.sort((x, y) => x.ready - y.ready);
}

async function diffTimes(a: string, b: string, home: string): Promise<{ first: number; median: number }> {
	let t = performance.now();
	await computeDiff(a, b, { home });
	const first = performance.now() - t;
	const times: number[] = [];
	for (let i = 0; i < 3; i++) {
		t = performance.now();
		await computeDiff(a, b, { home });
		times.push(performance.now() - t);
	}
	times.sort((x, y) => x - y);
	return { first, median: times[1] };
}

/** Server starts for the cold figure: each start's first open is one sample. */
const COLD_STARTS = 3;

export async function benchCompare(): Promise<{ bench: string; figure: string; value: string }[]> {
	const runs = await dayRuns();
	const browser = await launchChromium();
	let app: App | null = null;
	try {
		const url = (a: string, b: string) => `${app!.base}/compare?${new URLSearchParams({ a, b })}`;
		const cold: Open[] = [];
		let warm: Open[] = [];
		let otherFirst: Open | null = null;
		let otherWarm: Open[] = [];
		for (let i = 0; i < COLD_STARTS; i++) {
			app = await startApp(runs.home);
			// a fresh context: nothing of the studio in the browser's cache
			const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
			const page = await context.newPage();
			await watchReady(page);
			cold.push(await open(page, url(runs.base, runs.fork)));
			if (i === COLD_STARTS - 1) {
				warm = await reopens(page, url(runs.base, runs.fork));
				otherFirst = await open(page, url(runs.base, runs.other));
				otherWarm = await reopens(page, url(runs.base, runs.other));
			}
			await context.close();
			app.stop();
			app = null;
		}
		cold.sort((x, y) => x.ready - y.ready);
		// the server's work for a first open, in this process (after the browser is done)
		const diffForked = await diffTimes(runs.base, runs.fork, runs.home);
		const diffOther = await diffTimes(runs.base, runs.other, runs.home);

		const name = 'compare page in Chromium, two one-day Smallville runs (25 agents, 8,640 steps), navigation start to diff shown and both maps drawn';
		const s = (v: number) => `${(v / 1000).toFixed(2)} s`;
		const median = (w: Open[]) => {
			const ready = quantile(w.map((o) => o.ready), 0.5);
			const firstByte = quantile(w.map((o) => o.firstByte).sort((x, y) => x - y), 0.5);
			return `${s(ready)} (max ${s(w.at(-1)!.ready)}; first byte ${firstByte.toFixed(0)} ms)`;
		};
		const diff = (d: { first: number; median: number }) => `${d.first.toFixed(0)} ms, ${d.median.toFixed(0)} ms`;
		return [
			{
				bench: name,
				figure: `base vs fork at step ${FORK_AT} (vegetable patch on fire): cold, first open after the server starts (worlds read, diff computed), median (max) of ${COLD_STARTS} starts`,
				value: median(cold)
			},
			{ bench: name, figure: 'base vs fork: warm, median (max) of 5 re-opens (diff kept by the server)', value: median(warm) },
			{
				bench: name,
				figure: 'base vs second run with recency weight 0.5: first open of the pair on a running server (diff computed)',
				value: otherFirst ? `${s(otherFirst.ready)} (first byte ${otherFirst.firstByte.toFixed(0)} ms)` : '-'
			},
			{ bench: name, figure: 'base vs second run: warm, median (max) of 5 re-opens', value: median(otherWarm) },
			{ bench: name, figure: 'for context, computeDiff in Node, base vs fork: first call here, median of 3 after', value: diff(diffForked) },
			{ bench: name, figure: 'for context, computeDiff in Node, base vs second run: first call here, median of 3 after', value: diff(diffOther) }
		];
	} finally {
		await browser.close();
		app?.stop();
	}
}
