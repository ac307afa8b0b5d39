// Game time is a plain calendar counted in milliseconds of a UTC clock: the world's start plus
// step * secondsPerStep. It never reads the machine's clock.

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
	'January', 'February', 'March', 'April', 'May', 'June',
	'July', 'August', 'September', 'October', 'November', 'December'
];

export function timeAtStep(start: number, secondsPerStep: number, step: number): number {
	return start + step * secondsPerStep * 1000;
}

/** Minutes since midnight of the game day. */
export function minuteOfDay(ms: number): number {
	return Math.floor((((ms % DAY) + DAY) % DAY) / MINUTE);
}

/** Whole days since the epoch: a stable id for "today". */
export function dayIndex(ms: number): number {
	return Math.floor(ms / DAY);
}

export function dayStart(ms: number): number {
	return dayIndex(ms) * DAY;
}

function pad(n: number): string {
	return n < 10 ? `0${n}` : String(n);
}

/** "14:05" */
export function formatClock(ms: number): string {
	const d = new Date(ms);
	return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** "2:05 pm" */
export function formatClock12(minute: number): string {
	const h = Math.floor(minute / 60) % 24;
	const m = minute % 60;
	const suffix = h < 12 ? 'am' : 'pm';
	const h12 = h % 12 === 0 ? 12 : h % 12;
	return `${h12}:${pad(m)} ${suffix}`;
}

/** "Monday February 13, 2023" */
export function formatDate(ms: number): string {
	const d = new Date(ms);
	return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "Monday February 13, 2023, 14:05" */
export function formatDateTime(ms: number): string {
	return `${formatDate(ms)}, ${formatClock(ms)}`;
}

/** ISO-like local game time "2023-02-13T14:05:00". */
export function formatIso(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}

/** Parses "HH:MM" (or "H:MM am/pm") into minutes since midnight; null when unreadable. */
export function parseClock(text: string): number | null {
	const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?\s*$/i.exec(text);
	if (!m) return null;
	let h = Number(m[1]);
	const min = m[2] ? Number(m[2]) : 0;
	const suffix = m[3]?.toLowerCase().replace(/\./g, '');
	if (suffix === 'pm' && h < 12) h += 12;
	if (suffix === 'am' && h === 12) h = 0;
	if (h > 24 || min > 59) return null;
	return Math.min(h * 60 + min, 24 * 60);
}
