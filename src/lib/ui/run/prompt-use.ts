// Which prompt set a new run or a fork will use, said in the start form and the fork dialog:
// its version (the hash the run will record) and labels, where it comes from, and whether it
// differs from the prompts the project ships (prompts/ as committed). Saving a version in the
// prompt workbench writes into the working folder, which new runs use when no version is
// chosen, so this is where a run's prompts stop being a surprise.

import type { PromptsOverview } from '$lib/api/prompts';
import { labelsOf } from '../compare/pick';

/** The folder of a working-copy template file as the server names it (`prompts`, or SIMULACRA_PROMPTS). */
export function folderOf(file: string | undefined): string | null {
	if (!file) return null;
	const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
	return cut > 0 ? file.slice(0, cut) : '.';
}

/** The folder of the working copy (its first template's). */
export const workingFolder = (overview: PromptsOverview | null): string | null => folderOf(overview?.working.templates[0]?.file);

export interface PromptUse {
	/** the prompt-set version the run will record; null when not known yet */
	version: string | null;
	labels: string[];
	/** where it comes from, in words */
	from: string;
	/** compared with the shipped prompts; unknown when they cannot be read */
	shipped: 'same' | 'differs' | 'unknown';
}

/**
 * The prompts a run will use for the form's choice: `choice` is a stored version, or '' for the
 * default (a new run: the working copy; a fork: its parent's, `parentVersion`).
 */
export function promptUse(overview: PromptsOverview | null, choice: string, parentVersion?: string): PromptUse {
	let version: string | null;
	let from: string;
	if (choice) {
		version = choice;
		from = 'a stored version';
	} else if (parentVersion !== undefined) {
		version = parentVersion;
		from = "the parent run's prompts";
	} else {
		version = overview?.working.version ?? null;
		const folder = workingFolder(overview);
		from = `the working folder${folder ? ` ${folder}/` : ''}${overview && !overview.working.saved ? ', with edits not stored as a version' : ''}`;
	}
	const shipped = overview?.shipped?.version;
	return {
		version,
		labels: version ? labelsOf(overview, version) : [],
		from,
		shipped: !shipped || !version ? 'unknown' : shipped === version ? 'same' : 'differs'
	};
}

/** "Uses prompt set 1d3c2172 [baseline], the working folder prompts/; differs from the shipped prompts." */
export function promptUseText(use: PromptUse): string {
	if (!use.version) return `Uses ${use.from}.`;
	const labels = use.labels.length ? ` [${use.labels.join(', ')}]` : '';
	const shipped =
		use.shipped === 'same'
			? '; the same as the shipped prompts'
			: use.shipped === 'differs'
				? '; differs from the shipped prompts (prompts/ as committed)'
				: '';
	return `Uses prompt set ${use.version.slice(0, 8)}${labels}, ${use.from}${shipped}.`;
}
