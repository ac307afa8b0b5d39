import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, listWorlds, PathError, resolveInside, splitRelativePath } from './files';

let base: string;
let root: string;

beforeAll(async () => {
	base = await mkdtemp(path.join(tmpdir(), 'simulacra-files-'));
	root = path.join(base, 'worlds', 'town');
	await mkdir(path.join(root, 'tilesets'), { recursive: true });
	await writeFile(path.join(root, 'world.json'), JSON.stringify({ name: 'Town' }));
	await writeFile(path.join(root, 'tilesets', 'ground.png'), 'png');
	await writeFile(path.join(base, 'secret.txt'), 'secret');
	await mkdir(path.join(base, 'worlds', 'broken'));
	await writeFile(path.join(base, 'worlds', 'broken', 'world.json'), '{ not json');
	await mkdir(path.join(base, 'worlds', 'no-manifest'));
	await symlink(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
	await symlink(base, path.join(root, 'up'));
	await symlink(path.join(root, 'tilesets', 'ground.png'), path.join(root, 'alias.png'));
});

afterAll(async () => {
	await rm(base, { recursive: true, force: true });
});

async function statusOf(promise: Promise<unknown>): Promise<number> {
	try {
		await promise;
		return 200;
	} catch (err) {
		if (err instanceof PathError) return err.status;
		throw err;
	}
}

describe('resolveInside', () => {
	it('resolves a file inside the folder to its real path', async () => {
		const file = await resolveInside(root, 'tilesets/ground.png');
		expect(file.endsWith(path.join('town', 'tilesets', 'ground.png'))).toBe(true);
	});

	it('follows a symlink whose target stays inside', async () => {
		const file = await resolveInside(root, 'alias.png');
		expect(file.endsWith(path.join('tilesets', 'ground.png'))).toBe(true);
	});

	it.each([
		['../secret.txt'],
		['tilesets/../../secret.txt'],
		['./world.json'],
		['/etc/passwd'],
		['C:/windows/win.ini'],
		['tilesets\\ground.png'],
		['..\\secret.txt'],
		['tilesets%2Fground.png'],
		['%2e%2e/secret.txt'],
		['tilesets//ground.png'],
		['world.json\0.png'],
		['']
	])('refuses %j with 400', async (rel) => {
		expect(await statusOf(resolveInside(root, rel))).toBe(400);
	});

	it('answers 404 for a symlink escaping the folder', async () => {
		expect(await statusOf(resolveInside(root, 'escape.txt'))).toBe(404);
		expect(await statusOf(resolveInside(root, 'up/secret.txt'))).toBe(404);
	});

	it('answers 404 for missing files and for a folder where a file is expected', async () => {
		expect(await statusOf(resolveInside(root, 'tilesets/missing.png'))).toBe(404);
		expect(await statusOf(resolveInside(root, 'tilesets'))).toBe(404);
		expect(await statusOf(resolveInside(path.join(base, 'nowhere'), 'world.json'))).toBe(404);
	});

	it('resolves folders when asked for one', async () => {
		const dir = await resolveInside(path.join(base, 'worlds'), 'town', 'directory');
		expect(path.basename(dir)).toBe('town');
		expect(await statusOf(resolveInside(path.join(base, 'worlds'), 'town/world.json', 'directory'))).toBe(404);
	});

	it('names the refused path and the reason', () => {
		expect(() => splitRelativePath('a/../b')).toThrow(/Refused path "a\/\.\.\/b": "\.\." segments/);
	});
});

describe('listWorlds', () => {
	it('lists folders with a world.json, using the manifest name when readable', async () => {
		const worlds = await listWorlds(path.join(base, 'worlds'));
		expect(worlds).toEqual([
			{ id: 'broken', name: 'broken' },
			{ id: 'town', name: 'Town' }
		]);
	});

	it('lists nothing for a missing folder', async () => {
		expect(await listWorlds(path.join(base, 'missing'))).toEqual([]);
	});
});

describe('contentTypeOf', () => {
	it('maps image and tileset extensions', () => {
		expect(contentTypeOf('a/b/Ground.PNG')).toBe('image/png');
		expect(contentTypeOf('town.tsx')).toBe('application/xml');
		expect(contentTypeOf('blob.bin')).toBe('application/octet-stream');
	});
});
