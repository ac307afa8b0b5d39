import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIsStale } from './start.js';

let root: string;

async function touch(rel: string, secondsAgo: number) {
	const file = path.join(root, rel);
	await mkdir(path.dirname(file), { recursive: true });
	await writeFile(file, rel);
	const t = new Date(Date.now() - secondsAgo * 1000);
	await utimes(file, t, t);
}

beforeEach(async () => {
	root = await mkdtemp(path.join(tmpdir(), 'simulacra-start-'));
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe('buildIsStale', () => {
	it('asks for a build when there is none', async () => {
		await touch('src/app.html', 100);
		expect(buildIsStale(root, 'build')).toBe('no build yet');
	});

	it('accepts a build newer than every source', async () => {
		await touch('src/routes/+page.svelte', 100);
		await touch('package.json', 100);
		await touch('build/index.js', 10);
		expect(buildIsStale(root, 'build')).toBeNull();
	});

	it('rebuilds when a source changed after the build', async () => {
		await touch('build/index.js', 100);
		await touch('src/lib/ui/TownMap.svelte', 10);
		expect(buildIsStale(root, 'build')).toBe('src changed since the last build');
	});

	it('ignores test files', async () => {
		await touch('build/index.js', 100);
		await touch('src/lib/ui/tiles.test.ts', 10);
		expect(buildIsStale(root, 'build')).toBeNull();
	});
});
