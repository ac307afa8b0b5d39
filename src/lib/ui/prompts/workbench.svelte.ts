// The prompt workbench's state: every template's draft (the page holds all of them until
// "Save version" stores the whole set), the checker's problems of each draft (run in the
// browser, debounced while typing), which drafts differ from the working copy, the stored
// versions and labels, and the actions on them (save, restore, label, history, version texts).

import type {
	PromptIssue,
	PromptsOverview,
	PromptVersionDetail,
	PromptVersionInfo,
	PromptWorkingCopy,
	TemplateHistoryEntry
} from '$lib/api/prompts';
import { checkTemplateSource, type TemplateCheckIssue } from '$lib/prompts/check';
import { normaliseSource } from '$lib/prompts/template';
import { PromptsApiError, type PromptsApi } from '$lib/ui/prompts-api';
import { applyFormEdit, type FormEdit } from './frontmatter';

/** Quiet time after the last keystroke before a draft is checked again. */
export const CHECK_DELAY_MS = 200;

export interface TemplateEntry {
	id: string;
	/** the file in the working copy, as the server names it */
	file: string;
	/** the working copy's text: what a draft is compared with */
	base: string;
	/** the front matter's description (the template's purpose) */
	purpose: string;
}

function purposeOf(source: string): string {
	const m = /^description:\s*(.*)$/m.exec(source);
	return m ? m[1].replace(/^["']|["']$/g, '').trim() : '';
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Workbench {
	templates = $state.raw<TemplateEntry[]>([]);
	/** template id -> the text being edited */
	drafts = $state<Record<string, string>>({});
	/** template id -> the checker's problems of the draft as of its last check */
	issues = $state<Record<string, TemplateCheckIssue[]>>({});
	/** template id -> the draft text last checked (what the form shows) */
	checked = $state<Record<string, string>>({});
	/** template id -> the draft differs from the working copy (as of its last check) */
	changed = $state<Record<string, boolean>>({});
	selected = $state('');

	versions = $state.raw<PromptVersionInfo[]>([]);
	labels = $state.raw<Record<string, string>>({});
	working = $state.raw<Omit<PromptWorkingCopy, 'templates'> | null>(null);

	saving = $state(false);
	/** the outcome of the last save or restore, for the status line */
	status = $state<{ kind: 'ok' | 'error'; text: string } | null>(null);
	/** what kept the last save from being stored: per template, with lines */
	saveIssues = $state.raw<PromptIssue[]>([]);
	/** bumped when versions, labels or the working copy change, so panels reload what they show */
	revision = $state(0);

	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- pending checks, never rendered
	private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- fetched version texts, never rendered
	private readonly details = new Map<string, Promise<PromptVersionDetail>>();

	constructor(
		readonly api: PromptsApi,
		overview: PromptsOverview
	) {
		this.adopt(overview, true);
		this.selected = this.templates[0]?.id ?? '';
	}

	/** Takes the server's overview; with `resetDrafts`, every draft becomes the working copy's text. */
	private adopt(overview: PromptsOverview, resetDrafts: boolean): void {
		const { templates, ...working } = overview.working;
		this.templates = templates.map((t) => ({ id: t.id, file: t.file, base: t.source, purpose: purposeOf(t.source) }));
		for (const t of templates) {
			if (resetDrafts || this.drafts[t.id] === undefined) this.drafts[t.id] = t.source;
		}
		this.working = working;
		this.versions = overview.versions;
		this.labels = overview.labels;
		for (const t of templates) this.check(t.id);
		this.revision++;
	}

	get selectedEntry(): TemplateEntry | undefined {
		return this.templates.find((t) => t.id === this.selected);
	}

	/** A new text for a template's draft (typing); it is checked once typing pauses. */
	setDraft(id: string, text: string): void {
		if (this.drafts[id] === text) return;
		this.drafts[id] = text;
		clearTimeout(this.timers.get(id));
		this.timers.set(
			id,
			setTimeout(() => {
				this.timers.delete(id);
				this.check(id);
			}, CHECK_DELAY_MS)
		);
	}

	/** Checks a draft now: its problems, whether it differs from the working copy. */
	check(id: string): void {
		clearTimeout(this.timers.get(id));
		this.timers.delete(id);
		const text = this.drafts[id];
		const entry = this.templates.find((t) => t.id === id);
		if (text === undefined || !entry) return;
		if (this.checked[id] === text && this.issues[id]) {
			this.changed[id] = normaliseSource(text) !== normaliseSource(entry.base);
			return;
		}
		this.checked[id] = text;
		this.issues[id] = checkTemplateSource(text, id);
		this.changed[id] = normaliseSource(text) !== normaliseSource(entry.base);
	}

	/** A form edit made to the draft's front matter; answers the error text when it cannot be made. */
	formEdit(id: string, edit: FormEdit): string | null {
		const text = this.drafts[id];
		if (text === undefined) return `no template "${id}"`;
		try {
			const next = applyFormEdit(text, edit);
			this.drafts[id] = next;
			this.check(id);
			return null;
		} catch (err) {
			return message(err);
		}
	}

	/** Ids of templates whose draft differs from the working copy (checked now, not as of the last pause). */
	unsaved(): string[] {
		return this.templates.filter((t) => normaliseSource(this.drafts[t.id] ?? t.base) !== normaliseSource(t.base)).map((t) => t.id);
	}

	errorCount(id: string): number {
		return (this.issues[id] ?? []).filter((i) => i.severity === 'error').length;
	}

	/** Stores every draft as one version; a refused set leaves its problems in `saveIssues`. */
	async save(text: string): Promise<PromptVersionInfo | null> {
		if (this.saving) return null;
		this.saving = true;
		this.status = null;
		const sent = this.templates.map((t) => ({ id: t.id, source: this.drafts[t.id] ?? t.base }));
		try {
			const info = await this.api.save({ message: text, templates: sent, ...(this.working?.base ? { parent: this.working.base } : {}) });
			this.saveIssues = [];
			const overview = await this.api.overview();
			this.adopt(overview, false);
			const same = info.message !== text.trim();
			this.status = {
				kind: 'ok',
				text: same ? `These texts are already version ${info.version.slice(0, 8)} ("${info.message}")` : `Saved version ${info.version.slice(0, 8)}`
			};
			return info;
		} catch (err) {
			this.saveIssues = err instanceof PromptsApiError ? err.issues : [];
			// problems listed one by one are not repeated in the status line
			this.status = { kind: 'error', text: this.saveIssues.length ? 'Not saved' : `Not saved: ${message(err)}` };
			return null;
		} finally {
			this.saving = false;
		}
	}

	/** Writes a version into the working copy; every draft becomes its text. */
	async restore(ref: string): Promise<boolean> {
		try {
			await this.api.restore(ref);
			this.adopt(await this.api.overview(), true);
			this.saveIssues = [];
			this.status = { kind: 'ok', text: `Restored version ${ref.slice(0, 8)} into the working copy` };
			return true;
		} catch (err) {
			this.status = { kind: 'error', text: `Not restored: ${message(err)}` };
			return false;
		}
	}

	async setLabel(label: string, version: string): Promise<string | null> {
		try {
			this.labels = await this.api.setLabel(label, version);
			this.versions = await this.api.versions();
			this.revision++;
			return null;
		} catch (err) {
			return message(err);
		}
	}

	history(id: string): Promise<TemplateHistoryEntry[]> {
		return this.api.history(id);
	}

	/** A stored version's texts (kept: versions never change). */
	version(ref: string): Promise<PromptVersionDetail> {
		let p = this.details.get(ref);
		if (!p) {
			p = this.api.version(ref);
			this.details.set(ref, p);
			p.catch(() => this.details.delete(ref));
		}
		return p;
	}

	/** A template's text in a version, in the working copy ('working') or in its draft ('draft'). */
	async textOf(ref: string, id: string): Promise<string> {
		if (ref === 'draft') return this.drafts[id] ?? '';
		if (ref === 'working') return this.templates.find((t) => t.id === id)?.base ?? '';
		const detail = await this.version(ref);
		return detail.templates.find((t) => t.id === id)?.source ?? '';
	}

	dispose(): void {
		for (const t of this.timers.values()) clearTimeout(t);
		this.timers.clear();
	}
}
