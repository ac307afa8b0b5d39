// Prompt-set versions: immutable, content-addressed copies of the whole prompt set, with a
// message and a time, labels that move ("baseline"), the history of each template, and the
// working copy (the prompts/ folder, or SIMULACRA_PROMPTS) that runs use when no version is
// chosen. A version's id is the prompt-set version runs record in run.json, so a run started
// from a version (or from a working copy with the same content) names that version.
//
// Layout of <data home>/prompt-versions/:
//
//   versions/<version>/meta.json         { version, message, created, parent?, templates }
//   versions/<version>/templates/<id>.md the sources (normalised); the folder runs are given
//   labels.json                          { label: version }
//   head.json                            { version }: the version last written into the working copy
//
//   .lock                                { pid, host, boot, start, since, nonce }: held while a change is made
//
// Every write is a new file synced and renamed into place (../fs/atomic.ts), so a reader never
// sees half a file; a version folder is complete before it gets its name. Every change (label,
// version, restore, the baseline) reads and writes under `.lock`, a lock file (../fs/lock.ts)
// held by one process at a time, so concurrent changes from several processes (CLI, IDE) each see the others' results and
// none is lost. Readers never take it. A lock whose holder died is taken over. Operations are
// synchronous: in one process they never interleave.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PromptIssue, PromptVersionDetail, PromptVersionInfo, PromptWorkingCopy, TemplateHistoryEntry, TemplateSource } from '../../api/prompts';
import { TEMPLATE_IDS } from '../../engine/model';
import { checkTemplateSource } from '../../prompts/check';
import { parsePromptSet, promptSetVersion, PromptSetError } from '../../prompts/promptset';
import { normaliseSource, templateVersion } from '../../prompts/template';
import { dataHome, promptsDir as defaultPromptsDir, promptVersionsDir } from '../paths';
import { writeFileAtomic } from '../fs/atomic';
import { withLockSync } from '../fs/lock';
import { RequestError } from '../errors';

export const BASELINE = 'baseline';
const INITIAL_MESSAGE = 'Initial prompt set';
const VERSION = /^[0-9a-f]{12}$/;
const PREFIX = /^[0-9a-f]{8,11}$/;
const LABEL = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const MAX_SOURCE = 64 * 1024;
const MAX_MESSAGE = 1000;

/** A refused request: an `invalid` one (a set with problems: `issues` says what is wrong where) or one naming what is `not-found`. */
export class PromptStoreError extends RequestError {
	override readonly issues: PromptIssue[];
	constructor(kind: 'invalid' | 'not-found', message: string, issues: PromptIssue[] = []) {
		super(kind, message, { issues });
		this.name = 'PromptStoreError';
		this.issues = issues;
	}
}

interface VersionMeta {
	version: string;
	message: string;
	created: string;
	parent?: string;
	templates: Record<string, string>;
}

export interface SaveRequest {
	message: string;
	parent?: string;
	templates: TemplateSource[];
}

export interface StoreOptions {
	/** data home (default: SIMULACRA_HOME or .simulacra/) */
	home?: string;
	/** the working copy (default: SIMULACRA_PROMPTS or prompts/) */
	promptsDir?: string;
}

const isEngineTemplate = (id: string) => (TEMPLATE_IDS as readonly string[]).includes(id);

/** How long a change waits for another process's change to finish before giving up. */
const LOCK_WAIT_MS = 30_000;

/**
 * Runs `fn` holding the exclusive lock of a prompt-versions folder (re-entrant within a
 * process; ../fs/lock.ts). Waits for another holder; a holder that died is replaced.
 */
export function withPromptLock<T>(dir: string, fn: () => T, waitMs = LOCK_WAIT_MS): T {
	const file = path.join(dir, '.lock');
	mkdirSync(dir, { recursive: true });
	return withLockSync(file, fn, {
		waitMs,
		busy: (holder) => {
			const who = holder ? `process ${holder.pid} (since ${holder.since})` : 'another process';
			return new Error(`the prompt versions in ${dir} are being changed by ${who}; try again, or remove ${file} if no such process runs`);
		}
	});
}

function readJson<T>(file: string, fallback: T): T {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		return fallback;
	}
	try {
		return JSON.parse(text) as T;
	} catch {
		throw new Error(`${file} is not valid JSON; fix or remove it`);
	}
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per issue, as `importance.md:28: message`. */
export function formatIssue(i: PromptIssue): string {
	const where = i.template ? `${i.template}.md${i.line ? `:${i.line}` : ''}: ` : '';
	return `${where}${i.message}`;
}

/** Recent templates' errors by id and source: the overview checks the whole working copy on every request. */
const checked = new Map<string, PromptIssue[]>();

function templateErrors(id: string, source: string): PromptIssue[] {
	const key = `${id}\n${source}`;
	let issues = checked.get(key);
	if (!issues) {
		issues = checkTemplateSource(source, id)
			.filter((i) => i.severity === 'error')
			.map((i) => ({ template: id, line: i.line, ...(i.column ? { column: i.column } : {}), message: i.message }));
		checked.set(key, issues);
		if (checked.size > 200) checked.delete(checked.keys().next().value as string);
	}
	return issues;
}

/** Every problem of a complete prompt set given as sources (errors only; warnings never refuse). */
export function promptSetIssues(templates: readonly TemplateSource[]): PromptIssue[] {
	const issues: PromptIssue[] = [];
	const seen = new Set<string>();
	for (const { id, source } of templates) {
		if (seen.has(id)) {
			issues.push({ template: id, message: `"${id}" is given twice` });
			continue;
		}
		seen.add(id);
		if (!isEngineTemplate(id)) {
			issues.push({ template: id, message: `the engine has no template "${id}" (its templates: ${TEMPLATE_IDS.join(', ')})` });
			continue;
		}
		issues.push(...templateErrors(id, source));
	}
	for (const id of TEMPLATE_IDS) {
		if (!seen.has(id)) issues.push({ template: id, message: `missing: a prompt set has every template the engine uses` });
	}
	return issues;
}

/** Throws the refusal of a set with these problems (none: nothing happens). */
function refuseIssues(issues: PromptIssue[]): void {
	if (!issues.length) return;
	const shown = issues.slice(0, 5).map(formatIssue);
	const more = issues.length > shown.length ? `\n... and ${issues.length - shown.length} more` : '';
	throw new PromptStoreError('invalid', `the prompt set was not saved: ${plural(issues.length, 'problem')}\n${shown.join('\n')}${more}`, issues);
}

/** The prompt-set version of sources as they are (the hash a run of them records when they are valid). */
function setVersionOf(templates: readonly TemplateSource[]): string {
	return promptSetVersion(templates.map((t) => [t.id, templateVersion({ source: t.source })] as const));
}

export class PromptStore {
	readonly home: string;
	/** the working copy */
	readonly promptsDir: string;
	/** <home>/prompt-versions */
	readonly dir: string;
	private baselineChecked = false;

	constructor(opts: StoreOptions = {}) {
		this.home = opts.home ?? dataHome();
		this.promptsDir = opts.promptsDir ?? defaultPromptsDir();
		this.dir = promptVersionsDir(this.home);
	}

	private get versionsDir(): string {
		return path.join(this.dir, 'versions');
	}

	private versionDir(version: string): string {
		return path.join(this.versionsDir, version);
	}

	/** The folder of a version's template files. */
	private templatesDir(version: string): string {
		return path.join(this.versionDir(version), 'templates');
	}

	private has(version: string): boolean {
		return VERSION.test(version) && existsSync(path.join(this.versionDir(version), 'meta.json'));
	}

	private meta(version: string): VersionMeta {
		const meta = readJson<VersionMeta | null>(path.join(this.versionDir(version), 'meta.json'), null);
		if (!meta) throw new PromptStoreError('not-found', `no prompt-set version "${version}"`);
		return meta;
	}

	/** Every stored version's meta, oldest first. */
	private allMeta(): VersionMeta[] {
		let names: string[];
		try {
			names = readdirSync(this.versionsDir);
		} catch {
			return [];
		}
		return names
			.filter((n) => VERSION.test(n) && existsSync(path.join(this.versionDir(n), 'meta.json')))
			.map((n) => this.meta(n))
			.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.version < b.version ? -1 : 1));
	}

	private readLabels(): Record<string, string> {
		return readJson<Record<string, string>>(path.join(this.dir, 'labels.json'), {});
	}

	private writeLabels(labels: Record<string, string>): void {
		mkdirSync(this.dir, { recursive: true });
		const sorted = Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
		writeFileAtomic(path.join(this.dir, 'labels.json'), JSON.stringify(sorted, null, 2) + '\n');
	}

	private head(): string | undefined {
		const v = readJson<{ version?: string }>(path.join(this.dir, 'head.json'), {}).version;
		return v && this.has(v) ? v : undefined;
	}

	private setHead(version: string): void {
		mkdirSync(this.dir, { recursive: true });
		writeFileAtomic(path.join(this.dir, 'head.json'), JSON.stringify({ version }) + '\n');
	}

	// -----------------------------------------------------------------------
	// the working copy

	/** The working copy's template files (every `*.md` but README.md), sorted by id. */
	private workingFiles(): { id: string; full: string; source: string }[] {
		let names: string[];
		try {
			names = readdirSync(this.promptsDir);
		} catch (e) {
			throw new Error(`cannot read the prompt folder ${this.promptsDir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
		}
		return names
			.filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md')
			.sort()
			.map((n) => {
				const full = path.join(this.promptsDir, n);
				return { id: n.slice(0, -3), full, source: readFileSync(full, 'utf8') };
			});
	}

	/** The working copy as it is on disk: its templates, its version, whether that is stored. */
	working(): PromptWorkingCopy {
		this.ensureBaseline();
		const files = this.workingFiles();
		const templates = files.map((f) => ({
			id: f.id,
			file: path.relative(process.cwd(), f.full) || f.full,
			source: f.source,
			version: templateVersion({ source: f.source })
		}));
		const version = setVersionOf(files);
		const base = this.head();
		return {
			version,
			saved: this.has(version),
			...(base ? { base } : {}),
			templates,
			problems: promptSetIssues(files)
		};
	}

	/** Writes sources into the working copy, each file atomically; unchanged files are left alone. */
	private writeWorking(templates: readonly TemplateSource[]): void {
		mkdirSync(this.promptsDir, { recursive: true });
		for (const { id, source } of templates) {
			const file = path.join(this.promptsDir, `${id}.md`);
			let current: string | undefined;
			try {
				current = readFileSync(file, 'utf8');
			} catch {
				current = undefined;
			}
			if (current !== source) writeFileAtomic(file, source);
		}
	}

	// -----------------------------------------------------------------------
	// versions

	/**
	 * On first use, stores the working copy as the first version ("Initial prompt set") and
	 * labels it "baseline". Does nothing once "baseline" exists, or while the working copy
	 * cannot be stored (its problems are in `working().problems`). Answers the baseline version.
	 */
	ensureBaseline(): string | undefined {
		const labels = this.readLabels();
		if (labels[BASELINE] || this.baselineChecked) return labels[BASELINE];
		this.baselineChecked = true;
		let files: TemplateSource[];
		try {
			files = this.workingFiles();
		} catch {
			// no working copy to store: `working()` says why
			return undefined;
		}
		if (promptSetIssues(files).length) return undefined;
		return this.locked(() => {
			// another process may have made it meanwhile
			const now = this.readLabels()[BASELINE];
			if (now) return now;
			const { info } = this.store({ message: INITIAL_MESSAGE, templates: this.workingFiles() });
			this.writeLabels({ ...this.readLabels(), [BASELINE]: info.version });
			if (!this.head()) this.setHead(info.version);
			return info.version;
		});
	}

	/** Runs a change holding the store's lock (see the header). */
	private locked<T>(fn: () => T): T {
		return withPromptLock(this.dir, fn);
	}

	/**
	 * Stores a complete prompt set as a version and writes it into the working copy. Refuses
	 * (PromptStoreError 400 listing every problem with its template and line, nothing
	 * written) a set that misses a template, has one the engine does not use, or has any
	 * template error. Identical content answers the existing version (`created: false`).
	 */
	saveVersion(req: SaveRequest): { info: PromptVersionInfo; created: boolean } {
		const message = typeof req.message === 'string' ? req.message.trim() : '';
		if (!message) throw new PromptStoreError('invalid', 'a version needs a message saying what changed');
		if (message.length > MAX_MESSAGE) throw new PromptStoreError('invalid', `the message is longer than ${MAX_MESSAGE} characters`);
		if (!Array.isArray(req.templates)) throw new PromptStoreError('invalid', 'templates must be a list of { id, source }');
		req.templates.forEach((t, i) => {
			if (typeof t !== 'object' || t === null || typeof t.id !== 'string' || typeof t.source !== 'string') {
				throw new PromptStoreError('invalid', `templates[${i}] must be { id, source } with text values`);
			}
			if (t.source.length > MAX_SOURCE) throw new PromptStoreError('invalid', `${t.id}.md is longer than ${MAX_SOURCE} characters`);
		});
		// nothing is written for a set that is refused
		refuseIssues(promptSetIssues(req.templates));
		return this.locked(() => {
			// the working copy as it was becomes the baseline before anything overwrites it, unless
			// it is what is being saved: then this version is the first, with its own message
			if (!this.readLabels()[BASELINE] && setVersionOf(this.workingFiles()) !== setVersionOf(req.templates)) this.ensureBaseline();
			const parent = req.parent === undefined || req.parent === null || req.parent === '' ? undefined : this.resolve(String(req.parent));
			const result = this.store({ message, parent: parent ?? this.head(), templates: req.templates });
			this.writeWorking(this.sourcesOf(result.info.version));
			this.setHead(result.info.version);
			if (!this.readLabels()[BASELINE]) this.writeLabels({ ...this.readLabels(), [BASELINE]: result.info.version });
			return { info: this.infoOf(result.info.version), created: result.created };
		});
	}

	/** Stores the working copy as it is (`saveVersion` with its files). */
	saveWorking(message: string, parent?: string): { info: PromptVersionInfo; created: boolean } {
		return this.locked(() => this.saveVersion({ message, parent, templates: this.workingFiles().map(({ id, source }) => ({ id, source })) }));
	}

	/** Validates and stores a set; the working copy is not touched. */
	private store(req: { message: string; parent?: string; templates: readonly TemplateSource[] }): { info: PromptVersionInfo; created: boolean } {
		return this.locked(() => this.storeLocked(req));
	}

	private storeLocked(req: { message: string; parent?: string; templates: readonly TemplateSource[] }): { info: PromptVersionInfo; created: boolean } {
		refuseIssues(promptSetIssues(req.templates));
		let set;
		try {
			set = parsePromptSet(
				req.templates.map((t) => ({ file: `${t.id}.md`, source: t.source })),
				true
			);
		} catch (e) {
			if (e instanceof PromptSetError) throw new PromptStoreError('invalid', `the prompt set was not saved: ${e.message}`, e.problems.map((message) => ({ message })));
			throw e;
		}
		const version = set.version;
		if (this.has(version)) return { info: this.infoOf(version), created: false };

		const all = this.allMeta();
		let created = new Date().toISOString();
		const last = all.at(-1)?.created;
		// versions are ordered by creation time: keep it strictly increasing
		if (last && created <= last) created = new Date(Date.parse(last) + 1).toISOString();
		const meta: VersionMeta = {
			version,
			message: req.message,
			created,
			...(req.parent && req.parent !== version ? { parent: req.parent } : {}),
			templates: Object.fromEntries(Object.entries(set.versions).sort(([a], [b]) => (a < b ? -1 : 1)))
		};
		mkdirSync(this.versionsDir, { recursive: true });
		const tmp = path.join(this.versionsDir, `.${version}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
		mkdirSync(path.join(tmp, 'templates'), { recursive: true });
		for (const t of set.templates.values()) writeFileSync(path.join(tmp, 'templates', `${t.id}.md`), t.source);
		writeFileSync(path.join(tmp, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
		try {
			renameSync(tmp, this.versionDir(version));
		} catch (e) {
			rmSync(tmp, { recursive: true, force: true });
			// stored meanwhile by another process: the same content under the same name
			if (this.has(version)) return { info: this.infoOf(version), created: false };
			throw e;
		}
		return { info: this.infoOf(version), created: true };
	}

	/** The version a predecessor of `meta` is: its parent, else the one stored just before it. */
	private predecessor(meta: VersionMeta, byId: Map<string, VersionMeta>, ordered: VersionMeta[]): VersionMeta | undefined {
		if (meta.parent && byId.has(meta.parent)) return byId.get(meta.parent);
		const i = ordered.findIndex((m) => m.version === meta.version);
		return i > 0 ? ordered[i - 1] : undefined;
	}

	private infos(): PromptVersionInfo[] {
		const ordered = this.allMeta();
		const byId = new Map(ordered.map((m) => [m.version, m]));
		const labels = this.readLabels();
		return ordered.map((m) => {
			const before = this.predecessor(m, byId, ordered);
			const ids = [...new Set([...Object.keys(m.templates), ...Object.keys(before?.templates ?? {})])].sort();
			return {
				version: m.version,
				message: m.message,
				created: m.created,
				...(m.parent ? { parent: m.parent } : {}),
				templates: m.templates,
				labels: Object.keys(labels)
					.filter((l) => labels[l] === m.version)
					.sort(),
				changed: ids.filter((id) => before?.templates[id] !== m.templates[id])
			};
		});
	}

	private infoOf(version: string): PromptVersionInfo {
		const info = this.infos().find((i) => i.version === version);
		if (!info) throw new PromptStoreError('not-found', `no prompt-set version "${version}"`);
		return info;
	}

	/** Every stored version, newest first. */
	listVersions(): PromptVersionInfo[] {
		this.ensureBaseline();
		return this.infos().reverse();
	}

	private sourcesOf(version: string): TemplateSource[] {
		const meta = this.meta(version);
		return Object.keys(meta.templates)
			.sort()
			.map((id) => ({ id, source: readFileSync(path.join(this.templatesDir(version), `${id}.md`), 'utf8') }));
	}

	/** A version (by id, unique prefix or label): its info and sources. */
	getVersion(ref: string): PromptVersionDetail {
		const version = this.resolve(ref);
		return { info: this.infoOf(version), templates: this.sourcesOf(version) };
	}

	/** label -> version */
	labels(): Record<string, string> {
		this.ensureBaseline();
		return this.readLabels();
	}

	/** Points `label` at a version (moving it if it exists); answers every label. */
	setLabel(label: string, ref: string): Record<string, string> {
		if (typeof label !== 'string' || !LABEL.test(label)) {
			throw new PromptStoreError('invalid', `label "${label}" must be 1 to 64 lowercase letters, digits, ".", "-" or "_", starting with a letter or digit`);
		}
		if (/^[0-9a-f]{8,}$/.test(label)) throw new PromptStoreError('invalid', `label "${label}" would be mistaken for a version id: use a name with other letters`);
		return this.locked(() => {
			const version = this.resolve(ref);
			this.writeLabels({ ...this.readLabels(), [label]: version });
			return this.readLabels();
		});
	}

	/**
	 * The version id `ref` names: a label, a version id, or a unique prefix of at least 8 hex
	 * digits. PromptStoreError 404 when nothing matches, 400 when a prefix is ambiguous.
	 */
	resolve(ref: string): string {
		const text = typeof ref === 'string' ? ref.trim() : '';
		if (!text) throw new PromptStoreError('invalid', 'name a prompt-set version or label');
		const labels = this.labels();
		if (Object.hasOwn(labels, text)) {
			if (!this.has(labels[text])) throw new PromptStoreError('not-found', `label "${text}" points at ${labels[text]}, which is not stored`);
			return labels[text];
		}
		if (VERSION.test(text) && this.has(text)) return text;
		if (PREFIX.test(text)) {
			const matches = this.allMeta()
				.map((m) => m.version)
				.filter((v) => v.startsWith(text));
			if (matches.length === 1) return matches[0];
			if (matches.length > 1) throw new PromptStoreError('invalid', `"${text}" is the start of ${matches.length} versions (${matches.join(', ')}): give more digits`);
		}
		const known = Object.keys(labels).sort();
		throw new PromptStoreError('not-found', `no prompt-set version or label "${text}"${known.length ? ` (labels: ${known.join(', ')})` : ''}`);
	}

	/** The versions in which a template's text changed (from its predecessor), newest first. */
	historyOf(templateId: string): TemplateHistoryEntry[] {
		if (!isEngineTemplate(templateId)) throw new PromptStoreError('not-found', `no template "${templateId}" (templates: ${TEMPLATE_IDS.join(', ')})`);
		this.ensureBaseline();
		const ordered = this.allMeta();
		const byId = new Map(ordered.map((m) => [m.version, m]));
		const out: TemplateHistoryEntry[] = [];
		for (const m of ordered) {
			const mine = m.templates[templateId];
			if (mine === undefined) continue;
			const before = this.predecessor(m, byId, ordered);
			if (before?.templates[templateId] !== mine) out.push({ version: m.version, templateVersion: mine, created: m.created, message: m.message });
		}
		return out.reverse();
	}

	/** Writes a version's sources into the working copy; answers the working copy. */
	restore(ref: string): PromptWorkingCopy {
		this.locked(() => {
			const version = this.resolve(ref);
			this.writeWorking(this.sourcesOf(version));
			this.setHead(version);
		});
		return this.working();
	}

	/**
	 * Copies the working copy's template files (every `*.md` but README.md, as regular files)
	 * into `dest`, under the lock: never half of a restore or save. Answers `dest`.
	 */
	copyWorking(dest: string): string {
		return this.locked(() => copyTemplateFiles(this.promptsDir, dest));
	}

	/**
	 * The folder holding exactly a version's template files, to give runs as their prompt
	 * folder. Checks the files still hash to the version (a stored version never changes).
	 */
	materialise(ref: string): string {
		const version = this.resolve(ref);
		const meta = this.meta(version);
		const dir = this.templatesDir(version);
		const files = readdirSync(dir).filter((n) => n.endsWith('.md'));
		const pairs: [string, string][] = [];
		for (const name of files) pairs.push([name.slice(0, -3), templateVersion({ source: normaliseSource(readFileSync(path.join(dir, name), 'utf8')) })]);
		const expected = Object.keys(meta.templates).sort().join(',');
		if (pairs.map(([id]) => id).sort().join(',') !== expected || promptSetVersion(pairs) !== version) {
			throw new Error(`the stored prompt-set version ${version} was changed on disk (${dir}); it can no longer be used`);
		}
		return dir;
	}
}

/**
 * Copies a prompt folder's template files (every `*.md` but README.md) into `dest` as regular
 * files (the content of a link, never the link). Answers `dest`.
 */
export function copyTemplateFiles(from: string, dest: string): string {
	let names: string[];
	try {
		names = readdirSync(from).filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md');
	} catch (e) {
		throw new Error(`cannot read the prompt folder ${from}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
	}
	mkdirSync(dest, { recursive: true });
	for (const name of names) copyFileSync(path.join(from, name), path.join(dest, name));
	return dest;
}

/** A prompt set copied aside for a run (see `stagePromptSet`). */
export interface StagedPromptSet {
	/** the copy: the folder the model loads and the run copies */
	dir: string;
	/** the same error with the copy's paths replaced by the folder it was copied from */
	explain(e: unknown): unknown;
	/** removes the copy */
	remove(): void;
}

/**
 * A stable copy of the prompt set a run is about to use, made before the model loads it so
 * that the run records the version of exactly the bytes it keeps: `from` (a folder), or the
 * working copy of the data home `home`, taken under the store's lock.
 */
export function stagePromptSet(from?: string, home?: string): StagedPromptSet {
	const top = mkdtempSync(path.join(tmpdir(), 'simulacra-prompts-'));
	const dir = path.join(top, 'prompts');
	const remove = () => rmSync(top, { recursive: true, force: true });
	let original: string;
	try {
		if (from) {
			original = from;
			copyTemplateFiles(from, dir);
		} else {
			const store = new PromptStore({ home });
			original = store.promptsDir;
			store.copyWorking(dir);
		}
	} catch (e) {
		remove();
		throw e;
	}
	const explain = (e: unknown): unknown => {
		if (!(e instanceof Error)) return e;
		const shown = (p: string) => path.relative(process.cwd(), p) || p;
		const message = e.message.split(dir).join(original).split(shown(dir)).join(shown(original));
		if (message !== e.message) e.message = message;
		return e;
	};
	return { dir, explain, remove };
}

/** The store of the data home and working copy the environment names (read at each call). */
export function promptStore(): PromptStore {
	return new PromptStore();
}
