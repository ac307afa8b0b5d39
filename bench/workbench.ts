// The prompt workbench in a real Chromium: typing into the largest template (by file size in
// prompts/), one key at a time, measured from the key event to the frame that shows the
// character painted; and the checker that runs once typing pauses, measured from the last key
// to the problems list showing what it found. The checker's own cost is also timed in Node.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { checkTemplateSource } from '../src/lib/prompts/check';
import { launchChromium, quantile, startApp } from './app';

const ROOT = path.join(import.meta.dirname, '..');

/** The workbench's quiet time after the last keystroke before it checks (CHECK_DELAY_MS). */
const CHECK_DELAY_MS = 200;

/** 200 characters typed after the template's last line, as a new paragraph. */
export const TYPED = (
	'keep each block to one clear activity, name the place where it happens, and leave room for meals, ' +
	'errands and the walks between places, so that the schedule reads like a real day in this small town.'
)
	.padEnd(200, ' ')
	.slice(0, 200);

/** A placeholder the template does not declare: the checker reports it as an error. */
const UNKNOWN = '{{xyzzy}}';

/** The largest template file in `dir` (every Markdown file but the folder's README). */
export function largestTemplate(dir: string): { id: string; file: string; bytes: number } {
	const files = readdirSync(dir)
		.filter((f) => f.endsWith('.md') && f.toLowerCase() !== 'readme.md')
		.map((f) => ({ id: f.slice(0, -3), file: path.join(dir, f), bytes: statSync(path.join(dir, f)).size }))
		.sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
	if (!files.length) throw new Error(`no templates in ${dir}`);
	return files[0];
}

interface Keystroke {
	/** key event -> the frame with the character painted */
	total: number;
	/** the animation frame's start (Monaco's render, the browser's style, layout and paint) -> painted */
	frame: number;
}

/** Helpers installed in the page: arm a measurement, then send keys, then collect it. */
async function install(page: Page): Promise<void> {
	// tsx keeps function names with a `__name` helper that the page does not have
	await page.evaluate('globalThis.__name ??= (f) => f');
	await page.evaluate(() => {
		const g = globalThis as unknown as Record<string, unknown>;
		const task = () =>
			new Promise<void>((r) => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => r();
				ch.port2.postMessage(null);
			});
		const lines = document.querySelector('[data-testid="template-editor"] .view-lines') as HTMLElement;
		const problems = document.querySelector('ul[aria-label="Template problems"]')!.parentElement as HTMLElement;

		/** The next keystroke: from its keydown to the task after the frame in which Monaco redrew the lines. */
		g.armKey = () => {
			let t0 = 0;
			let frameStart = 0;
			g.keyResult = new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					obs.disconnect();
					reject(new Error('the editor did not redraw its lines after a keystroke'));
				}, 5000);
				const obs = new MutationObserver(() => {
					if (!t0) return;
					obs.disconnect();
					clearTimeout(timer);
					// Monaco renders in an animation frame; the frame is painted when the next task runs
					void task().then(() => {
						const end = performance.now();
						resolve({ total: end - t0, frame: end - (frameStart || t0) });
					});
				});
				obs.observe(lines, { subtree: true, childList: true, characterData: true });
				window.addEventListener(
					'keydown',
					() => {
						t0 = performance.now();
						requestAnimationFrame((t) => (frameStart = Math.max(t, t0)));
					},
					{ capture: true, once: true }
				);
			});
		};

		/** From the last keydown to the problems list holding (or no longer holding) `text`, painted. */
		g.armProblems = (text: string, present: boolean) => {
			let last = 0;
			const onKey = () => (last = performance.now());
			window.addEventListener('keydown', onKey, { capture: true });
			g.problemsResult = new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					obs.disconnect();
					window.removeEventListener('keydown', onKey, { capture: true });
					reject(new Error(`the problems list did not ${present ? 'show' : 'drop'} "${text}"`));
				}, 10_000);
				const obs = new MutationObserver(() => {
					if (!last || (problems.textContent ?? '').includes(text) !== present) return;
					const shown = performance.now();
					obs.disconnect();
					clearTimeout(timer);
					window.removeEventListener('keydown', onKey, { capture: true });
					requestAnimationFrame(() => void task().then(() => resolve({ shown: shown - last, painted: performance.now() - last })));
				});
				obs.observe(problems, { subtree: true, childList: true, characterData: true });
			});
		};

		/** The editor has drawn its frame and nothing else is pending. */
		g.idle = async () => {
			await new Promise((r) => requestAnimationFrame(r));
			await task();
		};
	});
}

/** The text the editor's lines show, without the spaces and whitespace marks Monaco draws. */
const bare = (s: string) => s.replace(/[\s\u00a0\u00b7\u2192]/g, '');

export async function benchWorkbench(): Promise<{ bench: string; figure: string; value: string }[]> {
	const home = mkdtempSync(path.join(tmpdir(), 'bench-workbench-'));
	// the workbench edits a copy of the templates (nothing is saved, but nothing could be)
	const prompts = path.join(home, 'prompts');
	cpSync(path.join(ROOT, 'prompts'), prompts, { recursive: true });
	const template = largestTemplate(prompts);
	const browser = await launchChromium();
	let app: Awaited<ReturnType<typeof startApp>> | null = null;
	try {
		app = await startApp(home, { SIMULACRA_PROMPTS: prompts });
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		// leaving with unsaved drafts asks first; the bench never saves
		page.on('dialog', (d) => void d.accept());
		await page.goto(`${app.base}/prompts`);
		await page.locator(`[data-testid="template-item-${template.id}"] button`).click();
		await page.locator('[data-testid="template-editor"][data-ready="true"]').waitFor({ timeout: 120_000 });
		await page.locator('section[aria-label="Template source"] h2', { hasText: template.id }).waitFor();
		await page.locator('[data-testid="template-editor"] .view-lines').click();
		await page.keyboard.press('Control+End');
		await page.keyboard.press('Enter');
		await page.keyboard.press('Enter');
		await install(page);
		await page.evaluate(() => (globalThis as unknown as { idle: () => Promise<void> }).idle());
		// the checker has run on the new lines before typing starts
		await page.waitForTimeout(CHECK_DELAY_MS * 3);

		const keys: Keystroke[] = [];
		for (const ch of TYPED) {
			await page.evaluate(async () => {
				const g = globalThis as unknown as { idle: () => Promise<void>; armKey: () => void };
				await g.idle();
				g.armKey();
			});
			await page.keyboard.type(ch);
			keys.push(await page.evaluate(() => (globalThis as unknown as { keyResult: Promise<Keystroke> }).keyResult));
		}
		const shown = bare((await page.locator('[data-testid="template-editor"] .view-lines').textContent()) ?? '');
		if (!shown.includes(bare(TYPED))) throw new Error('the typed text is not what the editor shows');

		// the checker: an unknown placeholder typed and then deleted, five times each
		await page.waitForTimeout(CHECK_DELAY_MS * 3);
		const checks: { shown: number; painted: number }[] = [];
		for (let i = 0; i < 5; i++) {
			for (const present of [true, false]) {
				await page.evaluate(
					async ([text, on]) => {
						const g = globalThis as unknown as { idle: () => Promise<void>; armProblems: (t: string, p: boolean) => void };
						await g.idle();
						g.armProblems(text, on);
					},
					['xyzzy', present] as const
				);
				if (present) await page.keyboard.type(UNKNOWN);
				else for (let k = 0; k < UNKNOWN.length; k++) await page.keyboard.press('Backspace');
				checks.push(await page.evaluate(() => (globalThis as unknown as { problemsResult: Promise<{ shown: number; painted: number }> }).problemsResult));
				await page.keyboard.press('Escape');
			}
		}

		// the checker alone, in Node, on the draft with the unknown placeholder
		const draft = `${readFileSync(template.file, 'utf8').replace(/\n?$/, '\n')}\n${TYPED}${UNKNOWN}\n`;
		if (!checkTemplateSource(draft, template.id).some((i) => i.message.includes('xyzzy'))) throw new Error('the checker did not report the unknown placeholder');
		for (let i = 0; i < 20; i++) checkTemplateSource(draft, template.id);
		const checkerRuns: number[] = [];
		for (let i = 0; i < 50; i++) {
			const t = performance.now();
			checkTemplateSource(draft, template.id);
			checkerRuns.push(performance.now() - t);
		}
		checkerRuns.sort((a, b) => a - b);

		const totals = keys.map((k) => k.total).sort((a, b) => a - b);
		const frames = keys.map((k) => k.frame).sort((a, b) => a - b);
		const painted = checks.map((c) => c.painted).sort((a, b) => a - b);
		const work = checks.map((c) => c.shown - CHECK_DELAY_MS).sort((a, b) => a - b);
		const f = (v: number) => `${v.toFixed(1)} ms`;
		const name = `prompt workbench in Chromium without a GPU, typing at the end of the largest template (${template.id}.md, ${template.bytes.toLocaleString('en')} bytes) in Monaco`;
		return [
			{ bench: name, figure: `one keystroke, key event to the character painted (next frame after Monaco's render), median (p95) of ${keys.length}`, value: `${f(quantile(totals, 0.5))} (${f(quantile(totals, 0.95))})` },
			{ bench: name, figure: "of which the frame: Monaco's render and the browser's style, layout and paint, median (p95)", value: `${f(quantile(frames, 0.5))} (${f(quantile(frames, 0.95))})` },
			{
				bench: name,
				figure: `checker after typing pauses (unknown placeholder typed, then deleted): last key to problems list painted, median (max) of ${checks.length}, including the ${CHECK_DELAY_MS} ms quiet time`,
				value: `${f(quantile(painted, 0.5))} (${f(painted.at(-1)!)})`
			},
			{ bench: name, figure: `of which the check and the problems list update (last key to list updated, less the quiet time), median`, value: f(quantile(work, 0.5)) },
			{ bench: name, figure: 'the checker alone in Node (checkTemplateSource on the edited draft), median (p95) of 50', value: `${f(quantile(checkerRuns, 0.5))} (${f(quantile(checkerRuns, 0.95))})` }
		];
	} finally {
		await browser.close();
		app?.stop();
		rmSync(home, { recursive: true, force: true });
	}
}
