// Reading an interview answer to a yes/no question ("Did you know about ...?", "Do you know
// <name>?") as affirmative, negative or unclear, and matching topic keywords in text. Pure and
// browser-safe; used by the end-to-end metrics.
//
// The rule, in order (the first sentence is the text up to the first . ! ? or line break):
//   1. An empty answer is unclear.
//   2. The answer opens with a no-word ("No", "Nope", "Not really", "I'm afraid not", ...):
//      negative.
//   3. The answer opens with a yes-word ("Yes", "Yeah", "Of course", "Sure", "Indeed", ...):
//      - more words follow in the same sentence ("Yes, I know him", "Yes, Isabella told me"):
//        affirmative;
//      - the first sentence is the yes-word alone ("Yes.") and the rest of the answer names the
//        topic (a keyword), or nothing follows: affirmative;
//      - the first sentence is the yes-word alone and what follows never names the topic:
//        unclear (the "yes" is not about the topic; the offline stand-in answers this way when
//        the memories it retrieved match other words of the question).
//   4. Otherwise the first sentence denies knowing ("I don't know", "I haven't heard", "I'm not
//      aware", "never met", "no idea", "doesn't ring a bell", ...): negative. Hedges such as
//      "I don't know much about it" are not denials.
//   5. Otherwise the first sentence claims knowing ("I know", "I've heard", "I remember",
//      "I'm aware", "I've met", "I did"): affirmative.
//   6. Otherwise the answer names the topic (states the fact): affirmative.
//   7. Otherwise: unclear.
// A keyword matches at the start of a word, case-insensitively ("valentine" matches
// "Valentine's"); a keyword of several words matches as a phrase.

export type Verdict = 'affirmative' | 'negative' | 'unclear';

export interface Classification {
	verdict: Verdict;
	/** which rule decided, for reports */
	reason: string;
	/** the keywords the answer names */
	mentioned: string[];
}

const YES_OPENING = /^(yes|yeah|yep|yup|sure|of course|indeed|certainly|definitely|absolutely|oh yes|i do|i did)\b/;
const NO_OPENING = /^(no|nope|nah|not really|not at all|not that i know|i'm afraid not|i am afraid not|i do not|i don't|i did not|i didn't)\b(?! know (much|a lot|everything|all|the details|the whole))/;
const DENIALS = [
	/\b(don't|do not|didn't|did not) (know|recall|remember|think so)\b(?! (much|a lot|everything|all|the details|the whole|exactly))/,
	/\b(haven't|have not|hasn't|has not|never) (heard|met|seen|been told|come across|talked)\b/,
	/\b(not|never) (aware|familiar)\b/,
	/\bno idea\b/,
	/\bno recollection\b/,
	/\bdoesn't ring a bell\b/,
	/\bdoes not ring a bell\b/,
	/\bcan't (say|recall|remember)\b/,
	/\bcannot (say|recall|remember)\b/,
	/\bnot sure (who|what|which)\b/,
	/\bnothing about\b/
];
const CLAIMS = /\b(i know|i've heard|i have heard|i heard|i remember|i recall|i'm aware|i am aware|i've met|i have met|i met|i did|i was told|told me)\b/;

function normalise(text: string): string {
	return text
		.toLowerCase()
		.replace(/[\u2018\u2019\u02bc]/g, "'")
		.replace(/[\u201c\u201d]/g, '"')
		.replace(/\s+/g, ' ')
		.trim();
}

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const wordStart = new Map<string, RegExp>();

/** Whether `text` names `keyword` at the start of a word (case-insensitive). */
export function mentions(text: string, keyword: string): boolean {
	const k = normalise(keyword);
	if (!k) return false;
	let re = wordStart.get(k);
	if (!re) {
		re = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(k).replace(/ /g, '\\s+')}`, 'iu');
		if (wordStart.size > 5000) wordStart.clear();
		wordStart.set(k, re);
	}
	return re.test(text);
}

export function mentionsAny(text: string, keywords: readonly string[]): boolean {
	return keywords.some((k) => mentions(text, k));
}

export function mentionsAll(text: string, keywords: readonly string[]): boolean {
	return keywords.length > 0 && keywords.every((k) => mentions(text, k));
}

/** The first sentence: up to the first . ! ? or line break (the mark not included). */
function firstSentence(text: string): { first: string; rest: string } {
	const m = /[.!?\n]/.exec(text);
	if (!m) return { first: text, rest: '' };
	return { first: text.slice(0, m.index), rest: text.slice(m.index + 1) };
}

/** Classifies an answer to a yes/no question about a topic named by `keywords`. */
export function classifyAnswer(answer: string, keywords: readonly string[]): Classification {
	const text = normalise(answer);
	const mentioned = keywords.filter((k) => mentions(text, k));
	const verdict = (v: Verdict, reason: string): Classification => ({ verdict: v, reason, mentioned });
	if (!text) return verdict('unclear', 'empty answer');
	const { first, rest } = firstSentence(text);
	const head = first.replace(/^[\s"'(*_-]+/, '');
	if (NO_OPENING.test(head)) return verdict('negative', 'opens with no');
	const yes = YES_OPENING.exec(head);
	if (yes) {
		const after = head.slice(yes[0].length).replace(/^[\s,;:!-]+/, '').trim();
		if (after) return verdict('affirmative', 'opens with yes');
		if (!rest.trim()) return verdict('affirmative', 'yes alone');
		if (keywords.length === 0 || mentioned.length > 0) return verdict('affirmative', 'yes, then names the topic');
		return verdict('unclear', 'yes, then does not name the topic');
	}
	if (DENIALS.some((re) => re.test(head))) return verdict('negative', 'denies knowing');
	if (CLAIMS.test(head)) return verdict('affirmative', 'claims knowing');
	if (mentioned.length > 0) return verdict('affirmative', 'names the topic');
	return verdict('unclear', 'neither yes nor no, topic not named');
}

/** The forms a person is named by in answers and memories: full name and first name. */
export function personKeywords(p: { name: string; firstName?: string }): string[] {
	const first = p.firstName?.trim() || p.name.trim().split(/\s+/)[0];
	return [...new Set([p.name.trim(), first].filter(Boolean))];
}
