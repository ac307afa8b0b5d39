import { expect, test, type Locator, type Page } from '@playwright/test';

// The run debugger, used as a person would: start a run, play and pause it, scrub the timeline,
// inspect an agent and a retrieval, interview it, fork, and come back by reloading. Runs on the
// 3-agent town to stay quick. The tests share one run and go in order.

test.describe.configure({ mode: 'serial' });

let runId = '';
/** newest step of the run after it was paused */
let head = 0;

const num = (v: number) => v.toFixed(3);

/** A digest of the canvas pixels, to tell whether two drawings are the same. */
async function canvasDigest(canvas: Locator): Promise<string> {
	return canvas.evaluate((el) => {
		const c = el as HTMLCanvasElement;
		const ctx = c.getContext('2d');
		if (!ctx) return '';
		const { data } = ctx.getImageData(0, 0, c.width, c.height);
		let h1 = 0x811c9dc5;
		let h2 = 0;
		for (let i = 0; i < data.length; i += 4) {
			const v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
			h1 = Math.imul(h1 ^ v, 16777619) >>> 0;
			h2 = (h2 + v * ((i >> 2) % 65521)) % 2147483647;
		}
		return `${h1.toString(16)}-${h2.toString(16)}`;
	});
}

/** Number of distinct colours on the canvas (sampled): a map drawn with its tiles has many. */
async function canvasColours(canvas: Locator): Promise<number> {
	return canvas.evaluate((el) => {
		const c = el as HTMLCanvasElement;
		const ctx = c.getContext('2d');
		if (!ctx) return 0;
		const { data } = ctx.getImageData(0, 0, c.width, c.height);
		const colours = new Set<number>();
		for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
		return colours.size;
	});
}

/** The text of every cell of a score table by memory id; a raw value and its normalised one read "raw norm". */
async function tableCells(table: Locator): Promise<Map<string, string[]>> {
	const rows = await table.locator('tbody tr').evaluateAll((trs) =>
		trs.map((tr) => [
			(tr as HTMLElement).dataset.id ?? '',
			[...(tr as HTMLTableRowElement).cells].map((td) =>
				[...td.children].length && td.querySelector('.raw')
					? [...td.querySelectorAll('.raw, .norm')].map((e) => e.textContent?.trim()).join(' ')
					: (td.textContent ?? '').trim()
			)
		])
	);
	return new Map(rows as [string, string[]][]);
}

async function currentStep(page: Page): Promise<number> {
	return Number(await page.getByLabel('Current step').textContent());
}

function runUrl(query = ''): string {
	return `/runs/${runId}${query}`;
}

async function openRun(page: Page, query = ''): Promise<Locator> {
	await page.goto(runUrl(query));
	const map = page.getByRole('application', { name: 'Town map' });
	await expect(map).toHaveAttribute('data-ready', 'true');
	return map;
}

/** Screen x of a timeline value: the thumb's centre travels inside the track by half its width. */
async function sliderX(slider: Locator, value: number): Promise<{ x: number; y: number }> {
	const box = await slider.boundingBox();
	if (!box) throw new Error('the timeline has no size');
	const min = Number(await slider.getAttribute('min'));
	const max = Number(await slider.getAttribute('max'));
	const inset = 7;
	return {
		x: box.x + inset + ((value - min) / Math.max(1, max - min)) * (box.width - 2 * inset),
		y: box.y + box.height / 2
	};
}

test('starts an offline run from the runs home, plays and pauses it', async ({ page }) => {
	test.setTimeout(120_000);
	await page.goto('/');
	await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page).toHaveURL(/\/runs$/);
	await expect(page.getByRole('status', { name: /^Model:/ })).toHaveText('offline stand-in, not a language model');

	await page.getByLabel('World').selectOption('the-ville-3');
	await page.getByLabel('Steps', { exact: true }).fill('1500');
	await page.getByLabel('Seed').fill('7');
	await page.getByLabel(/Offline stand-in/).check();
	// the paper's behaviour unless the fast profile is chosen
	await expect(page.getByRole('radio', { name: /^Paper/ })).toBeChecked();
	await page.getByLabel('Start paused').check();
	await page.getByRole('button', { name: 'Start run' }).click();

	await expect(page).toHaveURL(/\/runs\/the-ville-3-[^/?]+/);
	await expect(page.getByTestId('run-profile')).toHaveText("paper's behaviour");
	runId = new URL(page.url()).pathname.split('/').pop() ?? '';
	expect(runId).not.toBe('');
	const map = page.getByRole('application', { name: 'Town map' });
	await expect(map).toHaveAttribute('data-ready', 'true');
	// The run's model is named on its page too.
	await expect(page.getByRole('status', { name: /^Model:/ })).toHaveText('offline stand-in, not a language model');
	await expect(page.getByText('paused', { exact: true })).toBeVisible();
	expect(await currentStep(page)).toBe(0);

	await page.getByLabel('Speed (steps per second)').selectOption('100');
	await page.getByRole('button', { name: 'Play', exact: true }).click();
	await expect.poll(() => currentStep(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(150);
	await expect(page.getByText('running', { exact: true })).toBeVisible();
	await page.getByRole('button', { name: 'Pause', exact: true }).click();
	await expect(page.getByText('paused', { exact: true })).toBeVisible();

	// Paused means paused: the step stays put.
	const stopped = await currentStep(page);
	await page.waitForTimeout(1000);
	expect(await currentStep(page)).toBe(stopped);
	expect(stopped).toBeLessThan(1500);

	// Run a given number of steps: the run goes on and pauses by itself (far enough for the
	// first conversation of this town, around step 560).
	await page.getByLabel('Steps to run', { exact: true }).fill('450');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect.poll(() => currentStep(page), { timeout: 30_000 }).toBe(stopped + 450);
	await expect(page.getByText('paused', { exact: true })).toBeVisible();
	const timeline = await (await page.request.get(`/api/runs/${runId}/timeline`)).json();
	head = timeline.steps;
	expect(head).toBe(stopped + 450);
	await expect(page.getByRole('slider', { name: 'Timeline' })).toHaveAttribute('max', String(head));

	// Step: one new step computed by the server; Step back: one step back in the recording.
	await page.getByRole('button', { name: 'Step', exact: true }).click();
	await expect.poll(() => currentStep(page)).toBe(head + 1);
	head += 1;
	await page.getByRole('button', { name: 'Step back', exact: true }).click();
	await expect.poll(() => currentStep(page)).toBe(head - 1);
	await expect(page.getByRole('slider', { name: 'Timeline' })).toHaveValue(String(head - 1));
});

test('scrubbing the timeline redraws the town at that step at once', async ({ page }) => {
	const map = await openRun(page);
	const slider = page.getByRole('slider', { name: 'Timeline' });
	await expect(slider).toHaveAttribute('max', String(head));
	await expect(map).toHaveAttribute('data-step', String(head));
	// The frames of the whole run are fetched in the background; the bar under the track shows it.
	await expect(page.locator('[data-buffered]')).toHaveAttribute('data-buffered', '1.00');

	// Time from each slider input to the canvas showing that step, measured in the page.
	await page.evaluate(() => {
		const w = window as unknown as { scrubLatency: number[] };
		w.scrubLatency = [];
		const range = document.querySelector('input[aria-label="Timeline"]') as HTMLInputElement;
		const canvas = document.querySelector('canvas[aria-label="Town map"]') as HTMLCanvasElement;
		let pending: { value: string; t: number } | null = null;
		range.addEventListener('input', () => (pending = { value: range.value, t: performance.now() }));
		new MutationObserver(() => {
			if (pending && canvas.dataset.step === pending.value) {
				w.scrubLatency.push(performance.now() - pending.t);
				pending = null;
			}
		}).observe(canvas, { attributes: true, attributeFilter: ['data-step'] });
	});

	const early = 5;
	const late = Math.floor(head * 0.8);
	const start = await sliderX(slider, head);
	const a = await sliderX(slider, early);
	const b = await sliderX(slider, late);
	await page.mouse.move(start.x, start.y);
	await page.mouse.down();
	await page.mouse.move(a.x, a.y, { steps: 8 });
	const atEarly = await slider.inputValue();
	await expect(map).toHaveAttribute('data-step', atEarly);
	const earlyPixels = await canvasDigest(map);
	await page.mouse.move(b.x, b.y, { steps: 8 });
	const atLate = await slider.inputValue();
	await expect(map).toHaveAttribute('data-step', atLate);
	expect(Number(atLate)).toBeGreaterThan(Number(atEarly) + 50);
	const latePixels = await canvasDigest(map);
	expect(latePixels).not.toBe(earlyPixels);
	// ...and back: the same step draws the same town.
	await page.mouse.move(a.x, a.y, { steps: 8 });
	await expect(map).toHaveAttribute('data-step', atEarly);
	expect(await canvasDigest(map)).toBe(earlyPixels);
	await page.mouse.up();

	await expect(page.getByLabel('Current step')).toHaveText(atEarly);
	const latency = await page.evaluate(() => (window as unknown as { scrubLatency: number[] }).scrubLatency);
	expect(latency.length).toBeGreaterThan(5);
	const worst = Math.max(...latency);
	// the figure goes to the README through `npm run bench -- --only ui`; here it is only shown
	console.log(`scrub: ${latency.length} redraws, worst ${worst.toFixed(1)} ms from input to drawn`);
	// The place is kept in the address.
	await expect(page).toHaveURL(new RegExp(`step=${atEarly}(&|$)`));
});

test('selecting an agent shows its inspector', async ({ page }) => {
	const map = await openRun(page, `?step=${head - 1}`);
	await page.getByRole('list', { name: 'Agents' }).getByRole('button', { name: /Klaus Mueller/ }).click();
	const chooser = page.getByLabel('Selected agent');
	await expect(chooser).toHaveValue('klaus-mueller');
	await expect(page).toHaveURL(/agent=klaus-mueller/);

	// The map centred on Klaus: clicking there picks him again after clearing the selection.
	await map.focus();
	await page.keyboard.press('Escape');
	await expect(chooser).toHaveValue('');
	const box = await map.boundingBox();
	if (!box) throw new Error('the map has no size');
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
	await expect(chooser).toHaveValue('klaus-mueller');

	const panel = page.getByRole('tabpanel');
	await expect(panel.getByText('Traits')).toBeVisible();
	await expect(panel.getByText('kind, inquisitive, passionate', { exact: true })).toBeVisible();

	// The first event on the timeline is a conversation: the talkers get speech bubbles.
	await page.getByRole('slider', { name: 'Timeline' }).fill('0');
	await page.getByRole('button', { name: /Next event/ }).click();
	const talk = Number(await page.getByLabel('Current step').textContent());
	expect(talk).toBeGreaterThan(0);
	await expect(page.getByRole('list', { name: 'Events at this step' })).toContainText(/talk|conversation/i);
	const bare = await canvasDigest(map);
	await page.getByRole('button', { name: 'Step', exact: true }).click();
	await page.getByRole('button', { name: 'Step', exact: true }).click();
	await expect(map).toHaveAttribute('data-step', String(talk + 2));
	expect(await canvasDigest(map)).not.toBe(bare);
	await page.getByRole('button', { name: 'Fit', exact: true }).click();
	await page.getByLabel('Path').check();
	// The inspector catches up once the cursor rests.
	await expect(page.getByText(/^(showing|loading) step/)).toHaveCount(0);
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/run-page.png' });
	await page.getByRole('tab', { name: 'Chats' }).click();
	await expect(page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first()).toBeVisible();

	await page.getByRole('tab', { name: 'Plan' }).click();
	await expect(page.getByRole('list', { name: 'Plan' })).toBeVisible();
	await expect(page.getByRole('list', { name: 'Plan' }).locator('[aria-current="step"]').first()).toBeVisible();
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/inspector.png' });

	await page.getByRole('tab', { name: 'Memories' }).click();
	const stream = page.getByRole('list', { name: 'Memory stream' });
	const all = await stream.getByRole('listitem').count();
	expect(all).toBeGreaterThan(5);
	await page.getByLabel('Memory kind').selectOption('plan');
	await expect.poll(() => stream.getByRole('listitem').count()).toBeLessThan(all);
	for (const kind of await stream.locator('.kind').allTextContents()) expect(kind).toBe('plan');
});

test('a retrieval table shows the numbers of the API, sorts, and re-scores without changing the run', async ({ page }) => {
	await openRun(page, `?step=${head - 1}&agent=klaus-mueller&tab=retrievals`);
	const list = page.getByRole('list', { name: 'Retrievals' });
	await list.getByRole('button').first().click();
	const table = page.getByRole('table', { name: 'Retrieval scores' });
	await expect(table).toBeVisible();
	await expect(page).toHaveURL(/trace=/);
	const trace = new URL(page.url()).searchParams.get('trace');
	expect(trace).toBeTruthy();

	const api = await (await page.request.get(`/api/runs/${runId}/retrievals/${trace}`)).json();
	const rows = table.locator('tbody tr');
	await expect(rows).toHaveCount(api.candidates.length);
	expect(api.candidates.length).toBeGreaterThan(5);
	const shown = await tableCells(table);
	for (const r of api.candidates) {
		const cells = shown.get(r.id);
		expect(cells, `row of ${r.id}`).toBeDefined();
		expect(cells![0]).toBe(r.rank > 0 ? String(r.rank) : '–');
		expect(cells![1]).toContain(r.description);
		expect(cells![2]).toBe(`${num(r.recency)} ${num(r.recencyNorm)}`);
		expect(cells![3]).toBe(`${num(r.importance)} ${num(r.importanceNorm)}`);
		expect(cells![4]).toBe(`${num(r.relevance)} ${num(r.relevanceNorm)}`);
		expect(cells![5]).toBe(num(r.score));
	}
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/retrieval-table.png' });

	// Sorting by clicking a header (score is the default, best first; a click flips it).
	const scores = api.candidates.map((r: { score: number }) => r.score);
	await expect(table.getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'descending');
	await expect(rows.first().locator('td').nth(5)).toHaveText(num(Math.max(...scores)));
	await table.getByRole('columnheader', { name: 'Score' }).getByRole('button').click();
	await expect(table.getByRole('columnheader', { name: 'Score' })).toHaveAttribute('aria-sort', 'ascending');
	await expect(rows.first().locator('td').nth(5)).toHaveText(num(Math.min(...scores)));
	await table.getByRole('columnheader', { name: 'Relevance' }).getByRole('button').click();
	const relevance = api.candidates.map((r: { relevance: number }) => r.relevance);
	await expect(rows.first().locator('td').nth(4).locator('.raw')).toHaveText(num(Math.max(...relevance)));

	// Re-scoring with other weights: side by side with the recorded scores.
	await page.getByLabel('Relevance weight').fill('3');
	await page.getByRole('button', { name: 'Re-score' }).click();
	await expect(page).toHaveURL(/weights=1%2C1%2C3|weights=1,1,3/);
	await expect(table.getByRole('columnheader', { name: 'Re-scored' })).toBeVisible();
	const rescored = await (await page.request.get(`/api/runs/${runId}/retrievals/${trace}?weights=1,1,3`)).json();
	const after = await tableCells(table);
	for (const r of rescored.candidates) expect(after.get(r.id)![6]).toBe(num(r.score));
	// The recorded retrieval is unchanged.
	const again = await (await page.request.get(`/api/runs/${runId}/retrievals/${trace}`)).json();
	expect(again.weights).toEqual(api.weights);
	expect(again.selected).toEqual(api.selected);
});

test('interviewing an agent at a step', async ({ page }) => {
	await openRun(page, `?step=${head - 1}&agent=klaus-mueller&tab=talk`);
	await page.getByLabel('Ask as').fill('Isabella Rodriguez');
	await page.getByLabel('Question').fill('What are you working on these days?');
	await page.getByRole('button', { name: 'Ask', exact: true }).click();
	const answers = page.getByRole('list', { name: 'Interview answers' }).getByRole('listitem');
	await expect(answers).toHaveCount(1);
	await expect(answers.first()).toContainText('Isabella Rodriguez');
	await expect(answers.first()).toContainText('What are you working on these days?');
	const text = (await answers.first().locator('.a').textContent()) ?? '';
	expect(text.replace(/^\s*Klaus:\s*/, '').trim().length).toBeGreaterThan(10);
});

test('an inner voice queued on the paused run is heard at its next step', async ({ page }) => {
	await openRun(page, `?agent=klaus-mueller&tab=talk`);
	await expect(page.getByLabel('Current step')).toHaveText(String(head));
	await page.getByRole('textbox', { name: 'Inner voice' }).fill('You want to organise a study group for your classmates');
	await page.getByLabel(/to this run, at its next step/).check();
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Queued' })).toBeVisible();

	await page.getByRole('button', { name: 'Step', exact: true }).click();
	await expect(page.getByLabel('Current step')).toHaveText(String(head + 1));
	head += 1;
	await expect(page.locator('label', { hasText: 'User inputs' })).toContainText('1');
	await expect(page.getByRole('list', { name: 'Events at this step' })).toContainText('Klaus');
	const timeline = await (await page.request.get(`/api/runs/${runId}/timeline`)).json();
	expect(timeline.markers.filter((m: { kind: string }) => m.kind === 'input')).toHaveLength(1);
});

test('forking at a step puts the fork in the runs list', async ({ page }) => {
	test.setTimeout(90_000);
	await openRun(page, `?agent=klaus-mueller`);
	const forkStep = Math.floor(head / 2);
	await page.getByRole('slider', { name: 'Timeline' }).fill(String(forkStep));
	await expect(page.getByLabel('Current step')).toHaveText(String(forkStep));
	await page.getByRole('button', { name: 'Fork here', exact: true }).click();
	const dialog = page.getByRole('dialog', { name: `Fork at step ${forkStep}` });
	await expect(dialog).toBeVisible();
	await dialog.getByLabel('Steps to run in the fork').fill('20');
	await dialog.getByLabel('Settings (one KEY=VALUE a line)').fill('retrieval.weights.relevance=2');
	await expect(dialog.getByRole('radio', { name: 'As the parent run' })).toBeChecked();
	await dialog.getByRole('radio', { name: /^Fast/ }).check();
	await dialog.getByRole('button', { name: 'Create fork' }).click();

	await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}(\\?|$)`));
	const forkId = new URL(page.url()).pathname.split('/').pop() ?? '';
	await expect(page.getByText(`fork of ${runId} at step ${forkStep}`)).toBeVisible();
	await expect(page.getByTestId('run-profile')).toHaveText('fast profile');
	const forkMap = page.getByRole('application', { name: 'Town map' });
	await expect(forkMap).toHaveAttribute('data-ready', 'true');
	// The fork's town is drawn with its tiles (no image problems reported).
	await expect(page.getByRole('alert')).toHaveCount(0);
	expect(await canvasColours(forkMap)).toBeGreaterThan(20);
	// The fork begins where its parent was: its timeline starts there and covers the parent's past.
	await expect(page.getByRole('slider', { name: 'Timeline' })).toHaveValue(String(forkStep));

	await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Runs' }).click();
	const row = page.getByRole('table', { name: 'Runs' }).locator(`tr[data-run="${forkId}"]`);
	await expect(row).toBeVisible();
	await expect(row.getByRole('link', { name: runId })).toBeVisible();
	await expect(row).toContainText(`@${forkStep}`);
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/runs-home.png' });
});

test('reloading keeps the step, the agent and the panel', async ({ page }) => {
	await openRun(page, `?step=${head - 1}`);
	const step = Math.floor(head / 3);
	await page.getByRole('slider', { name: 'Timeline' }).fill(String(step));
	await page.getByLabel('Selected agent').selectOption('maria-lopez');
	await page.getByRole('tab', { name: 'Spatial' }).click();
	await expect(page).toHaveURL(new RegExp(`step=${step}&agent=maria-lopez&tab=spatial`));

	await page.reload();
	const map = page.getByRole('application', { name: 'Town map' });
	await expect(map).toHaveAttribute('data-ready', 'true');
	await expect(page.getByRole('slider', { name: 'Timeline' })).toHaveValue(String(step));
	await expect(map).toHaveAttribute('data-step', String(step));
	await expect(page.getByLabel('Selected agent')).toHaveValue('maria-lopez');
	await expect(page.getByRole('tab', { name: 'Spatial' })).toHaveAttribute('aria-selected', 'true');
	await expect(page.getByRole('list', { name: 'Spatial memory' })).toBeVisible();
});
