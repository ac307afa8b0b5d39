// Small, deterministic text tools shared by the offline stand-in and the hashing embedder:
// tokens, a light stemmer, stopwords, clock times and dates in free text.

import { fnv1a32 } from '../../../prompts/hash';

export const STOPWORDS = new Set(
	(
		'a an the and or but if then else of to in on at by for with from into onto about as than so too very ' +
		'is are was were be been being am do does did doing done have has had having will would shall should can could ' +
		'may might must i me my mine myself you your yours yourself he him his himself she her hers herself it its itself ' +
		'we us our ours they them their theirs themselves this that these those there here what which who whom whose when ' +
		'where why how all any both each few more most other some such no nor not only own same just also up down out off ' +
		'over under again further once s t don now get gets got going go goes around while during before after until till'
	).split(' ')
);

const WORD = /[a-z0-9]+(?:'[a-z]+)?/g;

/** Lowercased word tokens, possessive 's removed, no stopwords, stemmed. */
export function contentWords(text: string): string[] {
	const out: string[] = [];
	for (const m of text.toLowerCase().matchAll(WORD)) {
		let w = m[0];
		if (w.endsWith("'s")) w = w.slice(0, -2);
		else if (w.includes("'")) w = w.replace(/'.*$/, '');
		if (w.length < 2 || STOPWORDS.has(w)) continue;
		out.push(stem(w));
	}
	return out;
}

/** Lowercased raw words (no stemming, stopwords kept). */
export function words(text: string): string[] {
	return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/'s$/, ''));
}

const VOWEL = /[aeiouy]/;

/** A light suffix stripper: consistent rather than linguistically exact. */
export function stem(word: string): string {
	let w = word;
	if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
	if (w.length > 5 && w.endsWith('ing') && VOWEL.test(w.slice(0, -3))) w = w.slice(0, -3);
	else if (w.length > 4 && w.endsWith('ed') && VOWEL.test(w.slice(0, -2))) w = w.slice(0, -2);
	else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
	else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
	else if (w.length > 5 && w.endsWith('ly')) return w.slice(0, -2);
	// planning -> plann -> plan; stopped -> stopp -> stop
	if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[aeiouls]/.test(w[w.length - 1])) w = w.slice(0, -1);
	// making -> mak, make -> make: drop a final e so both meet at "mak"
	if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
	return w;
}

/** Deterministic choice from a list, keyed by text. */
export function pick<T>(items: readonly T[], key: string): T {
	return items[fnv1a32(key) % items.length];
}

export function capitalise(text: string): string {
	return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function sentences(text: string): string[] {
	return text
		.split(/(?<=[.!?])\s+|\n+|;\s*/)
		.map((s) => s.trim())
		.filter((s) => s.length > 0);
}

export function truncate(text: string, max: number): string {
	if (text.length <= max) return text;
	const cut = text.slice(0, max - 3);
	const space = cut.lastIndexOf(' ');
	return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '') + '...';
}

export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------
// Clock times in free text ("7am", "7:30 pm", "19:00", "noon"), in minutes after midnight.

export interface TimeMention {
	minutes: number;
	index: number;
	end: number;
}

const TIME_12 = /\b(\d{1,2})(?::([0-5]\d))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/gi;
const TIME_24 = /\b([01]?\d|2[0-3]):([0-5]\d)\b(?!\s*(?:a\.?m|p\.?m))/gi;
const TIME_WORD = /\b(noon|midday|midnight)\b/gi;
const RANGE = /\b(\d{1,2})(?::([0-5]\d))?\s*(a\.?m\.?|p\.?m\.?)?\s*(?:to|-|–|until|till)\s*(\d{1,2})(?::([0-5]\d))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/gi;

function to24(hour: number, minute: number, meridiem: string | undefined): number {
	let h = hour % 12;
	if (meridiem && meridiem.toLowerCase().startsWith('p')) h += 12;
	if (!meridiem) h = hour;
	return h * 60 + minute;
}

/** Every clock time mentioned in `text`, in order of appearance. */
export function timeMentions(text: string): TimeMention[] {
	const out: TimeMention[] = [];
	for (const m of text.matchAll(RANGE)) {
		// "5 to 7 pm": the first time takes the second's am/pm when it has none.
		const second = to24(Number(m[4]), Number(m[5] ?? 0), m[6]);
		let first = to24(Number(m[1]), Number(m[2] ?? 0), m[3] ?? m[6]);
		if (!m[3] && first > second) first -= 12 * 60;
		const idx = m.index ?? 0;
		const firstText = /^\d{1,2}(?::[0-5]\d)?\s*(?:a\.?m\.?|p\.?m\.?)?/i.exec(m[0])?.[0] ?? m[1];
		const sep = /^\s*(?:to|-|–|until|till)\s*/i.exec(m[0].slice(firstText.length))?.[0] ?? '';
		out.push({ minutes: first, index: idx, end: idx + firstText.length });
		out.push({ minutes: second, index: idx + firstText.length + sep.length, end: idx + m[0].length });
	}
	const taken = (i: number) => out.some((t) => i >= t.index && i < t.end);
	for (const m of text.matchAll(TIME_12)) {
		const idx = m.index ?? 0;
		if (taken(idx)) continue;
		out.push({ minutes: to24(Number(m[1]), Number(m[2] ?? 0), m[3]), index: idx, end: idx + m[0].length });
	}
	for (const m of text.matchAll(TIME_24)) {
		const idx = m.index ?? 0;
		if (taken(idx)) continue;
		out.push({ minutes: Number(m[1]) * 60 + Number(m[2]), index: idx, end: idx + m[0].length });
	}
	for (const m of text.matchAll(TIME_WORD)) {
		const idx = m.index ?? 0;
		out.push({ minutes: m[1].toLowerCase() === 'midnight' ? 24 * 60 : 12 * 60, index: idx, end: idx + m[0].length });
	}
	return out.sort((a, b) => a.index - b.index);
}

/** A time range "from 8am until 8pm", "5 to 7 pm", "between 9 and 17:00" in `text`, if any. */
export function timeRange(text: string): { start: number; end: number } | undefined {
	const times = timeMentions(text);
	for (let i = 0; i + 1 < times.length; i++) {
		const between = text.slice(times[i].end, times[i + 1].index).toLowerCase();
		if (/^\s*(?:a\.?m\.?|p\.?m\.?)?\s*(?:to|-|–|until|till|and|through)\s*$/.test(between) && times[i + 1].minutes > times[i].minutes) {
			return { start: times[i].minutes, end: times[i + 1].minutes };
		}
	}
	return undefined;
}

/** The time closest after a keyword that matches `keyword` (within `reach` characters). */
export function timeAfter(text: string, keyword: RegExp, reach = 40): number | undefined {
	const times = timeMentions(text);
	const re = new RegExp(keyword.source, 'gi');
	for (const m of text.matchAll(re)) {
		const at = (m.index ?? 0) + m[0].length;
		const t = times.find((x) => x.index >= at && x.index - at <= reach && !/[.;]/.test(text.slice(at, x.index)));
		if (t) return t.minutes;
	}
	return undefined;
}

/** "7:00 am", "12:30 pm". */
export function clock12(minutes: number): string {
	const m = ((minutes % 1440) + 1440) % 1440;
	const h = Math.floor(m / 60);
	const mm = String(m % 60).padStart(2, '0');
	const h12 = h % 12 === 0 ? 12 : h % 12;
	return `${h12}:${mm} ${h < 12 ? 'am' : 'pm'}`;
}

/** "07:00". */
export function clock24(minutes: number): string {
	const m = Math.max(0, Math.min(1439, Math.round(minutes)));
	return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Removes clock times (with the preposition before them) and habitual phrases from a clause. */
export function stripTimes(text: string): string {
	return text
		.replace(RANGE, ' ')
		.replace(TIME_12, ' ')
		.replace(TIME_24, ' ')
		.replace(TIME_WORD, ' ')
		.replace(/\b(?:at|around|about|from|until|till|to|by|before|after|between|and|starting)\s+(?=(?:at|around|from|until|till|to|by|and)?\s*(?:[,.;]|$))/gi, ' ')
		.replace(/\b(?:every\s*day|everyday|each day|daily|on weekdays|every morning|every evening)\b/gi, ' ')
		.replace(/\s+(?:at|around|about|from|until|till|to|by|before|after|between|starting)(?=\s*(?:[,.;]|$))/gi, '')
		.replace(/\s+,/g, ',')
		.replace(/\s{2,}/g, ' ')
		.replace(/^[\s,;:]+|[\s,;:]+$/g, '')
		.trim();
}

// ---------------------------------------------------------------------------
// Calendar dates ("February 14", "Feb 14th").

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DATE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b/gi;

export interface DateMention {
	month: number;
	day: number;
	index: number;
	end: number;
}

export function dateMentions(text: string): DateMention[] {
	const out: DateMention[] = [];
	for (const m of text.matchAll(DATE)) {
		const month = MONTHS.findIndex((name) => name.startsWith(m[1].toLowerCase().slice(0, 3)));
		const day = Number(m[2]);
		if (month >= 0 && day >= 1 && day <= 31) out.push({ month, day, index: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
	}
	return out;
}

export function stripDates(text: string): string {
	return text
		.replace(/\b(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b,?/gi, ' ')
		.replace(/\s{2,}/g, ' ')
		.trim();
}

/** Rewrites a sentence spoken by `speaker` in the third person, with `listener` for "you". */
export function toThirdPerson(text: string, speaker: string, listener: string): string {
	return text
		.replace(/\bI'm\b/g, `${speaker} is`)
		.replace(/\bI am\b/g, `${speaker} is`)
		.replace(/\bI've\b/g, `${speaker} has`)
		.replace(/\bI have\b/g, `${speaker} has`)
		.replace(/\bI'll\b/g, `${speaker} will`)
		.replace(/\bI'd\b/g, `${speaker} would`)
		.replace(/\bI\b/g, speaker)
		.replace(/\b[Mm]yself\b/g, speaker)
		.replace(/\b[Mm]y\b/g, `${speaker}'s`)
		.replace(/\b[Mm]ine\b/g, `${speaker}'s`)
		.replace(/\b([Ww]ith|[Tt]o|[Ff]or|[Tt]ell|[Tt]old|[Ii]nvite|[Jj]oin|[Ww]ant|[Ll]et|[Hh]elp|[Ss]ee|[Mm]eet) me\b/g, `$1 ${speaker}`)
		.replace(/\byou're\b/gi, `${listener} is`)
		.replace(/\byou are\b/gi, `${listener} is`)
		.replace(/\b[Yy]our\b/g, `${listener}'s`)
		.replace(/\b[Yy]ou\b/g, listener);
}

/** Rewrites a third-person statement about `person` in the first person ("X is" -> "I am"). */
export function toFirstPerson(text: string, person: string): string {
	const names = nameForms(person).map(escapeRegExp).join('|');
	if (!names) return text;
	let out = text
		.replace(new RegExp(`\\b(?:${names})'s\\b`, 'g'), 'my')
		.replace(new RegExp(`^(?:${names})\\b`, 'g'), 'I')
		.replace(new RegExp(`([.!?]\\s+)(?:${names})\\b`, 'g'), '$1I')
		.replace(new RegExp(`\\b(?:${names})\\b`, 'g'), 'me');
	out = out
		.replace(/\bI is\b/g, 'I am')
		.replace(/\bI has\b/g, 'I have')
		.replace(/\bI was\b/g, 'I was')
		.replace(/\bI does\b/g, 'I do')
		.replace(/\bI (\w{3,}?)(ies)\b/g, (_, a: string) => `I ${a}y`)
		.replace(/\bI (\w{2,}?(?:sh|ch|ss|x|o))es\b/g, 'I $1')
		.replace(/\bI (\w{2,}?[^s'])s\b/g, 'I $1')
		.replace(/(^|[.!?]\s+)(?:She|He)\b/g, '$1I')
		.replace(/\b(?:her|his)\b(?= [a-z])/g, 'my');
	return out.replace(/\bmy\b/, (m, off: number) => (off === 0 ? 'My' : m));
}

/** Full name, then first name, then last name of a person (longest first, to match whole names). */
export function nameForms(name: string): string[] {
	const parts = name.trim().split(/\s+/).filter(Boolean);
	if (!parts.length) return [];
	const forms = [parts.join(' ')];
	if (parts.length > 1) forms.push(parts[0], parts[parts.length - 1]);
	return forms;
}

export function firstName(name: string): string {
	return name.trim().split(/\s+/)[0] ?? name;
}

export function mentions(text: string, name: string): boolean {
	const forms = nameForms(name);
	return forms.some((f) => new RegExp(`\\b${escapeRegExp(f)}\\b`, 'i').test(text));
}
