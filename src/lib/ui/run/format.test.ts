import { describe, expect, it } from 'vitest';
import { age, clockSeconds, fromLocalInput, num, shortTime, stepAtTime, toLocalInput } from './format';

const START = Date.UTC(2023, 1, 13, 7, 0, 0); // Monday 07:00

describe('run formatting', () => {
	it('shows game times in the game calendar (UTC), never the machine zone', () => {
		expect(shortTime(START)).toBe('Mon 07:00');
		expect(clockSeconds(START + 95_000)).toBe('07:01:35');
		expect(toLocalInput(START)).toBe('2023-02-13T07:00');
		expect(fromLocalInput('2023-02-13T07:00')).toBe(START);
		expect(fromLocalInput('yesterday')).toBeNull();
	});

	it('finds the step of a game time', () => {
		expect(stepAtTime(START + 60_000, START, 10)).toBe(6);
		expect(stepAtTime(START + 65_000, START, 10)).toBe(6);
	});

	it('formats numbers with fixed decimals and ages in words', () => {
		expect(num(0.12345)).toBe('0.123');
		expect(num(Number.NaN)).toBe('–');
		const now = Date.parse('2024-01-01T12:00:00Z');
		expect(age('2024-01-01T11:59:30Z', now)).toBe('30 s ago');
		expect(age('2024-01-01T09:00:00Z', now)).toBe('3 h ago');
	});
});
