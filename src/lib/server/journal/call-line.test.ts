// The call line's one reader: what is cut out of a line is what parsing it gives.

import { describe, expect, it } from 'vitest';
import {
	CALL_HEAD,
	callKeyOrder,
	callLineStep,
	callLineTemplate,
	callLineText,
	cutCallLine,
	parseCallHead,
	parseCallLine,
	type CallRecord
} from './call-line';

/** A call as the gateway records it (members in its order; the writer moves the tokens up). */
const call = (key: string, over: Partial<CallRecord> = {}): CallRecord => ({
	key,
	template: 'importance',
	templateVersion: 'v1',
	agent: 'ana',
	purpose: 'rate',
	provider: 'offline',
	endpoint: 'local',
	model: 'offline-1',
	prompt: 'Rate "this", "answer": no',
	vars: { memories: ['a "failsafe": true'] },
	answer: '{"rating": 4}',
	value: { rating: 4, failsafe: true },
	failsafe: false,
	latencyMs: 3,
	tokens: { prompt: 12, completion: 3 },
	cacheHit: false,
	attempts: 1,
	...over
});

describe('the call line', () => {
	it('is written with its step, key, template and tokens first, and parses back', () => {
		const c = call('4/ana/0');
		const text = callLineText(4, c);
		expect(text.startsWith('{"s":4,"key":"4/ana/0","template":"importance","tokens":{"prompt":12,"completion":3},"templateVersion":"v1"')).toBe(true);
		expect(parseCallLine(text)).toEqual({ s: 4, ...c });
		// the head an index keeps: up to the prompt
		const head = text.slice(0, text.indexOf(`,"${CALL_HEAD.stop}":`)) + '}';
		expect(parseCallHead(head)).toEqual({ s: 4, key: '4/ana/0', template: 'importance', agent: 'ana', tokens: { prompt: 12, completion: 3 }, provider: 'offline', model: 'offline-1' });
		expect(callLineText(-1, call('-1/ana/0'))).toMatch(/^\{"s":-1,/);
	});

	it('is cut where parsing it would find the same values, in a longer text and as Latin-1 bytes', () => {
		for (const c of [call('12/ana/3', { failsafe: true, prompt: 'Café "é" ✓' }), call('12/ana/4', { vars: undefined })]) {
			const line = callLineText(12, c);
			const latin1 = Buffer.from(`{"s":1}\n${line}\n{"s":99}`).toString('latin1');
			const start = latin1.indexOf('\n') + 1;
			const end = latin1.indexOf('\n', start);
			const cut = cutCallLine(latin1, start, end);
			expect(cut).not.toBeNull();
			const utf8 = (s: string) => Buffer.from(s, 'latin1').toString('utf8');
			expect(cut?.s).toBe(12);
			expect(cut?.key).toBe(c.key);
			expect(cut?.template).toBe('importance');
			expect(cut?.failsafe).toBe(c.failsafe);
			// the prompt member without the variables; the answer with the value
			expect(JSON.parse(`{${utf8(cut?.prompt.slice(1) ?? '')}}`)).toEqual({ prompt: c.prompt });
			expect(JSON.parse(`{${utf8(cut?.answer.slice(1) ?? '')}}`)).toEqual({ answer: c.answer, value: c.value });
			expect(callLineTemplate(latin1, start, end)).toEqual({ template: 'importance', failsafe: c.failsafe });
			expect(callLineStep(latin1, start)).toBe(12);
		}
		expect(cutCallLine('{"s":1,"key":"1/a/0","template":"t"}')).toBeNull();
		expect(callLineStep('{"step":1}')).toBeNaN();
	});

	it('orders a step\'s calls by key, numeric parts as numbers', () => {
		const keys = ['3/b/0', '3/a/10', '3/a/2', '2/z/0', '10/a/0'];
		expect([...keys].sort(callKeyOrder)).toEqual(['2/z/0', '3/a/2', '3/a/10', '3/b/0', '10/a/0']);
	});
});
