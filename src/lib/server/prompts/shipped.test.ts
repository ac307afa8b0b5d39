import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths';
import { PromptStore } from './store';
import { shippedPromptSet } from './shipped';

const temps: string[] = [];
afterAll(() => {
	for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function repo(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'shipped-'));
	temps.push(dir);
	const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
	git('init', '-q');
	mkdirSync(path.join(dir, 'prompts'));
	writeFileSync(path.join(dir, 'prompts', 'a.md'), 'one\n');
	writeFileSync(path.join(dir, 'prompts', 'README.md'), 'not a template\n');
	git('add', '.');
	git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
	return dir;
}

describe('the shipped prompt set', () => {
	it('is prompts/ as committed, whatever the working folder holds now', () => {
		const dir = repo();
		const first = shippedPromptSet(dir);
		expect(first?.version).toMatch(/^[0-9a-f]{12}$/);
		writeFileSync(path.join(dir, 'prompts', 'a.md'), 'two\n');
		expect(shippedPromptSet(path.join(dir, 'prompts'))).toEqual(first);
	});

	it('has the version a working copy with the committed files has', () => {
		const shipped = shippedPromptSet(projectRoot());
		// this checkout: unless someone edits prompts/, its working copy is what HEAD ships
		const tracked = execFileSync('git', ['-C', projectRoot(), 'status', '--porcelain', '--', 'prompts/'], { encoding: 'utf8' });
		if (tracked.trim()) return;
		const home = mkdtempSync(path.join(tmpdir(), 'shipped-home-'));
		temps.push(home);
		expect(shipped?.version).toBe(new PromptStore({ home, promptsDir: path.join(projectRoot(), 'prompts') }).working().version);
	});

	it('is unknown outside a git checkout', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'no-git-'));
		temps.push(dir);
		expect(shippedPromptSet(dir)).toBeNull();
	});
});
