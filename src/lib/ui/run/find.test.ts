import { describe, expect, it } from 'vitest';
import type { ModelUse, ModelUseBucket } from '$lib/api/model-use';
import type { StepChange } from '$lib/api/changes';
import type { SearchResult } from '$lib/api/search';
import { changeTarget, hourBars, niceMax, resultTarget, visibleChanges } from './find';

const result = (r: Partial<SearchResult>): SearchResult => ({ agent: 'klaus', kind: 'memory', id: 'klaus/m3', step: 41, text: '', score: 1, matched: ['words'], ...r });

describe('where the debugger\'s links lead', () => {
	it('a result: the state after the step that made it, its agent and panel, the thing marked', () => {
		expect(resultTarget(result({}))).toEqual({ step: 42, agent: 'klaus', tab: 'memories', mark: 'klaus/m3' });
		expect(resultTarget(result({ kind: 'conversation', id: 'c7-a-b#3' }))).toEqual({ step: 42, agent: 'klaus', tab: 'chats', mark: 'c7-a-b' });
		expect(resultTarget(result({ kind: 'call', id: '41/klaus/2', step: 41 }))).toEqual({ step: 42, agent: 'klaus', tab: 'calls', mark: '41/klaus/2' });
		// a run's creation call (step -1) leads to its first state
		expect(resultTarget(result({ kind: 'call', id: '-1/klaus/0', step: -1, agent: '' }))).toEqual({ step: 0, agent: null, tab: 'calls', mark: '-1/klaus/0' });
	});

	it('a change: memories to the memory, calls to the call, moves to the agent; an object nobody uses nowhere', () => {
		const memory: StepChange = { kind: 'memory', agent: 'a', id: 'a/m1', memoryKind: 'observation', source: 'observed', importance: 3, description: '', text: '' };
		expect(changeTarget(memory, 10)).toEqual({ step: 10, agent: 'a', tab: 'memories', mark: 'a/m1' });
		const call: StepChange = { kind: 'call', agent: 'a', key: '9/a/0', template: 't', tokens: { prompt: 1, completion: 1 }, latencyMs: 1, failsafe: false, cacheHit: false, text: '' };
		expect(changeTarget(call, 10)).toEqual({ step: 10, agent: 'a', tab: 'calls', mark: '9/a/0' });
		expect(changeTarget({ kind: 'move', agent: 'a', from: [0, 0], to: [0, 1], text: '' }, 10)).toEqual({ step: 10, agent: 'a', tab: 'agent', mark: null });
		expect(changeTarget({ kind: 'object', address: 'x', name: 'x', from: 'idle', to: 'on', text: '' }, 10)).toBeNull();
		expect(changeTarget({ kind: 'input', input: 'x', text: '' }, 10)).toBeNull();
	});

	it('the pane shows the kinds not hidden, of the selected agent when asked', () => {
		const changes: StepChange[] = [
			{ kind: 'move', agent: 'a', from: [0, 0], to: [0, 1], text: '' },
			{ kind: 'move', agent: 'b', from: [0, 0], to: [0, 1], text: '' },
			{ kind: 'conversation', change: 'begun', id: 'c', agents: ['b', 'a'], address: '', text: '' },
			{ kind: 'object', address: 'x', name: 'x', from: '', to: '', by: 'b', text: '' }
		];
		expect(visibleChanges(changes, new Set(), 'a').map((c) => c.kind)).toEqual(['move', 'conversation']);
		expect(visibleChanges(changes, new Set(['move']), null).map((c) => c.kind)).toEqual(['conversation', 'object']);
		expect(visibleChanges(changes, new Set(['move']), 'b').map((c) => c.kind)).toEqual(['conversation', 'object']);
	});
});

describe('model-use charts', () => {
	const b = (calls: number, prompt = 0, latencyMs = 0): ModelUseBucket => ({ calls, prompt, completion: 0, latencyMs, maxLatencyMs: latencyMs, failsafes: 0, cacheHits: 0 });
	const use: ModelUse = {
		run: 'r',
		steps: 720,
		secondsPerStep: 10,
		hours: [
			{ step: 0, time: 0 },
			{ step: 360, time: 3_600_000 }
		],
		total: [b(10, 100, 50), b(4, 40, 4)],
		templates: ['t1', 't2', 't3'].map((template, i) => ({ template, calls: 3 - i, prompt: 0, completion: 0, latencyMs: 0, p50LatencyMs: 0, p95LatencyMs: 0 })),
		byTemplate: { t1: [b(6, 60), b(2, 20)], t2: [b(3, 30), b(1, 10)], t3: [b(1, 10), b(1, 10)] }
	};

	it('stacks the most used templates and the rest as other; latency is the hour\'s mean', () => {
		const calls = hourBars(use, 'calls', 2);
		expect(calls.map((x) => x.parts)).toEqual([
			[
				{ template: 't1', value: 6 },
				{ template: 't2', value: 3 },
				{ template: 'other', value: 1 }
			],
			[
				{ template: 't1', value: 2 },
				{ template: 't2', value: 1 },
				{ template: 'other', value: 1 }
			]
		]);
		expect(calls.map((x) => [x.step, x.total])).toEqual([
			[0, 10],
			[360, 4]
		]);
		expect(hourBars(use, 'tokens', 3)[0].parts.map((p) => p.value)).toEqual([60, 30, 10]);
		expect(hourBars(use, 'latency').map((x) => x.total)).toEqual([5, 1]);
	});

	it('a round axis top', () => {
		expect([0, 0.3, 1, 7, 12, 340, 1000].map(niceMax)).toEqual([1, 0.5, 1, 10, 20, 500, 1000]);
	});
});
