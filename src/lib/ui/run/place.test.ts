import { describe, expect, it } from 'vitest';
import { parseWeights, placeQuery, readPlace } from './place';

describe('run page address', () => {
	it('reads step, agent, tab, trace and weights', () => {
		const p = readPlace(new URLSearchParams('step=42&agent=klaus-mueller&tab=retrievals&trace=t7&weights=1,0.5,2'));
		expect(p).toEqual({
			step: 42,
			agent: 'klaus-mueller',
			tab: 'retrievals',
			trace: 't7',
			weights: { recency: 1, importance: 0.5, relevance: 2 }
		});
	});

	it('falls back to defaults for missing or unreadable values', () => {
		const p = readPlace(new URLSearchParams('step=-3&tab=nope&weights=1,2'));
		expect(p).toEqual({ step: null, agent: null, tab: 'agent', trace: null, weights: null });
	});

	it('writes only what differs from the defaults and reads back the same place', () => {
		expect(placeQuery({ step: null, agent: null, tab: 'agent', trace: null, weights: null })).toBe('');
		const place = readPlace(new URLSearchParams('step=7&agent=a&tab=calls'));
		expect(placeQuery(place)).toBe('?step=7&agent=a&tab=calls');
		expect(readPlace(new URLSearchParams(placeQuery(place).slice(1)))).toEqual(place);
	});

	it('refuses negative or non-numeric weights', () => {
		expect(parseWeights('1,-1,1')).toBeNull();
		expect(parseWeights('a,b,c')).toBeNull();
		expect(parseWeights(' 0, 1 ,2')).toEqual({ recency: 0, importance: 1, relevance: 2 });
	});
});
