// A run imported from a recording of the reference implementation (a small recording of our own
// in its formats) says in the debugger where its steps come from and what the recording lacks
// (run.json's `imported.missing`); a fork of it says which of its steps are the recording's.

import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFixtureCheckout } from '../../src/lib/server/world/reference/testing';

/** The CLI, on the test server's data home, worlds and prompts; answers its --json report. */
function cli(...args: string[]): Record<string, unknown> {
	const env = {
		...process.env,
		SIMULACRA_HOME: process.env.SIMULACRA_E2E_HOME,
		SIMULACRA_WORLDS: process.env.SIMULACRA_E2E_WORLDS,
		SIMULACRA_PROMPTS: process.env.SIMULACRA_E2E_PROMPTS
	};
	return JSON.parse(execFileSync('npx', ['tsx', 'src/cli/main.ts', ...args, '--json'], { env, encoding: 'utf8' }));
}

test('the debugger says what an imported run lacks, and a fork which steps are the recording\'s', async ({ page }) => {
	const dir = mkdtempSync(path.join(tmpdir(), 'reference-recording-'));
	const fixture = writeFixtureCheckout(dir);
	cli('world', 'import', dir, '--storage', 'base_two', '--name', 'imported-two');
	const report = cli('runs', 'import', fixture.compressed, '--world', 'imported-two');
	const run = report.run as string;

	await page.goto(`/runs/${run}`);
	const notice = page.getByRole('note', { name: 'Imported recording' });
	await expect(notice).toContainText(
		"Imported from the reference implementation (rec_two, steps 0–9): no model calls and retrieval traces, no day plans, no objects' states."
	);
	await notice.getByText('Why').click();
	await expect(notice.getByRole('listitem')).toHaveCount(3);
	await expect(notice.getByRole('listitem').first()).toContainText('the call inspector, retrieval tables and re-scoring have nothing to show');
	await expect(notice).toContainText('A fork at step 9 continues the town with a model.');
	// the map still works under the notice
	await expect(page.locator('canvas').first()).toBeVisible();

	// a fork at the recording's last step, run offline
	const fork = cli('run', '--from', `${run}@9`, '--steps', '2').run as string;
	await page.goto(`/runs/${fork}`);
	const forked = page.getByRole('note', { name: 'Imported recording' });
	await expect(forked).toContainText(
		"Steps 0–9 come from a recording imported from the reference implementation (rec_two): no model calls and retrieval traces, no day plans, no objects' states before step 9."
	);
	await forked.getByText('Why').click();
	await expect(forked.getByRole('link', { name: run })).toHaveAttribute('href', `/runs/${run}`);
});
