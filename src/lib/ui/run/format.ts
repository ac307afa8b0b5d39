// Small formatting helpers shared by the run screens. Game times are UTC milliseconds of the
// game calendar (see engine/clock).

import { formatClock, formatDate } from '$lib/engine/clock';

export { formatClock, formatDate, formatDateTime } from '$lib/engine/clock';

/** "Mon 14:05" (the weekday keeps days apart on multi-day runs). */
export function shortTime(ms: number): string {
	return `${formatDate(ms).slice(0, 3)} ${formatClock(ms)}`;
}

/** "14:05:30" */
export function clockSeconds(ms: number): string {
	const d = new Date(ms);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Fixed decimals, as the score tables show them. */
export function num(value: number, digits = 3): string {
	return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

/** "2023-02-13T14:05" for <input type=datetime-local>, in game (UTC) time. */
export function toLocalInput(ms: number): string {
	return new Date(ms).toISOString().slice(0, 16);
}

/** Reads an <input type=datetime-local> value as game (UTC) time; null when empty or unreadable. */
export function fromLocalInput(value: string): number | null {
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
	const ms = Date.parse(`${value}Z`);
	return Number.isFinite(ms) ? ms : null;
}

/** The step whose game time is the latest at or before `time`. */
export function stepAtTime(time: number, start: number, secondsPerStep: number): number {
	return Math.floor((time - start) / (secondsPerStep * 1000));
}

/** "3 s ago"-style age of a wall-clock ISO date, relative to `now`. */
export function age(iso: string, now: number): string {
	const ms = now - Date.parse(iso);
	if (!Number.isFinite(ms)) return iso;
	const s = Math.round(ms / 1000);
	if (s < 60) return `${Math.max(0, s)} s ago`;
	const m = Math.round(s / 60);
	if (m < 60) return `${m} min ago`;
	const h = Math.round(m / 60);
	if (h < 48) return `${h} h ago`;
	return `${Math.round(h / 24)} days ago`;
}
