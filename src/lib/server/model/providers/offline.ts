// The offline stand-in: the default provider when no language model is configured. It is not
// a language model and must never be presented as one. It answers every template from the
// call's structured variables with simple, deterministic rules (keyword lexicons, times and
// dates parsed from the persona's own text, retrieval order of memories), so the whole pipeline
// (planning, moving, reacting, talking, remembering, reflecting) runs for real, offline and
// for free. Its answers are JSON text that the gateway parses and validates like any model's.
//
// It knows no agent, place or scenario: everything specific comes from the variables. Any
// variation is derived from a hash of the inputs, never from a random source.

import type { TemplateVars } from '../../../engine/model';
import { fnv1a32 } from '../../../prompts/hash';
import { hashEmbed, OFFLINE_DIMENSIONS, cosine } from './embed';
import {
	baseVerb,
	capitalise,
	clock12,
	clock24,
	contentWords,
	dateMentions,
	escapeRegExp,
	firstName,
	gerundPhrase,
	isVerb,
	mentions,
	nameForms,
	pick,
	sentences,
	stripDates,
	stripTimes,
	timeAfter,
	timeMentions,
	timeRange,
	toThirdPerson,
	truncate,
	VERBS,
	words
} from './text';
import type { ChatRequest, ChatResult, ModelProvider } from './types';

export const OFFLINE_LABEL = 'offline stand-in, not a language model';

export class OfflineProvider implements ModelProvider {
	readonly name = 'offline';
	readonly model = 'offline-standin-1';
	readonly embedModel = 'offline-hash-256';
	readonly dimensions = OFFLINE_DIMENSIONS;
	readonly label = OFFLINE_LABEL;

	async chat(req: ChatRequest): Promise<ChatResult> {
		const text = JSON.stringify(offlineAnswer(req.template, req.vars));
		// Rough counts (4 characters a token) so traces and cost views have numbers to show.
		const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
		return { text, tokens: { prompt: Math.ceil(promptChars / 4), completion: Math.ceil(text.length / 4) } };
	}

	async embed(texts: string[]): Promise<Float32Array[]> {
		return texts.map((t) => hashEmbed(t));
	}
}

// ---------------------------------------------------------------------------
// Variables

function str(vars: TemplateVars, key: string): string {
	const v = vars[key];
	return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function list(vars: TemplateVars, key: string): string[] {
	const v = vars[key];
	return Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : [];
}

function int(vars: TemplateVars, key: string, fallback: number): number {
	const v = vars[key];
	return typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : fallback;
}

/** Answers one template from its variables. Throws for an unknown template id. */
export function offlineAnswer(template: string, vars: TemplateVars): Record<string, unknown> {
	switch (template) {
		case 'importance':
			return { ratings: list(vars, 'memories').map((m) => importanceOf(m)) };
		case 'agent_summary':
			return { summary: agentSummary(vars) };
		case 'daily_plan':
			return dailyPlan(vars);
		case 'hourly_schedule':
			return { blocks: hourlySchedule(vars) };
		case 'decompose_task':
			return { subtasks: decompose(str(vars, 'activity'), int(vars, 'minutes', 60), str(vars, 'start'), { previous: str(vars, 'previous'), next: str(vars, 'next') }) };
		case 'choose_sector':
		case 'choose_arena':
		case 'choose_object':
			return { choice: choose(template, vars) };
		case 'action_emoji':
			return { emoji: emojiFor(str(vars, 'activity')) };
		case 'object_state':
			return { state: objectState(str(vars, 'activity'), str(vars, 'object')) };
		case 'react':
			return react(vars);
		case 'context_summary':
			return { summary: contextSummary(vars) };
		case 'dialogue_turn':
			return dialogueTurn(vars);
		case 'conversation_memo':
			return conversationMemo(vars);
		case 'reflection_questions':
			return { questions: reflectionQuestions(vars) };
		case 'reflection_insights':
			return { insights: reflectionInsights(vars) };
		case 'interview':
			return { answer: interview(vars) };
		case 'inner_voice':
			return { thought: innerVoice(str(vars, 'directive')) };
		case 'day_summary':
			return { summary: daySummary(vars) };
		case 'next_action':
			return nextMoment(vars);
		case 'replan':
			return { blocks: replan(vars) };
		default:
			throw new Error(`the offline stand-in has no rule for template "${template}"`);
	}
}

// ---------------------------------------------------------------------------
// Importance: the paper's 1..10 poignancy scale. Routine (eating, sleeping, walking, someone
// else chatting, objects in use) is 1-2; work and study 3; relationships and conversation
// facts 5; news, plans and feelings 6-7; big life events (a party invitation, an election, a
// crush, a break-up) 8-10.

const IMPORTANCE: [number, RegExp][] = [
	[9, /\b(died|dies|dead|death|funeral|passed away|killed|broke up|break(?:ing)? up|breakup|divorc\w*|pregnant|engaged|proposal|proposed|wedding|got married|getting married|accepted (?:in)?to|acceptance letter|admitted to|emergency|hospital\w*|accident|on fire|burning|lost (?:his|her|their|my) job|got fired|was fired|arrested)\b/i],
	[8, /\b(crush|in love|kiss\w*|ask(?:ed|s|ing)? \w+ out|date with|on a date|election|mayor\w*|candidacy|candidate|campaign\w*|running for|run for|votes?|voting|party|parties|valentine\w*|birthday|anniversary|festival|invit\w*|promot\w*|new job|got hired|secret|confess\w*|argument|fight|quarrel\w*|heartbr\w*)\b/i],
	[7, /\b(exams?|deadline|competition|contest|performance|concert|exhibition|publish\w*|grant|award|prize|debate|rally|announc\w*|worried|upset|angry|scared|afraid|lonely|jealous|cried|crying|nervous|sale)\b/i],
	[6, /\b(plans? to|planning|planned|decided|decision|idea|goal|dream|hopes?|excited|proud|happy|sad|good news|bad news|big news|first time|new friend|courage|supper|gathering|get-together|potluck|celebrat\w*)\b/i],
	[5, /\b(married to|husband|wife|son|daughter|parents?|brother|sister|family|friends?|neighbou?rs?|housemates?|roommates?|lives with|shares?|met|meets?|helps?|said|says|told|tells|asked|talked about|learn\w*|mentor\w*|debat\w*|swap\w*|loves?|likes? to|enjoys?)\b/i],
	[3, /\b(work\w*|stud(?:y|ies|ying)|class(?:es)?|lectures?|lecturing|teach\w*|research\w*|writ(?:e|es|ing)|paint\w*|draw(?:s|ing)?|sketch\w*|compos\w*|practi[cs]\w*|rehears\w*|serv(?:e|es|ing)|customers?|counter|orders?|open(?:s|ing)|prepar\w*|cod(?:e|es|ing)|edit\w*|grad(?:e|es|ing)|shop(?:s|ping)?|buy\w*|cook\w*|bak(?:e|es|ing)|garden\w*|errands?|illustrat\w*|animat\w*|photo\w*|restock\w*|stream\w*|rehears\w*|perform\w*|campus|college|thesis|novel|research paper|book of|collection of|project)\b/i],
	[2, /\b(eat\w*|breakfast|lunch|dinner|meal|snack|coffee|espresso|tea|drink\w*|read(?:s|ing)?|walk\w*|run(?:s|ning)?|jog\w*|stretch\w*|shower\w*|brush\w*|teeth|bed|clean\w*|tidy\w*|wash\w*|dress\w*|commut\w*|wait\w*|sit(?:s|ting)?|stand\w*|routine|relax\w*|rest(?:s|ing)?|getting ready|get ready|waking|wakes? up|in use|being used|occupied|music|tv|television|dishes|news|small talk)\b/i],
	[1, /\b(idle|sleep\w*|asleep|nap\w*|nothing|is off|is calm|is empty|is closed|is quiet|is unlit)\b/i]
];

const NAME = "[A-Z][\\w'’.-]*(?:\\s+[A-Z][\\w'’.-]*)*";
/** "X is chatting with Y" as a third party sees it. */
const CHATTING = new RegExp(`^(${NAME}) is (?:chatting|talking|having a conversation|in a conversation) with (${NAME})\\.?$`);
/** The bookkeeping line of a conversation memory: "X talked with Y." */
const BOOKKEEPING = /^[^.]*\b(?:talked|chatted|had a conversation) with\b[^.]*\.?$/i;
/** A schedule item: "X's plan: eating at 7:30 am on ...", "X plans to be eating at ...". */
const PLAN_ITEM = /^[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*?(?:['’]s (?:new )?plan:| (?:now )?plans (?:to be )?)\s*(.+?) (?:from|at) \d{1,2}:\d\d\s*[ap]m\b/;
/** The day's agenda: "X's plan for Monday ...: wake up at ...; ...". */
const DAY_PLAN = /^[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*?['’]s plan for [^:]*:\s*(.*)$/;
/** What a reflection wraps around a fact ("X keeps thinking about the news that ..."). */
const WRAPPERS: RegExp[] = [
	new RegExp(`^(?:${NAME}) (?:plans to go(?: to [^:]*)?|should remember|wants to remember|should keep in mind|is looking forward to [^:]*):\\s*`),
	new RegExp(`^(?:${NAME}) (?:knows|has heard|heard|learned|has learned|remembers|keeps thinking about the news|keep thinking about the news|kept thinking about the news) that\\s+`),
	new RegExp(`^(?:${NAME}) has been (?:occupied|busy|thinking about) (?:with )?this:\\s*`),
	/^(?:did you hear\?|have you heard\?|by the way,?|oh,?|so,?|well,?|anyway,?|guess what\?)\s*/i
];
/** Reflections about the agent's own days: nothing to tell anyone. */
const SELF_REFLECTION = new RegExp(`^(?:${NAME}) (?:has been seeing a lot of|cares a lot about|is interested in)\\b|\\bis a big part of .*'s days\\b|\\bplays a recurring part\\b`);

function lexiconRating(text: string, strong: Set<string>, unknown = 3): number {
	let best = 0;
	for (const [weight, re] of IMPORTANCE) {
		const m = text.match(re);
		if (!m) continue;
		if (weight >= 8) for (const hit of text.matchAll(new RegExp(re.source, 'gi'))) strong.add(hit[1].toLowerCase().replace(/s$/, '').slice(0, 6));
		best = Math.max(best, weight);
	}
	if (best === 0) return unknown;
	// "the bed is idle", "X is sleeping in bed": nothing is happening at all.
	if (best <= 2 && IMPORTANCE[IMPORTANCE.length - 1][1].test(text)) return 1;
	return best;
}

/** "the kettle is boiling": an object's state as someone sees it. */
const OBJECT_EVENT = /^(?:the\s+)?[a-z][\w'’ -]* (?:is|are) (.+)$/;
const RESTING_STATE = /^(?:idle|off|unlit|calm|closed|empty|quiet|still|dark|clean|made|tidy|unused|locked|open|in use|occupied|being (?:used|browsed|opened|slept in))\b/i;
/** "Ana Quill is watering the plants": someone seen doing something now. */
const DOING = new RegExp(`^(?:${NAME}) is ([a-z]+ing\\b.*)$`);
const DATED = /\b(?:today|tomorrow|tonight|upcoming|next|will|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|\d{1,2}(?::\d\d)?\s*[ap]m)\b/i;

function sentenceRating(sentence: string, strong: Set<string>): number {
	const s = sentence.trim().replace(/[.!]+$/, '');
	// Someone else's chat, or one's own partner seen chatting: the conversation itself is remembered apart.
	if (CHATTING.test(s)) return 2;
	const planned = s.match(PLAN_ITEM) ?? s.match(DAY_PLAN);
	if (planned) return Math.min(lexiconRating(planned[1], strong, 2), 9);
	const thing = s.match(OBJECT_EVENT);
	if (thing) return RESTING_STATE.test(thing[1]) ? 1 : Math.max(2, Math.min(lexiconRating(thing[1], strong, 2), HAZARD.test(thing[1]) ? 9 : 2));
	const doing = s.match(DOING);
	// What someone is doing right now: routine unless it says otherwise.
	if (doing && !DATED.test(s)) return lexiconRating(doing[1], strong, 2);
	return lexiconRating(s, strong);
}

/** 1..10 for one memory. */
export function importanceOf(text: string): number {
	const all = sentences(text);
	const parts = all.filter((s) => !BOOKKEEPING.test(s));
	if (!parts.length) return all.length ? 2 : 3;
	const strong = new Set<string>();
	let best = 0;
	for (const s of parts) best = Math.max(best, sentenceRating(s, strong));
	// Two distinct big things at once ("invited to a party", "a date on a birthday").
	return Math.min(10, best + (best >= 8 && strong.size > 1 ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Sentences worth passing on

/** A memory sentence as something one could tell: retelling prefixes and lead-ins removed. */
function relay(sentence: string): string {
	let s = sentence.trim();
	for (let changed = true; changed; ) {
		changed = false;
		for (const re of WRAPPERS) {
			const next = s.replace(re, '');
			if (next !== s) {
				s = next.trim();
				changed = true;
			}
		}
	}
	return s.replace(/^./, (c) => c.toUpperCase());
}

/** Things one keeps to oneself, and does not pass on for others. */
const PRIVATE = /\b(secret\w*|crush|in love|confess\w*|courage to|feelings for)\b/i;

/** The informative sentences of a memory (greetings, bookkeeping, schedule items and reflections on oneself dropped). */
function informative(memory: string, min = 6): string[] {
	return sentences(memory)
		// Agenda items ("have breakfast at 7:30 am") have no subject of their own.
		.filter((s) => !/^[a-z]/.test(s.trim()))
		.map(relay)
		.filter((s) => !BOOKKEEPING.test(s) && !PLAN_ITEM.test(s) && !DAY_PLAN.test(s) && !CHATTING.test(s) && !SELF_REFLECTION.test(s) && importanceOf(s) >= min && contentWords(s).length >= 3);
}

/** The text without capitalised words after the first: keeps "bakery" rules off names like "Sunny Bakery". */
function commonWords(text: string): string {
	// "TV" is a word, "Sunny" a name.
	return text.replace(/(?<=\S\s+)[A-Z][a-z'’-][\w'’-]*/g, ' ');
}

function startsWithName(sentence: string, name: string): boolean {
	return nameForms(name).some((f) => new RegExp(`^${escapeRegExp(f)}\\b`, 'i').test(sentence.trim()));
}

function endSentence(s: string): string {
	const t = s.trim();
	return /[.!?]$/.test(t) ? t : t + '.';
}

function unique<T>(items: T[]): T[] {
	return items.filter((x, i) => items.indexOf(x) === i);
}

// ---------------------------------------------------------------------------
// Summaries

function agentSummary(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const age = int(vars, 'age', 0);
	const parts = [`${name}${age > 0 ? ` is ${age} years old` : ''}${str(vars, 'innate') ? ` and is ${str(vars, 'innate')}` : ''}.`];
	for (const key of ['learned', 'currently', 'lifestyle']) {
		let text = str(vars, key).trim();
		if (!text) continue;
		// "goes to bed around 11pm" has no subject of its own.
		if (/^[a-z]/.test(text)) text = `${firstName(name)} ${text}`;
		parts.push(endSentence(text));
	}
	const persona = parts.join(' ').toLowerCase();
	const recent = unique(list(vars, 'memories').flatMap((m) => informative(m)))
		.filter((s) => !persona.includes(s.toLowerCase().replace(/[.!?]$/, '')))
		.slice(0, 2);
	if (recent.length) parts.push(`Lately: ${recent.map(endSentence).join(' ')}`);
	const feeling = pick(
		['feels good about how things are going', 'feels things are moving in the right direction', 'is eager to make progress on current plans'],
		name + str(vars, 'currently')
	);
	parts.push(`${firstName(name)} ${feeling}.`);
	return truncate(parts.join(' '), 1500);
}

/** "X talked with Y about the party at the cafe": a topic already discussed. */
const TALKED_ABOUT = /\btalked with\b[^.]*?\babout (.+?)\.?$/;

function contextSummary(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const other = str(vars, 'other');
	const about = unique(
		list(vars, 'memories')
			.flatMap((m) => sentences(m))
			.filter((s) => mentions(s, other) && !CHATTING.test(s) && !PLAN_ITEM.test(s))
	);
	if (!about.length) return `${name} does not know ${other} yet.`;
	// What was already talked about first (so it is not told again), then the facts by importance.
	const ranked = about
		.map((s, i) => ({ s, i, r: TALKED_ABOUT.test(s) ? 11 : importanceOf(s) }))
		.sort((a, b) => b.r - a.r || a.i - b.i)
		.slice(0, 4)
		.map((x) => endSentence(x.s));
	return truncate(`${name} knows ${other}. ${ranked.join(' ')}`, 800);
}

function daySummary(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const date = str(vars, 'date');
	const memories = list(vars, 'memories');
	if (!memories.length) return `On ${date}, ${name} went about the usual routine.`;
	const ranked = memories
		.map((m, i) => ({ m, i, score: importanceOf(m) }))
		.sort((a, b) => b.score - a.score || a.i - b.i)
		.slice(0, 5)
		.sort((a, b) => a.i - b.i)
		.map((x) => endSentence(x.m));
	return truncate(`What ${name} remembers of ${date}: ${ranked.join(' ')}`, 1200);
}

// ---------------------------------------------------------------------------
// Planning: the persona's routine sentences become timed activities. The agenda is written in
// the base form ("open the shop at 8:00 am"), the schedule and its steps as activities in the
// -ing form ("opening the shop"), because the engine shows "<name> is <activity>".

const WAKE_WORDS = /\b(?:wakes?|waking|woke|gets? up|getting up|rises?)\b(?: up)?/;
const SLEEP_WORDS = /\b(?:goes to (?:bed|sleep)|go to (?:bed|sleep)|going to (?:bed|sleep)|bed|sleeps?|asleep)\b/;
const DINNER_WORDS = /\b(?:eats?|has|have|having|cooks?) dinner\b/;
const PLACE_NAME = "(?:[Tt]he\\s+)?[A-Z][\\w'’-]*(?:\\s+(?:[A-Z][\\w'’-]*|of|and|the|de|la))*";

const OCCUPATIONS: [RegExp, string][] = [
	[/\bstudent\b/i, 'attend classes and study'],
	[/\b(professor|teacher|lecturer|instructor)\b/i, 'teach classes'],
	[/\b(writer|author|poet|journalist|novelist)\b/i, 'write'],
	[/\b(artist|painter|illustrator)\b/i, 'work on art projects'],
	[/\b(photographer)\b/i, 'take photos'],
	[/\b(musician|composer|singer)\b/i, 'practise music'],
	[/\b(retired|retiree)\b/i, 'take care of the house and errands'],
	[/\b(owner|owns|shopkeeper|clerk|cashier|barista|bartender|pharmacist|cook|chef|baker|nurse|doctor|mechanic|worker|manager|assistant|lawyer|engineer|accountant)\b/i, 'work']
];

interface Slot {
	/** base-form verb phrase: "open the Corner Cafe" */
	activity: string;
	start: number;
	end: number;
}

interface Routine {
	wake: number;
	sleep: number;
	dinner?: number;
	slots: Slot[];
}

type Part = 'early' | 'morning' | 'lunch' | 'afternoon' | 'evening' | 'day' | 'after';

const PARTS: [RegExp, Part][] = [
	[/\b(?:early(?: in the morning)?|first thing(?: in the morning)?|before breakfast)\b/i, 'early'],
	[/\b(?:at lunch(?:time)?|over lunch|during lunch|at noon|at midday)\b/i, 'lunch'],
	[/\b(?:in the (?:late )?mornings?|every morning|each morning|mornings)\b/i, 'morning'],
	[/\b(?:in the (?:late )?afternoons?|every afternoon|each afternoon|afternoons)\b/i, 'afternoon'],
	[/\b(?:in the evenings?|every evening|each evening|evenings|at night|every night|after dinner)\b/i, 'evening'],
	[/\b(?:for most of the day|most of the day|all day|during the day|the whole day|the day)\b/i, 'day'],
	[/\b(?:afterwards|afterward|after that|after work)\b/i, 'after']
];

const HABITUAL = /\b(?:every\s*day|everyday|each day|daily|on weekdays|usually|always|often|normally|typically|also)\b/gi;

function stripSubject(clause: string, name: string): string {
	let c = clause.trim();
	for (const form of nameForms(name)) c = c.replace(new RegExp(`^${escapeRegExp(form)}\\b\\s*`, 'i'), '');
	return c.replace(/^(?:he|she|they|then|and|so)\s+/i, '').replace(/^(?:usually|always|often|normally|also|typically|then)\s+/i, '');
}

function roundTo(minutes: number, step: number): number {
	return Math.round(minutes / step) * step;
}

/** Sentences about the agent itself (not "Lately: someone else ..."). */
function ownSentences(text: string, name: string): string[] {
	return sentences(text.replace(/\bLately:\s*/g, '')).filter((s) => startsWithName(s, name) || /^(?:he|she|they)\b/i.test(s) || /^[a-z]/.test(s));
}

/** Splits a routine sentence into clauses at a joiner that is followed by a verb. */
function splitClauses(sentence: string): { text: string; joiner: string }[] {
	const tokens = sentence.split(/(\s*,\s*then\s+|\s+then\s+|\s*,\s*and\s+|\s+and\s+|\s*,\s*or\s+|\s+or\s+|\s*,\s*)/i);
	const out: { text: string; joiner: string }[] = [{ text: tokens[0] ?? '', joiner: '' }];
	for (let i = 1; i + 1 < tokens.length; i += 2) {
		const sep = tokens[i];
		const next = tokens[i + 1];
		const first = next.trim().split(/\s+/)[0] ?? '';
		const joiner = /then/i.test(sep) ? 'then' : /\bor\b/i.test(sep) ? 'or' : 'and';
		if (/^[a-z]/.test(first) && isVerb(first) && !/ing$/.test(first)) out.push({ text: next, joiner });
		else out[out.length - 1].text += sep + next;
	}
	return out.map((c) => ({ ...c, text: c.text.trim() })).filter((c) => c.text);
}

interface Clause {
	activity: string;
	joiner: string;
	start?: number;
	end?: number;
	until?: number;
	part?: Part;
	occasional: boolean;
	place?: string;
	/** the clause opens or runs its place ("opens the cafe") */
	opened?: boolean;
}

/** The verb phrase of a clause in the base form, with known paraphrases applied. */
function clauseActivity(text: string, previous: { place?: string; object?: string; opened?: boolean }): { activity: string; place?: string; opened: boolean } {
	let c = text.replace(/\s+/g, ' ').trim();
	// Every verb in the base form: "writes and illustrates" -> "write and illustrate".
	c = c
		.split(' ')
		.map((w, i, all) => (i === 0 || /^(?:and|or|then)$/i.test(all[i - 1])) && /^[a-z]/.test(w) && isVerb(w) && !/ing$/.test(w) ? baseVerb(w) : w)
		.join(' ');
	c = c
		.replace(/\s*,?\s*with a (?:short )?break for (?:lunch|dinner)\b/i, '')
		.replace(/\s*,?\s*\b(?:when|whenever|if|once) (?:he|she|they|it) [^,.;]*$/i, '')
		.replace(/^go to (class|classes|lectures?|school)\b/i, 'attend $1')
		.replace(/^go to work\b/i, 'work')
		.replace(/\bthere\b/, previous.place ? `at ${previous.place}` : 'there')
		.replace(/\b(them|it)$/, previous.object ?? '$1')
		.replace(/\b(them|it)(?= (?:in|at|on|for|with|around)\b)/, previous.object ?? '$1')
		.replace(new RegExp(`^(?:walk|go|head|drive|bike|cycle|stroll) (?:over )?to (${PLACE_NAME}) to (\\w+)(.*)$`), (_, place: string, v: string, tail: string) => `${v}${tail} at ${place}`)
		.replace(/\s+\b(?:from|until|till|at|around|by|starting|with)\s*$/i, '')
		.replace(/[.;:,\s]+$/, '');
	const opened = /^(?:open|run|manage|own|operate)\b/.test(c);
	// "opens the cafe at 8am and works the counter until 8pm": the counter is the cafe's.
	if (previous.opened && previous.place && !/\b(?:at|in) (?:home|(?:the )?[A-Z])/.test(c)) c = `${c} at ${previous.place}`;
	const place = c.match(new RegExp(`\\b(?:at|in|opens?|open|runs?|run|to) (${PLACE_NAME})`))?.[1];
	return { activity: c, place: place && /^[A-Z]|^[Tt]he [A-Z]/.test(place) ? place : undefined, opened };
}

/** "spends the day in classes and in the library working on her thesis" -> activities. */
function spendClause(text: string): string[] | undefined {
	const m = text.match(/^spends? (?:his|her|their|the|my|most of the|most of (?:his|her|their)) (?:\w+ )?(?:day|days|mornings?|afternoons?|evenings?|time)\s+(.*)$/i);
	if (!m) return undefined;
	const parts = m[1].split(/\s+and\s+(?=in |at |on |[a-z]+ing\b)/i);
	const out: string[] = [];
	for (const part of parts) {
		const p = part.trim().replace(/[.,;\s]+$/, '');
		const g = p.match(/^([a-z]+ing\b.*)$/);
		if (g) {
			out.push(g[1]);
			continue;
		}
		const placed = p.match(/^((?:in|at|on) .+?)\s+([a-z]+ing\b.*)$/);
		if (placed) {
			out.push(`${placed[2]} ${placed[1]}`);
			continue;
		}
		const noun = p.match(/^(?:in|at) (class|classes|lectures?|seminars?)$/i);
		if (noun) out.push(`attend ${noun[1]}`);
		else if (/^(?:in|at) /i.test(p)) out.push(`spend time ${p}`);
	}
	return out.length ? out : undefined;
}

/** Time windows for parts of the day, from the agent's waking and sleeping times. */
function partWindow(part: Part, wake: number, sleep: number, previousEnd: number | undefined): [number, number] {
	const dayStart = Math.min(10 * 60, Math.max(8 * 60, roundTo(wake + 120, 30)));
	switch (part) {
		case 'early':
			return [wake + 30, wake + 90];
		case 'morning':
			return [dayStart, 12 * 60];
		case 'lunch':
			return [12 * 60, 13 * 60];
		case 'afternoon':
			return [13 * 60, 17 * 60];
		case 'evening':
			return [19 * 60, Math.max(20 * 60, Math.min(sleep - 60, 22 * 60))];
		case 'day':
			return [previousEnd ?? dayStart, 17 * 60];
		case 'after': {
			const from = previousEnd ?? 15 * 60;
			return [from, from + 120];
		}
	}
}

function parseClause(text: string, joiner: string, name: string, previous: { place?: string; object?: string; opened?: boolean }): Clause[] {
	let c = stripSubject(text, name);
	const occasional = /\b(?:when|whenever|if|once) (?:he|she|they|it|the|[a-z]+s)\b/i.test(c) || /\b(?:sometimes|occasionally|now and then)\b/i.test(c);
	const range = timeRange(c);
	const times = timeMentions(c);
	const until = timeAfter(c, /\b(?:until|till)\b/, 12) ?? (/\buntil lunch\b/i.test(c) ? 12 * 60 : /\buntil (?:the )?evening\b/i.test(c) ? 17 * 60 : /\buntil late\b/i.test(c) ? 22 * 60 : undefined);
	let part: Part | undefined;
	for (const [re, p] of PARTS) {
		if (re.test(c)) {
			part = p;
			break;
		}
	}
	c = stripDates(stripTimes(c))
		.replace(HABITUAL, ' ')
		.replace(/\b(?:until|till) (?:lunch|the evening|evening|late|noon)\b/gi, ' ')
		.replace(/\b(?:sometimes|occasionally|now and then)\b/gi, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	const base = { joiner, occasional, part, start: range?.start ?? (times.length && times[0].minutes !== until ? times[0].minutes : undefined), end: range?.end, until };
	// "spends the day in classes ...": read before the part of the day is cut out.
	const spent = spendClause(c);
	if (spent) return spent.map((a, i) => ({ ...base, activity: a, joiner: i === 0 ? joiner : 'or', opened: false }));
	for (const [re] of PARTS) c = c.replace(new RegExp(re.source, 'gi'), ' ');
	c = c.replace(/\s+/g, ' ').trim();
	const { activity, place, opened } = clauseActivity(c, previous);
	if (!activity || !contentWords(activity).length) return [];
	return [{ ...base, activity, place, opened }];
}

/** Timed work slots from the routine sentences (the requirement first). */
function routineSlots(name: string, texts: string[], wake: number, sleep: number, date: string): Slot[] {
	const clauses: Clause[] = [];
	for (const sentence of texts) {
		if (WAKE_WORDS.test(sentence) && SLEEP_WORDS.test(sentence)) continue;
		const previous: { place?: string; object?: string; opened?: boolean } = {};
		let parts = splitClauses(stripSubject(sentence.replace(/[.!]+$/, ''), name));
		// "writes and illustrates at home": a bare verb shares the next clause.
		parts = parts.reduce<{ text: string; joiner: string }[]>((acc, p) => {
			const prev = acc[acc.length - 1];
			if (prev && prev.text.split(/\s+/).length === 1 && p.joiner === 'and') prev.text = `${prev.text} and ${p.text}`;
			else acc.push({ ...p });
			return acc;
		}, []);
		for (const p of parts) {
			for (const clause of parseClause(p.text, p.joiner, name, previous)) {
				if (/^(?:be|have|go|get)\b/.test(clause.activity) && !/^(?:have|go|get) (?:an?|some|the|for|to|out)\b/.test(clause.activity)) continue;
				if (clause.place) previous.place = clause.place;
				previous.opened = clause.opened;
				const object = objectOf(clause.activity);
				if (object && !/^(?:it|them)$/.test(object)) previous.object = object;
				clauses.push(clause);
			}
		}
	}
	// Clauses without a time take the time of the clause they are joined to ("classes or reading in the morning").
	for (let i = clauses.length - 2; i >= 0; i--) {
		const c = clauses[i];
		const n = clauses[i + 1];
		if (c.start === undefined && c.part === undefined && c.until === undefined && (n.joiner === 'or' || n.joiner === 'and') && (n.part || n.start !== undefined)) {
			c.part = n.part;
			c.start = n.start;
			c.end = n.end;
			c.until = n.until;
			n.joiner = 'or';
		}
	}
	const slots: Slot[] = [];
	let previousEnd: number | undefined;
	for (let i = 0; i < clauses.length; i++) {
		const c = clauses[i];
		if (c.occasional && fnv1a32(`${name}|${date}|${c.activity}`) % 2 === 1) continue;
		let start: number;
		let end: number;
		if (c.start !== undefined) {
			start = c.start;
			end = c.end ?? c.until ?? start + 60;
		} else if (c.part) {
			[start, end] = partWindow(c.part, wake, sleep, previousEnd);
			if (c.until !== undefined) end = c.until;
			if (c.part === 'morning' && /\b(walk|run|jog|swim|stroll|coffee|espresso|tea)\b/i.test(c.activity)) end = start + 60;
		} else if (c.until !== undefined) {
			start = previousEnd ?? partWindow('morning', wake, sleep, undefined)[0];
			end = c.until;
		} else if (c.occasional) {
			start = 16 * 60;
			end = 17 * 60;
		} else if (previousEnd !== undefined) {
			start = previousEnd;
			end = Math.max(start + 120, 17 * 60);
		} else {
			[start, end] = partWindow('day', wake, sleep, undefined);
		}
		if (end <= start) end = start < 20 * 60 ? Math.max(start + 60, end + 12 * 60) : 24 * 60;
		end = Math.min(end, 24 * 60);
		// Alternatives in one window share it, one after the other, and the place said once.
		const group = [c];
		while (i + 1 < clauses.length && clauses[i + 1].joiner === 'or' && clauses[i + 1].start === c.start && clauses[i + 1].part === c.part) group.push(clauses[++i]);
		const shared = group.map((g) => ` ${g.activity}`.match(PLACE_TAIL)?.[1]).find((p) => p !== undefined);
		const share = Math.max(30, roundTo((end - start) / group.length, 30));
		group.forEach((g, k) => {
			const from = start + k * share;
			const to = k === group.length - 1 ? end : Math.min(end, from + share);
			// "reads or edits at home": the place said last is both's, unless one has a place of its own kind (classes).
			const own = PLACE_TAIL.test(` ${g.activity}`) || /\b(?:at|in) (?:the )?[A-Z]/.test(g.activity) || /\b(class(?:es)?|lectures?|school|work)\b/.test(g.activity);
			const activity = shared && !own ? `${g.activity} ${shared}` : g.activity;
			if (to > from) slots.push({ activity, start: from, end: to });
		});
		previousEnd = end;
	}
	return slots.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
}

function routineOf(name: string, summary: string, requirement: string, date: string): Routine {
	const text = `${requirement}. ${summary}`;
	let wake = timeAfter(text, WAKE_WORDS);
	let sleep = timeAfter(text, SLEEP_WORDS);
	if (wake === undefined || wake < 3 * 60 || wake > 12 * 60) wake = 7 * 60;
	if (sleep === undefined) sleep = wake <= 6 * 60 ? 22 * 60 : 23 * 60;
	// "goes to bed around 1am": after midnight, so today ends awake.
	if (sleep <= wake) sleep = 24 * 60;
	sleep = Math.min(sleep, 24 * 60);
	const dinner = timeAfter(text, DINNER_WORDS);

	let slots = routineSlots(name, ownSentences(requirement, name), wake, sleep, date);
	if (!slots.length) {
		// No routine sentence: the occupation, at the place named with it.
		const own = ownSentences(summary, name).join(' ');
		const occupation = OCCUPATIONS.find(([re]) => re.test(own));
		const place = own.match(new RegExp(`\\b(?:works? (?:at|in)|student at|studies at|owns?|runs?|teaches at|professor at) (${PLACE_NAME})`))?.[1];
		const [start, end] = partWindow('day', wake, sleep, undefined);
		if (occupation) slots = [{ activity: place ? `${occupation[1]} at ${place}` : occupation[1], start, end }];
	}
	return { wake, sleep, dinner, slots };
}

const EVENT_NOUN =
	/\b(party|meeting|gathering|get-together|celebration|dinner|supper|lunch|breakfast|brunch|potluck|barbecue|fundraiser|event|concert|show|lecture|class|game|match|debate|festival|reading|exhibition|date|ceremony|wedding|rally|parade|talk|appointment|picnic|performance|tournament|fair|contest|competition|screening|service|sale|election|exhibition)\b/i;

interface DayEvent {
	start: number;
	end: number;
	/** "the harvest supper at the Lantern Bakery" */
	what: string;
	host: boolean;
}

/** "the spring dance at the Corner Cafe" from a sentence that names an event. */
function eventPhrase(sentence: string): string | undefined {
	const noun = sentence.match(EVENT_NOUN);
	if (!noun) return undefined;
	const bare = stripTimes(stripDates(sentence));
	const m = bare.match(
		new RegExp(`\\b(?:a|an|the|his|her|their|my|our)\\s+((?:[\\w'’-]+\\s+){0,5}?${escapeRegExp(noun[1])})\\b(\\s+(?:at|in)\\s+[^,.;]+?(?=\\s+(?:and|with|to|for|on|from|who|which)\\b|[,.;!?]|$))?`, 'i')
	);
	const what = m ? `the ${m[1]}${m[2] ?? ''}` : `the ${noun[1].toLowerCase()}`;
	return what.replace(/\s+/g, ' ').trim();
}

/** Events dated `date` (same month and day) with a clock time, found in `texts`. */
function eventsOn(date: string, texts: string[], name: string): DayEvent[] {
	const today = dateMentions(date)[0];
	if (!today) return [];
	const out: DayEvent[] = [];
	for (const text of texts) {
		for (const raw of sentences(text)) {
			const s = relay(raw);
			if (!dateMentions(s).some((d) => d.month === today.month && d.day === today.day)) continue;
			const what = eventPhrase(s);
			if (!what) continue;
			const range = timeRange(s);
			const times = timeMentions(s);
			const start = range?.start ?? times[0]?.minutes;
			if (start === undefined) continue;
			const end = range?.end ?? start + 120;
			const host = startsWithName(s, name) && /^\S+(?:\s+\S+)?\s+(?:is |are |will )?(?:planning|hosting|host|throwing|organi[sz]ing|holding)\b/i.test(s);
			const committed = host || /\b(plans to go|invited|would come|will come|be there)\b/i.test(raw + ' ' + text);
			// Without an invitation or a promise, some who heard of it go and some do not.
			if (!committed && name && fnv1a32(`${name}|${what}`) % 3 === 0) continue;
			if (!out.some((e) => e.start === start && e.what === what)) out.push({ start, end: Math.max(end, start + 30), what, host });
		}
	}
	return out;
}

const PROJECT = /\b(?:is|are|has been|have been)\s+((?:planning|preparing|organi[sz]ing|working on|writing|researching|running for|campaigning|practicing|practising|learning|training|composing|painting|studying for|saving for|getting ready for|putting together|rehearsing|building)\b[^.;]*)/i;

/** The agent's own current project as an activity: "writing a research paper". */
function projectOf(summary: string, name: string): string | undefined {
	for (const s of ownSentences(summary, name)) {
		const m = s.match(PROJECT);
		if (!m) continue;
		let phrase = stripTimes(stripDates(m[1].split(/,?\s+and\s+(?:is|are|she|he|they|wants?|hopes?|trying)\b/i)[0]));
		phrase = phrase
			.replace(/\s+(?:on how|about how|on|about|that|which|who|so that|because|to make|for (?:his|her|their) \w+ class|in the (?:upcoming|coming|next))\b.*$/i, '')
			.replace(/[.,;\s]+$/, '');
		if (contentWords(phrase).length >= 2 && phrase.split(/\s+/).length <= 9) return phrase;
	}
	return undefined;
}

/** Activities that take one out of the house. */
const OUTING = /\b(class(?:es)?|college|school|park|garden|cafe|café|store|shop\w*|market|pub|bar|outdoors|outside|town|library|errands?|walk|run|jog|work out|gym|campus|office (?!at home))\b/i;

/** Words too general to tell two activities apart. */
const GENERIC_WORK = new Set(contentWords('work working spend time do make study write writing take'));

/** "7:00 am"; "midnight" for the end of the day. */
function clockText(minutes: number): string {
	return minutes >= 24 * 60 ? 'midnight' : clock12(minutes);
}

function dailyPlan(vars: TemplateVars): { wake_hour: number; agenda: string[] } {
	const name = str(vars, 'name');
	const summary = str(vars, 'summary');
	const requirement = str(vars, 'requirement');
	const date = str(vars, 'date');
	const routine = routineOf(name, summary, requirement, date);
	const { wake, sleep, slots } = routine;
	const events = eventsOn(date, [summary, str(vars, 'yesterday'), requirement], name);
	// The most specific slot at a time: the shortest one covering it.
	const covering = (m: number) => slots.filter((s) => s.start <= m && s.end > m).sort((a, b) => a.end - a.start - (b.end - b.start))[0];

	const agenda: { at: number; text: string; priority: number }[] = [];
	agenda.push({ at: wake, text: `wake up and get ready at ${clock12(wake)}`, priority: 0 });
	// Breakfast after getting ready, or after an early short slot ("a run at 6:30am").
	let breakfast = roundTo(wake + 30, 15);
	const early = covering(breakfast);
	const afterEarly = early !== undefined && early.end - early.start <= 90;
	if (afterEarly) breakfast = early.end;
	if (afterEarly || !covering(breakfast) || breakfast < (slots[0]?.start ?? 24 * 60)) agenda.push({ at: breakfast, text: `have breakfast at ${clock12(breakfast)}`, priority: 1 });
	for (const s of slots) {
		const text = s.end - s.start <= 60 ? `${s.activity} at ${clock12(s.start)}` : `${s.activity} from ${clock12(s.start)} to ${clockText(s.end)}`;
		agenda.push({ at: s.start, text, priority: 0 });
	}
	const lunchDone = slots.some((s) => s.start >= 11 * 60 + 30 && s.start <= 13 * 60 && /\b(lunch|eat|meal)\b/i.test(s.activity));
	if (!lunchDone) {
		// A short slot at noon ("a run at lunchtime") pushes lunch after it.
		const noon = covering(12 * 60);
		const lunch = noon && noon.end - noon.start <= 90 ? noon.end : 12 * 60;
		// Someone whose whole day is at home goes out for lunch: everyone meets someone.
		const goesOut = slots.some((x) => OUTING.test(x.activity) || /\b(?:at|in|to) (?:the )?[A-Z]/.test(x.activity));
		const text = !goesOut ? 'have lunch at a cafe' : covering(lunch) ? 'take a lunch break' : 'have lunch';
		agenda.push({ at: lunch, text: `${text} at ${clock12(lunch)}`, priority: 1 });
	}
	for (const e of events) agenda.push({ at: e.start, text: `${e.host ? 'host' : 'attend'} ${e.what} from ${clock12(e.start)} to ${clockText(e.end)}`, priority: 0 });

	let dinner = routine.dinner ?? 18 * 60;
	const evening = covering(dinner);
	if (evening && evening.end <= sleep - 60) dinner = evening.end;
	const dinnerBreak = covering(dinner) !== undefined;
	const project = projectOf(summary, name);
	const known = new Set(slots.flatMap((s) => contentWords(s.activity)).filter((w) => !GENERIC_WORK.has(w)));
	if (project && !contentWords(project).some((w) => known.has(w))) {
		// Free time for the project: after the work day, before dinner, or in the evening.
		const lastEnd = Math.max(wake + 60, ...slots.map((s) => s.end));
		const from = lastEnd <= dinner - 60 ? lastEnd : Math.max(lastEnd, dinner + 60);
		const to = from < dinner ? Math.min(dinner, from + 90) : Math.min(from + 90, sleep - 30);
		if (to - from >= 60) agenda.push({ at: from, text: `spend some time ${project} from ${clock12(from)} to ${clockText(to)}`, priority: 2 });
	}
	const dinnerEvent = events.some((e) => e.start <= dinner + 30 && e.end > dinner);
	if (dinner < sleep - 30 && !dinnerEvent) agenda.push({ at: dinner, text: `${dinnerBreak ? 'take a dinner break' : 'have dinner'} at ${clock12(dinner)}`, priority: 1 });
	if (sleep < 24 * 60) agenda.push({ at: sleep, text: `go to bed at ${clock12(sleep)}`, priority: 0 });
	else agenda.push({ at: 24 * 60 - 1, text: 'go to bed after midnight', priority: 0 });

	// Keep at most 8 items, dropping the least essential first.
	while (agenda.length > 8) {
		const worst = agenda.reduce((w, a, i) => (a.priority > agenda[w].priority ? i : w), 0);
		agenda.splice(worst, 1);
	}
	agenda.sort((a, b) => a.at - b.at);
	return { wake_hour: Math.min(12, Math.max(3, Math.floor(wake / 60))), agenda: agenda.map((a) => truncate(a.text, 200)) };
}

/** An agenda item as a schedule activity: times dropped, in the -ing form, 2 to 8 words where possible. */
function activityLabel(item: string): string {
	let text = stripDates(stripTimes(item))
		.replace(/\s+(?:at|from|around|on)$/i, '')
		.replace(/^\d+[.)]\s*/, '')
		.replace(/^(?:spend|spending) (?:some |a little |the )?(?:time|morning|afternoon|evening) /i, '')
		.replace(/^work on ((?:[a-z]+ing)\b)/i, '$1')
		.replace(/[.;:,\s]+$/, '')
		.trim();
	if (/^wake up\b/i.test(text)) return 'waking up and getting ready';
	if (/^(?:go to (?:bed|sleep)|sleep)\b/i.test(text)) return 'sleeping';
	text = gerundPhrase(text);
	return truncate(text, 200);
}

/** How long an untimed-end agenda item lasts. */
function itemMinutes(label: string): number {
	if (/\b(waking up|getting ready)\b/i.test(label)) return 30;
	if (/\b(breakfast|coffee|espresso|tea)\b/i.test(label)) return 30;
	return 60;
}

const FILLERS: Record<'morning' | 'afternoon' | 'evening', string[]> = {
	morning: ['reading the news at home', 'tidying up at home', 'taking a short walk', 'catching up on messages at home'],
	afternoon: ['taking a short walk', 'catching up on messages at home', 'running errands', 'tidying up at home'],
	evening: ['relaxing at home', 'reading a book at home', 'watching TV at home', 'listening to music at home', 'writing in a journal at home', 'tidying up at home']
};

interface Block {
	start: string;
	minutes: number;
	activity: string;
	/** asleep for the whole block: the night, or a nap */
	sleep: boolean;
}

/** Blocks the stand-in marks as asleep: the night's sleep and naps. */
const ASLEEP = /^sleeping$|\bnap(?:s|ping)?\b/i;

function hourlySchedule(vars: TemplateVars): Block[] {
	const DAY = 24 * 60;
	const name = str(vars, 'name');
	const wake = Math.min(12, Math.max(3, int(vars, 'wake_hour', 7))) * 60;
	const agenda = list(vars, 'agenda');
	const slots: (string | undefined)[] = new Array(DAY).fill(undefined);
	const paint = (from: number, to: number, label: string) => {
		for (let i = Math.max(wake, from); i < Math.min(DAY, to); i++) slots[i] = label;
	};

	let sleep: number | undefined;
	const ranges: { start: number; end: number; label: string }[] = [];
	const points: { start: number; label: string }[] = [];
	const loose: string[] = [];
	for (const item of agenda) {
		const label = activityLabel(item) || item;
		const times = timeMentions(item);
		if (/\b(bed|sleep)\b/i.test(item) && !/\bwake\b/i.test(item)) {
			if (times.length) sleep = times[0].minutes <= wake ? DAY : times[0].minutes;
			else if (/\bafter midnight\b/i.test(item)) sleep = DAY;
			continue;
		}
		const range = timeRange(item);
		if (range) ranges.push({ ...range, label });
		else if (times.length) points.push({ start: times[0].minutes, label });
		else if (/\bwake\b/i.test(item)) points.push({ start: wake, label });
		else loose.push(label);
	}
	if (sleep === undefined || sleep <= wake) sleep = Math.min(DAY, Math.max(wake + 14 * 60, 22 * 60));
	sleep = Math.min(sleep, DAY);

	// Longer ranges first, so shorter, more specific items are painted over them.
	ranges.sort((a, b) => b.end - b.start - (a.end - a.start));
	for (const r of ranges) paint(r.start, Math.min(r.end > r.start ? r.end : DAY, sleep), r.label);
	points.sort((a, b) => a.start - b.start);
	const starts = [...ranges.map((r) => r.start), ...points.map((p) => p.start)];
	for (const p of points) {
		// A timed item lasts its usual length, or until the next timed item starts.
		const next = Math.min(...starts.filter((s) => s > p.start), p.start + itemMinutes(p.label));
		paint(p.start, Math.min(next, sleep), p.label);
	}
	for (const e of eventsOn(str(vars, 'date'), list(vars, 'memories'), name)) paint(e.start, Math.min(e.end, sleep), gerundPhrase(`${e.host ? 'host' : 'attend'} ${e.what}`));

	// Fill the gaps between waking and sleep with the untimed items, then fillers unlike the plan's own items.
	const planned = new Set([...ranges, ...points].map((x) => contentWords(x.label)[0]));
	let filler = fnv1a32(name + str(vars, 'date'));
	for (let i = wake; i < sleep; ) {
		if (slots[i] !== undefined) {
			i++;
			continue;
		}
		let j = i;
		while (j < sleep && slots[j] === undefined) j++;
		for (let k = i; k < j; k += 60) {
			const when = k < 12 * 60 ? 'morning' : k < 18 * 60 ? 'afternoon' : 'evening';
			const fresh = FILLERS[when].filter((f) => !planned.has(contentWords(f)[0]));
			const label = loose.shift() ?? (fresh.length ? fresh : FILLERS[when])[filler++ % (fresh.length || FILLERS[when].length)];
			paint(k, Math.min(j, k + 60), label);
		}
		i = j;
	}
	for (let i = sleep; i < DAY; i++) slots[i] = 'sleeping';

	const blocks: Block[] = [];
	for (let i = wake; i < DAY; ) {
		const label = slots[i] ?? 'resting at home';
		let j = i;
		while (j < DAY && slots[j] === label) j++;
		const chunk = label === 'sleeping' ? j - i : 60;
		for (let k = i; k < j; k += chunk) {
			const minutes = Math.min(chunk, j - k);
			if (minutes >= 5) blocks.push({ start: clock24(k), minutes, activity: truncate(label, 200), sleep: ASLEEP.test(label) });
			else if (blocks.length) blocks[blocks.length - 1].minutes += minutes;
		}
		i = j;
	}
	return blocks.slice(0, 40);
}



// Steps of an activity, by kind. "{x}" is the activity's object ("his research paper"; the
// kind's default when there is none), "{meal}" the meal named, "{at}" where the steps happen:
// the place the activity names, or the kind's usual place ("at the store"), so that every step
// finds its way there on its own. Steps without "{at}" get the activity's place appended.
interface StepKind {
	re: RegExp;
	steps: string[];
	/** the object when the activity names none */
	x?: string;
	/** the usual place of this kind of activity */
	at?: string;
	/** steps in this order (a meal, a walk) rather than in any order */
	ordered?: boolean;
	/** matched against the activity with its proper names ("working at Sunny Bakery") */
	byPlace?: boolean;
}

const STEPS: StepKind[] = [
	{ re: /\b(sleep\w*|nap\w*)\b/i, steps: ['sleeping'], ordered: true },
	{ re: /\b(wak\w*|morning routine|get(?:ting)? ready)\b/i, steps: ['getting out of bed', 'brushing teeth', 'taking a shower', 'getting dressed'], ordered: true },
	{ re: /^(?:planning|organi[sz]ing|(?:preparing|getting ready) for (?!.*\b(?:exams?|competition|contest|tests?|interview)\b))/i, steps: ['making a list for {x}', 'working out the details of {x}', 'writing down ideas for {x}', 'checking what {x} still needs'], x: 'the plans' },
	{ re: /^(?:attend\w*|host\w*|going to|celebrat\w*|throwing)\b.*\b(party|parties|meeting|gathering|get-together|celebration|supper|potluck|barbecue|fundraiser|concert|festival|exhibition|ceremony|wedding|rally|parade|picnic|tournament|fair|screening|reading|show)\b/i, steps: ['arriving at {x}', 'greeting people at {x}', 'enjoying {x}', 'mingling with the guests at {x}', 'saying goodbye at {x}'], x: 'the event', ordered: true },
	{ re: /\b(breakfast|lunch|dinner|supper|brunch|meal|snack|eat\w*)\b/i, steps: ['getting {meal} ready', 'eating {meal}', 'finishing {meal}', 'cleaning up after {meal}'], ordered: true },
	{ re: /\b(coffee|espresso|tea|latte)\b/i, steps: ['ordering {x}', 'sipping {x}', 'reading the news over {x}', 'finishing {x}'], x: 'a coffee', ordered: true },
	{ re: /\bopen(?:s|ing)?\b(?!-)/i, steps: ['unlocking the doors {at}', 'turning on the lights {at}', 'setting up the counter {at}', 'checking the supplies {at}'], ordered: true },
	{ re: /\bclos(?:e|es|ing)\b/i, steps: ['cleaning up {at}', 'counting the register {at}', 'locking up {at}'], ordered: true },
	{ re: /\b(mayor|election|campaign\w*|candida\w*|running for)\b/i, steps: ['writing a campaign speech', 'talking to voters', 'making campaign flyers', 'planning the campaign'] },
	{ re: /\b(grad(?:e|es|ing)|marking)\b/i, steps: ['grading essays', 'writing comments on essays', 'recording grades', 'reading a student essay'] },
	{ re: /\b(teach\w*|lectur(?:e|es|ing)\b(?! notes))/i, steps: ['giving a lecture {at}', 'answering questions {at}', 'writing on the blackboard {at}', 'leading a discussion {at}'], at: 'in class' },
	{ re: /\b(class(?:es)?|seminars?|school)\b/i, steps: ['attending a lecture {at}', 'taking notes {at}', 'asking a question {at}', 'solving a problem {at}'], at: 'in class' },
	{ re: /\b(exams?|stud(?:y|ies|ying)|homework|competition)\b/i, steps: ['reviewing notes', 'solving practice problems', 'reading the textbook', 'making flashcards'] },
	{ re: /\b(code|coding|software|app|program\w*)\b/i, steps: ['writing code', 'testing the app', 'fixing a bug', 'reviewing the code'] },
	{ re: /\b(animat\w*)\b/i, steps: ['drawing frames', 'animating a scene', 'reviewing the animation', 'fixing the timing'] },
	{ re: /\b(paint\w*|illustrat\w*|watercolou?r\w*)\b/i, steps: ['mixing paints', 'sketching the outline', 'painting', 'adding final touches'] },
	{ re: /\b(sketch\w*|draw(?:s|ing)?)\b/i, steps: ['looking for a subject', 'sketching', 'shading the drawing', 'adding details'] },
	{ re: /\b(edit\w*)\b/i, steps: ['sorting {x}', 'editing {x}', 'adjusting the details of {x}', 'saving the edits'], x: 'the work' },
	{ re: /\b(photo\w*|camera)\b/i, steps: ['looking for a good shot', 'taking photos', 'changing the lens', 'checking the shots'] },
	{ re: /\b(listen\w*|relax\w*|rest(?:s|ing)?|unwind\w*|watch\w*|tv|television|couch)\b/i, steps: ['settling onto the couch', 'listening to music', 'watching TV', 'winding down'] },
	{ re: /\b(compos\w*|music|piano|guitar|songs?|practi[cs]\w*)\b/i, steps: ['warming up', 'practising scales', 'playing through a piece', 'working on a hard passage'] },
	{ re: /\b(rehears\w*|lines|script|play|acting)\b/i, steps: ['reading through the script', 'rehearsing lines', 'practising gestures', 'running a scene'] },
	{ re: /\b(perform\w*|open-mic|comedy|stand-up|shows?)\b/i, steps: ['getting ready to perform {at}', 'performing a set {at}', 'watching the other acts {at}', 'joking with the audience {at}'], at: 'at the open-mic' },
	{ re: /\b(news|newspaper|headlines)\b/i, steps: ['reading the headlines', 'reading an article', 'checking the weather forecast', 'reading the local news'], ordered: true },
	{ re: /^read(?:s|ing)?\b/i, steps: ['settling in with a book', 'reading a chapter', 'underlining a passage', 'reading another chapter'] },
	{ re: /\bjournal\w*/i, steps: ['opening the journal', 'writing a journal entry', 'jotting down thoughts', 'rereading old entries'] },
	{ re: /\b(writ\w*|essays?|novel|poems?|poetry|thesis|paper|book|story|chapters?)\b/i, steps: ['outlining {x}', 'drafting {x}', 'rereading {x}', 'revising {x}'], x: 'a new piece' },
	{ re: /\b(research\w*|analy\w*|math\w*)\b/i, steps: ['reading related papers', 'taking research notes', 'working through the problem', 'writing up the findings'] },
	{ re: /\b(garden\w*|plants?|weed\w*|water\w* the)\b/i, steps: ['watering the plants {at}', 'pulling weeds {at}', 'planting seeds {at}', 'checking the vegetable patch {at}'], at: 'in the garden' },
	{ re: /\b(errand\w*|shopping|grocer\w*|buy\w*|supplies)\b/i, steps: ['heading to the shops', 'looking for {x} {at}', 'comparing prices {at}', 'paying {at}'], x: 'groceries', at: 'at the store', ordered: true },
	{ re: /\b(walk\w*|stroll\w*)\b/i, steps: ['heading out for a walk', 'walking along the path {at}', 'enjoying the fresh air {at}', 'walking back'], at: 'in the park', ordered: true },
	{ re: /\b(run|runs|running|jog\w*|work(?:s|ing)? out|workout|exercis\w*|gym|swim\w*)\b/i, steps: ['stretching {at}', 'jogging {at}', 'running {at}', 'cooling down {at}'], at: 'in the park', ordered: true },
	{ re: /\b(stream\w*|video games?|gam(?:e|es|ing))\b/i, steps: ['setting up the stream', 'streaming a game', 'reading viewer comments', 'ending the stream'], ordered: true },
	{ re: /\b(talk\w*|visit\w*|meet\w*|people|neighbou?rs?|around town|sociali[sz]\w*)\b/i, steps: ['greeting neighbours', 'catching up with people', 'listening to people', 'sharing news'] },
	{ re: /\b(tidy\w*|clean\w*|laundry|chores?|house)\b/i, steps: ['picking up clutter', 'wiping the surfaces', 'doing the laundry', 'putting things away'] },
	{ re: /\b(messages?|emails?|letters?)\b/i, steps: ['checking messages', 'replying to messages', 'writing a letter', 'sorting the mail'] },
	{ re: /\b(bar|pub|pour\w*|bartend\w*)\b/i, steps: ['serving drinks {at}', 'pouring drinks {at}', 'wiping down the bar {at}', 'taking orders {at}'], at: 'at the bar', byPlace: true },
	{ re: /\b(pharmac\w*|prescription\w*)\b/i, steps: ['filling prescriptions {at}', 'helping a customer {at}', 'restocking the shelves {at}', 'checking the inventory {at}'], at: 'at the pharmacy' },
	{ re: /\b(cafe|café|coffee shop|bakery)\b/i, steps: ['taking orders {at}', 'making coffee {at}', 'serving customers {at}', 'wiping the tables {at}'], at: 'at the cafe', byPlace: true },
	{ re: /\b(counter|shop|store|market|grocer\w*|sell\w*|cashier|register|customers?|serv\w*)\b/i, steps: ['serving customers {at}', 'restocking the shelves {at}', 'helping a customer {at}', 'tidying the counter {at}'], at: 'at the store', byPlace: true },
	{ re: /\b(work\w*|office|tax\w*|clients?|job|shift|desk)\b/i, steps: ['checking emails', 'tackling the main tasks', 'reviewing the work', 'planning the next steps'] }
];

const PLACE_TAIL = new RegExp(`\\s+((?:at|in|around)\\s+(?:home|town|(?:his|her|their|the|my|a|an)\\s+(?:(?!\\b(?:at|in|around)\\b)[\\w'’ -])+?|${PLACE_NAME})|outdoors|outside)$`);

/** The object of an activity: "working on his research paper at home" -> "his research paper". */
function objectOf(activity: string): string {
	const words = activity.replace(PLACE_TAIL, '').replace(/\s+(?:and|or)\s+[a-z]+ing\b.*$/, '').split(/\s+/);
	let i = 1;
	while (/^(?:on|for|with|to|at|in|about|together|up|out|off|down|over|through)$/i.test(words[i] ?? '')) i++;
	return words.slice(i).join(' ').replace(/\s+(?:for|with|to|about|on)\s+.*$/, '').trim();
}

function stepKind(plain: string): StepKind | undefined {
	const common = commonWords(plain);
	const found = STEPS.find((k) => k.re.test(common));
	// "working at Sunny Bakery": with no telling verb, the kind of place named decides.
	if (!found || found === STEPS[STEPS.length - 1]) return STEPS.find((k) => k.byPlace && k.re.test(plain)) ?? found;
	return found;
}

/** The activity of a neighbouring block as the decomposition prompt gives it ("4:00 pm to 5:00 pm: activity (asleep)"). */
function neighbourActivity(text: string): string {
	return text
		.replace(/^\s*\d{1,2}:\d\d\s*[ap]m\s+to\s+\d{1,2}:\d\d\s*[ap]m\s*:\s*/i, '')
		.replace(/\s*\(asleep\)\s*$/i, '')
		.replace(/\s*\([^)]*\)\s*$/, '')
		.trim()
		.toLowerCase();
}

function decompose(activity: string, minutes: number, start = '', around: { previous?: string; next?: string } = {}): { activity: string; minutes: number }[] {
	const plain = activity.replace(/\s*\([^)]*\)\s*$/, '').trim() || 'resting';
	const kind = stepKind(plain);
	const place = plain.match(PLACE_TAIL)?.[1];
	// A meal out is ordered and paid for, not cooked.
	const eatingOut = kind?.steps.includes('eating {meal}') === true && place !== undefined && !/\bat home\b/.test(place);
	let steps = eatingOut ? ['ordering {meal} {at}', 'eating {meal} {at}', 'finishing {meal} {at}', 'paying {at}'] : (kind?.steps ?? ['getting started on {x}', plain, 'taking a short break', 'wrapping up {x}']);
	// Work-like steps come in any order, and consecutive blocks of one activity start at
	// different steps; routines (a meal, a walk, an event) and unknown activities keep their order.
	const ordered = kind ? kind.ordered === true : true;
	// A routine that goes on from the block before is not begun again ("arriving at the party"
	// at 6 pm after a 5 pm block of the party), nor wrapped up when the block after goes on with it.
	const same = (text: string | undefined) => text !== undefined && text !== '' && neighbourActivity(text) === plain.toLowerCase();
	if (ordered && steps.length > 2) {
		if (same(around.previous)) steps = steps.slice(1);
		if (same(around.next) && steps.length > 2) steps = steps.slice(0, -1);
	}
	const meal = plain.match(/\b(breakfast|lunch|dinner|supper|brunch|a snack)\b/i)?.[1]?.toLowerCase() ?? 'the meal';
	let thing = objectOf(plain).replace(/^(?:a|an)\s+/i, 'the ');
	if (!thing || /^(?:errands?|it|them|things)$/i.test(thing)) thing = kind?.x ?? 'it';
	// "opening the Corner Cafe": the object is the place.
	const opening = kind !== undefined && /open|clos/.test(kind.re.source) && /^(?:the )?[A-Z]/.test(thing);
	const at = place ?? (opening ? `at ${thing}` : (kind?.at ?? ''));
	const total = Math.max(5, minutes);
	const n = Math.min(60, Math.max(1, Math.ceil(total / 15)));
	const base = Math.floor(total / n);
	const extra = total - base * n;
	const m = steps.length;
	// work-like steps begin, hour after hour, one step further along
	const hour = timeMentions(start)[0]?.minutes;
	const offset = !ordered && m > 1 ? (hour !== undefined ? Math.floor(hour / 60) : fnv1a32(start + plain)) % m : 0;
	const out: { activity: string; minutes: number }[] = [];
	for (let i = 0; i < n; i++) {
		const len = Math.min(15, Math.max(5, base + (i < extra ? 1 : 0)));
		let step: string;
		if (m === 1) step = steps[0];
		else if (!ordered) step = steps[(i + offset) % m];
		else if (n === 1) step = steps[1];
		else if (n === 2) step = steps[i === 0 ? 1 : m - 1];
		else if (n < m) step = i === n - 1 ? steps[m - 1] : steps[i];
		else if (i === 0) step = steps[0];
		else if (i === n - 1) step = steps[m - 1];
		else step = steps[1 + ((i - 1) % Math.max(1, m - 2))];
		// a place the step names itself, not the object's ("arriving at {x}" gets the party's place)
		const named = /\b(?:at|in|around) (?:home|town|the|his|her|their|[A-Z])/.test(step);
		step = step.replace('{meal}', meal).replace(/\{x\}/g, thing);
		if (step.includes('{at}')) step = step.replace('{at}', at);
		else if (place && m > 1 && !named) step = `${step} ${place}`;
		out.push({ activity: truncate(step.replace(/\s+/g, ' ').trim(), 200), minutes: len });
	}
	return out;
}

function replan(vars: TemplateVars): Block[] {
	const DAY = 24 * 60;
	const now = timeMentions(str(vars, 'time'))[0]?.minutes ?? 12 * 60;
	const reaction = reactionActivity(str(vars, 'reaction'));
	const blocks: Block[] = [];
	let cursor = now;
	if (reaction) {
		const minutes = /\b(talk|chat|conversation|greet)\w*/i.test(reaction) ? 20 : 30;
		blocks.push({ start: clock24(cursor), minutes, activity: truncate(reaction, 200), sleep: false });
		cursor += minutes;
	}
	for (const line of list(vars, 'remaining')) {
		// "(asleep)" marks a sleep block; it stays one.
		const asleep = /\(asleep\)\s*$/i.test(line);
		const item = line.replace(/\s*\(asleep\)\s*$/i, '');
		const start = timeMentions(item)[0]?.minutes;
		const length = Number(item.match(/\((\d+)\s*min/i)?.[1] ?? item.match(/\b(\d+)\s*min(?:ute)?s?\b/i)?.[1] ?? 60);
		const text = stripTimes(item.replace(/\(\s*\d+\s*min(?:ute)?s?\s*\)|\b\d+\s*min(?:ute)?s?\b/gi, ''))
			.replace(/^[\s:\-–]+/, '')
			.trim();
		const activity = truncate(text ? (/^sleep$/i.test(text) ? 'sleeping' : gerundPhrase(text)) : item, 200);
		const from = start ?? cursor;
		const end = from + length;
		if (end <= cursor) continue;
		const begin = Math.max(from, cursor);
		if (begin >= DAY - 5) break;
		const minutes = Math.min(end, DAY) - begin;
		if (minutes >= 5) {
			blocks.push({ start: clock24(begin), minutes: Math.min(720, minutes), activity, sleep: asleep || ASLEEP.test(activity) });
			cursor = begin + minutes;
		}
	}
	return blocks.slice(0, 40);
}

/**
 * The next action without a plan (the planning ablation), from the summary description and the
 * time: what was just decided first; asleep from the usual bedtime to the usual waking; an event
 * the agent knows of for today while it goes on; the occupation at its hours; meals at meal
 * times; otherwise something of the time of day other than what the agent was just doing.
 */
function nextMoment(vars: TemplateVars): { activity: string; minutes: number; sleep: boolean } {
	const DAY = 24 * 60;
	const name = str(vars, 'name');
	const summary = str(vars, 'summary');
	const time = str(vars, 'time');
	const now = timeMentions(time)[0]?.minutes ?? 12 * 60;
	const previous = str(vars, 'previous').trim().toLowerCase();
	const intention = reactionActivity(str(vars, 'intention'));
	if (intention) return { activity: intention, minutes: /\b(talk|chat|conversation|greet)\w*/i.test(intention) ? 20 : 30, sleep: false };
	const date = time.replace(/,?\s*\d{1,2}:\d\d.*$/, '');
	const routine = routineOf(name, summary, '', date);
	const awake = routine.sleep >= DAY ? now >= routine.wake : now >= routine.wake && now < routine.sleep;
	if (!awake) {
		const until = (routine.wake - now + DAY) % DAY || 60;
		return { activity: 'sleeping', minutes: Math.min(720, Math.max(5, until)), sleep: true };
	}
	const left = (end: number) => Math.min(60, Math.max(5, end - now));
	const event = eventsOn(date, [summary], name).find((e) => e.start <= now && e.end > now);
	if (event) return { activity: truncate(gerundPhrase(`${event.host ? 'host' : 'attend'} ${event.what}`), 200), minutes: left(event.end), sleep: false };
	const meal = now < routine.wake + 60 ? 'breakfast' : now >= 12 * 60 && now < 13 * 60 ? 'lunch' : now >= (routine.dinner ?? 18 * 60) && now < (routine.dinner ?? 18 * 60) + 60 ? 'dinner' : undefined;
	if (meal && !previous.includes(meal)) return { activity: `having ${meal}`, minutes: 30, sleep: false };
	const slot = routine.slots.find((x) => x.start <= now && x.end > now);
	if (slot) return { activity: truncate(gerundPhrase(slot.activity), 200), minutes: left(slot.end), sleep: false };
	const when = now < 12 * 60 ? 'morning' : now < 18 * 60 ? 'afternoon' : 'evening';
	const options = FILLERS[when].filter((f) => f !== previous);
	return { activity: options[fnv1a32(name + time) % options.length], minutes: 30, sleep: false };
}

/** A reaction or a thought as something to do now, in the -ing form. */
function reactionActivity(reaction: string): string {
	let r = reaction.trim().replace(/[.!]+$/, '');
	if (!r) return '';
	const intent = r.match(/\b(?:I am going to|I'm going to|I will|I'll|I should|I must|I need to|I want to|I have to|I plan to|going to|need to|want to|have to)\s+(.+)$/i);
	if (intent) r = intent[1];
	else if (/^I\b/.test(r)) return 'thinking things over';
	r = r.replace(/^(?:take care of it right away|deal with it now):\s*(?:the\s+)?(.+?) is .*$/i, 'taking care of the $1');
	const first = r.split(/\s+/)[0] ?? '';
	if (!isVerb(first)) return truncate(`dealing with ${r.charAt(0).toLowerCase()}${r.slice(1)}`, 200);
	return truncate(gerundPhrase(r.replace(/\bmy\b/g, 'their').replace(/\bme\b/g, 'them')), 200);
}

// ---------------------------------------------------------------------------
// Choosing places and objects by lexical match

/** Words in sector names that say what a place is for. */
const SECTOR_HINTS: [RegExp, string[]][] = [
	[/\b(coffee|espresso|latte|pastr\w*|cafe|café|restaurant|eating out)\b/i, ['cafe', 'café', 'coffee', 'bakery', 'restaurant', 'diner']],
	[/\b(stud(?:y|ies|ying|ents?)|homework|lecture|class\w*|exam|seminar|campus|library|thesis|professor|teach\w*)\b/i, ['college', 'school', 'university', 'library', 'academy']],
	[/\b(shop\w*|buy\w*|grocer\w*|supplies|errand\w*|store|market|prices|paying|medicine|prescription\w*)\b/i, ['market', 'store', 'shop', 'supply', 'pharmacy', 'grocery']],
	[/\b(drink\w*|beer|wine|bar|pub|open-mic|comedy|stand-up|quiz night)\b/i, ['pub', 'bar', 'tavern']],
	[/\b(exercis\w*|jog\w*|walk\w*|stroll\w*|picnic|run|running|outdoors|outside|garden\w*|lake|fresh air|sketch\w* outdoors|nature)\b/i, ['park', 'garden', 'trail', 'lake']],
	[/\b(mayor|council|town hall|voters?|campaign\w*|election)\b/i, ['town hall', 'hall']],
	[/\b(people|neighbou?rs|around town|sociali[sz]\w*|greeting)\b/i, ['cafe', 'café', 'park', 'square']],
	[/\b(perform\w*|theatre|theater|stage|concert)\b/i, ['theatre', 'theater', 'hall', 'pub']]
];
/** Words in arena and object names that suit an activity. */
const PLACE_HINTS: [RegExp, string[]][] = [
	[/\b(sleep\w*|nap\w*|bed|rest)\b/i, ['bed', 'bedroom']],
	[/\b(shower\w*|bath\w*|brush\w*|teeth|wash\w* up|toilet|restroom)\b/i, ['bathroom', 'shower', 'sink', 'toilet', 'restroom']],
	[/\b(dress\w*|getting out of bed|wak\w*|getting ready)\b/i, ['bedroom', 'wardrobe', 'closet', 'dresser', "'s room", 'bed']],
	[/\b(breakfast|lunch|dinner|supper|eat\w*|meal|snack|table)\b/i, ['kitchen', 'dining', 'table', 'cafeteria', 'refrigerator', 'fridge', 'stove']],
	[/\b(cook\w*|bak\w*|ingredients|dishes)\b/i, ['kitchen', 'stove', 'oven', 'counter', 'sink']],
	[/\b(coffee|espresso|latte|tea)\b/i, ['cafe', 'café', 'coffee', 'counter', 'tables']],
	[/\b(stud(?:y|ies|ying|ents?)|homework|research\w*|writ\w*|paper|essay|thesis|notes?|textbook|flashcards|references|outlin\w*|draft\w*|revis\w*|grad\w*)\b/i, ['library', 'desk', 'study', 'computer', 'reading', 'tables']],
	[/\b(class\w*|lectur\w*|teach\w*|blackboard|seminar|exercise|question)\b/i, ['classroom', 'blackboard', 'podium', 'lectern', 'student desks', "teacher's desk"]],
	[/\b(read(?:s|ing)?|book|chapter)\b/i, ['reading', 'armchair', 'chair', 'bookshelf', 'sofa', 'library', 'living']],
	[/\b(shop\w*|buy\w*|grocer\w*|supplies|prices|stock\w*|shelves)\b/i, ['shelves', 'shelf', 'store', 'counter', 'produce', 'supply']],
	[/\b(serv\w*|customers?|orders?|counter|cashier|register|pastr\w*)\b/i, ['counter', 'register', 'cafe', 'café', 'store', 'behind']],
	[/\b(prescription\w*|pharmac\w*|medicine|inventory)\b/i, ['pharmacy', 'prescription', 'medicine', 'counter']],
	[/\b(drink\w*|beer|wine|bar|pour\w*)\b/i, ['bar', 'pub', 'tap', 'counter']],
	[/\b(exercis\w*|jog\w*|walk\w*|stroll\w*|stretch\w*|running|fresh air)\b/i, ['park', 'path', 'lake', 'garden', 'trail', 'benches', 'playground']],
	[/\b(garden\w*|plant\w*|weed\w*|water\w* the|seeds|vegetable)\b/i, ['garden', 'flower', 'vegetable', 'watering', 'shed']],
	[/\b(paint\w*|brush\w*|sketch\w*|draw\w*|illustrat\w*|art|canvas|mixing)\b/i, ['studio', 'easel', 'art', 'paint', 'drawing', 'desk']],
	[/\b(animat\w*|frames|tablet)\b/i, ['drawing tablet', 'tablet', 'computer', 'desk']],
	[/\b(photo\w*|shots?|lens)\b/i, ['photo', 'camera', 'editing', 'desk']],
	[/\b(music|piano|guitar|compos\w*|song\w*|scales|passage|piece)\b/i, ['piano', 'music', 'guitar', 'keyboard', 'composition']],
	[/\b(rehears\w*|script|lines|perform\w*|set|audience|acts)\b/i, ['microphone', 'stage', 'desk', 'dresser']],
	[/\b(code|coding|app|bug|emails?|messages?|computer|stream\w*|viewer|client)\b/i, ['computer', 'desk', 'laptop', 'office']],
	[/\b(wash\w*|dishes|laundry|clean\w*|tidy\w*|clutter|wip\w*|surfaces)\b/i, ['sink', 'kitchen', 'laundry', 'washing', 'counter']],
	[/\b(relax\w*|tv|television|couch|unwind\w*|winding down|music)\b/i, ['sofa', 'couch', 'living', 'television', 'common room', 'lounge', 'armchair']],
	[/\b(party|celebrat\w*|guests|mingling|greeting people|arriving)\b/i, ['cafe', 'café', 'pub', 'bar', 'hall', 'common room', 'tables', 'living']],
	[/\b(unlock\w*|lights|doors|setting up|register|lock\w* up|inventory)\b/i, ['counter', 'register', 'door', 'entrance', 'store', 'cafe', 'bar']],
	[/\b(voters?|campaign\w*|speech|flyers|mayor)\b/i, ['desk', 'office', 'lobby', 'notice', 'board']],
	[/\b(office|tax\w*|documents|files|work\w*)\b/i, ['office', 'desk', 'computer', 'filing']]
];
const HOME_ACTIVITY =
	/\b(sleep\w*|nap\w*|bed|wak\w*|shower\w*|bath\w*|brush\w*|dress\w*|morning routine|get(?:ting)? ready|at home|go home|return home|home office|breakfast|dinner|relax\w*|unwind\w*|winding down|tidy\w*|laundry|chores|(?:his|her|their|my) (?:room|apartment|bedroom|house|studio|desk|kitchen))\b/i;

const RESIDENTIAL = /\b(dorm\w*|house|home|apartments?|residence|co-living|flat|cottage)\b/i;

/** A room named for a person: "Ana Quill's room", "Ana and Bo Quill's bedroom". */
const PERSONAL_ROOM = /\b[A-Z][\w'’-]*(?:\s+(?:and\s+)?[A-Z][\w'’-]*)*['’]s\s+(?:room|bedroom|apartment|studio|office|flat)\b/;

function ownershipScore(option: string, name: string): number {
	if (!PERSONAL_ROOM.test(option)) return 0;
	const parts = name.trim().split(/\s+/);
	if (mentions(option, parts.join(' '))) return 2;
	if (parts[0] && new RegExp(`\\b${escapeRegExp(parts[0])}\\b`).test(option)) return 1.5;
	return -6;
}

function choose(template: string, vars: TemplateVars): string {
	const options = list(vars, 'options');
	if (!options.length) return '';
	const name = str(vars, 'name');
	const activity = str(vars, 'activity');
	const current = str(vars, 'current');
	const home = str(vars, 'home').split(':')[0].trim();
	// "around town" names no place in particular.
	const actWords = new Set(contentWords(activity.replace(/\b(?:around|about|across) (?:the )?town\b/gi, ' ')));
	const actVec = hashEmbed(activity);
	const common = commonWords(activity);
	// A break is taken where one is; home things happen at home unless a place is named.
	const stay = /\b(lunch|snack|break)\b/i.test(common);
	const homeish = HOME_ACTIVITY.test(common) && !stay && !/\b(?:at|in) (?:the )?[A-Z]/.test(activity);
	const hints = (template === 'choose_sector' ? SECTOR_HINTS : PLACE_HINTS).filter(([re]) => re.test(common)).map(([, w]) => w);
	const personal = homeish || /\b(his|her|their|my)\b/i.test(activity);
	// the objects' states as the agent last saw them ("stove: burning")
	const hazards = new Set(
		list(vars, 'states')
			.map((line) => line.match(/^(.*?):\s*(.*)$/))
			.filter((m): m is RegExpMatchArray => m !== null && HAZARD.test(m[2]))
			.map((m) => m[1].trim())
	);

	let best = options[0];
	let bestScore = -Infinity;
	options.forEach((option, i) => {
		const lower = option.toLowerCase();
		const optWords = contentWords(option);
		// Named places: the option's own words found in the activity ("at the Corner Cafe").
		const shared = optWords.filter((w) => actWords.has(w)).length;
		let score = shared * 2 + (optWords.length > 0 && shared === optWords.length ? 2 : 0);
		for (const words of hints) if (words.some((w) => lower.includes(w))) score += 1.5;
		score += Math.max(0, cosine(actVec, hashEmbed(option))) * 0.5;
		if (template === 'choose_sector') {
			if (homeish && option === home) score += 3;
			// "a class": the college, not its dorm.
			if (!homeish && hints.length && RESIDENTIAL.test(option)) score -= 0.75;
			// Lunch where one is; otherwise ties go home.
			if (option === current) score += stay ? 1 : 0.25;
			if (option === home) score += 0.1;
		} else {
			// One's own room for personal things, the kitchen for a meal; never someone else's room.
			const owned = ownershipScore(option, name);
			score += owned < 0 ? owned : owned * (personal && !hints.length ? 1 : 0.25);
			if (option === current) score += 0.25;
		}
		// Beds are for sleeping and resting only.
		if (template === 'choose_object' && /\bbed\b/i.test(lower) && !/\b(sleep\w*|nap\w*|bed|rest\w*)\b/i.test(common)) score -= 2;
		// An object last seen burning or broken is kept away from, unless the activity sees to it.
		if (hazards.has(option)) score += MENDING.test(activity) ? 3 : -10;
		score += ((fnv1a32(activity + '|' + option) % 97) / 97) * 0.01 - i * 1e-6;
		if (score > bestScore) {
			best = option;
			bestScore = score;
		}
	});
	return best;
}

// ---------------------------------------------------------------------------
// Emoji and object states

const EMOJI: [RegExp, string][] = [
	[/\b(sleep\w*|nap\w*|asleep)\b/i, '😴'],
	[/\b(wake|waking|morning routine|get ready|getting ready|getting out of bed)\b/i, '🌅'],
	[/\b(shower\w*|bath\w*|wash\w* up)\b/i, '🚿'],
	[/\b(brush\w*|teeth)\b/i, '🪥'],
	[/\b(dress\w*)\b/i, '👕'],
	[/\b(coffee|espresso|latte)\b/i, '☕'],
	[/\b(breakfast)\b/i, '🍳'],
	[/\b(lunch|dinner|eat\w*|meal|snack)\b/i, '🍽️'],
	[/\b(cook\w*|bak\w*)\b/i, '🧑‍🍳'],
	[/\b(party|celebrat\w*|valentine\w*|guests)\b/i, '🎉'],
	[/\b(invit\w*)\b/i, '💌'],
	[/\b(election|mayor|vote|voters|campaign\w*)\b/i, '🗳️'],
	[/\b(talk\w*|chat\w*|conversation|discuss\w*|greeting|catching up|sharing|listening to people)\b/i, '💬'],
	[/\b(phone|call\w*)\b/i, '📞'],
	[/\b(messages?|mail|letters?|emails?)\b/i, '✉️'],
	[/\b(journal|diary)\b/i, '📓'],
	[/\b(grad(?:e|es|ing)|marking)\b/i, '📝'],
	[/\b(writ\w*|essay|paper|thesis|draft\w*|outlin\w*|revis\w*)\b/i, '✍️'],
	[/\b(read(?:s|ing)?|book\w*|librar\w*|passage|underlin\w*|chapter|headlines|article)\b/i, '📖'],
	[/\b(stud(?:y|ies|ying)|homework|research\w*|exam|class\w*|lecture|notes|flashcards|problems?|questions?|textbook)\b/i, '📚'],
	[/\b(teach\w*|blackboard)\b/i, '👩‍🏫'],
	[/\b(paint\w*|draw\w*|sketch\w*|illustrat\w*|subject|brushes)\b/i, '🎨'],
	[/\b(animat\w*|frames|timing)\b/i, '🎞️'],
	[/\b(photo\w*|camera|shots?|lens)\b/i, '📷'],
	[/\b(music|piano|guitar|compos\w*|song\w*|sing\w*|scales|piece)\b/i, '🎵'],
	[/\b(rehears\w*|script|perform\w*|stage|audience|acts|gestures|scene)\b/i, '🎭'],
	[/\b(stream\w*|video games?|gam(?:e|es|ing)|viewer\w*)\b/i, '🎮'],
	[/\b(shop\w*|buy\w*|grocer\w*|store)\b/i, '🛒'],
	[/\b(paying|prices|register)\b/i, '💳'],
	[/\b(medicine|pharmac\w*|prescription\w*)\b/i, '💊'],
	[/\b(inventory|supplies|stock\w*|restock\w*|shelves)\b/i, '📦'],
	[/\b(unlock\w*|lock\w* up|doors|lights)\b/i, '🔑'],
	[/\b(serv\w*|customer\w*|counter|cashier|orders?)\b/i, '🧾'],
	[/\b(drink\w*|beer|wine|pub|bar)\b/i, '🍺'],
	[/\b(walk\w*|stroll\w*|fresh air)\b/i, '🚶'],
	[/\b(run\w*|jog\w*|exercis\w*|workout|stretch\w*|cooling down)\b/i, '🏃'],
	[/\b(garden\w*|plant\w*|water\w* the|weeds|vegetable|seeds)\b/i, '🌱'],
	[/\b(clean\w*|tidy\w*|laundry|dishes|clutter|wip\w*|putting things away)\b/i, '🧹'],
	[/\b(computer|cod(?:e|ing)|typ\w*|bug|app|edit\w*)\b/i, '💻'],
	[/\b(relax\w*|rest\w*|tv|television|movie\w*|couch|winding down|settling)\b/i, '🛋️'],
	[/\b(weather|forecast)\b/i, '🌤️'],
	[/\b(plan\w*|schedul\w*|think\w*|ideas)\b/i, '🤔'],
	[/\b(work\w*|office|shift|tasks)\b/i, '💼'],
	[/\b(fire|burning|smoke)\b/i, '🔥']
];

function emojiFor(activity: string): string {
	const common = commonWords(activity);
	const found = EMOJI.filter(([re]) => re.test(common)).map(([, e]) => e);
	if (!found.length) return '🙂';
	// One or two emoji, staying within 8 characters.
	const two = found.slice(0, 2).join('');
	return [...two].length <= 8 ? two : found[0];
}

/** What an object looks like in use: a few states per kind of object, not per step. */
const OBJECT_STATES: [RegExp, string][] = [
	[/\b(bed|sofa bed)\b/i, 'being slept in'],
	[/\b(coffee machine|espresso machine|kettle)\b/i, 'brewing coffee'],
	[/\b(stove|oven|cooktop|grill)\b/i, 'heating up'],
	[/\b(shower|bathtub|bath)\b/i, 'running water'],
	[/\b(sink|dishwasher|washing machine)\b/i, 'running'],
	[/\b(television|tv)\b/i, 'on'],
	[/\b(computer|laptop|register|tablet)\b/i, 'switched on'],
	[/\b(piano|keyboard|guitar|drum kit|drums)\b/i, 'being played'],
	[/\b(easel|canvas)\b/i, 'holding a painting in progress'],
	[/\b(refrigerator|fridge|pantry|freezer)\b/i, 'being opened'],
	[/\b(tables?|desks?|counter|bench(?:es)?|chairs?|armchair|couch|sofa|stools?)\b/i, 'occupied'],
	[/\b(shelf|shelves|bookshelf|rack|display)\b/i, 'being browsed']
];

function objectState(activity: string, object: string): string {
	if (/\b(sleep\w*|nap\w*|asleep)\b/i.test(activity)) return /\bbed\b/i.test(object) ? 'being slept in' : 'occupied';
	if (/\bcoffee machine|espresso machine\b/i.test(object) && !/\b(coffee|espresso|latte|tea|orders?|drink)\b/i.test(activity)) return 'in use';
	const known = OBJECT_STATES.find(([re]) => re.test(object));
	if (known && !/\bbed\b/i.test(object)) return known[1];
	// A stable state per object, so a step change does not look like a new event.
	return 'in use';
}

// ---------------------------------------------------------------------------
// Reacting and talking

/** Activities that see to a burning or broken object. */
const MENDING = /\b(fix\w*|repair\w*|mend\w*|put(?:s|ting)? out|extinguish\w*|turn(?:s|ing)? off|switch(?:es|ing)? off|clean\w* up|deal\w* with|check\w* on|call\w* (?:a|the) (?:plumber|repair\w*|fire\w*))\b/i;
const BUSY_TALKING = /\b(conversation|chatting|talking with|in a call|on the phone)\b/i;
const SLEEPING = /\b(sleep\w*|asleep|in bed|napping)\b/i;
const HAZARD = /\b(burning|burnt|on fire|fire|flames?|smok\w*|broken|break(?:s|ing)? down|leak\w*|overflow\w*|flood\w*|spill\w*|overheat\w*|spark\w*|explod\w*|collaps\w*|shatter\w*|cracked|jammed|clogged|short-circuit\w*)\b/i;
const LEISURE = /\b(eat\w*|breakfast|lunch|dinner|meal|coffee|espresso|tea|relax\w*|rest\w*|walk\w*|stroll\w*|break|read(?:s|ing)?|waiting|sitting|greeting|catching up|people|neighbou?rs|party|guests|mingling|serving|customers?|orders?|counter|bar|drinks)\b/i;
const FOCUSED = /\b(writ\w*|drafting|outlining|revising|stud(?:y|ies|ying|ents?)|research\w*|cod(?:e|ing)|exam|lecture|teach\w*|grading|taking notes|practis\w*|rehears\w*|paint\w*|animat\w*|working through)\b/i;

/** Big news in the observer's summary that the context does not show the other knows yet. */
function newsFor(summary: string, context: string): boolean {
	const lately = summary.split(/\bLately:\s*/)[1] ?? '';
	const known = new Set(contentWords(context));
	return sentences(lately).some((s) => {
		if (importanceOf(s) < 8 || PRIVATE.test(s)) return false;
		const tokens = contentWords(stripTimes(stripDates(s)));
		return tokens.filter((t) => known.has(t)).length / Math.max(1, tokens.length) < 0.5;
	});
}

function react(vars: TemplateVars): { react: boolean; talk: boolean; reaction: string } {
	const name = str(vars, 'name');
	const other = str(vars, 'other').trim();
	const status = str(vars, 'status');
	const otherStatus = str(vars, 'other_status');
	const observation = str(vars, 'observation');
	const context = str(vars, 'context');
	const hours = int(vars, 'hours_since_chat', 999);
	if (other && !SLEEPING.test(otherStatus) && !BUSY_TALKING.test(otherStatus) && !SLEEPING.test(status) && !BUSY_TALKING.test(status)) {
		// Each pair has its own appetite for talking: 3 to 5 game hours between chats.
		const threshold = 3 + (fnv1a32(`${name}|${other}`) % 3);
		if (hours >= threshold) {
			const knows = context.trim() !== '' && !/\bdoes not know\b/i.test(context);
			let chance = knows ? 30 : 12;
			if (newsFor(str(vars, 'summary'), context)) chance += 35;
			if (LEISURE.test(status)) chance += 10;
			if (FOCUSED.test(status) && !LEISURE.test(status)) chance -= 10;
			if (fnv1a32(`${name}|${other}|${str(vars, 'time')}`) % 100 < chance) {
				return { react: true, talk: true, reaction: `start a conversation with ${other}` };
			}
		}
	}
	if (!other && HAZARD.test(observation) && !SLEEPING.test(status)) {
		return { react: true, talk: false, reaction: truncate(`take care of it right away: ${observation.replace(/[.!]+$/, '')}`, 300) };
	}
	return { react: false, talk: false, reaction: '' };
}

interface Line {
	speaker: string;
	text: string;
}

function parseLines(lines: string[]): Line[] {
	return lines.map((l) => {
		const m = l.match(/^\s*([^:]{1,80}?):\s*(.*)$/);
		return m ? { speaker: m[1].trim(), text: m[2].trim() } : { speaker: '', text: l.trim() };
	});
}

const GOODBYE =
	/\b(bye|goodbye|see you (?:later|soon|around|then|tomorrow)|see you[,.!]|talk to you (?:later|soon)|have to go|got to go|gotta go|take care|catch you later|should get going|better get back)\b/i;
const ACCEPT = /\b(i'd love to come|i'll be there|i'll try to make it|count me in|i'll come)\b/i;
const INVITATION = /\b(would you like to come|want to come|you should come|join (?:me|us)|you're invited|you are invited|hope you can come|hope to see you there|come by)\b/i;
const FILLER = /^(hi|hey|hello|oh|wow|well|yes|yeah|sure|thanks|thank you|good|great|nice|okay|ok|really|anyway|bye|goodbye|see you|did you hear|by the way|i'd love to come|that sounds|how (?:is|are)|what (?:have|are) you|i heard about that|i know)/i;

/** A sentence without the conversational lead-in ("By the way, ..."). */
function stripLead(s: string): string {
	return s.replace(/^(?:did you hear\?|have you heard\?|by the way,?|oh,?|so,?|well,?|anyway,?|guess what\?)\s*/i, '');
}

/** Share of a sentence's content words already in `known`. */
function overlap(sentence: string, known: Set<string>): number {
	const tokens = contentWords(stripTimes(stripDates(sentence)));
	if (!tokens.length) return 1;
	return tokens.filter((t) => known.has(t)).length / tokens.length;
}

const ATTENDANCE = new RegExp(`^(?:${NAME}) (?:plans to go|might go|could go|will go) to\\b`);

/** The speaker's most salient memory (importance first, then retrieval order) not yet said in this conversation. */
function nextNews(memories: string[], history: Line[], speaker: string, listener: string, relationship = ''): string | undefined {
	const said = new Set(history.flatMap((l) => contentWords(l.text)));
	// Topics already talked about with this listener, in earlier conversations.
	const discussed = [relationship, ...memories]
		.flatMap((m) => sentences(m))
		.filter((s) => mentions(s, listener))
		.map((s) => s.match(TALKED_ABOUT)?.[1])
		.filter((t): t is string => t !== undefined)
		.map((t) => contentWords(t));
	const candidates: { s: string; rank: number; i: number }[] = [];
	memories.forEach((memory, i) => {
		for (const sentence of informative(memory)) {
			if (startsWithName(sentence, listener) || PRIVATE.test(sentence)) continue;
			const own = startsWithName(sentence, speaker);
			// Who goes where is one's own news; "might go" is nobody's.
			if (ATTENDANCE.test(sentence) && (!own || /\bmight go\b/.test(sentence))) continue;
			// Whom someone else invited is their business.
			const invitee = sentence.match(new RegExp(`\\binvited (${NAME}) to\\b`))?.[1];
			if (invitee && !mentions(invitee, speaker)) continue;
			// Others' news (and one's own plans to go somewhere) is passed on now and then, not in every conversation.
			const chance = !own ? 3 : ATTENDANCE.test(sentence) ? 2 : 1;
			if (fnv1a32(`${speaker}|${listener}|${sentence}`) % chance !== 0) continue;
			if (overlap(sentence, said) >= 0.6) continue;
			const words = new Set(contentWords(sentence));
			if (discussed.some((t) => t.length > 0 && t.every((w) => words.has(w)))) continue;
			// Dated news says more ("on June 9, 7 to 9 pm") than the same news without a date.
			candidates.push({ s: sentence, rank: importanceOf(sentence) + (dateMentions(sentence).length || timeMentions(sentence).length ? 0.5 : 0), i });
		}
	});
	const best = candidates.sort((a, b) => b.rank - a.rank || a.i - b.i)[0];
	if (!best) return undefined;
	const sentence = best.s;
	if (startsWithName(sentence, speaker)) {
		const own = endSentence(speakAsSelf(sentence, speaker, pronounOf(memories, speaker)));
		const hosting = EVENT_NOUN.test(sentence) && /\b(plan\w*|host\w*|throw\w*|organi[sz]\w*|invit\w*)\b/i.test(sentence) && !/\bplans to go\b/i.test(sentence);
		return hosting ? `${own} Would you like to come?` : own;
	}
	// "Ana invited Bo to the party", said by Bo: "Ana invited me to the party".
	const told = mentions(sentence, speaker) ? speakAsSelf(sentence, speaker, pronounOf(memories, speaker)) : sentence;
	return `${pick(['Did you hear?', 'Have you heard?', 'By the way,'], sentence + listener)} ${endSentence(told)}`;
}

function dialogueTurn(vars: TemplateVars): { utterance: string; end: boolean } {
	const name = str(vars, 'name');
	const other = str(vars, 'other');
	const o = firstName(other);
	const history = parseLines(list(vars, 'history'));
	const memories = list(vars, 'memories');
	const key = `${name}|${other}|${history.length}`;
	const maxLines = 4 + (fnv1a32(`${name}|${other}|${str(vars, 'time')}`) % 4);
	const closing = () => pick([`Anyway, I should get going. See you later, ${o}!`, `Well, it was nice talking to you, ${o}. Bye!`, `I'd better get back to it. Talk to you soon, ${o}!`], key);
	const news = nextNews(memories, history, name, other, str(vars, 'relationship'));

	if (!history.length) {
		const hello = pick([`Hi ${o}!`, `Hey ${o}, good to see you!`, `Oh, hi ${o}!`], key);
		return { utterance: truncate(`${hello} ${news ?? pick(['How is your day going?', 'What are you up to today?'], key)}`, 600), end: false };
	}
	const last = history[history.length - 1];
	if (GOODBYE.test(last.text)) return { utterance: pick([`Bye, ${o}! Take care.`, `See you, ${o}!`], key), end: true };

	const parts: string[] = [];
	const heard = sentences(last.text)
		.map(stripLead)
		.filter((s) => importanceOf(s) >= 6 && !FILLER.test(s) && contentWords(s).length >= 3);
	if (INVITATION.test(last.text)) parts.push(pick(["I'd love to come!", "That sounds fun, I'll be there!", "Thanks for the invitation, I'll try to make it!"], key));
	else if (heard.length) {
		// News the listener already has gets a nod, not surprise.
		const mine = new Set(memories.flatMap((m) => contentWords(m)));
		const already = heard.every((s) => overlap(s, mine) >= 0.8);
		parts.push(
			already
				? pick(['Yes, I heard about that.', 'I know, I heard that too.'], key)
				: pick(["Oh, really? That's interesting.", "Wow, I didn't know that.", "That's good to know, thanks for telling me."], key)
		);
	} else if (/\?\s*$/.test(last.text)) parts.push(pick(['Pretty good, thanks!', 'Busy, but good.', 'Not bad at all.'], key));
	else if (/^I\b/.test(stripLead(sentences(last.text).at(-1) ?? ''))) parts.push(pick(['That sounds great.', 'Good for you!', 'Nice, I hope it goes well.'], key));

	if (history.length + 1 >= maxLines) return { utterance: truncate([...parts, closing()].join(' '), 600), end: true };
	// Something to say: news first, else what one is busy with, once per conversation.
	const said = new Set(history.flatMap((l) => contentWords(l.text)));
	const busy = busyWith(str(vars, 'summary'), name);
	const content = news ?? (busy && overlap(busy, said) < 0.6 ? busy : undefined);
	if (content) {
		// Ask back when the other has not told anything about themselves yet.
		const theirs = history.filter((l) => l.speaker && mentions(l.speaker, other)).some((l) => /\bI (?:am|have|plan|will)\b/.test(l.text));
		const ask = !theirs && history.length + 2 < maxLines ? ` ${pick(['What about you?', 'And you, what are you up to?'], key)}` : '';
		return { utterance: truncate([...parts, content].join(' ') + ask, 600), end: false };
	}
	if (history.length >= 2) return { utterance: truncate([...parts, closing()].join(' '), 600), end: true };
	parts.push(pick(['What have you been up to?', 'Anything new with you?'], key));
	return { utterance: truncate(parts.join(' '), 600), end: false };
}

const SMALL_TALK = ['Pretty good, thanks for asking!', 'Not much, just going about my day.', "It's been a busy day, but a good one."];

/** What the speaker is busy with, from the summary's own "X is writing ..." sentence, in the first person. */
function busyWith(summary: string, name: string): string | undefined {
	for (const s of ownSentences(summary, name)) {
		if (!startsWithName(s, name) || !/^\S+(?:\s+\S+)?\s+is\s+(?:busy with\s+|[a-z]+ing\b)/.test(s)) continue;
		const core = s.replace(/,?\s+and\s+(?:is\s+)?(?:trying|hoping|wants?|wishing)\b.*$/i, '');
		if (PRIVATE.test(core)) continue;
		const first = endSentence(speakAsSelf(stripTimes(stripDates(core)), name));
		if (/^I am\b/.test(first) && contentWords(first).length >= 3) return truncate(first, 300);
	}
	return undefined;
}

const DATE_TEXT = /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b/i;
const TIME_TEXT = /\b(?:from\s+)?\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|-|–|until|till)\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\bat\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)\b/i;

/** "the party at the cafe on February 14 from 5pm to 7pm": an event with its date and time. */
function datedEvent(fact: string): string | undefined {
	const what = eventPhrase(fact);
	if (!what) return undefined;
	const date = fact.match(DATE_TEXT)?.[0];
	const time = fact.match(TIME_TEXT)?.[0];
	if (!date && !time) return undefined;
	return `${what}${date ? ` on ${date}` : ''}${time ? ` ${time.startsWith('at') || time.startsWith('from') ? time : `from ${time}`}` : ''}`;
}

function conversationMemo(vars: TemplateVars): { summary: string; plan_note: string } {
	const name = str(vars, 'name');
	const other = str(vars, 'other');
	const lines = parseLines(list(vars, 'transcript'));
	const facts: string[] = [];
	const told: string[] = [];
	let invited = false;
	let accepted = false;
	for (const line of lines) {
		const own = line.speaker ? mentions(line.speaker, name) && !mentions(line.speaker, other) : false;
		if (own) {
			told.push(...sentences(line.text).map(stripLead));
			if (sentences(line.text).some((s) => ACCEPT.test(s))) accepted = true;
			continue;
		}
		const speaker = line.speaker || other;
		for (const s of sentences(line.text)) {
			if (ACCEPT.test(s)) {
				const fact = `${speaker} said they would come.`;
				if (!facts.includes(fact)) facts.push(fact);
				continue;
			}
			if (INVITATION.test(s)) {
				invited = true;
				continue;
			}
			const stripped = stripLead(s);
			if (/\?\s*$/.test(stripped) || FILLER.test(stripped) || SMALL_TALK.includes(stripped) || contentWords(stripped).length < 3) continue;
			// What the other said about themselves ("I am writing a paper") is worth keeping; gossip only when it matters.
			if (importanceOf(stripped) < (/^I\b/.test(stripped) ? 3 : 5)) continue;
			let fact = endSentence(capitalise(toThirdPerson(stripped, speaker, name)));
			// "Ana Quill is writing Ana Quill's thesis" -> "... writing their thesis".
			if (startsWithName(fact, speaker)) fact = fact.replace(new RegExp(`(?<=\\S.*)\\b${escapeRegExp(speaker)}'s\\b`, 'g'), 'their');
			if (!facts.some((f) => f === fact || overlap(f, new Set(contentWords(fact))) >= 0.8)) facts.push(fact);
		}
	}
	const kept = facts.slice(0, 3);
	const event = kept.map(datedEvent).find((e) => e !== undefined);
	// The topic: the event heard of, or the news told ("about the upcoming election").
	const topics = [...kept, ...told].filter((f) => importanceOf(f) >= 6).map((f) => eventPhrase(f)).filter((t): t is string => t !== undefined);
	const topicText = event?.replace(/\s+(?:on|from|at)\s+.*$/, '') ?? topics[0];
	const topic = topicText ? ` about ${topicText}` : '';
	const parts = [`${name} talked with ${other}${topic}.`];
	if (kept.length) parts.push(...kept);
	else parts.push('They made small talk.');
	if (invited && event) parts.push(`${other} invited ${name} to ${event.replace(/\s+(?:on|from|at)\s+.*$/, '')}.`);
	let plan = '';
	if (event && (invited || accepted)) plan = `${name} plans to go to ${event}.`;
	else if (event) plan = `${name} might go to ${event}.`;
	return { summary: truncate(parts.join(' '), 1200), plan_note: truncate(plan, 400) };
}

// ---------------------------------------------------------------------------
// Reflection

const NOT_SUBJECTS = new Set(
	'the a an on in at she he they it this that today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december i what who when where why how there then after before while did have has lately yes oh hi hey wow anyway'.split(
		' '
	)
);

function subjectsOf(text: string, exclude: string): string[] {
	const out: string[] = [];
	const own = new Set(nameForms(exclude).flatMap((f) => f.toLowerCase().split(/\s+/)));
	for (const m of text.matchAll(/\b[A-Z][a-z'’]+(?:\s+(?:of\s+|and\s+|the\s+)?[A-Z][a-z'’]+)*/g)) {
		let parts = m[0].replace(/['’]s$/, '').split(/\s+/);
		while (parts.length && NOT_SUBJECTS.has(parts[0].toLowerCase())) parts = parts.slice(1);
		while (parts.length && /^(of|and|the)$/i.test(parts[parts.length - 1])) parts = parts.slice(0, -1);
		if (!parts.length) continue;
		if (parts.every((p) => own.has(p.toLowerCase()))) continue;
		out.push(parts.join(' '));
	}
	return out;
}

const DULL = new Set('idle sleeping asleep walking going doing talked talking conversation said told thing things time today work working morning afternoon evening day night plans plan getting eating'.split(' '));

function topicsOf(text: string, exclude: string): string[] {
	const own = new Set(nameForms(exclude).flatMap((f) => f.toLowerCase().split(/\s+/)));
	return words(text).filter((w) => w.length >= 4 && !DULL.has(w) && !own.has(w) && !NOT_SUBJECTS.has(w) && !/^\d/.test(w) && contentWords(w).length > 0);
}

function reflectionQuestions(vars: TemplateVars): string[] {
	const name = str(vars, 'name');
	const memories = list(vars, 'memories');
	const subjectCount = new Map<string, number>();
	const topicCount = new Map<string, number>();
	const properWords = new Set<string>();
	for (const m of memories) {
		for (const s of new Set(subjectsOf(m, name))) {
			subjectCount.set(s, (subjectCount.get(s) ?? 0) + 1);
			for (const w of s.toLowerCase().split(/\s+/)) properWords.add(w);
		}
	}
	for (const m of memories) for (const t of new Set(topicsOf(m, name))) if (!properWords.has(t)) topicCount.set(t, (topicCount.get(t) ?? 0) + 1);
	const rank = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
	// Prefer full names over their parts ("Ana Quill" over "Ana").
	const subjects = rank(subjectCount).filter((s, _, all) => !all.some((o) => o !== s && o.includes(s) && (subjectCount.get(o) ?? 0) >= (subjectCount.get(s) ?? 0)));
	const topics = rank(topicCount);
	const questions: string[] = [];
	const joined = memories.join(' \n ');
	for (const s of subjects.slice(0, 2)) {
		// "at the X", "in X": a place or thing rather than a person.
		const placeLike = new RegExp(`\\b(?:the|at|in|to|from|near|into)\\s+${escapeRegExp(s)}\\b`, 'i').test(joined);
		questions.push(
			placeLike
				? `What role does ${s} play in ${name}'s life right now?`
				: `What is ${name}'s relationship with ${s}, and how does ${name} feel about it?`
		);
	}
	for (const t of topics) {
		if (questions.length >= 3) break;
		questions.push(`What does ${name} think about the ${t} that keeps coming up?`);
	}
	const fallback = [`What matters most to ${name} right now?`, `Who has ${name} spent time with recently?`, `What is ${name} working toward?`];
	for (const f of fallback) if (questions.length < 3) questions.push(f);
	return questions.slice(0, 3);
}

/** A higher-level statement drawn from one informative memory sentence. */
function insightFrom(sentence: string, name: string): string {
	const s = sentence.replace(/[.!?]+$/, '');
	if (startsWithName(s, name)) {
		const doing = s.match(/^\S+(?:\s+\S+)?? (?:is|has been) ([a-z]+ing\b.*)$/);
		return doing ? `${name} cares a lot about ${doing[1]}.` : endSentence(s);
	}
	const event = datedEvent(s) ?? (EVENT_NOUN.test(s) ? eventPhrase(s) : undefined);
	if (event && importanceOf(s) >= 8) return `${name} is interested in ${event}.`;
	if (importanceOf(s) >= 8) return `${name} keeps thinking about the news that ${s}.`;
	return `${name} has learned that ${s}.`;
}

function reflectionInsights(vars: TemplateVars): { insight: string; evidence: number[] }[] {
	const name = str(vars, 'name');
	const question = str(vars, 'question');
	const memories = list(vars, 'memories');
	if (!memories.length) return [];
	const existing = new Set(memories.map((m) => m.trim().replace(/[.!?]+$/, '').toLowerCase()));
	const isNew = (text: string) => !existing.has(text.trim().replace(/[.!?]+$/, '').toLowerCase());
	const own = new Set(nameForms(name).flatMap((f) => contentWords(f)));
	const asked = new Set(contentWords(question).filter((w) => !own.has(w)));
	const scored = memories.map((m, i) => ({
		m,
		n: i + 1,
		rel: contentWords(m).filter((w) => asked.has(w)).length,
		imp: importanceOf(m)
	}));
	const insights: { insight: string; evidence: number[] }[] = [];
	const facts = scored.filter((x) => x.imp >= 6).sort((a, b) => b.rel * 2 + b.imp - (a.rel * 2 + a.imp) || a.n - b.n);
	for (const x of facts) {
		if (insights.length >= 3) break;
		const sentence = informative(x.m)[0];
		if (!sentence) continue;
		const text = truncate(insightFrom(sentence, name), 400);
		const same = insights.find((i) => i.insight === text);
		if (same) {
			if (!same.evidence.includes(x.n)) same.evidence.push(x.n);
		} else if (isNew(text)) insights.push({ insight: text, evidence: [x.n] });
	}
	// Conversations: who has been talking with whom, and about what.
	const talks = new Map<string, { topic?: string; ns: number[] }>();
	scored.forEach((x) => {
		const m = x.m.match(new RegExp(`^(?:${NAME}) talked with (${NAME})(?: about ([^.]+))?\\.`));
		if (!m) return;
		const entry = talks.get(m[1]) ?? { ns: [] };
		entry.ns.push(x.n);
		entry.topic ??= m[2];
		talks.set(m[1], entry);
	});
	for (const [other, t] of talks) {
		if (insights.length >= 4) break;
		const text = t.topic ? `${name} and ${other} have been talking about ${t.topic}.` : t.ns.length >= 2 ? `${name} and ${other} talk often.` : undefined;
		if (text && isNew(text) && !insights.some((i) => i.insight === text)) insights.push({ insight: text, evidence: t.ns.slice(0, 8) });
	}
	const bySubject = new Map<string, number[]>();
	scored.forEach((x) => {
		for (const s of new Set(subjectsOf(x.m, name))) bySubject.set(s, [...(bySubject.get(s) ?? []), x.n]);
	});
	const joined = memories.join(' \n ');
	// Who or what the question is about; without one, only the most frequent subject.
	const about = subjectsOf(question, name);
	const recurring = [...bySubject.entries()]
		.filter(([subject, ns]) => ns.length >= 2 && (!about.length || about.some((a) => a === subject || a.includes(subject) || subject.includes(a))))
		.sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
		.slice(0, about.length ? 2 : 1);
	for (const [subject, ns] of recurring) {
		if (insights.length >= 5) break;
		const s = escapeRegExp(subject);
		const placeLike = new RegExp(`\\b(?:the|at|in|to|from|near|into)\\s+${s}\\b`, 'i').test(joined);
		// A person does things: "Ana Quill is ...", "talked with Ana Quill".
		const personLike = new RegExp(`\\b${s} (?:is|was|has|had|said|told|asked|talked|invited|plans|likes|loves)\\b|\\bwith ${s}\\b`).test(joined);
		let text: string | undefined;
		if (placeLike) text = `${subject} is a big part of ${name}'s days lately.`;
		else if (personLike && subject.includes(' ')) text = `${name} has been seeing a lot of ${subject} lately.`;
		if (text && isNew(text)) insights.push({ insight: text, evidence: ns.slice(0, 8) });
	}
	if (!insights.length) {
		// Nothing stands out: a statement (not a sighting or a schedule item) on the agent's mind, or the routine itself.
		const statement = [...scored]
			.filter((x) => !DOING.test(x.m) && !OBJECT_EVENT.test(x.m) && !PLAN_ITEM.test(x.m) && !DAY_PLAN.test(x.m) && !CHATTING.test(x.m) && !BOOKKEEPING.test(sentences(x.m)[0] ?? ''))
			.sort((a, b) => b.rel - a.rel || b.imp - a.imp || a.n - b.n)[0];
		const core = statement ? relay(sentences(statement.m)[0] ?? statement.m).replace(/[.!?]+$/, '') : '';
		const text = statement && core ? `${name} has been thinking about this: ${core}.` : `${name} has been going about the usual routine lately.`;
		insights.push({ insight: truncate(text, 400), evidence: [statement?.n ?? 1] });
	}
	return insights.slice(0, 5);
}

// ---------------------------------------------------------------------------
// Speaking as oneself: third-person text about the agent (its summary, its memories) turned into
// the first person with verbs that agree: "Ana goes to bed" -> "I go to bed", "Lately:
// Ana is planning" -> "Lately, I am planning", "he and Ana trade tips" -> "he and I
// trade tips", "Bo invited Ana" -> "Bo invited me".

/** Third-person forms whose first-person form is not the word without its -s. */
const FIRST_PERSON_IRREGULAR: Record<string, string> = { is: 'am', "isn't": 'am not', 'isn’t': 'am not', was: 'was', has: 'have', "hasn't": "haven't", 'hasn’t': 'haven’t', does: 'do', "doesn't": "don't", 'doesn’t': 'don’t', goes: 'go' };
const AUXILIARIES = new Set("is isn't was wasn't has hasn't had does doesn't did didn't will won't would can can't could should may might must are were have".split(' '));
const SPEECH_ADVERBS = new Set('also often always usually sometimes never still just really rarely already even only generally normally typically now soon finally mostly regularly occasionally'.split(' '));
const PAST_IRREGULAR = new Set('said told went met saw made took gave came got thought knew felt left found bought brought wrote ran sat ate began spoke heard kept lost paid sent spent taught built drove rode woke slept read won'.split(' '));
/** Verbs not in the shared list that persona texts use. */
const MORE_VERBS = new Set('live own trade love hate prefer care worry wonder agree decide remember forget say tell ask invite believe seem host throw buy sell bring hold share enjoy volunteer struggle dream plan tend spend run teach study'.split(' '));
/** A name after these is an object ("with Ana", "to Ana"). */
const OBJECT_BEFORE = new Set('with to for about from at by of like than without into onto near toward towards behind beside besides between among against after before around beyond except under over past through'.split(' '));
const JOINERS = new Set('and or then but'.split(' '));
const TIME_WORDS = new Set('yesterday today tomorrow tonight later earlier again there here too once twice'.split(' '));

/** The first-person form of a third-person-singular verb ("goes" -> "go", "is" -> "am"); null for anything else. */
function firstPersonVerb(word: string): string | null {
	const w = word.toLowerCase();
	if (FIRST_PERSON_IRREGULAR[w]) return FIRST_PERSON_IRREGULAR[w];
	if (!/^[a-z]+s$/.test(w) || /(?:ss|us|is|ous|ics)$/.test(w) || SPEECH_ADVERBS.has(w) || w.length < 3) return null;
	if (/[^aeiou]ies$/.test(w)) return w.slice(0, -3) + 'y';
	if (/(?:sh|ch|x|z|o|ss)es$/.test(w)) return w.slice(0, -2);
	return w.slice(0, -1);
}

function knownVerb(base: string): boolean {
	return VERBS.has(base) || MORE_VERBS.has(base);
}

/** A known verb in the third person singular ("goes", "runs", "is"). */
function thirdPersonVerb(word: string): boolean {
	const w = word.toLowerCase();
	if (FIRST_PERSON_IRREGULAR[w]) return true;
	const base = firstPersonVerb(w);
	return base !== null && knownVerb(base);
}

function pastVerb(word: string): boolean {
	const w = word.toLowerCase();
	if (PAST_IRREGULAR.has(w)) return true;
	if (!w.endsWith('ed')) return false;
	return knownVerb(w.slice(0, -2)) || knownVerb(w.slice(0, -1)) || knownVerb(w.slice(0, -3)) || (w.endsWith('ied') && knownVerb(w.slice(0, -3) + 'y'));
}

/** A word that can follow a subject: an auxiliary or a known verb in the third person or the past. */
function verbAfterSubject(word: string): boolean {
	const w = word.toLowerCase();
	return AUXILIARIES.has(w) || thirdPersonVerb(w) || pastVerb(w);
}

/** The forms of `person` that refer to them alone (the first name only when not the start of another full name). */
function selfNames(person: string): string {
	const parts = person.trim().split(/\s+/).filter(Boolean);
	if (!parts.length) return '';
	const full = escapeRegExp(parts.join(' '));
	return parts.length === 1 ? full : `${full}|${escapeRegExp(parts[0])}(?!\\s+[A-Z])`;
}

/** The persona's pronoun ("she" / "he"), from how its own sentences speak of it; undefined when they do not say. */
function pronounOf(texts: string[], name: string): 'she' | 'he' | undefined {
	let she = 0;
	let he = 0;
	for (const t of texts) {
		for (const s of sentences(t)) {
			if (!startsWithName(s, name)) continue;
			she += (s.match(/\b(?:she|her|herself)\b/gi) ?? []).length;
			he += (s.match(/\b(?:he|him|his|himself)\b/gi) ?? []).length;
		}
	}
	return she > he ? 'she' : he > she ? 'he' : undefined;
}

/** Words of place and occasion names ("Lantern Cafe", "New Year's Eve"): not other people. */
const PLACE_WORDS = /^(?:Cafe|Café|Pub|Park|Store|College|Market|Pharmacy|Day|Eve|Street|Road|Avenue|Apartments?|Library|House|Home|Shop|Supply|Bar|Office|School|University|Hall|Garden|Center|Centre|Theatre|Theater|Room|Bakery|Church|Square|Station|Studio|Gallery|Museum|Club|Inn|Hotel|Restaurant|Kitchen|Space|Lane|Town|City|Village)$/;

const CALENDAR_WORDS = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)$/;

/** Whether `text` (words after the agent's own "I") names another person: a capitalised name that is not a place, an occasion or a date. */
function namesSomeoneElse(text: string): boolean {
	for (const m of text.matchAll(/(?:\b([a-z]+)\s+)?((?:[A-Z][\w'’-]*)(?:\s+(?:of\s+|and\s+|the\s+)?[A-Z][\w'’-]*)*)/g)) {
		const run = m[2].split(/\s+/).map((w) => w.replace(/['’]s$/, ''));
		if (run.length === 1 && (run[0] === 'I' || /^I['’]/.test(run[0]))) continue;
		if (run.some((w) => PLACE_WORDS.test(w) || CALENDAR_WORDS.test(w))) continue;
		if (m[1] && /^(?:at|in|to|from|near|into|of|the|around|outside|inside)$/.test(m[1])) continue;
		return true;
	}
	return false;
}

function matchCase(word: string, like: string): string {
	return /^[A-Z]/.test(like) ? capitalise(word) : word;
}

/** One clause (up to . ! ? or ;) about `names` in the first person. */
function clauseAsSelf(clause: string, names: string, pronoun: 'she' | 'he' | undefined): string {
	let out = clause.replace(new RegExp(`\\b(?:${names})['’]s\\b`, 'g'), 'my');
	out = out.replace(new RegExp(`\\b(?:${names})\\b`, 'g'), (m: string, offset: number, whole: string) => {
		const before = whole.slice(0, offset);
		const after = whole.slice(offset + m.length);
		const prev = /([A-Za-z'’]+)[^A-Za-z'’]*$/.exec(before)?.[1]?.toLowerCase() ?? '';
		const following = after.trim().split(/\s+/).map((w) => w.replace(/[^A-Za-z'’]/g, '').toLowerCase());
		let k = 0;
		while (SPEECH_ADVERBS.has(following[k] ?? '')) k++;
		const next = following[k] ?? '';
		const punctuated = /^\s*[,.;:!?)]/.test(after);
		if (/^\s*$|[:;—–]\s*$/.test(before)) return 'I';
		if (OBJECT_BEFORE.has(prev) || punctuated) return 'me';
		if (verbAfterSubject(next)) return 'I';
		// "he and Ana trade tips": two subjects and their verb
		if (prev === 'and' && /\b(?:he|she|they|[A-Z][a-z]+)\s+and\s+$/.test(before) && /^[a-z]+$/.test(next) && !OBJECT_BEFORE.has(next) && !TIME_WORDS.has(next) && !/^(?:the|a|an|this|that|my|his|her|their|our|your)$/.test(next)) return 'I';
		return 'me';
	});
	// "I and Bo are friends" -> "Bo and I are friends"
	out = out.replace(/^I and ((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)(?=\s+(?:are|were|have|had|will|would|[a-z]+ed|[a-z]+)\b)/, '$1 and I');

	// Verb agreement, word by word: the verb after "I", verbs joined to it ("and takes", ", wakes"),
	// and the agent's own pronoun in a clause joined to it ("and she wants").
	const tokens = out.split(/(\s+)/);
	const words: { i: number; w: string }[] = [];
	tokens.forEach((t, i) => {
		if (t && !/^\s+$/.test(t)) words.push({ i, w: t });
	});
	const bare = (t: string) => t.replace(/^[^A-Za-z'’]+|[^A-Za-z'’]+$/g, '');
	const set = (n: number, word: string) => {
		const raw = tokens[words[n].i];
		const core = bare(raw);
		tokens[words[n].i] = raw.replace(core, matchCase(word, core));
		words[n].w = tokens[words[n].i];
	};
	let mine = false;
	let expectVerb = false;
	let between = '';
	// "I am a student who cares about ... and works": the relative clause is about the agent, its verbs agree with "who"
	let agree = true;
	let predicate = false;
	for (let n = 0; n < words.length; n++) {
		const raw = words[n].w;
		const w = bare(raw);
		const lower = w.toLowerCase();
		const prevRaw = n > 0 ? words[n - 1].w : '';
		const prev = bare(prevRaw).toLowerCase();
		const joined = JOINERS.has(prev) || /,$/.test(prevRaw);
		if (w === 'I') {
			mine = true;
			agree = true;
			expectVerb = !/[,.;:!?]$/.test(raw);
			between = '';
			continue;
		}
		if (expectVerb) {
			if (SPEECH_ADVERBS.has(lower)) continue;
			expectVerb = false;
			const v = firstPersonVerb(lower);
			if (v && (FIRST_PERSON_IRREGULAR[lower] || !/^[A-Z]/.test(w))) set(n, v);
			predicate = (v ?? lower) === 'am' || lower === 'was';
			continue;
		}
		if (!mine) continue;
		between += ` ${raw}`;
		const next = n + 1 < words.length ? bare(words[n + 1].w) : '';
		if (lower === 'who' && predicate && !namesSomeoneElse(between)) {
			agree = false;
			continue;
		}
		// someone else becomes the subject: "Bo works", "who studies"
		if ((/^[A-Z]/.test(w) || /^(?:he|she|they|it|we|you|who|which|that|there)$/.test(lower)) && verbAfterSubject(next) && !(pronoun && lower === pronoun && !namesSomeoneElse(between))) {
			mine = false;
			continue;
		}
		if (pronoun && lower === pronoun && !namesSomeoneElse(between)) {
			set(n, 'I');
			tokens[words[n].i] = tokens[words[n].i].replace(/^i$/, 'I');
			expectVerb = true;
			agree = true;
			continue;
		}
		if (pronoun && !namesSomeoneElse(between)) {
			const possessive = pronoun === 'she' ? 'her' : 'his';
			const object = pronoun === 'she' ? 'her' : 'him';
			if (lower === `${object}self`) set(n, 'myself');
			else if (lower === possessive && /^[a-z]/.test(next) && !OBJECT_BEFORE.has(next) && !JOINERS.has(next) && !/[,.;:!?]$/.test(raw)) set(n, 'my');
			else if (lower === object) set(n, 'me');
		}
		// "and takes pride", ", wakes up", "and misses her family"
		const objectNext = /^(?:the|a|an|my|her|his|their|its|some|up|out|to|at|in|on|for|with|about|every|each|all|more|off)$/i.test(next);
		if (agree && joined && /^[a-z]/.test(w) && (thirdPersonVerb(lower) || (objectNext && firstPersonVerb(lower) !== null && !AUXILIARIES.has(lower)))) set(n, firstPersonVerb(lower)!);
	}
	out = tokens.join('');
	return out.replace(/^my\b/, 'My');
}

/** Third-person text about `name` in the first person (each sentence and clause on its own). */
export function speakAsSelf(text: string, name: string, pronoun?: 'she' | 'he'): string {
	const names = selfNames(name);
	if (!names) return text;
	return text
		.split(/(?<=[.!?;])\s+/)
		.map((c) => clauseAsSelf(c.replace(/^Lately:\s*/, 'Lately, '), names, pronoun))
		.join(' ');
}

// ---------------------------------------------------------------------------
// Interviews and the inner voice

const QUESTION_NOISE = new Set(
	contentWords('know knows think tell describe feel like happen happened hear heard anything something thing recent recently lately today day time person people would could please give kind sort really')
);

/** What the summary's header says (the engine's "Name: X (age: N)" and "Innate traits: ..." lines) and the rest. */
interface SelfFacts {
	age?: number;
	traits: string[];
	/** the summary's sentences after the header */
	body: string[];
}

function selfFacts(summary: string, name: string): SelfFacts {
	const facts: SelfFacts = { traits: [], body: [] };
	const bodyLines: string[] = [];
	for (const line of summary.split(/\n+/)) {
		const header = /^\s*Name:\s*[^(]*?(?:\(age:\s*(\d{1,3})\))?\s*$/i.exec(line);
		const traits = /^\s*Innate traits:\s*(.+)$/i.exec(line);
		if (header) {
			if (header[1]) facts.age = Number(header[1]);
		} else if (traits) facts.traits = traits[1].split(/\s*,\s*|\s+and\s+/).map((t) => t.trim()).filter(Boolean);
		else bodyLines.push(line);
	}
	facts.body = sentences(bodyLines.join(' '));
	if (facts.age === undefined) {
		const said = facts.body.find((s) => startsWithName(s, name) && /\b(\d{1,3}) years old\b/.test(s));
		if (said) facts.age = Number(/\b(\d{1,3}) years old\b/.exec(said)![1]);
	}
	return facts;
}

function joinList(items: string[]): string {
	return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "in the morning" -> [start, end) in minutes; the night wraps past midnight. */
const DAY_PARTS: { re: RegExp; asked: RegExp; label: string; from: number; to: number }[] = [
	{ re: /\bmornings?\b|\bbreakfast\b/i, asked: /\bmornings?\b/i, label: 'In the morning', from: 5 * 60, to: 12 * 60 },
	{ re: /\bafternoons?\b|\blunch(?:time)?\b/i, asked: /\bafternoons?\b/i, label: 'In the afternoon', from: 12 * 60, to: 17 * 60 },
	{ re: /\bevenings?\b|\btonight\b|\bdinner\b|\bafter work\b/i, asked: /\bevenings?\b|\btonight\b|\bafter work\b/i, label: 'In the evening', from: 17 * 60, to: 24 * 60 + 1 },
	{ re: /\bnights?\b|\bbedtime\b|\bgo(?:ing)? to (?:bed|sleep)\b/i, asked: /\b(?:at|every|each|most) nights?\b|\bbedtime\b/i, label: 'At night', from: 20 * 60, to: 29 * 60 }
];

/** Something the agent does at a time of day, in the first person. */
interface Doing {
	text: string;
	start?: number;
	end?: number;
	/** a part of the day the text names without a clock time ("in the evening") */
	part?: string;
	/** where it comes from: the day's agenda, the hour-level plan, or the persona's routine */
	source: 'agenda' | 'hourly' | 'routine';
	order: number;
}

/** One thing per time of day: the agenda before the hour-level plan before the routine, no hour-level step inside an agenda item. */
function distinctDoings(ds: Doing[]): Doing[] {
	const rank = { agenda: 0, hourly: 1, routine: 2 };
	const kept: Doing[] = [];
	for (const d of [...ds].sort((a, b) => rank[a.source] - rank[b.source] || a.order - b.order)) {
		if (d.start === undefined) {
			if (!kept.some((k) => k.text === d.text)) kept.push(d);
			continue;
		}
		if (kept.some((k) => k.start !== undefined && Math.abs(k.start - d.start!) <= 20)) continue;
		if (d.source === 'hourly' && kept.some((k) => k.start !== undefined && k.end !== undefined && k.end - k.start > (d.end ?? d.start!) - d.start! && k.start <= d.start! && k.end >= (d.end ?? d.start!))) continue;
		kept.push(d);
	}
	return kept.sort((a, b) => (a.start ?? 1e9) - (b.start ?? 1e9) || a.order - b.order);
}

/** "Monday February 13, 2023, 07:00" -> the date and the minute of the day. */
function nowOf(time: string): { date: string; minute?: number } {
	const m = /^(.*?),\s*(\d{1,2}):(\d\d)\s*$/.exec(time.trim());
	return m ? { date: m[1].trim(), minute: Number(m[2]) * 60 + Number(m[3]) } : { date: time.trim() };
}

const DAY_PLAN_ITEMS = /^[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*?['’]s plan for ([^:]*):\s*(.*)$/;
const PLAN_LINE = /^[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*?['’]s (?:new )?plan:\s*(.+?)\s+(?:from|at)\s+(\d{1,2}:\d\d\s*[ap]m)(?:\s+to\s+(\d{1,2}:\d\d\s*[ap]m))?(?:\s+on\s+(.+?))?\.?$/;

/** A memory as the agent would say it: plans in the future or past tense, the rest in the first person. */
function memoryAsSelf(memory: string, name: string, pronoun: 'she' | 'he' | undefined, now: { date: string; minute?: number }): string {
	const line = PLAN_LINE.exec(memory.trim());
	if (line) {
		const [, activity, from, to, date] = line;
		const start = timeMentions(from)[0]?.minutes ?? 0;
		const when = to ? `from ${from} to ${to}` : `at ${from}`;
		const today = !date || date.trim() === now.date;
		const ahead = today && (now.minute === undefined || start >= now.minute);
		const on = today ? '' : ` on ${date}`;
		return ahead ? `I'll be ${activity} ${when}${on}.` : `I planned to be ${activity} ${when}${on}.`;
	}
	const day = DAY_PLAN_ITEMS.exec(memory.trim());
	if (day) {
		const items = day[2].split(/\s*;\s*/).map((x) => x.trim().replace(/[.]$/, '')).filter(Boolean);
		const today = day[1].trim() === now.date;
		return `${today ? 'Today I plan to' : `On ${day[1].trim()} I planned to`} ${joinList(unique(items))}.`;
	}
	return endSentence(speakAsSelf(memory, name, pronoun));
}

/** What the agent does through the day, from its summary's routine and its plans for today. */
function doings(facts: SelfFacts, memories: string[], name: string, pronoun: 'she' | 'he' | undefined, now: { date: string; minute?: number }, future: boolean): Doing[] {
	const out: Doing[] = [];
	const planned: { activity: string; start: number; end: number }[] = [];
	for (const m of memories) {
		const line = PLAN_LINE.exec(m.trim());
		if (line && (!line[4] || line[4].trim() === now.date)) {
			const start = timeMentions(line[2])[0]?.minutes;
			const end = line[3] ? timeMentions(line[3])[0]?.minutes : undefined;
			if (start !== undefined) planned.push({ activity: line[1], start, end: end ?? start + 15 });
			continue;
		}
		const day = DAY_PLAN_ITEMS.exec(m.trim());
		if (day && day[1].trim() === now.date) {
			for (const item of day[2].split(/\s*;\s*/)) {
				const t = timeMentions(item);
				if (!t.length) continue;
				const range = timeRange(item);
				const what = speakAsSelf(`I ${item.trim().replace(/[.]$/, '')}`, name, pronoun).replace(/^I /, '');
				const text = /^[a-z]+ing\b/.test(what) ? `${future ? "I'll be" : "I'm"} ${what}` : `${future ? "I'll" : 'I'} ${what}`;
				out.push({ text, start: t[0].minutes, end: range?.end, source: 'agenda', order: out.length });
			}
		}
	}
	// consecutive hours of the same activity are one stretch
	planned.sort((a, b) => a.start - b.start);
	const merged: typeof planned = [];
	for (const p of planned) {
		const last = merged[merged.length - 1];
		if (last && last.activity === p.activity && p.start <= last.end) last.end = Math.max(last.end, p.end);
		else if (!merged.some((x) => x.activity === p.activity && x.start === p.start)) merged.push({ ...p });
	}
	for (const p of merged) out.push({ text: `${future ? "I'll be" : "I'm"} ${p.activity} from ${clock12(p.start)} to ${clock12(p.end)}`, start: p.start, end: p.end, source: 'hourly', order: out.length });
	// the routine: undated sentences about the agent, clause by clause ("goes to bed around 11pm, wakes up around 6am")
	const own = [...facts.body, ...memories].map((s) => s.replace(/^Lately:\s*/, '')).filter((s) => startsWithName(s, name) && !dateMentions(s).length && !PLAN_LINE.test(s) && !DAY_PLAN_ITEMS.test(s));
	for (const s of unique(own)) {
		for (const sentence of sentences(s)) {
			const first = speakAsSelf(sentence, name, pronoun).replace(/[.!?]+$/, '');
			const clauses = splitClauses(first).map((c, i) => (i === 0 ? c.text : `I ${c.text}`));
			for (const c of clauses) {
				const t = timeMentions(c);
				const part = DAY_PARTS.find((p) => p.re.test(c));
				// what the agent was doing when it was seen ("I am eating breakfast") is not a habit
				if (!t.length && (!part || /^I am \w+ing\b/.test(c))) continue;
				out.push({ text: c, start: t[0]?.minutes, end: timeRange(c)?.end, part: t.length ? undefined : part?.label, source: 'routine', order: out.length });
			}
		}
	}
	return out.filter((d, i) => out.findIndex((x) => x.text.toLowerCase() === d.text.toLowerCase()) === i);
}

function inWindow(d: Doing, from: number, to: number): boolean {
	if (d.start === undefined) return false;
	const starts = [d.start, d.start + 24 * 60];
	const end = d.end !== undefined && d.end > d.start ? d.end : d.start;
	return starts.some((s) => (s >= from && s < to) || (s < from && s + (end - d.start!) > from));
}

const OCCUPATION_QUESTION = /\b(occupation|profession|career|jobs?|for a living|line of work|what (?:kind of )?work|where do you work|do you work|(?:your|for|at) work|work as)\b|^\s*what do you do\s*\??\s*$/i;
const NAME_QUESTION = /\b(your name|who am i (?:talking|speaking) (?:to|with)|what are you called|what should i call you)\b/i;
const AGE_QUESTION = /\b(how old|your age|what age)\b/i;
/** A sentence that says what the agent does for a living. */
const WORK_WORDS = /\b(?:is an? (?!regular\b|client\b|friend\b|neighbou?r\b)|works?\b|runs?\b|owns?\b|manages?\b|teach(?:es)?\b|tends?\b|stud(?:y|ies)\b|students?\b|professor\b|retired\b|shopkeeper\b|employ\w*|job\b|volunteers?\b)/i;
const INTEREST_QUESTION = /\b(interests?|interested in|hobby|hobbies|passions?|free time|spare time|like to do|enjoy doing)\b/i;
const INTEREST_WORDS = /\b(?:loves?|likes? to|enjoys?|interested in|fascinated by|passionate|passion for|cares? (?:deeply |a great deal )?about|spare time|free time)\b/i;
const PROJECT_WORDS = /\b(?:is (?:working on|writing|preparing|building|painting|putting together|composing|rehearsing)|is busy with)\b/i;

/** Whether a first-person sentence names a place ("Lantern Cafe", "home"). */
function namesPlace(text: string): boolean {
	return /\b(?:home|office|college|university|school|cafe|store|shop|pub|market|pharmacy|studio|library)\b/i.test(text) || /(?<!^)\b(?!I\b)[A-Z][a-z]+/.test(text.replace(/^\W*\w+/, ''));
}

function occupationAnswer(facts: SelfFacts, memories: string[], name: string, pronoun: 'she' | 'he' | undefined): string {
	const own = (list: string[]) => list.map((s) => s.replace(/^Lately:\s*/, '')).filter((s) => startsWithName(s, name) && !PLAN_LINE.test(s) && !DAY_PLAN_ITEMS.test(s) && !/\byears old\b/.test(s));
	const fromSummary = own(facts.body).filter((s) => WORK_WORDS.test(s) && !PROJECT_WORDS.test(s));
	const fromMemory = own(memories.flatMap((m) => sentences(m))).filter((s) => WORK_WORDS.test(s) && !PROJECT_WORDS.test(s));
	const said: string[] = [];
	const first = fromSummary[0] ?? fromMemory[0];
	if (!first) {
		const project = own(facts.body).find((s) => PROJECT_WORDS.test(s));
		return project ? `I don't have a job as such. ${endSentence(speakAsSelf(project, name, pronoun))}` : "I'd rather not say much about work; there isn't much to tell.";
	}
	said.push(endSentence(speakAsSelf(first, name, pronoun)));
	if (!namesPlace(said[0])) {
		const where = [...fromSummary, ...fromMemory].map((s) => endSentence(speakAsSelf(s, name, pronoun))).find((s) => s !== said[0] && namesPlace(s));
		if (where) said.push(where);
	}
	if (said.length < 2) {
		const project = own(facts.body).find((s) => PROJECT_WORDS.test(s));
		if (project) said.push(`Right now, ${endSentence(speakAsSelf(project, name, pronoun)).replace(/^I\b/, 'I')}`);
	}
	return truncate(said.join(' '), 1500);
}

function interview(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const summary = str(vars, 'summary');
	const question = str(vars, 'question');
	const memories = list(vars, 'memories');
	const now = nowOf(str(vars, 'time'));
	const key = name + question;
	const facts = selfFacts(summary, name);
	const pronoun = pronounOf([...facts.body, ...memories], name);
	const firstPerson = (s: string) => endSentence(speakAsSelf(s, name, pronoun));

	if (NAME_QUESTION.test(question)) return `My name is ${name}.`;
	if (AGE_QUESTION.test(question)) return facts.age ? `I'm ${facts.age} years old.` : "I'd rather not say how old I am.";
	if (/\b(introduc\w*|yourself|about you|who are you)\b/i.test(question)) {
		const age = facts.age ? [`I'm ${facts.age} years old${facts.traits.length ? `, and I'm ${joinList(facts.traits)}` : ''}.`] : [];
		const rest = facts.body.filter((s) => !(facts.age && /\byears old\b/.test(s))).slice(0, 3 - age.length).map(firstPerson);
		const intro = [...age, ...rest].join(' ');
		return truncate(intro ? `Hi, I'm ${name}. ${intro}` : `I'm ${name}.`, 1500);
	}
	if (HAZARD.test(question)) return "I'd stop what I'm doing and take care of it right away.";
	if (OCCUPATION_QUESTION.test(question) && !DAY_PARTS.some((p) => p.asked.test(question))) return occupationAnswer(facts, memories, name, pronoun);
	if (INTEREST_QUESTION.test(question)) {
		const liked = unique([...facts.body, ...memories.flatMap((m) => sentences(m))].map((s) => s.replace(/^Lately:\s*/, '')).filter((s) => startsWithName(s, name) && INTEREST_WORDS.test(s)))
			.slice(0, 2)
			.map(firstPerson);
		if (liked.length) return truncate(liked.join(' '), 1500);
	}
	const future = /\b(today|tonight|tomorrow|will|going to|plans?)\b/i.test(question);
	const asked = timeMentions(question);
	// "what do you do in the evening?", not "you need to cook dinner: what would you do?"
	const part = /\bwould\b/i.test(question) ? undefined : DAY_PARTS.find((p) => p.asked.test(question));
	if (asked.length || part || /\b(schedule|routine|weekday|typical day|tomorrow|will you be doing)\b/i.test(question)) {
		const every = doings(facts, memories, name, pronoun, now, future);
		const all = distinctDoings(every);
		const timed = all.filter((d) => d.start !== undefined);
		if (asked.length) {
			const t = asked[0].minutes;
			const finished = /\bfinished\b/i.test(question);
			const span = (d: Doing) => (d.end ?? d.start! + 60) - d.start!;
			const covering = every.filter((d) => d.start !== undefined && d.start <= t && (d.end ?? d.start + 60) > t).sort((a, b) => span(a) - span(b) || a.order - b.order);
			const at = finished ? timed.filter((d) => (d.end ?? d.start!) <= t).at(-1) : (covering[0] ?? timed.find((d) => Math.abs(d.start! - t) <= 30));
			if (at) return truncate(`${finished ? 'Before' : 'At'} ${clock12(t).replace(':00', '')}${/\btomorrow\b/i.test(question) ? ' tomorrow' : ''}, ${endSentence(at.text.replace(/^I'm\b/, future ? "I'll be" : "I'm"))}`, 1500);
			if (!part) return "I don't know yet; I haven't planned that far.";
		}
		if (part) {
			const chosen = [...timed.filter((d) => inWindow(d, part.from, part.to)), ...all.filter((d) => d.part === part.label)].slice(0, 4);
			if (!chosen.length) return `I don't have anything set for ${part.label.toLowerCase().replace(/^(?:in|at) the /, 'the ').replace(/^at night$/, 'the night')}.`;
			const said = chosen.map((d) => endSentence(d.text));
			return truncate(said.some((t) => part.re.test(t)) ? said.join(' ') : `${part.label}, ${said.join(' ')}`, 1500);
		}
		const said = [...timed.slice(0, 6), ...all.filter((d) => d.part).slice(0, 2)].map((d) => endSentence(d.text));
		return said.length ? truncate(`Let me think. ${said.join(' ')}`, 1500) : "I don't know yet; I haven't planned that far.";
	}
	if (/\b(plans?|planning|up to|working on|busy with)\b/i.test(question)) {
		const ahead = distinctDoings(doings(facts, memories, name, pronoun, now, true))
			.filter((d) => d.start !== undefined && (now.minute === undefined || (d.end ?? d.start) > now.minute))
			.slice(0, 4)
			.map((d) => endSentence(d.text));
		const projects = unique(facts.body.map((s) => s.replace(/^Lately:\s*/, '')).filter((s) => startsWithName(s, name) && (PROJECT_WORDS.test(s) || /\bplanning\b/.test(s))))
			.slice(0, 2)
			.map(firstPerson);
		if (ahead.length || projects.length) return truncate([...projects, ...ahead].join(' '), 1500);
	}
	if (/\b(one person|spend time with|who would it be)\b/i.test(question)) {
		const counts = new Map<string, number>();
		// people, not places ("Lantern Cafe")
		for (const m of memories) for (const s of new Set(subjectsOf(m, name))) if (s.includes(' ') && !s.split(/\s+/).some((w) => PLACE_WORDS.test(w))) counts.set(s, (counts.get(s) ?? 0) + 1);
		const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
		if (!top) return "I don't know. I haven't really gotten to know anyone lately.";
		const why = memories.find((m) => m.includes(top[0]));
		return truncate(`I'd spend time with ${top[0]}.${why ? ` ${memoryAsSelf(why, name, pronoun, now)}` : ''}`, 1500);
	}

	const own = new Set(nameForms(name).flatMap((f) => contentWords(f)));
	const wanted = new Set(contentWords(question).filter((w) => !own.has(w) && !QUESTION_NOISE.has(w)));
	if (!wanted.size) return "I don't know.";
	const need = Math.min(2, wanted.size);
	const matches = memories
		.map((m, i) => ({ m, i, hits: new Set(contentWords(m).filter((w) => wanted.has(w))).size }))
		.filter((x) => x.hits >= need)
		.sort((a, b) => b.hits - a.hits || a.i - b.i)
		.slice(0, 3);
	if (!matches.length) return pick(["I don't know.", "I don't know, I haven't heard anything about that."], key);
	const said = matches
		.map((x) => informative(x.m, 1)[0] ?? x.m)
		.filter((s, i, all) => all.indexOf(s) === i)
		.map((s) => memoryAsSelf(s, name, pronoun, now));
	const yes = /^(do|did|have|has|are|is|were|was)\b/i.test(question.trim()) ? 'Yes. ' : '';
	return truncate(`${yes}${pick(['From what I remember, ', 'As far as I know, ', 'Well, '], key)}${said.join(' ')}`, 1500);
}

function innerVoice(directive: string): string {
	const text = directive
		.trim()
		.replace(/\byou are\b/gi, 'I am')
		.replace(/\byou're\b/gi, "I'm")
		.replace(/\byou were\b/gi, 'I was')
		.replace(/\byou have\b/gi, 'I have')
		.replace(/\byou've\b/gi, "I've")
		.replace(/\byou will\b/gi, 'I will')
		.replace(/\byou'll\b/gi, "I'll")
		.replace(/\byou should\b/gi, 'I should')
		.replace(/\byou must\b/gi, 'I must')
		.replace(/\byou need\b/gi, 'I need')
		.replace(/\byou want\b/gi, 'I want')
		.replace(/\byourself\b/gi, 'myself')
		.replace(/\byours\b/gi, 'mine')
		.replace(/\byour\b/gi, 'my')
		.replace(/(^|[.!?;]\s+|\b(?:and|that|if|when|because|so)\s+)you\b/gi, '$1I')
		.replace(/\byou\b/gi, 'me');
	const thought = capitalise(text.replace(/^I\b/, 'I'));
	return thought ? endSentence(thought) : 'I should think about what to do next.';
}
