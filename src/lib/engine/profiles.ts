// Named profiles: the settings where a run departs from the paper (Park et al. 2023), as setting
// overrides. The defaults are the paper's; `fast` is the studio's trade of fidelity for speed.

import type { ImportanceSettings, Settings } from './types';

/** A setting where the studio's fast profile departs from the paper. */
export interface Departure {
	/** the setting's dotted key */
	key: string;
	paper: number;
	fast: number;
	/** what the departure costs or saves */
	effect: string;
}

export const DEPARTURES: readonly Departure[] = [
	{
		key: 'perception.reactionMinutes',
		paper: 0,
		fast: 4,
		effect: 'the agent goes on for 4 game minutes before it reacts; the decision can be asked that long before it is needed'
	},
	{
		key: 'importance.waitMinutes',
		paper: 0,
		fast: 5,
		effect: 'a new memory is not retrievable for up to 5 game minutes; its rating can be asked 2 minutes before it is needed'
	},
	{
		key: 'importance.mundane',
		paper: 0,
		fast: 1,
		effect: 'sleeping and idle events get 1 without a call (the reference implementation does this for "idle")'
	}
];

export type ProfileName = 'paper' | 'fast';

export const PROFILES: readonly { name: ProfileName; label: string; description: string }[] = [
	{ name: 'paper', label: 'Paper', description: "The paper's behaviour: reactions decided when noticed, every memory rated when it is made." },
	{
		name: 'fast',
		label: 'Fast',
		description: 'Reactions decided 4 game minutes after noticing, importance rated in batches: fewer calls and more time for each answer.'
	}
];

export const PROFILE_NAMES: readonly string[] = PROFILES.map((p) => p.name);

/**
 * The overrides (KEY=VALUE) a profile stands for: every departure at the profile's value, so a
 * fork can change profile either way; none without a profile. Throws on an unknown name.
 */
export function profileOverrides(name: string | undefined): string[] {
	if (name === undefined) return [];
	if (!PROFILE_NAMES.includes(name)) throw new Error(`unknown profile "${name}": choose ${PROFILE_NAMES.map((n) => `"${n}"`).join(' or ')}`);
	return DEPARTURES.map((d) => `${d.key}=${d[name as ProfileName]}`);
}

/** The profile whose values a run's settings hold, or null when they hold neither. */
export function profileOf(settings: Settings): ProfileName | null {
	const valueOf = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], settings);
	return PROFILES.map((p) => p.name).find((name) => DEPARTURES.every((d) => valueOf(d.key) === d[name])) ?? null;
}

/** How snapshots written before the importance settings existed rated memories (the fast profile's way). */
export const EARLIER_IMPORTANCE: ImportanceSettings = { waitMinutes: 5, perCall: 0, mundane: 1 };
