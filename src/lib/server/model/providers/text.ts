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

const MODALS = new Set('can could will would shall should may might must also just really still never always often am was'.split(' '));

/** The third-person form of a base verb: plan -> plans, go -> goes, study -> studies, have -> has. */
export function thirdPerson(verb: string): string {
	const w = verb.toLowerCase();
	if (w === 'have') return 'has';
	if (w === 'be') return 'is';
	if (/[^aeiou]y$/.test(w)) return w.slice(0, -1) + 'ies';
	if (/(?:s|sh|ch|x|z|o)$/.test(w)) return w + 'es';
	return w + 's';
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
		// "I plan to go" -> "Ana plans to go"
		.replace(/\bI (\w+)\b/g, (m, w: string) => (MODALS.has(w.toLowerCase()) || !isVerb(w) || /(?:ed|ing)$/.test(w) ? m : `I ${thirdPerson(w)}`))
		.replace(/\bI\b/g, speaker)
		.replace(/\b[Mm]yself\b/g, speaker)
		.replace(/\b[Mm]y\b/g, `${speaker}'s`)
		.replace(/\b[Mm]ine\b/g, `${speaker}'s`)
		.replace(/\bme\b/g, speaker)
		.replace(/\byou're\b/gi, `${listener} is`)
		.replace(/\byou are\b/gi, `${listener} is`)
		.replace(/\b[Yy]our\b/g, `${listener}'s`)
		.replace(/\b[Yy]ou\b/g, listener);
}

/**
 * The forms of `person` that refer to them alone: the full name, and the first name when it is
 * not the start of someone else's full name ("Ana", but not the "Quill" in "Bo Quill").
 */
function ownNamePattern(person: string): string {
	const parts = person.trim().split(/\s+/).filter(Boolean);
	if (!parts.length) return '';
	const full = escapeRegExp(parts.join(' '));
	if (parts.length === 1) return full;
	return `${full}|${escapeRegExp(parts[0])}(?!\\s+[A-Z])`;
}

/** Rewrites a third-person statement about `person` in the first person ("X is" -> "I am"). */
export function toFirstPerson(text: string, person: string): string {
	const names = ownNamePattern(person);
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
		// "I am planning a party, and she wants to invite ...": the same person.
		.replace(/^(I\b[^.!?]*?,?\s+(?:and|but|so|because)\s+)(?:she|he)\b(\s+\w+)/, (_, a: string, b: string) => `${a}I${b.replace(/^(\s+\w{2,}?[^s'])s$/, '$1')}`)
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

// ---------------------------------------------------------------------------
// Verbs: base forms, -ing forms, and verb phrases turned into activities ("opens the shop"
// -> "opening the shop").

/** Common everyday verbs, in the base form: what a clause may start with. */
export const VERBS = new Set(
	(
		'add answer arrive ask attend bake bathe be begin bike bring browse brush build buy call care carry catch chat check clean clear climb close ' +
		'coach code collect come compose cook count cycle dance decorate deliver design dig discuss do draft draw dress drink drive eat edit email ' +
		'enjoy exercise explore feed file film find finish fish fix garden get give go grab grade greet grocery guide have head help hike host ' +
		'illustrate invite iron jog journal keep knit lead learn lecture leave listen lock look make manage meditate meet mentor mop nap open order ' +
		'organise organize paint pay perform photograph pick plan plant play pour practice practise prepare print program put read rehearse relax ' +
		'repair research rest restock return review revise ride run sculpt see sell serve set sew shop shower sing sit sketch sleep sort spend ' +
		'stand start stock stop stream stretch stroll study sweep swim take talk teach tend test text think tidy train tutor type unlock vacuum ' +
		'visit volunteer wait wake walk wash watch water weed welcome wipe work write complete continue celebrate brew mix update use try wear mark shoot lift skate want need hope think know like love feel wish'
	).split(' ')
);

const ING_IRREGULAR: Record<string, string> = { be: 'being', see: 'seeing', die: 'dying', lie: 'lying', tie: 'tying', begin: 'beginning', forget: 'forgetting', prefer: 'preferring', admit: 'admitting', control: 'controlling', panic: 'panicking', picnic: 'picnicking' };

/** The -ing form of a verb in the base form: write -> writing, run -> running, study -> studying. */
export function ingForm(verb: string): string {
	const w = verb.toLowerCase();
	if (ING_IRREGULAR[w]) return ING_IRREGULAR[w];
	if (w.length > 4 && w.endsWith('ing')) return w;
	if (w.endsWith('ie')) return w.slice(0, -2) + 'ying';
	if (/(?:ee|oe|ye)$/.test(w)) return w + 'ing';
	if (w.length > 2 && w.endsWith('e')) return w.slice(0, -1) + 'ing';
	// One syllable ending consonant-vowel-consonant doubles: run, sit, shop, jog, plan, chat.
	if (/^[^aeiouy]*[aeiouy][^aeiouywx]$/.test(w) && w.length <= 4) return w + w[w.length - 1] + 'ing';
	return w + 'ing';
}

/** The base form of a verb in the third person ("opens" -> "open", "studies" -> "study"). */
export function baseVerb(word: string): string {
	const w = word.toLowerCase();
	const irregular: Record<string, string> = { has: 'have', does: 'do', goes: 'go', is: 'be', are: 'be' };
	if (irregular[w]) return irregular[w];
	if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
	if (/(?:sh|ch|ss|x|z)es$/.test(w)) return w.slice(0, -2);
	if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
	return w;
}

/** Whether `word` is a known verb in the base, third-person or -ing form. */
export function isVerb(word: string): boolean {
	const w = word.toLowerCase();
	if (VERBS.has(w) || VERBS.has(baseVerb(w))) return true;
	if (w.length > 4 && w.endsWith('ing')) {
		const stemmed = w.slice(0, -3);
		return VERBS.has(stemmed) || VERBS.has(stemmed + 'e') || VERBS.has(stemmed.slice(0, -1)) || (stemmed.endsWith('y') && VERBS.has(stemmed.slice(0, -1) + 'ie'));
	}
	return false;
}

/** The -ing form of a verb given in any form: "opens", "open", "opening" -> "opening". */
export function toIng(word: string): string {
	const w = word.toLowerCase();
	if (w.length > 4 && w.endsWith('ing') && isVerb(w)) return w;
	const base = VERBS.has(w) ? w : baseVerb(w);
	return ingForm(base);
}

/**
 * A verb phrase as an activity in the -ing form: "opens the shop and works the counter" ->
 * "opening the shop and working the counter"; "to read" -> "reading". The first word is taken
 * to be a verb; later words only when they are known verbs right after "and", "or" or "then".
 */
export function gerundPhrase(phrase: string): string {
	const text = phrase.trim().replace(/^to\s+/i, '');
	if (!text) return text;
	const tokens = text.split(/\s+/);
	tokens[0] = /^[A-Z]/.test(tokens[0]) && tokens[0] !== tokens[0].toUpperCase() && !isVerb(tokens[0]) ? tokens[0] : toIng(tokens[0]);
	for (let i = 1; i < tokens.length; i++) {
		const prev = tokens[i - 1].toLowerCase().replace(/,$/, '');
		if ((prev === 'and' || prev === 'or' || prev === 'then') && /^[a-z]/.test(tokens[i]) && isVerb(tokens[i])) {
			// "bread and butter" stays; "write and illustrate" becomes "writing and illustrating".
			tokens[i] = toIng(tokens[i]);
		}
	}
	return tokens.join(' ');
}
