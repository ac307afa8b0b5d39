// Copies a folder into a run (its world, its prompt set) without ever leaving the folder: a
// link is followed only when it points inside the folder copied, and copied as what it points to;
// a link out of the folder (or a dangling one) is refused with the file it is.

import { copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConflictError } from '../errors';

/** A folder to copy into a run that holds a link out of it: the run cannot be made from it as it is (`conflict`). */
export class CopyOutsideError extends ConflictError {
	constructor(message: string) {
		super(message);
		this.name = 'CopyOutsideError';
	}
}

function inside(root: string, p: string): boolean {
	const rel = path.relative(root, p);
	return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Copies `from` into `to` (made if missing), refusing any link that leads out of `from`. */
export function copyConfined(from: string, to: string, what = 'folder'): void {
	const root = realpathSync(from);
	const walk = (src: string, dst: string, rel: string, depth: number) => {
		if (depth > 64) throw new CopyOutsideError(`${what} ${from}: ${rel} is nested too deep to copy`);
		mkdirSync(dst, { recursive: true });
		for (const name of readdirSync(src)) {
			const s = path.join(src, name);
			const d = path.join(dst, name);
			const r = rel ? `${rel}/${name}` : name;
			let real = s;
			if (lstatSync(s).isSymbolicLink()) {
				try {
					real = realpathSync(s);
				} catch {
					throw new CopyOutsideError(`${what} ${from}: ${r} is a link to nothing; remove it or replace it with the file`);
				}
				if (!inside(root, real)) {
					throw new CopyOutsideError(`${what} ${from}: ${r} is a link to ${real}, outside the ${what}; copy the file into the ${what} instead`);
				}
			}
			const st = statSync(real);
			if (st.isDirectory()) walk(real, d, r, depth + 1);
			else if (st.isFile()) copyFileSync(real, d);
			// sockets, fifos and devices are not part of a world or a prompt set
		}
	};
	walk(root, to, '', 0);
}
