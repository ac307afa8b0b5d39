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
	capitalise,
	clock12,
	clock24,
	contentWords,
	dateMentions,
	escapeRegExp,
	firstName,
	mentions,
	nameForms,
	pick,
	sentences,
	stripDates,
	stripTimes,
	timeAfter,
	timeMentions,
	timeRange,
	toFirstPerson,
	toThirdPerson,
	truncate,
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
			return { ratings: list(vars, 'memories').map(importanceOf) };
		case 'agent_summary':
			return { summary: agentSummary(vars) };
		case 'daily_plan':
			return dailyPlan(vars);
		case 'hourly_schedule':
			return { blocks: hourlySchedule(vars) };
		case 'decompose_task':
			return { subtasks: decompose(str(vars, 'activity'), int(vars, 'minutes', 60)) };
		case 'choose_sector':
		case 'choose_arena':
		case 'choose_object':
			return { choice: choose(template, vars) };
		case 'action_emoji':
			return { emoji: emojiFor(str(vars, 'activity')) };
		case 'object_state':
			return { state: objectState(str(vars, 'activity'), str(vars, 'object'), str(vars, 'name')) };
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
		case 'replan':
			return { blocks: replan(vars) };
		default:
			throw new Error(`the offline stand-in has no rule for template "${template}"`);
	}
}

// ---------------------------------------------------------------------------
// Importance: a lexicon of poignant and mundane words on the 1..10 scale.

const IMPORTANCE: [number, RegExp][] = [
	[9, /\b(died|dies|dead|death|funeral|passed away|killed|broke up|break up|breakup|divorce\w*|pregnant|engaged|proposal|proposed|wedding|married|accepted (?:in)?to|acceptance|admitted to|emergency|hospital|accident|on fire|fire|burning|lost (?:his|her|their|my) job|fired)\b/i],
	[8, /\b(crush|in love|loves?|kiss\w*|ask(?:ed|s)? \w+ out|date with|election|mayor|candidacy|campaign\w*|running for|run for|vote|voting|party|parties|celebrat\w*|valentine\w*|birthday|anniversary|festival|invit\w*|promot\w*|new job|hired|secret|confess\w*|argument|fight|quarrel\w*|angry|upset|cried|crying|scared|worried|afraid|lonely|jealous|heartbr\w*)\b/i],
	[7, /\b(exam|exams|deadline|interview|competition|performance|concert|exhibition|publish\w*|grant|award|prize|thesis|debate|rally|announce\w*)\b/i],
	[6, /\b(plan|plans|planning|planned|decided|decide|decision|idea|goal|dream|hope|hopes|excited|proud|happy|sad|news|met|meet|meeting|first time|new friend|paper|project|research\w*|compos\w*|gentrif\w*)\b/i],
	[5, /\b(conversation|talked|talk|talking|chat\w*|said|told|asked|discuss\w*|help|helped|learn\w*|stud(?:y|ies|ying)|write|writing|teach\w*|class|lecture|paint\w*|friend|friends|neighbou?r)\b/i],
	[4, /\b(work|works|working|cook\w*|shop\w*|buy\w*|customer\w*|serv(?:e|es|ing)|order\w*|open\w*|prepar\w*)\b/i],
	[2, /\b(eat|eats|eating|breakfast|lunch|dinner|coffee|read|reading|walk\w*|shower\w*|brush\w*|teeth|bed|clean\w*|tidy\w*|wash\w*|dress\w*|commut\w*|wait\w*|sit|sits|sitting|stand\w*|routine)\b/i],
	[1, /\b(idle|sleeping|asleep|sleeps|nap\w*|nothing)\b/i]
];

/** 1..10: the highest lexicon class found; texts with no known word rate 3. */
export function importanceOf(text: string): number {
	let best = 0;
	let strong = 0;
	for (const [weight, re] of IMPORTANCE) {
		if (re.test(text)) {
			best = Math.max(best, weight);
			if (weight >= 7) strong++;
		}
	}
	if (best === 0) return 3;
	// "the bed is idle": nothing is happening at all.
	if (best <= 2 && IMPORTANCE[IMPORTANCE.length - 1][1].test(text)) return 1;
	return Math.min(10, best + (strong > 1 ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Sentences worth passing on

/** The informative sentences of a memory (greetings and bookkeeping like "X talked with Y." dropped). */
function informative(memory: string, min = 6): string[] {
	return sentences(memory).filter((s) => !/^[^.]*\btalked with\b[^.]*\.?$/i.test(s) && importanceOf(s) >= min && contentWords(s).length >= 3);
}

/** The text without capitalised words after the first: keeps "bakery" rules off names like "Sunny Bakery". */
function commonWords(text: string): string {
	return text.replace(/(?<=\S\s+)[A-Z][\w'’-]*/g, ' ');
}

function startsWithName(sentence: string, name: string): boolean {
	return nameForms(name).some((f) => new RegExp(`^${escapeRegExp(f)}\\b`, 'i').test(sentence.trim()));
}

function endSentence(s: string): string {
	const t = s.trim();
	return /[.!?]$/.test(t) ? t : t + '.';
}

// ---------------------------------------------------------------------------
// Summaries

function agentSummary(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const age = int(vars, 'age', 0);
	const parts = [`${name}${age > 0 ? ` is ${age} years old` : ''}${str(vars, 'innate') ? ` and is ${str(vars, 'innate')}` : ''}.`];
	for (const key of ['learned', 'currently', 'lifestyle']) {
		const text = str(vars, key).trim();
		if (text) parts.push(endSentence(text));
	}
	const persona = parts.join(' ').toLowerCase();
	const recent = list(vars, 'memories')
		.flatMap((m) => informative(m))
		.filter((s, i, all) => all.indexOf(s) === i && !persona.includes(s.toLowerCase().replace(/[.!?]$/, '')))
		.slice(0, 2);
	if (recent.length) parts.push(`Lately: ${recent.map(endSentence).join(' ')}`);
	const feeling = pick(
		['feels good about how things are going', 'feels things are moving in the right direction', 'is eager to make progress on current plans'],
		name + str(vars, 'currently')
	);
	parts.push(`${firstName(name)} ${feeling}.`);
	return truncate(parts.join(' '), 1500);
}

function contextSummary(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const other = str(vars, 'other');
	const about = list(vars, 'memories')
		.flatMap((m) => sentences(m))
		.filter((s) => mentions(s, other))
		.filter((s, i, all) => all.indexOf(s) === i);
	if (!about.length) return `${name} does not know ${other} yet.`;
	const best = about.slice(0, 4).map(endSentence);
	return truncate(`${name} knows ${other}. ${best.join(' ')}`, 800);
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
// Planning

interface Routine {
	wake: number;
	sleep: number;
	work?: { activity: string; start?: number; end?: number };
}

const WAKE_WORDS = /\b(?:wakes?|waking|woke|gets? up|getting up|rises?)\b(?: up)?/;
const SLEEP_WORDS = /\b(?:goes to (?:bed|sleep)|go to (?:bed|sleep)|going to (?:bed|sleep)|bed|sleeps?|asleep)\b/;
const WORK_WORDS =
	/\b(works?|working|opens?|runs? (?:the|a|his|her|their)|manages?|teach(?:es)?|teaching|stud(?:y|ies)|studying|attends?|classes|shift|job|office|research(?:es)?|writes?|writing|paints?|painting|practi[cs]es?|serves?|sells?|operates?|tends?|counter|lectures?|composes?)\b/gi;

const OCCUPATIONS: [RegExp, string][] = [
	[/\bstudent\b/i, 'attend classes and study'],
	[/\b(professor|teacher|lecturer|instructor)\b/i, 'teach classes and prepare lessons'],
	[/\b(writer|author|poet|journalist)\b/i, 'write'],
	[/\b(artist|painter|illustrator|photographer)\b/i, 'work on art projects'],
	[/\b(musician|composer|singer)\b/i, 'practice and compose music'],
	[/\b(retired|retiree)\b/i, 'take care of the house and errands'],
	[/\b(owner|shopkeeper|clerk|cashier|barista|bartender|pharmacist|cook|chef|baker|nurse|doctor|mechanic|worker|manager|assistant)\b/i, 'go to work']
];

function stripSubject(clause: string, name: string): string {
	let c = clause.trim();
	for (const form of nameForms(name)) c = c.replace(new RegExp(`^${escapeRegExp(form)}\\b\\s*`, 'i'), '');
	return c.replace(/^(?:he|she|they|then|usually|always|often|normally|also|typically)\s+/i, '').replace(/^(?:usually|always|often|normally|also)\s+/i, '');
}

function baseVerb(word: string): string {
	const w = word.toLowerCase();
	const irregular: Record<string, string> = { has: 'have', does: 'do', goes: 'go', is: 'be' };
	if (irregular[w]) return irregular[w];
	if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
	if (/(sh|ch|ss|x|z)es$/.test(w)) return w.slice(0, -2);
	if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
	return w;
}

/** "Ana opens the shop at 8am everyday, and works at the counter until 8pm" -> "open the shop and work at the counter". */
function activityFromClause(clause: string, name: string): string {
	let c = stripDates(stripTimes(clause.replace(/,?\s*(?:at which point|which|where|when|so that|because)\b.*$/i, '')));
	c = stripSubject(c, name);
	const parts = c
		.split(/,?\s+and\s+|,\s+/i)
		.map((p) => stripSubject(p, name))
		.filter((p) => p.length > 0)
		.map((p) => {
			const [first, ...rest] = p.split(/\s+/);
			return [baseVerb(first), ...rest].join(' ');
		});
	return parts.join(' and ').replace(/[.;:,\s]+$/, '');
}

function routineOf(name: string, summary: string, requirement: string): Routine {
	const text = `${requirement}. ${summary}`;
	let wake = timeAfter(text, WAKE_WORDS);
	let sleep = timeAfter(text, SLEEP_WORDS);
	if (wake === undefined || wake < 3 * 60 || wake > 12 * 60) wake = 7 * 60;
	if (sleep === undefined) sleep = wake <= 6 * 60 ? 22 * 60 : 23 * 60;
	if (sleep <= wake) sleep = Math.min(sleep + 24 * 60, 24 * 60 - 30);
	sleep = Math.min(sleep, 24 * 60 - 30);

	// The routine sentence about work: the one with most work words, the requirement first.
	let best: { clause: string; score: number } | undefined;
	const candidates = [...sentences(requirement).map((s) => ({ s, bonus: 1 })), ...sentences(summary).map((s) => ({ s, bonus: 0 }))];
	for (const { s, bonus } of candidates) {
		if (WAKE_WORDS.test(s) && !s.match(WORK_WORDS)) continue;
		const hits = s.match(WORK_WORDS)?.length ?? 0;
		if (!hits) continue;
		const score = hits + bonus + (timeMentions(s).length ? 1 : 0) - (/\b(party|event|celebrat\w*)\b/i.test(s) ? 3 : 0);
		if (!best || score > best.score) best = { clause: s, score };
	}
	let work: Routine['work'];
	if (best && best.score > 0) {
		const times = timeMentions(best.clause);
		const range = timeRange(best.clause);
		const until = timeAfter(best.clause, /\b(?:until|till|to)\b/, 12);
		let activity = activityFromClause(best.clause, name);
		if (/^be\b/.test(activity)) {
			// "is a student at X who studies Y": an identity, not an activity.
			const occupation = OCCUPATIONS.find(([re]) => re.test(best.clause));
			const place = best.clause.match(/\b(?:at|in|for) ((?:the )?[A-Z][\w'’]*(?:\s+(?:[A-Z][\w'’]*|of|and|the))*)/);
			activity = occupation ? (place ? `${occupation[1]} at ${place[1]}` : occupation[1]) : '';
		}
		if (activity && contentWords(activity).length) {
			work = {
				activity,
				start: range?.start ?? (times.length && times[0].minutes !== until ? times[0].minutes : undefined),
				end: range?.end ?? until
			};
		}
	}
	if (!work) {
		const occupation = OCCUPATIONS.find(([re]) => re.test(summary) || re.test(requirement));
		const place = summary.match(/\b(?:works? (?:at|in)|student at|studies at|owns?|runs?) ((?:the )?[A-Z][\w'’]*(?:\s+(?:[A-Z][\w'’]*|of|and|the))*)/);
		if (occupation) work = { activity: place ? `${occupation[1]} at ${place[1]}` : occupation[1] };
	}
	return { wake, sleep, work };
}

const EVENT_NOUN =
	/\b(party|meeting|gathering|get-together|celebration|dinner|supper|lunch|breakfast|brunch|potluck|barbecue|fundraiser|event|concert|show|lecture|class|game|match|debate|festival|reading|exhibition|date|ceremony|wedding|rally|parade|talk|appointment|picnic|performance|tournament|fair|contest|competition|screening|service)\b/i;

interface DayEvent {
	start: number;
	end: number;
	activity: string;
}

/** Events dated `date` (same month and day) with a clock time, found in `texts`. */
function eventsOn(date: string, texts: string[]): DayEvent[] {
	const today = dateMentions(date)[0];
	if (!today) return [];
	const out: DayEvent[] = [];
	for (const text of texts) {
		for (const s of sentences(text)) {
			if (!dateMentions(s).some((d) => d.month === today.month && d.day === today.day)) continue;
			const noun = s.match(EVENT_NOUN);
			if (!noun) continue;
			const range = timeRange(s);
			const times = timeMentions(s);
			const start = range?.start ?? times[0]?.minutes;
			if (start === undefined) continue;
			const end = range?.end ?? start + 120;
			const bare = stripTimes(stripDates(s));
			const m = bare.match(
				new RegExp(`\\b(?:a|an|the|his|her|their|my|our)\\s+((?:[\\w'’-]+\\s+){0,5}?${escapeRegExp(noun[1])})\\b(\\s+(?:at|in)\\s+[^,.;]+?(?=\\s+(?:and|with|to|for|on|from|who|which)\\b|[,.;!?]|$))?`, 'i')
			);
			const what = m ? `the ${m[1]}${m[2] ?? ''}` : `the ${noun[1].toLowerCase()}`;
			const activity = `attend ${what.replace(/\s+/g, ' ').trim()}`;
			if (!out.some((e) => e.start === start && e.activity === activity)) out.push({ start, end: Math.max(end, start + 30), activity });
		}
	}
	return out;
}

const PROJECT = /\b(?:is|are|has been|have been)\s+((?:planning|preparing|organi[sz]ing|working on|writing|researching|running for|campaigning|practicing|practising|learning|training|composing|painting|studying for|saving for|getting ready for)\b[^.;]*)/i;

function projectOf(summary: string): string | undefined {
	for (const s of sentences(summary)) {
		const m = s.match(PROJECT);
		if (!m) continue;
		const phrase = stripTimes(stripDates(m[1].split(/,?\s+and\s+(?:is|are)\b/i)[0])).replace(/[.,;\s]+$/, '');
		if (contentWords(phrase).length >= 2) return `spend some time ${phrase}`;
	}
	return undefined;
}

function roundTo(minutes: number, step: number): number {
	return Math.round(minutes / step) * step;
}

function dailyPlan(vars: TemplateVars): { wake_hour: number; agenda: string[] } {
	const name = str(vars, 'name');
	const summary = str(vars, 'summary');
	const requirement = str(vars, 'requirement');
	const routine = routineOf(name, summary, requirement);
	const { wake, sleep } = routine;
	const events = eventsOn(str(vars, 'date'), [summary, str(vars, 'yesterday'), requirement]);

	const workStart = routine.work?.start ?? roundTo(wake + 90, 30);
	let workEnd = routine.work?.end ?? Math.max(workStart + 240, 17 * 60);
	if (workEnd <= workStart) workEnd = workStart + 240;
	workEnd = Math.min(workEnd, sleep - 60);

	const agenda: { at: number; text: string; priority: number }[] = [];
	agenda.push({ at: wake, text: `wake up and complete the morning routine at ${clock12(wake)}`, priority: 0 });
	const breakfast = Math.min(roundTo(wake + 30, 30), workStart > wake ? workStart : wake + 30);
	agenda.push({ at: breakfast, text: `have breakfast at ${clock12(breakfast)}`, priority: 1 });
	const work = routine.work?.activity ?? "take care of the day's errands and personal projects";
	agenda.push({ at: workStart, text: `${work} from ${clock12(workStart)} to ${clock12(workEnd)}`, priority: 0 });
	const lunchInside = workStart < 12 * 60 && workEnd > 13 * 60;
	agenda.push({ at: 12 * 60, text: `${lunchInside ? 'take a lunch break' : 'have lunch'} at 12:00 pm`, priority: 1 });
	for (const e of events) agenda.push({ at: e.start, text: `${e.activity} from ${clock12(e.start)} to ${clock12(e.end)}`, priority: 0 });
	const project = projectOf(summary);
	if (project) {
		const free = workEnd <= 16 * 60 ? workEnd + 30 : undefined;
		agenda.push({ at: free ?? workEnd + 1, text: free !== undefined ? `${project} from ${clock12(free)} to ${clock12(free + 120)}` : project, priority: 2 });
	}
	const dinner = workEnd >= 18 * 60 ? workEnd : 18 * 60;
	if (dinner < sleep - 30) agenda.push({ at: dinner, text: `have dinner at ${clock12(dinner)}`, priority: 1 });
	agenda.push({ at: sleep - 60, text: 'relax at home before bed', priority: 3 });
	agenda.push({ at: sleep, text: `go to bed at ${clock12(sleep)}`, priority: 0 });

	// Keep at most 8 items, dropping the least essential first.
	while (agenda.length > 8) {
		const worst = agenda.reduce((w, a, i) => (a.priority > agenda[w].priority ? i : w), 0);
		agenda.splice(worst, 1);
	}
	agenda.sort((a, b) => a.at - b.at);
	return { wake_hour: Math.min(12, Math.max(3, Math.floor(wake / 60))), agenda: agenda.map((a) => truncate(a.text, 200)) };
}

const FILLERS = ['take a short walk', 'relax and read for a while', 'tidy up the room', 'catch up on messages and news', 'rest for a while'];

interface Block {
	start: string;
	minutes: number;
	activity: string;
}

function hourlySchedule(vars: TemplateVars): Block[] {
	const DAY = 24 * 60;
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
		const label = stripTimes(item).replace(/\s+(?:at|from|around)$/i, '') || item;
		const times = timeMentions(item);
		if (/\b(bed|sleep)\b/i.test(item) && times.length && !/\bwake\b/i.test(item)) {
			sleep = times[0].minutes;
			continue;
		}
		const range = timeRange(item);
		if (range) ranges.push({ ...range, label });
		else if (times.length) points.push({ start: times[0].minutes, label });
		else if (/\bwake\b/i.test(item)) points.push({ start: wake, label });
		else loose.push(label);
	}
	if (sleep === undefined || sleep <= wake) sleep = Math.min(DAY - 30, Math.max(wake + 14 * 60, 22 * 60));
	sleep = Math.min(sleep, DAY - 30);

	// Longer ranges first, so shorter, more specific items are painted over them.
	ranges.sort((a, b) => b.end - b.start - (a.end - a.start));
	for (const r of ranges) paint(r.start, Math.min(r.end, sleep), r.label);
	points.sort((a, b) => a.start - b.start);
	const starts = [...ranges.map((r) => r.start), ...points.map((p) => p.start)];
	for (const p of points) {
		// A timed item lasts an hour, or until the next timed item starts.
		const next = Math.min(...starts.filter((s) => s > p.start), p.start + 60);
		paint(p.start, Math.min(next, sleep), p.label);
	}
	for (const e of eventsOn(str(vars, 'date'), list(vars, 'memories'))) paint(e.start, Math.min(e.end, sleep), e.activity);

	// Fill the gaps between waking and sleep with the untimed items, then fillers.
	let filler = fnv1a32(str(vars, 'name') + str(vars, 'date'));
	for (let i = wake; i < sleep; ) {
		if (slots[i] !== undefined) {
			i++;
			continue;
		}
		let j = i;
		while (j < sleep && slots[j] === undefined) j++;
		for (let k = i; k < j; k += 60) {
			const label = loose.shift() ?? FILLERS[filler++ % FILLERS.length];
			paint(k, Math.min(j, k + 60), label);
		}
		i = j;
	}
	for (let i = sleep; i < DAY; i++) slots[i] = 'sleep';

	const blocks: Block[] = [];
	for (let i = wake; i < DAY; ) {
		const label = slots[i] ?? 'rest';
		let j = i;
		while (j < DAY && slots[j] === label) j++;
		const chunk = label === 'sleep' ? j - i : 60;
		for (let k = i; k < j; k += chunk) {
			const minutes = Math.min(chunk, j - k);
			if (minutes >= 5) blocks.push({ start: clock24(k), minutes, activity: truncate(label, 200) });
			else if (blocks.length) blocks[blocks.length - 1].minutes += minutes;
		}
		i = j;
	}
	return blocks.slice(0, 40);
}

const STEPS: [RegExp, string[]][] = [
	[/\b(sleep\w*|nap\w*)\b/i, ['sleeping']],
	[/\b(wake|morning routine|get ready|getting ready)\b/i, ['getting out of bed', 'washing up', 'brushing teeth', 'getting dressed', 'making the bed']],
	[/\b(breakfast|lunch|dinner|eat\w*|meal|snack)\b/i, ['getting the food ready', 'eating', 'eating', 'finishing the meal', 'clearing the table']],
	[/\b(cook\w*|bak\w*)\b/i, ['gathering the ingredients', 'preparing the ingredients', 'cooking', 'cooking', 'cleaning up']],
	[/\b(stud\w*|homework|read\w*|research\w*|writ\w*|paper|essay|thesis|compos\w*)\b/i, ['reviewing notes', 'working through the material', 'taking notes', 'taking a short break', 'going over what was done']],
	[/\b(shop\w*|buy\w*|grocer\w*|errand\w*)\b/i, ['making a list', 'looking for what is needed', 'picking items', 'paying at the counter']],
	[/\b(walk\w*|jog\w*|exercis\w*|stroll\w*)\b/i, ['heading out', 'walking', 'taking in the surroundings', 'heading back']],
	[/\b(talk\w*|chat\w*|conversation|meet\w*|visit\w*|party|gather\w*|attend\w*)\b/i, ['arriving', 'greeting people', 'chatting', 'listening to others', 'saying goodbye']],
	[/\b(clean\w*|tidy\w*|wash\w*|laundry)\b/i, ['gathering supplies', 'cleaning', 'putting things away']],
	[/\b(relax\w*|rest\w*|tv|television|music|game\w*)\b/i, ['settling in', 'relaxing', 'relaxing', 'winding down']],
	[/\b(work\w*|shift|counter|serv\w*|customer\w*|open\w*|teach\w*|class\w*)\b/i, ['getting set up', 'working through the main tasks', 'checking what needs doing', 'taking a short break', 'continuing with the tasks', 'tidying up the workspace']]
];
const GENERIC_STEPS = ['getting started', 'working on it', 'continuing', 'taking a short break', 'finishing up'];

function decompose(activity: string, minutes: number): { activity: string; minutes: number }[] {
	const common = commonWords(activity);
	const steps = STEPS.find(([re]) => re.test(common))?.[1] ?? GENERIC_STEPS;
	const total = Math.max(5, minutes);
	const n = Math.min(60, Math.max(1, Math.ceil(total / 15)));
	const base = Math.floor(total / n);
	const extra = total - base * n;
	const out: { activity: string; minutes: number }[] = [];
	for (let i = 0; i < n; i++) {
		const len = Math.min(15, Math.max(5, base + (i < extra ? 1 : 0)));
		let step: string;
		if (steps.length === 1) step = steps[0];
		else if (n === 1) step = steps[Math.floor(steps.length / 2)];
		else if (i === 0) step = steps[0];
		else if (i === n - 1) step = steps[steps.length - 1];
		else step = steps[1 + ((i - 1) % Math.max(1, steps.length - 2))];
		const text = steps.length === 1 ? step : `${activity} (${step})`;
		out.push({ activity: truncate(text, 200), minutes: len });
	}
	return out;
}

function replan(vars: TemplateVars): Block[] {
	const DAY = 24 * 60;
	const now = timeMentions(str(vars, 'time'))[0]?.minutes ?? 12 * 60;
	const reaction = str(vars, 'reaction').trim();
	const blocks: Block[] = [];
	let cursor = now;
	if (reaction) {
		const minutes = /\b(talk|chat|conversation|greet)\w*/i.test(reaction) ? 20 : 30;
		blocks.push({ start: clock24(cursor), minutes, activity: truncate(reaction, 200) });
		cursor += minutes;
	}
	for (const item of list(vars, 'remaining')) {
		const start = timeMentions(item)[0]?.minutes;
		const length = Number(item.match(/\((\d+)\s*min/i)?.[1] ?? item.match(/\b(\d+)\s*min(?:ute)?s?\b/i)?.[1] ?? 60);
		const activity = truncate(
			stripTimes(item.replace(/\(\s*\d+\s*min(?:ute)?s?\s*\)|\b\d+\s*min(?:ute)?s?\b/gi, ''))
				.replace(/^[\s:\-–]+/, '')
				.trim() || item,
			200
		);
		const from = start ?? cursor;
		const end = from + length;
		if (end <= cursor) continue;
		const begin = Math.max(from, cursor);
		if (begin >= DAY - 5) break;
		const minutes = Math.min(end, DAY) - begin;
		if (minutes >= 5) {
			blocks.push({ start: clock24(begin), minutes: Math.min(720, minutes), activity });
			cursor = begin + minutes;
		}
	}
	return blocks.slice(0, 40);
}

// ---------------------------------------------------------------------------
// Choosing places and objects by lexical match

const PLACE_HINTS: [RegExp, string[]][] = [
	[/\b(sleep\w*|nap\w*|bed|rest|wake|shower\w*|bath\w*|brush\w*|dress\w*|morning routine|get ready)\b/i, ['bed', 'bedroom', 'bathroom', 'home', 'house', 'apartment', 'dorm', 'room']],
	[/\b(breakfast|lunch|dinner|eat\w*|meal|snack)\b/i, ['kitchen', 'dining', 'cafe', 'café', 'restaurant', 'table', 'pub', 'refrigerator', 'fridge']],
	[/\b(cook\w*|bak\w*)\b/i, ['kitchen', 'stove', 'oven', 'cooktop']],
	[/\bcoffee\b/i, ['cafe', 'café', 'coffee', 'kitchen']],
	[/\b(stud\w*|homework|read\w*|research\w*|writ\w*|paper|essay|thesis|lecture|class\w*|exam)\b/i, ['library', 'desk', 'college', 'classroom', 'school', 'study', 'computer', 'bookshelf']],
	[/\b(teach\w*)\b/i, ['classroom', 'college', 'school', 'blackboard', 'podium']],
	[/\b(shop\w*|buy\w*|grocer\w*|supplies|medicine|prescription\w*)\b/i, ['market', 'store', 'shop', 'supply', 'pharmacy', 'shelf', 'counter', 'grocery']],
	[/\b(drink\w*|beer|wine|bar)\b/i, ['pub', 'bar']],
	[/\b(exercis\w*|jog\w*|walk\w*|stroll\w*|picnic)\b/i, ['park', 'garden', 'trail', 'path', 'bench']],
	[/\b(paint\w*|draw\w*|sketch\w*|photo\w*)\b/i, ['studio', 'easel', 'art', 'desk']],
	[/\b(music|piano|guitar|compos\w*|song\w*)\b/i, ['piano', 'music', 'guitar', 'studio']],
	[/\b(wash\w*|dishes|laundry|clean\w*|tidy\w*)\b/i, ['sink', 'bathroom', 'kitchen', 'laundry', 'washing']],
	[/\b(toilet|restroom)\b/i, ['bathroom', 'toilet']],
	[/\b(computer|email\w*|games?|brows\w*)\b/i, ['computer', 'desk']],
	[/\b(relax\w*|tv|television|movie\w*|lounge)\b/i, ['couch', 'sofa', 'living', 'tv', 'common room', 'lounge']],
	[/\b(party|celebrat\w*|gather\w*|sociali[sz]\w*)\b/i, ['cafe', 'café', 'pub', 'bar', 'hall', 'common room']],
	[/\b(serv\w*|customer\w*|counter|cashier|register)\b/i, ['counter', 'register', 'cafe', 'café', 'store', 'shop', 'behind']]
];
const HOME_ACTIVITY = /\b(sleep\w*|nap\w*|bed|wake|shower\w*|bath\w*|brush\w*|dress\w*|morning routine|get ready|at home|go home|return home|relax at home)\b/i;

function choose(template: string, vars: TemplateVars): string {
	const options = list(vars, 'options');
	if (!options.length) return '';
	const activity = str(vars, 'activity');
	const current = str(vars, 'current');
	const home = str(vars, 'home').split(':')[0].trim();
	const actWords = new Set(contentWords(activity));
	const actVec = hashEmbed(activity);
	const common = commonWords(activity);
	const hints = PLACE_HINTS.filter(([re]) => re.test(common)).map(([, w]) => w);
	const homeish = HOME_ACTIVITY.test(common);

	let best = options[0];
	let bestScore = -Infinity;
	options.forEach((option, i) => {
		const lower = option.toLowerCase();
		const optWords = contentWords(option);
		let score = optWords.filter((w) => actWords.has(w)).length * 2;
		for (const words of hints) if (words.some((w) => lower.includes(w))) score += 1.5;
		score += Math.max(0, cosine(actVec, hashEmbed(option))) * 0.5;
		if (template === 'choose_sector' && homeish && option === home) score += 3;
		// Ties go to where the agent is, then home, then a stable per-activity choice.
		if (option === current) score += 0.25;
		if (template === 'choose_sector' && option === home) score += 0.1;
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
	[/\b(wake|morning routine|get ready|getting ready)\b/i, '🌅'],
	[/\b(shower\w*|bath\w*|wash\w* up)\b/i, '🚿'],
	[/\b(brush\w*|teeth)\b/i, '🪥'],
	[/\b(dress\w*)\b/i, '👕'],
	[/\b(coffee|espresso|latte)\b/i, '☕'],
	[/\b(breakfast)\b/i, '🍳'],
	[/\b(lunch|dinner|eat\w*|meal|snack)\b/i, '🍽️'],
	[/\b(cook\w*|bak\w*)\b/i, '🧑‍🍳'],
	[/\b(party|celebrat\w*|valentine\w*)\b/i, '🎉'],
	[/\b(invit\w*)\b/i, '💌'],
	[/\b(election|mayor|vote|campaign\w*)\b/i, '🗳️'],
	[/\b(talk\w*|chat\w*|conversation|discuss\w*)\b/i, '💬'],
	[/\b(phone|call\w*)\b/i, '📞'],
	[/\b(journal|diary)\b/i, '📓'],
	[/\b(writ\w*|essay|paper|thesis)\b/i, '✍️'],
	[/\b(read\w*|book\w*|librar\w*)\b/i, '📖'],
	[/\b(stud\w*|homework|research\w*|exam|class\w*|lecture)\b/i, '📚'],
	[/\b(teach\w*)\b/i, '👩‍🏫'],
	[/\b(paint\w*|draw\w*|sketch\w*)\b/i, '🎨'],
	[/\b(photo\w*|camera)\b/i, '📷'],
	[/\b(music|piano|guitar|compos\w*|song\w*|sing\w*)\b/i, '🎵'],
	[/\b(shop\w*|buy\w*|grocer\w*|store)\b/i, '🛒'],
	[/\b(medicine|pharmac\w*|prescription\w*)\b/i, '💊'],
	[/\b(serv\w*|customer\w*|counter|cashier)\b/i, '🧾'],
	[/\b(drink\w*|beer|wine|pub|bar)\b/i, '🍺'],
	[/\b(walk\w*|stroll\w*)\b/i, '🚶'],
	[/\b(run\w*|jog\w*|exercis\w*|workout)\b/i, '🏃'],
	[/\b(garden\w*|plant\w*|water\w* the)\b/i, '🌱'],
	[/\b(clean\w*|tidy\w*|laundry|dishes)\b/i, '🧹'],
	[/\b(computer|email\w*|cod\w*|typ\w*)\b/i, '💻'],
	[/\b(relax\w*|rest\w*|tv|television|movie\w*)\b/i, '🛋️'],
	[/\b(plan\w*|schedul\w*|think\w*)\b/i, '🤔'],
	[/\b(work\w*|office|shift)\b/i, '💼'],
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

function objectState(activity: string, object: string, name: string): string {
	let phrase = stripSubject(activity.replace(/\s*\([^)]*\)\s*$/, ''), name).replace(/^(?:is|are)\s+/i, '');
	phrase = phrase.replace(/[.!]+$/, '').trim();
	if (/\b(sleep\w*|nap\w*|asleep)\b/i.test(activity)) return /\bbed\b/i.test(object) ? 'being slept in' : 'occupied';
	if (!phrase) return 'in use';
	const first = phrase.split(/\s+/)[0].toLowerCase();
	const state = first.endsWith('ing') ? phrase : `in use: ${phrase}`;
	return truncate(state.charAt(0).toLowerCase() + state.slice(1), 80);
}

// ---------------------------------------------------------------------------
// Reacting and talking

const BUSY_TALKING = /\b(conversation|chatting|talking|in a call|on the phone)\b/i;
const SLEEPING = /\b(sleep\w*|asleep|in bed|napping)\b/i;
const HAZARD = /\b(burning|on fire|fire|smok\w*|broken|leak\w*|overflow\w*|flood\w*|spill\w*)\b/i;

function react(vars: TemplateVars): { react: boolean; talk: boolean; reaction: string } {
	const name = str(vars, 'name');
	const other = str(vars, 'other').trim();
	const status = str(vars, 'status');
	const otherStatus = str(vars, 'other_status');
	const observation = str(vars, 'observation');
	const hours = int(vars, 'hours_since_chat', 999);
	if (other && !SLEEPING.test(otherStatus) && !BUSY_TALKING.test(otherStatus) && !SLEEPING.test(status) && !BUSY_TALKING.test(status)) {
		// Each pair has its own appetite for talking: 2 to 4 game hours between chats.
		const threshold = 2 + (fnv1a32(`${name}|${other}`) % 3);
		if (hours >= threshold) return { react: true, talk: true, reaction: `start a conversation with ${other}` };
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
const FILLER = /^(hi|hey|hello|oh|wow|well|yes|yeah|sure|thanks|thank you|good|great|nice|okay|ok|really|anyway|bye|goodbye|see you|did you hear|by the way|i'd love to come|that sounds|how (?:is|are)|what (?:have|are) you)/i;

/** A sentence without the conversational lead-in ("By the way, ..."). */
function stripLead(s: string): string {
	return s.replace(/^(?:did you hear\?|have you heard\?|by the way,?|oh,?|so,?|well,?|anyway,?)\s*/i, '');
}

/** The speaker's most salient memory (in retrieval order) not yet said in this conversation. */
function nextNews(memories: string[], history: Line[], speaker: string, listener: string): string | undefined {
	const said = new Set(history.flatMap((l) => contentWords(l.text)));
	for (const memory of memories) {
		for (const sentence of informative(memory)) {
			if (startsWithName(sentence, listener)) continue;
			const tokens = contentWords(stripTimes(stripDates(sentence)));
			if (!tokens.length) continue;
			const known = tokens.filter((t) => said.has(t)).length / tokens.length;
			if (known >= 0.6) continue;
			if (startsWithName(sentence, speaker)) {
				const own = endSentence(toFirstPerson(sentence, speaker));
				const hosting = EVENT_NOUN.test(sentence) && /\b(plan\w*|host\w*|throw\w*|organi[sz]\w*|invit\w*)\b/i.test(sentence);
				return hosting ? `${own} Would you like to come?` : own;
			}
			return `${pick(['Did you hear?', 'Have you heard?', 'By the way,'], sentence + listener)} ${endSentence(sentence)}`;
		}
	}
	return undefined;
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
	const news = nextNews(memories, history, name, other);

	if (!history.length) {
		const hello = pick([`Hi ${o}!`, `Hey ${o}, good to see you!`, `Oh, hi ${o}!`], key);
		return { utterance: truncate(`${hello} ${news ?? pick(['How is your day going?', 'What are you up to today?'], key)}`, 600), end: false };
	}
	const last = history[history.length - 1];
	if (GOODBYE.test(last.text)) return { utterance: pick([`Bye, ${o}! Take care.`, `See you, ${o}!`], key), end: true };

	const parts: string[] = [];
	if (INVITATION.test(last.text)) parts.push(pick(["I'd love to come!", "That sounds fun, I'll be there!", "Thanks for the invitation, I'll try to make it!"], key));
	else if (sentences(last.text).map(stripLead).some((s) => importanceOf(s) >= 6 && !FILLER.test(s) && contentWords(s).length >= 3)) {
		parts.push(pick(["Oh, really? That's interesting.", "Wow, I didn't know that.", "That's good to know, thanks for telling me."], key));
	} else if (/\?\s*$/.test(last.text)) parts.push(pick(["Pretty good, thanks for asking!", 'Not much, just going about my day.', "It's been a busy day, but a good one."], key));

	if (history.length + 1 >= maxLines) return { utterance: truncate([...parts, closing()].join(' '), 600), end: true };
	if (news) return { utterance: truncate([...parts, news].join(' '), 600), end: false };
	if (history.length >= 2) return { utterance: truncate([...parts, closing()].join(' '), 600), end: true };
	parts.push(pick(['What have you been up to?', 'Anything new with you?'], key));
	return { utterance: truncate(parts.join(' '), 600), end: false };
}

function conversationMemo(vars: TemplateVars): { summary: string; plan_note: string } {
	const name = str(vars, 'name');
	const other = str(vars, 'other');
	const lines = parseLines(list(vars, 'transcript'));
	const facts: string[] = [];
	let invited = false;
	for (const line of lines) {
		const own = line.speaker ? mentions(line.speaker, name) && !mentions(line.speaker, other) : false;
		if (own) continue;
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
			if (/\?\s*$/.test(stripped) || contentWords(stripped).length < 3 || importanceOf(stripped) < 4) continue;
			const fact = endSentence(capitalise(toThirdPerson(stripped, speaker, name)));
			if (!facts.includes(fact)) facts.push(fact);
		}
	}
	const parts = [`${name} talked with ${other}.`];
	if (facts.length) parts.push(...facts.slice(0, 4));
	else parts.push('They made small talk.');
	if (invited) parts.push(`${other} invited ${name} to come.`);
	const dated = facts.find((f) => EVENT_NOUN.test(f) && (dateMentions(f).length > 0 || timeMentions(f).length > 0));
	let plan = '';
	if (dated && invited) plan = `${name} plans to go: ${dated}`;
	else if (dated) plan = `${name} should remember: ${dated}`;
	return { summary: truncate(parts.join(' '), 1200), plan_note: truncate(plan, 400) };
}

// ---------------------------------------------------------------------------
// Reflection

const NOT_SUBJECTS = new Set(
	'the a an on in at she he they it this that today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december i what who when where why how there then after before while did have has'.split(
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

const DULL = new Set('idle sleeping asleep walking going doing talked talking conversation said told thing things time today work working morning afternoon evening day night'.split(' '));

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

function reflectionInsights(vars: TemplateVars): { insight: string; evidence: number[] }[] {
	const name = str(vars, 'name');
	const question = str(vars, 'question');
	const memories = list(vars, 'memories');
	if (!memories.length) return [];
	const own = new Set(nameForms(name).flatMap((f) => contentWords(f)));
	const asked = new Set(contentWords(question).filter((w) => !own.has(w)));
	const scored = memories.map((m, i) => ({
		m,
		n: i + 1,
		rel: contentWords(m).filter((w) => asked.has(w)).length,
		imp: importanceOf(m)
	}));
	const insights: { insight: string; evidence: number[] }[] = [];
	const facts = scored
		.filter((x) => x.imp >= 6)
		.sort((a, b) => b.rel * 2 + b.imp - (a.rel * 2 + a.imp) || a.n - b.n);
	for (const x of facts) {
		if (insights.length >= 3) break;
		const sentence = informative(x.m)[0] ?? sentences(x.m)[0];
		if (!sentence) continue;
		const text = startsWithName(sentence, name) ? endSentence(sentence) : `${name} knows that ${endSentence(sentence)}`;
		if (!insights.some((i) => i.insight === text)) insights.push({ insight: truncate(text, 400), evidence: [x.n] });
	}
	const bySubject = new Map<string, number[]>();
	scored.forEach((x) => {
		for (const s of new Set(subjectsOf(x.m, name))) bySubject.set(s, [...(bySubject.get(s) ?? []), x.n]);
	});
	const recurring = [...bySubject.entries()].filter(([, ns]) => ns.length >= 2).sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
	for (const [subject, ns] of recurring) {
		if (insights.length >= 5) break;
		insights.push({ insight: `${subject} plays a recurring part in ${name}'s days lately.`, evidence: ns.slice(0, 8) });
	}
	if (!insights.length) {
		const best = [...scored].sort((a, b) => b.rel - a.rel || b.imp - a.imp || a.n - b.n)[0];
		insights.push({ insight: truncate(`${name} has been occupied with this: ${endSentence(sentences(best.m)[0] ?? best.m)}`, 400), evidence: [best.n] });
	}
	return insights.slice(0, 5);
}

// ---------------------------------------------------------------------------
// Interviews and the inner voice

const QUESTION_NOISE = new Set(
	contentWords('know knows think tell describe feel like happen happened hear heard anything something thing recent recently lately today day time person people would could please give kind sort really')
);

function interview(vars: TemplateVars): string {
	const name = str(vars, 'name');
	const summary = str(vars, 'summary');
	const question = str(vars, 'question');
	const memories = list(vars, 'memories');
	const key = name + question;
	const firstPerson = (s: string) => endSentence(toFirstPerson(s, name));

	if (/\b(introduc\w*|yourself|about you|who are you)\b/i.test(question)) {
		const intro = sentences(summary).slice(0, 3).map(firstPerson).join(' ');
		return truncate(intro ? `Hi, I'm ${name}. ${intro}` : `I'm ${name}.`, 1500);
	}
	if (HAZARD.test(question)) return "I'd stop what I'm doing and take care of it right away.";
	if (/\b(schedule|routine|weekday|typical day|tomorrow|will you be doing)\b/i.test(question)) {
		const planned = memories.filter((m) => timeMentions(m).length > 0).slice(0, 2);
		const routine = sentences(summary).filter((s) => timeMentions(s).length > 0).slice(0, 2);
		const said = [...planned, ...routine].map(firstPerson);
		return said.length ? truncate(`Let me think. ${said.join(' ')}`, 1500) : "I don't know yet; I haven't planned that far.";
	}
	if (/\b(one person|spend time with|who would it be)\b/i.test(question)) {
		const counts = new Map<string, number>();
		for (const m of memories) for (const s of new Set(subjectsOf(m, name))) if (s.includes(' ')) counts.set(s, (counts.get(s) ?? 0) + 1);
		const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
		if (!top) return "I don't know. I haven't really gotten to know anyone lately.";
		const why = memories.find((m) => m.includes(top[0]));
		return truncate(`I'd spend time with ${top[0]}.${why ? ` ${firstPerson(why)}` : ''}`, 1500);
	}

	const own = new Set(nameForms(name).flatMap((f) => contentWords(f)));
	const asked = new Set(contentWords(question).filter((w) => !own.has(w) && !QUESTION_NOISE.has(w)));
	if (!asked.size) return "I don't know.";
	const need = Math.min(2, asked.size);
	const matches = memories
		.map((m, i) => ({ m, i, hits: new Set(contentWords(m).filter((w) => asked.has(w))).size }))
		.filter((x) => x.hits >= need)
		.sort((a, b) => b.hits - a.hits || a.i - b.i)
		.slice(0, 3);
	if (!matches.length) return pick(["I don't know.", "I don't know, I haven't heard anything about that."], key);
	const said = matches
		.map((x) => informative(x.m, 1)[0] ?? x.m)
		.filter((s, i, all) => all.indexOf(s) === i)
		.map(firstPerson);
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
