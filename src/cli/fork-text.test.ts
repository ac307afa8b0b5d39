import { describe, expect, it } from 'vitest';
import { controlCommands, defaultForkSteps, inputForkText, type InputFork } from './fork-text';

const base: InputFork = {
	parent: { run: 'p', step: 50, committed: 50 },
	fork: { run: 'f', end: 410 },
	input: { type: 'set-object', address: 'Cafe:kitchen:stove', state: 'broken' },
	steps: 360,
	defaultSteps: true,
	secondsPerStep: 10
};

describe('what set-object and whisper say', () => {
	it('a fork at the run\'s end: the step, when the change takes effect, the default span and how to compare', () => {
		const text = inputForkText(base);
		expect(text).toContain('set-object: forked p at step 50 (its last step) as f');
		expect(text).toContain('"Cafe:kitchen:stove" is "broken" from the fork\'s first step (50 -> 51)');
		expect(text).toContain('the fork ran 360 steps (1 game hour), to step 410; that is the default');
		expect(text).toContain('npm run simulacra -- run --from p@50 --steps 360');
		expect(text).toContain('npm run simulacra -- resume f --steps N');
		expect(controlCommands(base)).not.toBeNull();
	});

	it('a fork inside the run: diff with the run itself compares the steps after the change', () => {
		const f: InputFork = { ...base, parent: { run: 'p', step: 20, committed: 50 }, fork: { run: 'f', end: 30 }, steps: 10, defaultSteps: false, input: { type: 'whisper', agent: 'ana-quill', text: 'Call Bo' }, agentName: 'Ana Quill' };
		const text = inputForkText(f);
		expect(text).toContain('whisper: forked p at step 20 as f');
		expect(text).toContain('Ana Quill hears "Call Bo" as an inner voice at the fork\'s first step (20 -> 21)');
		expect(text).toContain('the fork ran 10 steps (2 game minutes), to step 30\n');
		expect(text).toContain('npm run simulacra -- diff p f compares them from step 20 to step 30');
		expect(controlCommands(f)).toBeNull();
	});

	it('runs one game hour by default', () => {
		expect(defaultForkSteps(10)).toBe(360);
		expect(defaultForkSteps(60)).toBe(60);
	});
});
