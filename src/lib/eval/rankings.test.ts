// Reading believability rankings: both formats, ties, subsets, and a clear message for every mistake.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../world/json';
import { parseRankings, rankingsFormat, RankingsError, rankingsToCsv, rankingsToJson, type RankingProblem } from './rankings';

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

function problems(text: string, options: Parameters<typeof parseRankings>[1] = {}): RankingProblem[] {
	try {
		parseRankings(text, options);
	} catch (e) {
		expect(e).toBeInstanceOf(RankingsError);
		return (e as RankingsError).problems;
	}
	throw new Error('expected the rankings to be refused');
}

const messages = (text: string, options: Parameters<typeof parseRankings>[1] = {}) =>
	problems(text, options).map((p) => `${p.where ? `${p.where}: ` : ''}${p.message}`);

describe('JSON rankings', () => {
	it('reads rankings best first, a nested list as a tie, and the union of conditions in order of appearance', () => {
		const parsed = parseRankings(
			JSON.stringify({
				rankings: [
					{ rater: 'r1', question: 'q1', order: ['full', 'no-reflection', 'crowdworker'] },
					{ rater: 'r2', question: 'q1', order: ['full', ['no-planning', 'crowdworker']] }
				]
			}),
			{ file: 'r.json' }
		);
		expect(parsed.rankings).toEqual([
			{ rater: 'r1', question: 'q1', order: [['full'], ['no-reflection'], ['crowdworker']] },
			{ rater: 'r2', question: 'q1', order: [['full'], ['no-planning', 'crowdworker']] }
		]);
		expect(parsed.conditions).toEqual(['full', 'no-reflection', 'crowdworker', 'no-planning']);
		expect(parsed.ties).toBe(true);
	});

	it('accepts a bare list of rankings', () => {
		const parsed = parseRankings('[{"rater":"a","question":"b","order":["x","y"]}]');
		expect(parsed.rankings).toHaveLength(1);
		expect(parsed.ties).toBe(false);
	});

	it('names the ranking (1-based, with its index) and each mistake', () => {
		const text = JSON.stringify({
			rankings: [
				{ rater: 'r1', question: 'q1', order: ['a', 'b'] },
				{ rater: 'r1', question: 'q2', order: [] },
				{ rater: 'r1', question: 'q3', order: ['a', 'x', ['b', 'x']] },
				{ rater: '', question: 'q4', order: ['a', 'b'] },
				{ question: 'q5', order: ['a'] },
				{ rater: 'r1', question: 'q6', order: ['a', ['b', ['c']]], oder: [] },
				{ rater: 'r1', question: 'q7', order: 'a>b' },
				{ rater: 'r1', question: 'q8', order: [' a', 'b', []] }
			]
		});
		expect(messages(text, { file: 'r.json' })).toEqual([
			'ranking 2 (rankings[1]): order is empty',
			'ranking 3 (rankings[2]): condition "x" appears twice',
			'ranking 4 (rankings[3]): rater must be non-empty text',
			'ranking 5 (rankings[4]): rater is missing',
			'ranking 5 (rankings[4]): ranks only "a" (a ranking needs at least two conditions)',
			'ranking 6 (rankings[5]): unknown key "oder" (expected rater, question, order)',
			'ranking 6 (rankings[5]): order[1][1] must be a condition name (non-empty text); ties are one level deep',
			'ranking 7 (rankings[6]): order must be a list of conditions, best first',
			'ranking 8 (rankings[7]): order[0]: condition " a" has spaces around its name',
			'ranking 8 (rankings[7]): order[2] is an empty tie'
		]);
		expect(problems(text, { file: 'r.json' })[0].file).toBe('r.json');
	});

	it('names lines when given a position-keeping JSON reader', () => {
		const text = '{\n\t"rankings": [\n\t\t{"rater": "r1", "question": "q1", "order": ["a", "b"]},\n\t\t{"rater": "r1", "question": "q2", "order": ["a", "a"]}\n\t]\n}\n';
		expect(messages(text, { readJson: parseJson })).toEqual(['line 4, ranking 2: condition "a" appears twice']);
		expect(messages('{\n "rankings": [\n  {"rater": "r1",}\n ]\n}', { readJson: parseJson })).toEqual([
			'line 3, column 18: not valid JSON: trailing comma before "}"'
		]);
	});

	it('refuses what is not rankings', () => {
		expect(messages('{"ranking": []}')).toEqual(['top level: unknown key "ranking" (expected "rankings")', 'missing "rankings" (a list of {rater, question, order})']);
		expect(messages('{"rankings": []}')).toEqual(['no rankings in the file']);
		expect(messages('{"rankings": {}}')).toEqual(['top level: "rankings" must be a list of {rater, question, order}']);
		expect(messages('"text"', { format: 'json' })).toEqual(['expected an object {"rankings": [...]} or a list of rankings']);
		expect(messages('{"rankings": [}')[0]).toMatch(/^not valid JSON: /);
	});
});

describe('CSV rankings', () => {
	it('reads quoted fields, ">" between places and "=" for ties, with spaces around names', () => {
		const parsed = parseRankings(fixture('ties.csv'), { file: 'ties.csv' });
		expect(parsed.rankings).toEqual([
			{ rater: 'r1', question: 'Who is running for mayor?', order: [['full'], ['no-reflection', 'no-planning'], ['crowdworker']] },
			{ rater: 'r2', question: 'Give an introduction of yourself, please', order: [['full'], ['no-planning'], ['no-reflection', 'crowdworker']] },
			{ rater: 'r3', question: 'Your breakfast is burning! What would you do?', order: [['no-reflection'], ['full'], ['crowdworker'], ['no-planning']] },
			{ rater: 'r4', question: 'He said "hello"', order: [['full', 'no-reflection'], ['crowdworker']] }
		]);
		expect(parsed.conditions).toEqual(['full', 'no-reflection', 'no-planning', 'crowdworker']);
		expect(parsed.ties).toBe(true);
	});

	it('takes the columns in any order, CRLF line ends, a byte-order mark, blank lines and a line break inside quotes', () => {
		const text = '\uFEFForder,Rater,question\r\n"a>b",r1,"two\nlines"\r\n\r\nb>a,r2,q\r\n';
		const parsed = parseRankings(text);
		expect(parsed.rankings).toEqual([
			{ rater: 'r1', question: 'two\nlines', order: [['a'], ['b']] },
			{ rater: 'r2', question: 'q', order: [['b'], ['a']] }
		]);
	});

	it('names the line of each mistake (the line a record starts on)', () => {
		const text = [
			'rater,question,order',
			'r1,q1,a>b',
			'r1,"q\n2",a>a',
			'r1,q3,',
			'r1,q4',
			'r1,q5,a>>b',
			',q6,a>b',
			'r1,q7,a',
			'r1,q8,a=b=a'
		].join('\n');
		expect(messages(text, { file: 'r.csv' })).toEqual([
			'line 3: condition "a" appears twice',
			'line 5: order is empty',
			'line 6: 2 fields, expected 3 (rater,question,order)',
			'line 7: empty condition name in "a>>b" (write conditions best first, joined by ">", "=" for a tie)',
			'line 8: rater is empty',
			'line 9: ranks only "a" (a ranking needs at least two conditions)',
			'line 10: condition "a" appears twice'
		]);
	});

	it('needs a header row naming rater, question and order', () => {
		expect(messages('r1,q1,a>b\n')).toEqual([
			'line 1: unknown column "r1" (expected rater, question, order)',
			'line 1: unknown column "q1" (expected rater, question, order)',
			'line 1: unknown column "a>b" (expected rater, question, order)',
			'line 1: the header row has no "rater" column (expected rater,question,order)',
			'line 1: the header row has no "question" column (expected rater,question,order)',
			'line 1: the header row has no "order" column (expected rater,question,order)'
		]);
		expect(messages('rater,question,order,order\n')).toEqual(['line 1: column "order" appears twice']);
		expect(messages('rater,question,order\n')).toEqual(['no rankings in the file (only a header row)']);
		expect(messages('', { format: 'csv' })).toEqual(['the file is empty (expected a header row: rater,question,order)']);
	});

	it('refuses broken quoting with its line', () => {
		expect(messages('rater,question,order\nr1,"q1,a>b\n')).toEqual(['line 2: quoted field is never closed']);
		expect(messages('rater,question,order\nr1,"q1"x,a>b\nr2,q"2,a>b\n')).toEqual([
			'line 2: text after a closing quote (write "" for a quote inside a quoted field)',
			'line 3: a quote inside an unquoted field (quote the whole field and write "" for a quote)'
		]);
	});

	it('lists at most 20 problems and counts the rest', () => {
		const text = ['rater,question,order', ...Array.from({ length: 25 }, (_, k) => `r${k},q,`)].join('\n');
		const list = problems(text);
		expect(list).toHaveLength(21);
		expect(list[20].message).toBe('and 5 more problems');
	});
});

describe('formats', () => {
	it('tells JSON from CSV by extension, else by the first character', () => {
		expect(rankingsFormat('{}', { file: 'a.CSV' })).toBe('csv');
		expect(rankingsFormat('rater', { file: 'a.json' })).toBe('json');
		expect(rankingsFormat('  \n[', { file: 'rankings.txt' })).toBe('json');
		expect(rankingsFormat('rater,question,order')).toBe('csv');
		expect(rankingsFormat('{', { format: 'csv' })).toBe('csv');
	});

	it('writes CSV and JSON that read back to the same rankings', () => {
		const { rankings } = parseRankings(fixture('ties.csv'));
		expect(parseRankings(rankingsToCsv(rankings)).rankings).toEqual(rankings);
		expect(parseRankings(JSON.stringify(rankingsToJson(rankings))).rankings).toEqual(rankings);
		expect(() => rankingsToCsv([{ rater: 'r', question: 'q', order: [['a>b'], ['c']] }])).toThrow(/contains ">" or "="/);
	});
});
