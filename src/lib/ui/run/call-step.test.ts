import { describe, expect, it } from 'vitest';
import { callStepLabel, callStepText } from './call-step';

describe('the step of a model call', () => {
	it('names the calls made at the run\'s creation "setup", never step -1', () => {
		expect(callStepText(-1)).toBe('setup');
		expect(callStepText(0)).toBe('0');
		expect(callStepLabel(-1)).toBe('setup (before step 0)');
		expect(callStepLabel(12)).toBe('step 12');
	});
});
