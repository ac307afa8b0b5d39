// Safe file access below a fixed folder. Every path that comes from a URL or a user goes
// through `resolveInside`, so a request can never read outside the folder it names.

import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { defaultWorldsDir } from './world/analyse';
import { readTextCapped } from './limits';

/** A refused or missing path; `status` is the HTTP status a route should answer with. */
export class PathError extends Error {
	readonly status: 400 | 404;

	constructor(status: 400 | 404, message: string) {
		super(message);
		this.name = 'PathError';
		this.status = status;
	}
}

export type EntryKind = 'file' | 'directory';

function refuse(relPath: string, why: string): PathError {
	return new PathError(400, `Refused path "${relPath}": ${why}`);
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
		throw new PathError(404, `Folder not found: ${root}`);
	}
	let real: string;
	try {
		real = await realpath(path.join(realRoot, ...segments));
	} catch {
		throw new PathError(404, `Not found: ${relPath}`);
	}
	// A symlink may point anywhere; only its target counts. Answer 404, not 403, so the
	// reply does not reveal what exists outside the folder.
	if (!isInside(realRoot, real) || real === realRoot) throw new PathError(404, `Not found: ${relPath}`);
	const info = await stat(real);
	if (expect === 'file' ? !info.isFile() : !info.isDirectory()) {
		throw new PathError(404, `Not a ${expect}: ${relPath}`);
	}
	return real;
}

export interface WorldEntry {
	/** folder name under the worlds folder; what `loadWorld` accepts */
	id: string;
	/** `name` from world.json when readable, otherwise the folder name */
	name: string;
}

/** Folders of `worldsDir` that hold a world.json, sorted by id. A missing folder lists none. */
export async function listWorlds(worldsDir: string): Promise<WorldEntry[]> {
	let entries: string[];
	try {
		entries = await readdir(worldsDir);
	} catch {
		return [];
	}
	const worlds: WorldEntry[] = [];
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

/** The folder holding the worlds: SIMULACRA_WORLDS when set, else `worlds/` of the project. */
export const worldsDir = defaultWorldsDir;
