import { describe, expect, it } from 'vitest';
import { baseVerb, gerundPhrase, ingForm, thirdPerson, toFirstPerson, toThirdPerson } from './text';

describe('verb forms', () => {
	it('makes -ing forms, doubling and dropping letters where English does', () => {
		const cases: [string, string][] = [
			['write', 'writing'],
			['run', 'running'],
			['open', 'opening'],
			['study', 'studying'],
			['have', 'having'],
			['shop', 'shopping'],
			['visit', 'visiting'],
			['see', 'seeing'],
			['tie', 'tying'],
			['practise', 'practising'],
			['begin', 'beginning']
		];
		for (const [base, ing] of cases) expect(ingForm(base), base).toBe(ing);
		expect(baseVerb('studies')).toBe('study');
		expect(baseVerb('rehearses')).toBe('rehearse');
		expect(baseVerb('goes')).toBe('go');
		expect(thirdPerson('plan')).toBe('plans');
		expect(thirdPerson('go')).toBe('goes');
		expect(thirdPerson('study')).toBe('studies');
		expect(thirdPerson('have')).toBe('has');
	});

	it('turns verb phrases into activities, coordinated verbs included, other words left alone', () => {
		expect(gerundPhrase('opens the Corner Cafe')).toBe('opening the Corner Cafe');
		expect(gerundPhrase('write and illustrate at home')).toBe('writing and illustrating at home');
		expect(gerundPhrase('read or edit at home')).toBe('reading or editing at home');
		expect(gerundPhrase('to read')).toBe('reading');
		expect(gerundPhrase('have bread and butter')).toBe('having bread and butter');
		expect(gerundPhrase('studying at the cafe')).toBe('studying at the cafe');
		expect(gerundPhrase('go for a run')).toBe('going for a run');
	});
});

describe('persons', () => {
	it('speaks of oneself in the first person without touching relatives who share a last name', () => {
		expect(toFirstPerson('Bo Quill is married to Ana Quill, a painter', 'Ana Quill')).toBe('Bo Quill is married to me, a painter');
		expect(toFirstPerson('Ana Quill is planning a picnic, and she wants to invite her friends', 'Ana Quill')).toBe('I am planning a picnic, and I want to invite my friends');
		expect(toFirstPerson("Ana Quill's garden is blooming", 'Ana Quill')).toBe('My garden is blooming');
	});

	it('retells what someone said in the third person, with the verb agreeing', () => {
		expect(toThirdPerson('I plan to go to the picnic', 'Ana Quill', 'Bo Li')).toBe('Ana Quill plans to go to the picnic');
		expect(toThirdPerson('I am writing my thesis', 'Ana Quill', 'Bo Li')).toBe("Ana Quill is writing Ana Quill's thesis");
		expect(toThirdPerson('Cy invited me to the fair', 'Ana Quill', 'Bo Li')).toBe('Cy invited Ana Quill to the fair');
		expect(toThirdPerson('I will see you there', 'Ana Quill', 'Bo Li')).toBe('Ana Quill will see Bo Li there');
		expect(toThirdPerson('I will come', 'Ana Quill', 'Bo Li')).toBe('Ana Quill will come');
	});
});
