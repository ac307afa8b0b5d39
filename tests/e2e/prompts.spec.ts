import { expect, test, type Page } from '@playwright/test';

// The prompt workbench and the behaviour diff, used as a person would: edit a template in
// Monaco, see an unknown-variable error, fix it, save a new version, view the diff of two
// versions, fork a run with the new version, open the compare view and find the divergence.
// (The e2e server saves prompts into a copy of prompts/, see playwright.config.ts.)

test.describe.configure({ mode: 'serial' });

const FORK_AT = 100;
let baseRun = '';
let forkRun = '';
let newVersion = '';
let oldVersion = '';

interface Overview {
	working: { version: string };
	versions: { version: string; message: string; labels: string[] }[];
	labels: Record<string, string>;
}

async function overview(page: Page): Promise<Overview> {
	return (await page.request.get('/api/prompts')).json();
}

async function waitForSteps(page: Page, run: string, steps: number): Promise<void> {
	await expect
		.poll(async () => (await (await page.request.get(`/api/runs/${run}/timeline`)).json()).steps, { timeout: 60_000 })
		.toBe(steps);
}

test('edits a template, sees an unknown input, fixes it and saves a version', async ({ page }) => {
	test.setTimeout(90_000);
	// The run the fork will start from, made with the prompts as they are now.
	const started = await page.request.post('/api/runs', { data: { world: 'the-ville-3', steps: 300, seed: 5, model: 'offline' } });
	expect(started.ok()).toBe(true);
	baseRun = (await started.json()).id;

	await page.goto('/prompts');
	oldVersion = (await overview(page)).working.version;
	const editor = page.getByTestId('template-editor');
	await expect(editor).toHaveAttribute('data-ready', 'true');
	await page.getByTestId('template-item-importance').getByRole('button').first().click();
	await expect(page.getByRole('region', { name: 'Template source' }).getByRole('heading', { level: 2 })).toHaveText('importance');
	await expect(editor).toHaveAttribute('data-ready', 'true');
	await editor.locator('.view-lines').click();
	await page.keyboard.press('Control+End');
	await page.keyboard.type('\nKeep it brief {{mood');
	await page.keyboard.press('Escape');
	await page.keyboard.type('}}');

	const problems = page.getByRole('list', { name: 'Template problems' });
	await expect(problems.getByRole('button', { name: /unknown.*mood/i })).toBeVisible();
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/prompt-workbench.png' });
	await expect(page.getByTestId('template-item-importance')).toHaveAttribute('data-changed', 'true');

	// Fix: the placeholder goes, a full stop ends the sentence.
	for (let i = 0; i < ' {{mood}}'.length; i++) await page.keyboard.press('Backspace');
	await page.keyboard.type('.');
	await expect(problems.getByRole('button', { name: /mood/i })).toHaveCount(0);

	await page.getByLabel('Version message').fill('Ask for brief ratings');
	await page.getByRole('button', { name: 'Save version' }).click();
	await expect
		.poll(async () => (await overview(page)).versions[0]?.message, { timeout: 15_000 })
		.toBe('Ask for brief ratings');
	const after = await overview(page);
	newVersion = after.versions[0].version;
	expect(newVersion).not.toBe(oldVersion);
	expect(after.working.version).toBe(newVersion);
	// The saved file holds the edit.
	const saved = await (await page.request.get(`/api/prompts/versions/${newVersion}`)).json();
	const importance = saved.templates.find((t: { id: string }) => t.id === 'importance');
	expect(importance.source.trimEnd().endsWith('Keep it brief.')).toBe(true);
});

test('shows the diff of two versions of the template', async ({ page }) => {
	await page.goto('/prompts');
	// the page is live once its editor is (a click on the server-rendered list before that does nothing)
	await expect(page.getByTestId('template-editor')).toHaveAttribute('data-ready', 'true');
	await page.getByTestId('template-item-importance').getByRole('button').first().click();
	await expect(page.getByRole('region', { name: 'Template source' }).getByRole('heading', { level: 2 })).toHaveText('importance');
	await page.getByRole('tab', { name: 'Versions' }).click();
	await page.getByLabel('Compare from').selectOption(oldVersion);
	await page.getByLabel('Compare to').selectOption(newVersion);
	await page.getByRole('button', { name: 'Compare', exact: true }).click();
	const diff = page.getByTestId('template-diff');
	await expect(diff).toBeVisible();
	// One added line: one place differs, and both sides are the importance template.
	await expect(page.getByRole('status').filter({ hasText: /^1 place differs\.$/ })).toBeVisible();
	await expect(diff).toContainText('id: importance');
});

test('forks a run with the new version and finds the divergence in the compare view', async ({ page }) => {
	test.setTimeout(120_000);
	await waitForSteps(page, baseRun, 300);
	await page.goto(`/runs/${baseRun}?step=${FORK_AT}`);
	await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
	await page.getByRole('button', { name: 'Fork here' }).click();
	const dialog = page.getByRole('dialog', { name: `Fork at step ${FORK_AT}` });
	await dialog.getByLabel('Steps to run in the fork').fill('200');
	await dialog.getByLabel('Prompt version').selectOption(newVersion);
	await dialog.getByRole('button', { name: 'Create fork' }).click();
	await expect(page).not.toHaveURL(new RegExp(`/runs/${baseRun}`));
	forkRun = new URL(page.url()).pathname.split('/').pop() ?? '';
	await waitForSteps(page, forkRun, 300);
	const info = await (await page.request.get(`/api/runs/${forkRun}`)).json();
	expect(JSON.stringify(info)).toContain(newVersion);

	// The server's diff: the first call of the changed template after the fork.
	const diff = await (await page.request.get(`/api/diff?a=${baseRun}&b=${forkRun}`)).json();
	expect(diff.firstDivergence.template).toBe('importance');
	expect(diff.firstDivergence.step).toBeGreaterThanOrEqual(FORK_AT);

	await page.goto(`/compare?a=${baseRun}&b=${forkRun}`);
	await expect(page.locator('[data-ready="true"]').first()).toBeVisible({ timeout: 30_000 });
	const divergence = page.getByRole('region', { name: 'First divergence' });
	await expect(divergence).toContainText(`Step ${diff.firstDivergence.step}`);
	await expect(divergence).toContainText('importance');
	await expect(page.getByRole('region', { name: 'Run A map' })).toBeVisible();
	await expect(page.getByRole('region', { name: 'Run B map' })).toBeVisible();
	await divergence.getByRole('button', { name: 'Go to divergence' }).click();
	await expect(page.getByTestId('compare-frame')).toHaveText(String(diff.firstDivergence.frame));
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/compare.png' });
});
