// Setting overrides typed in a text box, one KEY=VALUE a line (blank lines and # comments
// skipped). Only the form is checked here; the server checks that each key exists.

import { parseOverride } from '$lib/engine/settings';

export function settingLines(text: string): { lines: string[]; errors: string[] } {
	const lines: string[] = [];
	const errors: string[] = [];
	text.split(/\r?\n/).forEach((raw, i) => {
		const line = raw.trim();
		if (!line || line.startsWith('#')) return;
		try {
			parseOverride(line);
			lines.push(line);
		} catch (err) {
			errors.push(`Settings, line ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
		}
	});
	return { lines, errors };
}
