import { describe, expect, it } from 'vitest';
import { DEPARTURES, profileOf, profileOverrides } from './profiles';
import { applyOverrides } from './settings';
import { createTestWorld } from './testing';
import { DEFAULT_SETTINGS } from './types';
import type { SimState } from './state';

const stateWith = (settings = structuredClone(DEFAULT_SETTINGS)) => ({ settings, agents: [] }) as unknown as SimState;

describe('profiles', () => {
	it("the defaults are the paper's; each profile sets every departure, so a fork can change profile either way", () => {
		expect(profileOf(DEFAULT_SETTINGS)).toBe('paper');
		const state = stateWith();
		applyOverrides(state, profileOverrides('fast'));
		expect(profileOf(state.settings)).toBe('fast');
		expect(state.settings.perception.reactionMinutes).toBe(4);
		expect(state.settings.importance).toEqual({ waitMinutes: 5, perCall: 0, mundane: 1 });
		applyOverrides(state, profileOverrides('paper'));
		expect(state.settings).toEqual(DEFAULT_SETTINGS);
		applyOverrides(state, ['importance.mundane=2']);
		expect(profileOf(state.settings)).toBeNull();
		expect(profileOverrides(undefined)).toEqual([]);
		expect(profileOverrides('fast')).toHaveLength(DEPARTURES.length);
		expect(createTestWorld().settings.importance.waitMinutes).toBe(0);
	});

	it('refuses an unknown profile and out-of-range importance settings', () => {
		expect(() => profileOverrides('quick')).toThrow(/unknown profile "quick": choose "paper" or "fast"/);
		expect(() => applyOverrides(stateWith(), ['importance.mundane=11'])).toThrow(/rating from 1 to 10/);
		expect(() => applyOverrides(stateWith(), ['importance.perCall=1.5'])).toThrow(/whole number/);
		expect(() => applyOverrides(stateWith(), ['importance.waitMinutes=-1'])).toThrow(/negative/);
	});
});
