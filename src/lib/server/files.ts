// Safe file access below a fixed folder. Every path that comes from a URL or a user goes
// through `resolveInside`, so a request can never read outside the folder it names.

import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WorldListing } from '../api/types';
import { RequestError } from './errors';
import { readTextCapped } from './limits';

/** A refused path (`invalid`) or a missing one (`not-found`). */
export class PathError extends RequestError {
	constructor(kind: 'invalid' | 'not-found', message: string) {
		super(kind, message);
		this.name = 'PathError';
	}
}

export type EntryKind = 'file' | 'directory';

function refuse(relPath: string, why: string): PathError {
	return new PathError('invalid', `Refused path "${relPath}": ${why}`);
}

/**
 * Checks the shape of a relative path without touching the disk and returns its segments.
 * Only plain forward-slash relative paths are accepted: no `.`/`..` segments, no empty
 * segments, no backslashes, drive letters, NUL bytes or leftover percent-encoding (a
 * `%2F` that survived one decoding is an attempt to smuggle a separator).
 */
export function splitRelativePath(relPath: string): string[] {
	if (typeof relPath !== 'string' || relPath.length === 0) throw refuse(String(relPath), 'empty path');
	if (relPath.includes('\0')) throw refuse(relPath, 'contains a NUL byte');
	if (relPath.includes('\\')) throw refuse(relPath, 'contains a backslash');
	if (relPath.includes('%')) throw refuse(relPath, 'contains percent-encoding');
	if (relPath.startsWith('/') || path.isAbsolute(relPath) || /^[a-zA-Z]:/.test(relPath)) {
		throw refuse(relPath, 'absolute paths are not allowed');
	}
	const segments = relPath.split('/');
	for (const segment of segments) {
		if (segment === '') throw refuse(relPath, 'empty path segment');
		if (segment === '.' || segment === '..') throw refuse(relPath, `"${segment}" segments are not allowed`);
	}
	return segments;
}

function isInside(root: string, candidate: string): boolean {
	return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Resolves `relPath` below `root` and returns the real (symlink-free) absolute path.
 * Throws PathError 400 for a malformed path and 404 when the entry does not exist, is not
 * of the expected kind, or resolves (through symlinks) outside `root`.
 */
export async function resolveInside(
	root: string,
	relPath: string,
	expect: EntryKind = 'file'
): Promise<string> {
	const segments = splitRelativePath(relPath);
	let realRoot: string;
	try {
		realRoot = await realpath(root);
	} catch {
		throw new PathError('not-found', `Folder not found: ${root}`);
	}
	let real: string;
	try {
		real = await realpath(path.join(realRoot, ...segments));
	} catch {
		throw new PathError('not-found', `Not found: ${relPath}`);
	}
	// A symlink may point anywhere; only its target counts. Answer 404, not 403, so the
	// reply does not reveal what exists outside the folder.
	if (!isInside(realRoot, real) || real === realRoot) throw new PathError('not-found', `Not found: ${relPath}`);
	const info = await stat(real);
	if (expect === 'file' ? !info.isFile() : !info.isDirectory()) {
		throw new PathError('not-found', `Not a ${expect}: ${relPath}`);
	}
	return real;
}

/** Why `realInside` refused a path: missing, a link out of the folder or to nothing, the wrong kind. */
export type ConfinedRefusal = 'missing' | 'outside' | 'dangling' | 'kind';

/**
 * A path refused by `realInside`. The message names paths inside the folder only (the link
 * that leads out, relative to the folder), never where a link points nor anything read there.
 */
export class ConfinedPathError extends Error {
	constructor(
		/** the path asked for, relative to the folder */
		readonly rel: string,
		readonly refusal: ConfinedRefusal,
		message: string
	) {
		super(message);
		this.name = 'ConfinedPathError';
	}
}

/**
 * The real path of `rel` (a relative path with `/` between its segments, none of them `.` or
 * `..`: a file name of the folder, not a URL) below `root`, following links only while they
 * stay inside the folder: a link anywhere along the path (the file, or a folder above it) that
 * leads out of the folder, or to nothing, is refused naming that link. A link inside the folder
 * is followed. Used to read the files of a world, the same way by `world check`, by a run
 * loading the world and by the editor.
 */
export async function realInside(root: string, rel: string, expect: EntryKind = 'file', folder = 'the world folder'): Promise<string> {
	const segments = rel.split('/');
	if (path.isAbsolute(rel) || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0')))
		throw new ConfinedPathError(rel, 'outside', `${rel} is not a path inside ${folder}`);
	const realRoot = await realpath(root);
	let cur = realRoot;
	for (let k = 0; k < segments.length; k++) {
		const here = segments.slice(0, k + 1).join('/');
		const p = path.join(cur, segments[k]);
		const info = await lstat(p).catch((e: NodeJS.ErrnoException) => {
			if (e.code === 'ENOENT' || e.code === 'ENOTDIR') throw new ConfinedPathError(rel, 'missing', `${rel} not found`);
			throw e;
		});
		if (!info.isSymbolicLink()) {
			cur = p;
			continue;
		}
		let real: string;
		try {
			real = await realpath(p);
		} catch {
			throw new ConfinedPathError(rel, 'dangling', danglingLink(here));
		}
		if (!isInside(realRoot, real)) throw new ConfinedPathError(rel, 'outside', await leavingLink(here, real, folder));
		cur = real;
	}
	const info = await stat(cur);
	if (expect === 'file' ? !info.isFile() : !info.isDirectory()) throw new ConfinedPathError(rel, 'kind', `${rel} is not a ${expect === 'file' ? 'file' : 'folder'}`);
	return cur;
}

const danglingLink = (here: string) => `${here} is a link to nothing; replace it with what it should be`;

async function leavingLink(here: string, real: string, folder: string): Promise<string> {
	const what = (await stat(real)).isDirectory() ? 'folder' : 'file';
	return `${here} is a link to a ${what} outside ${folder}; copy the ${what} into ${folder} instead`;
}

/**
 * Every link below `root` that leads out of it or to nothing, as a run's copy of the folder
 * would refuse them (src/lib/server/store/copy.ts), each named by its path relative to the
 * folder: so that checking a world refuses what starting a run from it refuses. Links inside
 * the folder are not walked into (what they lead to is walked where it is).
 */
export async function linksLeaving(root: string, folder = 'the world folder', maxDepth = 64): Promise<ConfinedPathError[]> {
	const realRoot = await realpath(root);
	const found: ConfinedPathError[] = [];
	const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
		if (depth > maxDepth) return;
		for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			const here = rel ? `${rel}/${entry.name}` : entry.name;
			const abs = path.join(dir, entry.name);
			if (entry.isDirectory()) await walk(abs, here, depth + 1);
			else if (entry.isSymbolicLink()) {
				let real: string;
				try {
					real = await realpath(abs);
				} catch {
					found.push(new ConfinedPathError(here, 'dangling', danglingLink(here)));
					continue;
				}
				if (!isInside(realRoot, real)) found.push(new ConfinedPathError(here, 'outside', await leavingLink(here, real, folder)));
			}
		}
	};
	await walk(realRoot, '', 0);
	return found;
}

/**
 * Folders of `worldsDir` that hold a world.json, sorted by id, each with its folder name (what
 * `loadWorld` accepts) and `name` from world.json when readable (else the folder name). A
 * missing folder lists none.
 */
export async function listWorlds(worldsDir: string): Promise<WorldListing[]> {
	let entries: string[];
	try {
		entries = await readdir(worldsDir);
	} catch {
		return [];
	}
	const worlds: WorldListing[] = [];
	for (const id of entries.sort()) {
		if (id.startsWith('.')) continue;
		let manifest: string;
		try {
			manifest = await resolveInside(worldsDir, `${id}/world.json`);
		} catch {
			continue;
		}
		let name = id;
		try {
			const parsed: unknown = JSON.parse(await readTextCapped(manifest));
			if (parsed && typeof parsed === 'object' && 'name' in parsed && typeof parsed.name === 'string') {
				name = parsed.name;
			}
		} catch {
			// A broken manifest still lists the world; opening it shows the problem.
		}
		worlds.push({ id, name });
	}
	return worlds;
}

const CONTENT_TYPES: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.svg': 'image/svg+xml',
	'.json': 'application/json',
	'.tmx': 'application/xml',
	'.tsx': 'application/xml',
	'.xml': 'application/xml',
	'.txt': 'text/plain; charset=utf-8',
	'.md': 'text/plain; charset=utf-8'
};

export function contentTypeOf(file: string): string {
	return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The worlds folder (../paths.ts), named here for world/import-reference.ts, which imports it from here. */
