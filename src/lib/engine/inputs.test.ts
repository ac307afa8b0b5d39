// The registry of inputs: what each check says (naming the field), the order of an input's
// members in the log whoever gave it, the descriptions markers and the diff show.

import { describe, expect, it } from 'vitest';
import {
	API_INPUTS,
	INPUT_NAMES,
	apiInputsShape,
	checkInput,
	describeInput,
	inputAgent,
	inputFromJson,
	inputFromOptions,
	inputFromPair,
	mapInputAgents,
	type SimInput
} from './inputs';
import { Simulation } from './sim';
import { createTestWorld, scriptedModel } from './testing';

const world = { agents: [{ id: 'ana-alder' }, { id: 'ben-brook' }], objects: { 'House:bedroom:desk': 'idle' } } as unknown as Parameters<typeof checkInput>[1];

describe('the registry of inputs', () => {
	it('names the inputs; the API takes inner voices and object edits', () => {
		expect(INPUT_NAMES).toEqual(['whisper', 'set-object', 'interview']);
		expect(API_INPUTS).toEqual(['whisper', 'set-object']);
		expect(apiInputsShape()).toBe('{ type: whisper, agent, text } or { type: set-object, address, state }');
	});

	it('checks an input against the world, naming what is wrong', () => {
		expect(checkInput({ type: 'whisper', agent: 'ana-alder', text: 'go out' }, world)).toBeNull();
		expect(checkInput({ type: 'whisper', agent: 'nobody', text: 'go out' }, world)).toBe('unknown agent "nobody"');
		expect(checkInput({ type: 'whisper', agent: 'ana-alder', text: '  ' }, world)).toBe('the inner-voice text is empty');
		expect(checkInput({ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }, world)).toBeNull();
		expect(checkInput({ type: 'set-object', address: 'toString', state: 'on fire' }, world)).toBe('unknown object "toString"');
		expect(checkInput({ type: 'set-object', address: 'House:bedroom:desk', state: '' }, world)).toBe('the object state is empty');
		expect(checkInput({ type: 'interview', agent: 'ben-brook', interviewer: '', question: 'Why?' }, world)).toBeNull();
		expect(checkInput({ type: 'interview', agent: 'ben-brook', interviewer: 'a reporter', question: ' ' }, world)).toBe('the question is empty');
		const odd = { type: 'teleport', agent: 'ana-alder' } as unknown as SimInput;
		expect(checkInput(odd, world)).toBe('unknown input {"type":"teleport","agent":"ana-alder"}');
	});

	it('reads the API\'s inputs: each failure names the field; members in the log\'s order, nothing else kept', () => {
		const ok = inputFromJson({ text: 'go out', extra: 1, agent: 'Ana Alder', type: 'whisper' }, 'inputs[0]');
		expect(ok.ok && JSON.stringify(ok.value)).toBe('{"type":"whisper","agent":"Ana Alder","text":"go out"}');
		const error = (raw: unknown) => {
			const r = inputFromJson(raw, 'inputs[1]');
			return r.ok ? null : r.error;
		};
		expect(error('whisper')).toBe('inputs[1] must be an object');
		expect(error({ type: 'interview', agent: 'a', interviewer: 'b', question: 'c' })).toBe('inputs[1].type must be "whisper" or "set-object"');
		expect(error({ type: 'whisper', text: 'x' })).toBe('inputs[1].agent is required');
		expect(error({ type: 'whisper', agent: 'a', text: 3 })).toBe('inputs[1].text must be a string');
		expect(error({ type: 'set-object', address: 'A:b:c', state: ' ' })).toBe('inputs[1].state is empty');
		expect(error({ type: 'set-object', address: 'A:b:c', state: 'x'.repeat(301) })).toBe('inputs[1].state is longer than 300 characters');
	});

	it('reads the command line: `run --whisper AGENT=TEXT`, and each input\'s own command', () => {
		const pair = inputFromPair('whisper', 'ana-alder=buy milk = and bread');
		expect(pair.ok && JSON.stringify(pair.value)).toBe('{"type":"whisper","agent":"ana-alder","text":"buy milk = and bread"}');
		const object = inputFromPair('set-object', 'Cafe:kitchen:stove=on fire');
		expect(object.ok && object.value).toEqual({ type: 'set-object', address: 'Cafe:kitchen:stove', state: 'on fire' });
		expect(inputFromPair('whisper', '=x')).toEqual({ ok: false, error: '--whisper takes KEY=VALUE, not "=x"' });
		expect(inputFromOptions('whisper', { agent: 'Ana', text: 'hi' })).toEqual({ ok: true, value: { type: 'whisper', agent: 'Ana', text: 'hi' } });
		expect(inputFromOptions('whisper', { text: 'hi' })).toEqual({ ok: false, error: 'whisper needs --agent NAME' });
		expect(inputFromOptions('whisper', { agent: 'Ana', text: '' })).toEqual({ ok: false, error: 'whisper needs --text TEXT' });
		expect(inputFromOptions('set-object', { state: 'x' })).toEqual({ ok: false, error: 'set-object needs --object ADDRESS' });
		expect(inputFromOptions('set-object', { object: 'A:b:c' })).toEqual({ ok: false, error: 'set-object needs --state TEXT' });
		// who asks: --as, by default an interviewer
		const asked = inputFromOptions('interview', { agent: 'Ana', question: 'Why?' });
		expect(asked.ok && JSON.stringify(asked.value)).toBe('{"type":"interview","agent":"Ana","interviewer":"an interviewer","question":"Why?"}');
		expect(inputFromOptions('interview', { agent: 'Ana', question: 'Why?', as: 'Bo' })).toMatchObject({ value: { interviewer: 'Bo' } });
		expect(inputFromOptions('interview', { agent: 'Ana' })).toEqual({ ok: false, error: 'interview needs --question TEXT' });
	});

	it('describes an input in one line, agents by name', async () => {
		const name = (id: string) => (id === 'ana-alder' ? 'Ana Alder' : id);
		expect(describeInput({ type: 'whisper', agent: 'ana-alder', text: 'Buy milk' }, name)).toBe('inner voice to Ana Alder: Buy milk');
		expect(describeInput({ type: 'whisper', agent: 'ana-alder', text: 'Buy milk' })).toBe('inner voice to ana-alder: Buy milk');
		expect(describeInput({ type: 'set-object', address: 'Johnson Park:garden:vegetable patch', state: 'on fire' })).toBe('Johnson Park:garden:vegetable patch set to "on fire"');
		expect(describeInput({ type: 'interview', agent: 'ana-alder', interviewer: 'a reporter', question: 'Why?' }, name)).toBe('interview of Ana Alder by a reporter: Why?');
		expect(inputAgent({ type: 'set-object', address: 'A:b:c', state: 'x' })).toBeUndefined();
		expect(inputAgent({ type: 'interview', agent: 'ana-alder', interviewer: '', question: 'q' })).toBe('ana-alder');
		const resolved = await mapInputAgents({ type: 'whisper', agent: 'Ana Alder', text: 't' }, async () => 'ana-alder');
		expect(JSON.stringify(resolved)).toBe('{"type":"whisper","agent":"ana-alder","text":"t"}');
	});

	it('applies each input at a step with its event, the agent named when it has one', async () => {
		const model = scriptedModel();
		const { sim } = await Simulation.create(createTestWorld(), { seed: 3 }, model);
		const out = await sim.step(
			[
				{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' },
				{ type: 'whisper', agent: 'ana-alder', text: 'visit the street' },
				{ type: 'interview', agent: 'ana-alder', interviewer: '', question: 'Where are you?' }
			],
			model
		);
		expect(out.events.filter((e) => e.kind === 'input')).toEqual([
			{ kind: 'input', input: 'set-object' },
			{ kind: 'input', input: 'whisper', agent: 'ana-alder' },
			{ kind: 'input', input: 'interview', agent: 'ana-alder' }
		]);
		expect(sim.state.objects['House:bedroom:desk']).toBe('on fire');
		expect(sim.stream('ana-alder').records.some((m) => m.kind === 'conversation' && m.description.startsWith('An interviewer asked'))).toBe(true);
	});
});
