import { describe, expect, it } from 'vitest';
import { agentCenters, bubbleSides, wrapText } from './render';

const agent = (id: string, x: number, y: number) => ({ id, name: id, firstName: id, x, y });

describe('agent markers', () => {
	it('puts an agent at the centre of its tile', () => {
		expect(agentCenters([agent('a', 2, 3)], 32, 32, 10).get('a')).toEqual({ cx: 80, cy: 112 });
	});

	it('spreads agents that share a tile side by side, keeping their middle on the tile centre', () => {
		const c = agentCenters([agent('a', 1, 1), agent('b', 1, 1), agent('c', 5, 5)], 32, 32, 10);
		const a = c.get('a')!;
		const b = c.get('b')!;
		expect(a.cy).toBe(48);
		expect(b.cy).toBe(48);
		expect(b.cx - a.cx).toBeCloseTo(21);
		expect((a.cx + b.cx) / 2).toBeCloseTo(48);
		expect(c.get('c')).toEqual({ cx: 176, cy: 176 });
	});
});

describe('speech bubble text', () => {
	// one unit per character
	const measure = (t: string) => t.length;

	it('wraps at word boundaries within the width', () => {
		expect(wrapText(measure, 'one two three four', 9)).toEqual(['one two', 'three', 'four']);
	});

	it('ends with an ellipsis when the text needs more lines than allowed', () => {
		expect(wrapText(measure, 'aa bb cc dd ee ff', 5, 2)).toEqual(['aa bb', 'cc dd…']);
	});

	it('keeps a single long word on its own line', () => {
		expect(wrapText(measure, 'extraordinarily long', 5)).toEqual(['extraordinarily', 'long']);
	});
});

describe('speech bubble placement', () => {
	it('puts a lone speaker\'s bubble above and a pair\'s bubbles on their outer sides', () => {
		const agents = [{ ...agent('a', 5, 5), speech: 'hi' }, { ...agent('b', 5, 4), speech: 'hello' }, { ...agent('c', 30, 30), speech: 'alone' }];
		const centers = agentCenters(agents, 32, 32, 10);
		const sides = bubbleSides(agents, centers, 4 * 32);
		expect(sides.get('c')).toBe('above');
		// same column: the order of ids decides, so the two never pick the same side
		expect(new Set([sides.get('a'), sides.get('b')])).toEqual(new Set(['left', 'right']));
		const apart = [{ ...agent('x', 9, 5), speech: '1' }, { ...agent('y', 7, 5), speech: '2' }];
		const s2 = bubbleSides(apart, agentCenters(apart, 32, 32, 10), 128);
		expect(s2.get('y')).toBe('left');
		expect(s2.get('x')).toBe('right');
	});
});
