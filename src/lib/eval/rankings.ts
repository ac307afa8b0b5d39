// Believability rankings of the controlled evaluation: reading them from JSON or CSV, with
// every problem named by line (CSV) or ranking number (JSON). Pure and browser-safe.
//
// JSON: {"rankings": [{"rater": "r1", "question": "q1", "order": ["full", ["a", "b"], "c"]}]}
//   (best first; a nested list is a tie). A bare list of rankings is read the same way.
// CSV:  a header row naming the columns rater, question, order (any column order), then one
//   ranking a row, order written best first joined by ">" with "=" for a tie:
//   r1,q1,full>a=b>c. Fields may be quoted ("..." with "" for a quote).

import { toCsv } from '../shared/csv';

/** One rater's ranking of the answers to one question: tiers best first, each tier a tie. */
export interface Ranking {
	rater: string;
	question: string;
	/** best first; a tier of more than one condition is a tie between them */
	order: string[][];
}

export interface RankingProblem {
	/** the file (or 'rankings' when read from text without a name) */
	file: string;
	/** 'line 4' (CSV); 'ranking 3 (rankings[2])' or, when lines are known, 'line 12, ranking 3' (JSON) */
	where?: string;
	message: string;
}

export class RankingsError extends Error {
	readonly problems: RankingProblem[];
	constructor(problems: RankingProblem[], file: string) {
		const n = problems.length;
		super(`${file} has ${n} problem${n === 1 ? '' : 's'}`);
		this.name = 'RankingsError';
		this.problems = problems;
	}
}

export function formatRankingProblem(p: RankingProblem): string {
	return `${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`;
}

export interface ParsedRankings {
	rankings: Ranking[];
	/** every condition seen, in order of first appearance */
	conditions: string[];
	/** whether any ranking has a tie */
	ties: boolean;
}

/** A JSON reader that knows where values are (for line numbers); JSON.parse when absent. */
export type JsonReader = (text: string) => { value: unknown; lineOf?: (path: readonly (string | number)[]) => number | undefined };

export interface ParseOptions {
	/** the file name, for messages and for telling JSON from CSV by extension */
	file?: string;
	/** 'json' or 'csv'; otherwise by the file's extension, else by the first character */
	format?: 'json' | 'csv';
	/** a position-keeping JSON reader, so problems in JSON name lines too */
	readJson?: JsonReader;
}

/** At most this many problems are listed; the rest are counted. */
const MAX_PROBLEMS = 20;

/** Reads rankings from JSON or CSV text. Throws RankingsError listing every problem found. */
export function parseRankings(text: string, options: ParseOptions = {}): ParsedRankings {
	const file = options.file ?? 'rankings';
	return rankingsFormat(text, options) === 'json' ? parseJsonRankings(text, file, options.readJson) : parseCsvRankings(text, file);
}

/** JSON or CSV: the format asked for, else the extension, else the first non-blank character. */
export function rankingsFormat(text: string, options: Pick<ParseOptions, 'file' | 'format'> = {}): 'json' | 'csv' {
	if (options.format) return options.format;
	const ext = /\.([a-z]+)$/i.exec(options.file ?? '')?.[1]?.toLowerCase();
	if (ext === 'json') return 'json';
	if (ext === 'csv') return 'csv';
	const first = text.replace(/^\uFEFF/, '').trimStart()[0];
	return first === '{' || first === '[' ? 'json' : 'csv';
}

class Problems {
	readonly list: RankingProblem[] = [];
	private extra = 0;
	constructor(readonly file: string) {}
	add(where: string | undefined, message: string): void {
		if (this.list.length >= MAX_PROBLEMS) {
			this.extra++;
			return;
		}
		this.list.push(where ? { file: this.file, where, message } : { file: this.file, message });
	}
	throwIfAny(): void {
		if (!this.list.length) return;
		if (this.extra) this.list.push({ file: this.file, message: `and ${this.extra} more problem${this.extra === 1 ? '' : 's'}` });
		throw new RankingsError(this.list, this.file);
	}
}

/** Checks one ranking's tiers: names non-empty, no condition twice, at least two conditions. */
function checkOrder(order: string[][], where: string, problems: Problems): boolean {
	const seen = new Set<string>();
	let ok = true;
	for (const tier of order)
		for (const name of tier) {
			if (seen.has(name)) {
				problems.add(where, `condition "${name}" appears twice`);
				ok = false;
			}
			seen.add(name);
		}
	if (ok && seen.size < 2) {
		problems.add(where, `ranks only ${seen.size === 0 ? 'no condition' : `"${[...seen][0]}"`} (a ranking needs at least two conditions)`);
		ok = false;
	}
	return ok;
}

function finish(rankings: Ranking[], problems: Problems, emptyMessage: string): ParsedRankings {
	if (!rankings.length && !problems.list.length) problems.add(undefined, emptyMessage);
	problems.throwIfAny();
	const conditions: string[] = [];
	const seen = new Set<string>();
	let ties = false;
	for (const r of rankings)
		for (const tier of r.order) {
			if (tier.length > 1) ties = true;
			for (const name of tier)
				if (!seen.has(name)) {
					seen.add(name);
					conditions.push(name);
				}
		}
	return { rankings, conditions, ties };
}

// ---- JSON ----

const RANKING_KEYS = ['rater', 'question', 'order'];

function parseJsonRankings(text: string, file: string, readJson?: JsonReader): ParsedRankings {
	const problems = new Problems(file);
	let value: unknown;
	let lineOf: ((path: readonly (string | number)[]) => number | undefined) | undefined;
	try {
		const doc = readJson ? readJson(text) : { value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
		value = doc.value;
		lineOf = doc.lineOf;
	} catch (e) {
		const err = e as { message?: string; line?: number; column?: number };
		const line = typeof err.line === 'number' ? `line ${err.line}${typeof err.column === 'number' ? `, column ${err.column}` : ''}` : undefined;
		problems.add(line, `not valid JSON: ${String(err.message ?? e).slice(0, 200)}`);
		problems.throwIfAny();
	}
	// with lines known, 'line 12, ranking 3'; without, 'ranking 3 (rankings[2])'
	const at = (path: (string | number)[], label: string, index?: number) => {
		const line = lineOf?.(path);
		if (line !== undefined) return `line ${line}, ${label}`;
		return index === undefined ? label : `${label} (rankings[${index}])`;
	};
	let list: unknown;
	let base: (string | number)[] = [];
	if (Array.isArray(value)) list = value;
	else if (value && typeof value === 'object') {
		for (const key of Object.keys(value)) if (key !== 'rankings') problems.add(at([key], 'top level'), `unknown key "${key}" (expected "rankings")`);
		list = (value as Record<string, unknown>).rankings;
		base = ['rankings'];
		if (list === undefined) problems.add(undefined, 'missing "rankings" (a list of {rater, question, order})');
		else if (!Array.isArray(list)) problems.add(at(base, 'top level'), '"rankings" must be a list of {rater, question, order}');
	} else problems.add(undefined, 'expected an object {"rankings": [...]} or a list of rankings');
	problems.throwIfAny();

	const rankings: Ranking[] = [];
	(list as unknown[]).forEach((item, index) => {
		const path = [...base, index];
		const where = at(path, `ranking ${index + 1}`, index);
		if (!item || typeof item !== 'object' || Array.isArray(item)) {
			problems.add(where, 'must be an object {rater, question, order}');
			return;
		}
		const record = item as Record<string, unknown>;
		let ok = true;
		for (const key of Object.keys(record))
			if (!RANKING_KEYS.includes(key)) {
				problems.add(at([...path, key], `ranking ${index + 1}`, index), `unknown key "${key}" (expected rater, question, order)`);
				ok = false;
			}
		const text = (key: 'rater' | 'question'): string => {
			const v = record[key];
			if (typeof v !== 'string' || !v.trim()) {
				problems.add(where, v === undefined ? `${key} is missing` : `${key} must be non-empty text`);
				ok = false;
				return '';
			}
			return v;
		};
		const rater = text('rater');
		const question = text('question');
		const order: string[][] = [];
		const raw = record.order;
		let orderOk = true;
		if (!Array.isArray(raw)) {
			problems.add(where, raw === undefined ? 'order is missing' : 'order must be a list of conditions, best first');
			orderOk = false;
		} else if (!raw.length) {
			problems.add(where, 'order is empty');
			orderOk = false;
		} else {
			const name = (v: unknown, place: string): string | undefined => {
				if (typeof v !== 'string' || !v.trim()) {
					problems.add(where, `${place} must be a condition name (non-empty text)${Array.isArray(v) ? '; ties are one level deep' : ''}`);
					return undefined;
				}
				if (v.trim() !== v) {
					problems.add(where, `${place}: condition "${v}" has spaces around its name`);
					return undefined;
				}
				return v;
			};
			raw.forEach((entry, k) => {
				const tier: string[] = [];
				if (Array.isArray(entry)) {
					if (!entry.length) {
						problems.add(where, `order[${k}] is an empty tie`);
						orderOk = false;
					}
					entry.forEach((v, j) => {
						const n = name(v, `order[${k}][${j}]`);
						if (n === undefined) orderOk = false;
						else tier.push(n);
					});
				} else {
					const n = name(entry, `order[${k}]`);
					if (n === undefined) orderOk = false;
					else tier.push(n);
				}
				if (tier.length) order.push(tier);
			});
		}
		if (orderOk && checkOrder(order, where, problems) && ok) rankings.push({ rater, question, order });
	});
	return finish(rankings, problems, 'no rankings in the file');
}

// ---- CSV ----

interface CsvRecord {
	/** line on which the record starts */
	line: number;
	fields: string[];
}

/** RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks. */
function csvRecords(text: string, problems: Problems): CsvRecord[] {
	const src = text.replace(/^\uFEFF/, '');
	const records: CsvRecord[] = [];
	let line = 1;
	let i = 0;
	while (i < src.length) {
		const start = line;
		const fields: string[] = [];
		let field = '';
		let bad = false;
		for (;;) {
			if (src[i] === '"' && field === '') {
				// a quoted field
				const open = line;
				i++;
				let closed = false;
				while (i < src.length) {
					const c = src[i];
					if (c === '"') {
						if (src[i + 1] === '"') {
							field += '"';
							i += 2;
							continue;
						}
						i++;
						closed = true;
						break;
					}
					if (c === '\n') line++;
					field += c;
					i++;
				}
				if (!closed) {
					problems.add(`line ${open}`, 'quoted field is never closed');
					return records;
				}
				if (i < src.length && src[i] !== ',' && src[i] !== '\n' && src[i] !== '\r') {
					problems.add(`line ${line}`, 'text after a closing quote (write "" for a quote inside a quoted field)');
					bad = true;
					while (i < src.length && src[i] !== ',' && src[i] !== '\n') i++;
				}
			} else {
				while (i < src.length && src[i] !== ',' && src[i] !== '\n') {
					if (src[i] === '"' && !bad) {
						problems.add(`line ${line}`, 'a quote inside an unquoted field (quote the whole field and write "" for a quote)');
						bad = true;
					}
					field += src[i];
					i++;
				}
				if (field.endsWith('\r')) field = field.slice(0, -1);
			}
			fields.push(field);
			field = '';
			if (src[i] === ',') {
				i++;
				continue;
			}
			if (src[i] === '\r') i++;
			if (src[i] === '\n') {
				i++;
				line++;
			}
			break;
		}
		const blank = fields.length === 1 && fields[0].trim() === '';
		if (!blank && !bad) records.push({ line: start, fields });
	}
	return records;
}

const CSV_COLUMNS = ['rater', 'question', 'order'] as const;

function parseCsvRankings(text: string, file: string): ParsedRankings {
	const problems = new Problems(file);
	const records = csvRecords(text, problems);
	problems.throwIfAny();
	if (!records.length) {
		problems.add(undefined, 'the file is empty (expected a header row: rater,question,order)');
		problems.throwIfAny();
	}
	const [header, ...rows] = records;
	const column: Partial<Record<(typeof CSV_COLUMNS)[number], number>> = {};
	header.fields.forEach((raw, k) => {
		const name = raw.trim().toLowerCase();
		if (!(CSV_COLUMNS as readonly string[]).includes(name)) problems.add(`line ${header.line}`, `unknown column "${raw.trim()}" (expected rater, question, order)`);
		else if (column[name as (typeof CSV_COLUMNS)[number]] !== undefined) problems.add(`line ${header.line}`, `column "${name}" appears twice`);
		else column[name as (typeof CSV_COLUMNS)[number]] = k;
	});
	for (const name of CSV_COLUMNS)
		if (column[name] === undefined) problems.add(`line ${header.line}`, `the header row has no "${name}" column (expected rater,question,order)`);
	problems.throwIfAny();

	const rankings: Ranking[] = [];
	for (const { line, fields } of rows) {
		const where = `line ${line}`;
		if (fields.length !== header.fields.length) {
			problems.add(where, `${fields.length} field${fields.length === 1 ? '' : 's'}, expected ${header.fields.length} (${header.fields.map((f) => f.trim()).join(',')})`);
			continue;
		}
		const rater = fields[column.rater!].trim();
		const question = fields[column.question!].trim();
		const orderText = fields[column.order!].trim();
		let ok = true;
		if (!rater) {
			problems.add(where, 'rater is empty');
			ok = false;
		}
		if (!question) {
			problems.add(where, 'question is empty');
			ok = false;
		}
		if (!orderText) {
			problems.add(where, 'order is empty');
			continue;
		}
		const order = orderText.split('>').map((tier) => tier.split('=').map((name) => name.trim()));
		if (order.some((tier) => tier.some((name) => !name))) {
			problems.add(where, `empty condition name in "${orderText}" (write conditions best first, joined by ">", "=" for a tie)`);
			continue;
		}
		if (checkOrder(order, where, problems) && ok) rankings.push({ rater, question, order });
	}
	return finish(rankings, problems, 'no rankings in the file (only a header row)');
}

// ---- writing ----

/** CSV text for rankings (header rater,question,order), the format parseRankings reads. */
export function rankingsToCsv(rankings: readonly Ranking[]): string {
	const rows = rankings.map((r) => {
		for (const name of r.order.flat())
			if (/[>=]/.test(name)) throw new Error(`condition "${name}" contains ">" or "=", which CSV uses between conditions`);
		return [r.rater, r.question, r.order.map((tier) => tier.join('=')).join('>')];
	});
	return toCsv(['rater', 'question', 'order'], rows, '\n');
}

/** JSON value for rankings ({"rankings": [...]}, a tie as a nested list). */
export function rankingsToJson(rankings: readonly Ranking[]): { rankings: { rater: string; question: string; order: (string | string[])[] }[] } {
	return {
		rankings: rankings.map((r) => ({
			rater: r.rater,
			question: r.question,
			order: r.order.map((tier) => (tier.length === 1 ? tier[0] : [...tier]))
		}))
	};
}
