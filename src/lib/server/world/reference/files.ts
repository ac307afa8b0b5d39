// Reading the files of the reference implementation (joonspk-research/generative_agents): a
// checkout's `environment/frontend_server/` (the town's mazes and Tiled map, the simulations in
// `storage/`) and recorded simulations (`storage/<sim>/` or `compressed_storage/<sim>/`). Every
// problem names the file (relative to the folder the user gave) and the row, key or field.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJson, JsonSyntaxError, type JsonDoc, type JsonPath } from '../../../world/json';
import { ProblemList, WorldError, type WorldProblem } from '../../../world/problems';
import { readTextCapped } from '../../limits';

/** The files under one folder, with the problems found in them. */
export class RefFiles {
	readonly problems = new ProblemList();

	/**
	 * @param root the folder the user named
	 * @param base the folder files are read from, relative to `root` ('' for root itself)
	 */
	constructor(
		readonly root: string,
		readonly base = '',
		/** how the root folder itself is named in problems (the path the user gave) */
		readonly label = root
	) {}

	/** A reader of a folder below this one (problems go to the same list). */
	sub(rel: string): RefFiles {
		const child = new RefFiles(this.root, this.rel(rel), this.label);
		(child as { problems: ProblemList }).problems = this.problems;
		return child;
	}

	/** `rel` (below this reader's folder) as shown in problems: relative to the folder the user named. */
	rel(rel: string): string {
		if (rel === '') return this.base || this.label;
		return this.base ? `${this.base}/${rel}` : rel;
	}

	abs(rel: string): string {
		const r = this.base ? (rel ? `${this.base}/${rel}` : this.base) : rel;
		return path.join(this.root, ...r.split('/').filter(Boolean));
	}

	isFile(rel: string): boolean {
		const p = this.abs(rel);
		return existsSync(p) && statSync(p).isFile();
	}

	isDir(rel: string): boolean {
		const p = this.abs(rel);
		return existsSync(p) && statSync(p).isDirectory();
	}

	error(rel: string, where: string | undefined, message: string): void {
		this.problems.error(this.rel(rel), where, message);
	}

	warn(rel: string, where: string | undefined, message: string): void {
		this.problems.warn(this.rel(rel), where, message);
	}

	/** The text of a file, or undefined with an error (`missing` says what it was expected for). */
	async text(rel: string, missing = 'not found'): Promise<string | undefined> {
		if (!this.isFile(rel)) {
			this.error(rel, undefined, missing);
			return undefined;
		}
		try {
			return await readTextCapped(this.abs(rel));
		} catch (e) {
			this.error(rel, undefined, `cannot be read: ${(e as Error).message}`);
			return undefined;
		}
	}

	/** A JSON file with line numbers (for files people read: scratch, nodes, meta). */
	async json(rel: string, missing?: string): Promise<JsonDoc | undefined> {
		const text = await this.text(rel, missing);
		if (text === undefined) return undefined;
		try {
			return parseJson(text);
		} catch (e) {
			if (e instanceof JsonSyntaxError) {
				this.error(rel, `line ${e.line}, column ${e.column}`, `not valid JSON: ${e.message}`);
				return undefined;
			}
			this.error(rel, undefined, `not valid JSON: ${(e as Error).message}`);
			return undefined;
		}
	}

	/** A large JSON file without line numbers (embeddings). */
	async plainJson(rel: string): Promise<unknown> {
		const text = await this.text(rel);
		if (text === undefined) return undefined;
		try {
			return JSON.parse(text) as unknown;
		} catch (e) {
			this.error(rel, undefined, `not valid JSON: ${(e as Error).message}`);
			return undefined;
		}
	}

	/** Throws a WorldError with every error so far (nothing is written by then). */
	failIfErrors(what: string): void {
		if (this.problems.errors.length) throw new WorldError(this.problems.errors, what);
	}
}

/** "line 12" of a JSON path in a document (or undefined). */
export function whereIn(doc: JsonDoc, p: JsonPath, label?: string): string | undefined {
	const line = doc.lineOf(p);
	const name = label ?? (p.length ? p.map((k) => (typeof k === 'number' ? `[${k}]` : k)).join('.') : undefined);
	if (line === undefined) return name ? `"${name}"` : undefined;
	return name ? `"${name}", line ${line}` : `line ${line}`;
}


const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * A reference time in milliseconds of the UTC calendar (game time has no zone): "February 13,
 * 2023, 00:00:10" (meta.json, movement), "February 13, 2023" (a start date), "2023-02-13
 * 00:00:00" (memories). Undefined when unreadable.
 */
export function parseRefTime(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const t = text.trim();
	let y: number, mo: number, d: number;
	let h = 0,
		mi = 0,
		s = 0;
	let m = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})(?:,\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
	if (m) {
		mo = MONTHS.indexOf(m[1].toLowerCase());
		if (mo < 0) return undefined;
		d = Number(m[2]);
		y = Number(m[3]);
		if (m[4] !== undefined) [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
	} else {
		m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
		if (!m) return undefined;
		[y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
		if (m[4] !== undefined) [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
	}
	const ms = Date.UTC(y, mo, d, h, mi, s);
	const back = new Date(ms);
	if (back.getUTCDate() !== d || back.getUTCMonth() !== mo || back.getUTCHours() !== h || back.getUTCMinutes() !== mi || back.getUTCSeconds() !== s) return undefined;
	return ms;
}

/** A persona id from a name: "Isabella Rodriguez" -> "isabella-rodriguez". */
export function personaId(name: string): string {
	const id = name
		.toLowerCase()
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 64);
	return id || 'persona';
}

/** A WorldError for one problem. */
export function refError(file: string, message: string, what = 'import', where?: string): WorldError {
	const p: WorldProblem = where ? { file, where, message } : { file, message };
	return new WorldError([p], what);
}
