// Answer classification: the offline stand-in's answers and answers a language model gives.

import { describe, expect, it } from 'vitest';
import { classifyAnswer, mentions, mentionsAll, personKeywords } from './classify';

const PARTY = ['valentine', 'party'];
const KLAUS = personKeywords({ name: 'Klaus Mueller', firstName: 'Klaus' });
const verdict = (answer: string, keywords: readonly string[] = PARTY) => classifyAnswer(answer, keywords).verdict;

describe('keyword matching', () => {
	it('matches at the start of a word, case-insensitively, phrases across spaces', () => {
		expect(mentions("Isabella's Valentine's Day party", 'valentine')).toBe(true);
		expect(mentions('the PARTY at Hobbs Cafe', 'party')).toBe(true);
		expect(mentions('a counterparty', 'party')).toBe(false);
		expect(mentions('I met Klaus  Mueller today', 'Klaus Mueller')).toBe(true);
		expect(mentions('Klausen', 'klaus')).toBe(true);
		expect(mentions('Nicklaus', 'klaus')).toBe(false);
		expect(mentionsAll('Sam Moore is running for mayor in the upcoming local election', ['mayor', 'election'])).toBe(true);
		expect(mentionsAll('Sam Moore is running for mayor', ['mayor', 'election'])).toBe(false);
		expect(mentionsAll('anything', [])).toBe(false);
		expect(KLAUS).toEqual(['Klaus Mueller', 'Klaus']);
	});
});

describe('the offline stand-in', () => {
	it('reads its "Yes. From what I remember, ..." as affirmative when the memories name the topic', () => {
		expect(verdict("Yes. From what I remember, I am enjoying the Valentine's Day party at Hobbs Cafe.")).toBe('affirmative');
		expect(verdict('Yes. Well, I and Tamara Taylor have been talking about the Valentine\'s Day party.')).toBe('affirmative');
		expect(verdict('Yes. As far as I know, Klaus Mueller is writing a research paper.', KLAUS)).toBe('affirmative');
	});

	it('reads a "Yes." followed by memories about something else as unclear', () => {
		const c = classifyAnswer('Yes. From what I remember, I had lunch at Hobbs Cafe. Hobbs Cafe:cafe:counter is idle.', PARTY);
		expect(c.verdict).toBe('unclear');
		expect(c.mentioned).toEqual([]);
	});

	it('reads "I don\'t know" answers as negative', () => {
		expect(verdict("I don't know.")).toBe('negative');
		expect(verdict("I don't know, I haven't heard anything about that.")).toBe('negative');
		expect(verdict("I don't know.", KLAUS)).toBe('negative');
	});
});

describe('a language model', () => {
	it('affirmative answers, with or without naming the topic', () => {
		expect(verdict("Yes, Isabella told me she's throwing a Valentine's Day party at Hobbs Cafe on the 14th.")).toBe('affirmative');
		expect(verdict("Of course! I'm planning to go to Isabella's party tomorrow evening.")).toBe('affirmative');
		expect(verdict('Yes, I know him. He lives in the dorm room next to mine.', KLAUS)).toBe('affirmative');
		expect(verdict("I've heard about it from Maria; it sounds like fun.")).toBe('affirmative');
		expect(verdict('Isabella is hosting a Valentine\'s party at the cafe from 5 to 7 pm.')).toBe('affirmative');
		expect(verdict("Klaus? He's a sociology student writing about gentrification.", KLAUS)).toBe('affirmative');
		expect(verdict('Yes.')).toBe('affirmative');
		expect(verdict("I don't know much about it, but I heard there's a party at the cafe.")).toBe('affirmative');
	});

	it('negative answers, even when they repeat the topic', () => {
		expect(verdict("No, I haven't heard about a Valentine's Day party.")).toBe('negative');
		expect(verdict("I'm not aware of any party at Hobbs Cafe.")).toBe('negative');
		expect(verdict("I don't think I know anyone by the name Klaus Mueller.", KLAUS)).toBe('negative');
		expect(verdict("I've never met Klaus Mueller, sorry.", KLAUS)).toBe('negative');
		expect(verdict("Hmm, that name doesn't ring a bell.", KLAUS)).toBe('negative');
		expect(verdict('Nope.')).toBe('negative');
		expect(verdict('I did not hear about it.')).toBe('negative');
		expect(verdict("I have no idea what you're talking about.")).toBe('negative');
	});

	it('unclear answers', () => {
		expect(verdict('')).toBe('unclear');
		expect(verdict('Why do you ask?')).toBe('unclear');
		expect(verdict("I'm not sure. Maybe?")).toBe('unclear');
		expect(classifyAnswer('Why do you ask?', PARTY).reason).toMatch(/neither/);
	});
});
