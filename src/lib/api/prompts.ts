// Shapes of the prompt workbench's HTTP API (/api/prompts/**), shared by server and browser.
// Prompt sets are stored as immutable versions named by their content hash (the same
// `promptSet.version` a run records in run.json); labels such as "baseline" point at versions
// and can be moved. Errors answer the API's one error shape (`ApiErrorBody`, ./errors.ts):
// `invalid` (bad input, a refused set, with its `issues`) or `not-found` (unknown version, label
// or template). Request bodies are checked by the schemas here, their types derived from them.

import type { IssueSeverity, TemplateCheckIssue } from '../prompts/check';
import type { ApiErrorBody } from './errors';
import { fields, list, optional, text, v, wholeNumber } from './schema';

export type { IssueSeverity, TemplateCheckIssue };

/** One template's source, by template id (its file is `<id>.md`). */
export interface TemplateSource {
	id: string;
	source: string;
}

/** A problem of a prompt set: which template, where in it (1-based), what. */
export interface PromptIssue {
	/** template id; absent for problems of the whole set */
	template?: string;
	line?: number;
	column?: number;
	message: string;
}

/** An error answer of the prompts API: the one error shape, whose `issues` are a refused set's problems. */
export type PromptsErrorBody = ApiErrorBody;

/** A template's text as a request carries it: at most 64 KiB. */
const templateText = () => text({ max: 64 * 1024, blank: true });
const TEMPLATE_ID = /^[a-z][a-z0-9_]{0,63}$/;

/** A stored version: immutable apart from `labels`. */
export interface PromptVersionInfo {
	/** content hash of the set: 12 hex digits */
	version: string;
	message: string;
	/** ISO wall time it was first stored */
	created: string;
	/** the version it was made from */
	parent?: string;
	/** template id -> template version (12 hex digits of the file's hash) */
	templates: Record<string, string>;
	/** labels pointing at this version */
	labels: string[];
	/** templates that differ from the parent (or, without one, from the version stored before; all for the first) */
	changed: string[];
}

/** A template file of the working copy, as it is on disk (unsaved edits included). */
export interface WorkingTemplate {
	id: string;
	/** the file, relative to the server's working folder */
	file: string;
	source: string;
	/** template version of this text */
	version: string;
}

/** The prompt folder runs use when no version is chosen. */
export interface PromptWorkingCopy {
	/** the version hash of its current content */
	version: string;
	/** true when that content is a stored version */
	saved: boolean;
	/** the version last saved or restored into it, if any */
	base?: string;
	templates: WorkingTemplate[];
	/** what keeps it from being stored as it is (empty when it could be) */
	problems: PromptIssue[];
}

/** GET /api/prompts */
export interface PromptsOverview {
	working: PromptWorkingCopy;
	/** newest first */
	versions: PromptVersionInfo[];
	/** label -> version */
	labels: Record<string, string>;
	/**
	 * The prompt set the project ships (prompts/ as committed, git HEAD), to tell a run's
	 * prompts from it; null when it cannot be read (not a git checkout).
	 */
	shipped?: { version: string; commit: string } | null;
}

/** GET /api/prompts/versions/:version (a version id, a unique prefix of 8+ hex digits, or a label) */
export interface PromptVersionDetail {
	info: PromptVersionInfo;
	/** sorted by id */
	templates: TemplateSource[];
}

/**
 * POST /api/prompts/versions -> PromptVersionInfo: 201 when stored, 200 when that content was
 * already a version (its first message stays). Every engine template must be given. The
 * sources are also written into the working copy. A refused set answers 400 with `issues`
 * and changes nothing.
 */
export const SavePromptVersionRequestSchema = fields({
	/** what changed (the store refuses an empty one) */
	message: text({ max: 1000, blank: true }),
	/** the version the edits started from (default: the working copy's `base`) */
	parent: optional(text({ max: 100 })),
	templates: list(fields({ id: text({ max: 64 }), source: templateText() }), 200, 'a list of { id, source }')
});
export type SavePromptVersionRequest = v.InferOutput<typeof SavePromptVersionRequestSchema>;

/** PUT /api/prompts/labels/:label { version } -> Record<label, version> (GET /api/prompts/labels too) */
export const SetLabelRequestSchema = fields(
	{
		/** a version id, prefix or another label */
		version: text({ max: 100 })
	},
	'{ version } naming a version id, prefix or label'
);
export type SetLabelRequest = v.InferOutput<typeof SetLabelRequestSchema>;

/** POST /api/prompts/versions/:version/restore (body: nothing, or {}) -> PromptWorkingCopy */
export const RestoreVersionRequestSchema = fields({}, '{} (the version is in the URL)');

/** GET /api/prompts/history/:template -> TemplateHistoryEntry[], newest first */
export interface TemplateHistoryEntry {
	/** a prompt-set version in which this template's text changed */
	version: string;
	templateVersion: string;
	created: string;
	message: string;
}

/** POST /api/prompts/check -> CheckTemplateResult. Checks one template's text; stores nothing. */
export const CheckTemplateRequestSchema = fields(
	{
		/** the template id (its file is `<id>.md`) */
		id: optional(text({ max: 64, pattern: TEMPLATE_ID, what: 'a template id: lowercase letters, digits and underscores' })),
		source: templateText()
	},
	'{ id, source } with the template text in source'
);
export type CheckTemplateRequest = v.InferOutput<typeof CheckTemplateRequestSchema>;

export interface CheckTemplateResult {
	/** sorted by line; the same as checkTemplateSource(source, id) from $lib/prompts/check */
	issues: TemplateCheckIssue[];
}

/** POST /api/prompts/try body */
export const TryRequestSchema = fields({
	run: text({ max: 200 }),
	/** the recorded call's key (`step/agent/n`) */
	key: text({ max: 300 }),
	/** the step that made the call (CallView.step); read from the key when absent */
	step: optional(wholeNumber({ min: -1 })),
	/** the whole template file to try (front matter and text) */
	source: templateText()
});
export type TryRequest = v.InferOutput<typeof TryRequestSchema>;

/** The answer now and what the run recorded for the same call. */
export interface TryResult {
	run: string;
	key: string;
	step: number;
	template: string;
	/** the prompt rendered from the tried text with the call's variables */
	prompt: string;
	/** true when that is the prompt the run recorded */
	samePrompt: boolean;
	model: { provider: string; model: string; label: string; offline: boolean };
	/** the raw answer text ('' when the model gave none) */
	answer: string;
	/** the answer's JSON object, coerced like the gateway does, when one was found */
	value?: unknown;
	/** true when `value` validates against the tried text's output schema */
	valid: boolean;
	/** why it does not: no JSON object in the answer, or the schema's errors */
	issues: string[];
	/** the model failed (network, quota, configuration); there is no answer */
	error?: string;
	/** wall time of the model call, for display */
	latencyMs: number;
	tokens: { prompt: number; completion: number };
	recorded: {
		prompt: string;
		answer: string;
		value: unknown;
		failsafe: boolean;
		error?: string;
		/** whether the recorded value validates against the tried text's output schema */
		valid: boolean;
		issues: string[];
	};
}
