// The new-world form imports the town of a checkout of the reference implementation with the
// personas of one of its simulations (a small checkout of our own in its formats), and lists
// the problems of a folder that is not one.

import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFixtureCheckout } from '../../src/lib/server/world/reference/testing';

test('imports the reference town from the new-world form', async ({ page }) => {
	const dir = mkdtempSync(path.join(tmpdir(), 'reference-checkout-'));
	writeFixtureCheckout(dir);
	await page.goto('/worlds');
	await page.getByLabel('World name').fill('Reference Two');
	await page.getByLabel('Folder id').fill('reference-two');
	await page.getByLabel('Start from').selectOption({ label: "The reference implementation's town" });

	// a folder that is no checkout says what it expected
	await page.getByLabel('Checkout folder').fill(path.join(dir, 'environment', 'frontend_server', 'storage'));
	await page.getByRole('button', { name: 'Find' }).click();
	await expect(page.getByRole('alert')).toBeVisible();
	await expect(page.locator('.problems')).toContainText('not a checkout of the reference implementation');

	await page.getByLabel('Checkout folder').fill(dir);
	await page.getByRole('button', { name: 'Find' }).click();
	await expect(page.getByLabel('Simulation')).toHaveValue('base_two');
	await expect(page.getByLabel('Simulation').locator('option')).toHaveText(['base_two', 'rec_two']);
	await page.getByRole('button', { name: 'Import world' }).click();
	await expect(page).toHaveURL(/\/worlds\/reference-two\/edit$/);

	const map = await (await page.request.get('/api/worlds/reference-two/map')).json();
	expect(map.doc.layers.map((l: { name: string }) => l.name)).toEqual(
		expect.arrayContaining(['Bottom Ground', 'Wall', 'collisions', 'sectors', 'arenas', 'objects', 'spawns'])
	);
	const personas = await (await page.request.get('/api/worlds/reference-two/personas')).json();
	expect(personas.map((p: { id: string }) => p.id).sort()).toEqual(['ann-lee', 'bob-ray']);
});
