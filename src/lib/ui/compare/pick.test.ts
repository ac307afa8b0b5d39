// Picking two runs to compare (which is A), the compare address, and the prompt versions the
// start form and the fork dialog offer.

import { describe, expect, it } from 'vitest';
import type { PromptsOverview, PromptVersionInfo } from '$lib/api/prompts';
import { compareHref, compareOrder, forkPromptOptions, labelsOf, runPromptOptions, togglePick, versionLabel } from './pick';

const run = (id: string, created: string, parent: string | null = null) => ({
	id,
	created,
	parent: parent ? { run: parent, step: 100 } : null
});

const version = (v: string, message: string, labels: string[] = []): PromptVersionInfo => ({
	version: v,
	message,
	created: '2024-01-01T00:00:00Z',
	templates: {},
	labels,
	changed: []
});

const overview = (saved: boolean): PromptsOverview => ({
	working: { version: 'ffff00001111', saved, templates: [], problems: [] },
	versions: [version('abcdef123456', 'Sharper reactions', ['candidate']), version('0123456789ab', 'Initial prompt set', ['baseline'])],
	labels: { baseline: '0123456789ab', candidate: 'abcdef123456', stable: '0123456789ab' }
});

describe('picking runs to compare', () => {
	const runs = [run('base', '2024-01-01T10:00:00Z'), run('fork', '2024-01-01T09:00:00Z', 'base'), run('deep', '2024-01-01T08:00:00Z', 'fork'), run('other', '2024-01-02T10:00:00Z')];

	it('puts the ancestor first, at any depth', () => {
		expect(compareOrder(runs, ['fork', 'base'])).toEqual(['base', 'fork']);
		expect(compareOrder(runs, ['base', 'fork'])).toEqual(['base', 'fork']);
		expect(compareOrder(runs, ['deep', 'base'])).toEqual(['base', 'deep']);
	});

	it('otherwise puts the older run first', () => {
		expect(compareOrder(runs, ['other', 'base'])).toEqual(['base', 'other']);
		expect(compareOrder(runs, ['base', 'other'])).toEqual(['base', 'other']);
		expect(compareOrder(runs, ['unknown', 'base'])).toEqual(['unknown', 'base']);
	});

	it('keeps at most two picks, dropping the earliest', () => {
		let picked: string[] = [];
		picked = togglePick(picked, 'a', true);
		picked = togglePick(picked, 'b', true);
		expect(picked).toEqual(['a', 'b']);
		picked = togglePick(picked, 'c', true);
		expect(picked).toEqual(['b', 'c']);
		picked = togglePick(picked, 'b', false);
		expect(picked).toEqual(['c']);
		expect(togglePick(picked, 'c', true)).toEqual(['c']);
	});

	it('builds the compare address', () => {
		expect(compareHref('/compare', 'r1', 'r 2')).toBe('/compare?a=r1&b=r+2');
		expect(compareHref('/compare', 'r1', 'r2', 42)).toBe('/compare?a=r1&b=r2&step=42');
		expect(compareHref('/compare', 'r1', 'r2', null)).toBe('/compare?a=r1&b=r2');
	});
});

describe('prompt versions offered', () => {
	it('offers the working copy by default for a new run, then stored versions', () => {
		const options = runPromptOptions(overview(false));
		expect(options.map((o) => o.value)).toEqual(['', 'abcdef123456', '0123456789ab']);
		expect(options[0].label).toBe('Working copy (default, unsaved edits)');
		expect(options[1].label).toBe('candidate · Sharper reactions (abcdef12)');
		expect(runPromptOptions(overview(true))[0].label).toBe('Working copy (default, stored as ffff0000)');
		expect(runPromptOptions(null)).toEqual([{ value: '', label: 'Working copy (default)' }]);
	});

	it("keeps a fork's parent prompts by default; the working copy only when stored", () => {
		const unsaved = forkPromptOptions(overview(false));
		expect(unsaved[0]).toEqual({ value: '', label: "Parent run's prompts (default)" });
		expect(unsaved[1].disabled).toBe(true);
		const saved = forkPromptOptions(overview(true));
		expect(saved[1]).toEqual({ value: 'ffff00001111', label: 'Working copy (ffff0000)' });
		expect(saved.map((o) => o.value)).toEqual(['', 'ffff00001111', 'abcdef123456', '0123456789ab']);
		expect(new Set(saved.map((o) => o.value)).size).toBe(saved.length);
	});

	it('names the stored version that is the working copy instead of listing it twice', () => {
		const o = overview(true);
		o.working.version = '0123456789ab';
		const options = forkPromptOptions(o);
		expect(options.map((x) => x.value)).toEqual(['', 'abcdef123456', '0123456789ab']);
		expect(options[2].label).toBe('Working copy = baseline · Initial prompt set (01234567)');
	});

	it('labels versions and finds the labels of a version', () => {
		expect(versionLabel(version('1234567890ab', '  '))).toBe('no message (12345678)');
		expect(labelsOf(overview(true), '0123456789ab')).toEqual(['baseline', 'stable']);
		expect(labelsOf(null, '0123456789ab')).toEqual([]);
	});
});
