// Trying edited template texts on recorded model calls: a real run's journal (its calls keep
// their variables), rendering with an edited text, judging answers, and refusals.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallView } from '../../api/types';
import { parseTemplate, renderTemplate } from '../../prompts/template';
import { RunManager } from '../ide/manager';
import { createModelGateway, OfflineProvider, offlineAnswer, type ChatRequest, type ModelProvider, type RecordedCall } from '../model';
import { SAMPLE_VARS } from '../model/testing/sample-vars';
import { projectRoot } from '../paths';
import { startRun } from '../run/runner';
import { findCall, renderRecorded, stepOfKey, TryError, tryCall, type RecordedCallView } from './try';

const home = mkdtempSync(path.join(tmpdir(), 'prompt-try-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const source = (id: string) => readFileSync(path.join(projectRoot(), 'prompts', `${id}.md`), 'utf8');

/** A provider that answers one fixed text, or fails. */
function fixed(answer: string | Error, seen: ChatRequest[] = []): ModelProvider {
	return {
		name: 'scripted',
		model: 'script-1',
		embedModel: 'none',
		dimensions: 3,
		label: 'scripted test provider',
		chat: async (req) => {
			seen.push(req);
			if (answer instanceof Error) throw answer;
			return { text: answer, tokens: { prompt: 10, completion: 5 } };
		},
		embed: async (texts) => texts.map(() => new Float32Array(3))
	};
}

/** A recorded react call made from the shipped template and the offline stand-in. */
function reactCall(): RecordedCallView {
	const vars = SAMPLE_VARS.react;
	const t = parseTemplate(source('react'), 'react.md');
	const value = offlineAnswer('react', vars);
	return { key: '40/nora/2', step: 40, template: 'react', prompt: renderTemplate(t, vars), answer: JSON.stringify(value), value, failsafe: false, vars };
}

describe('the gateway keeps each call\'s variables', () => {
	it('records them beside the prompt', async () => {
		const calls: RecordedCall[] = [];
		const { gateway } = await createModelGateway({ env: { SIMULACRA_HOME: home }, recorder: (c) => calls.push(c) });
		await gateway.complete({ template: 'action_emoji', vars: { activity: 'sleeping' }, key: '3/nora/0', agent: 'nora' });
		expect(calls).toHaveLength(1);
		expect(calls[0].vars).toEqual({ activity: 'sleeping' });
		expect(calls[0].prompt).toContain('sleeping');
	});
});

describe('trying a text on a call a run recorded', () => {
	let runId: string;
	let manager: RunManager;
	beforeAll(async () => {
		runId = (await startRun({ world: 'the-ville-3', seed: 7, home, steps: 3, snapshotEvery: 50 })).run;
		manager = new RunManager({ home });
	}, 120_000);

	it('renders the recorded variables with an edited text and asks the model again', async () => {
		const calls = await manager.queries.calls(runId, { template: 'daily_plan', limit: 10 });
		expect(calls.length).toBeGreaterThan(0);
		const recorded = calls[0];
		expect(recorded.vars).toBeDefined();
		const call = await findCall((f) => manager.queries.calls(runId, f), runId, recorded.key, recorded.step);
		expect(call.key).toBe(recorded.key);

		// the shipped text gives back the recorded prompt exactly
		const same = await tryCall(runId, call, source('daily_plan'), new OfflineProvider());
		expect(same.samePrompt).toBe(true);
		expect(same.prompt).toBe(recorded.prompt);

		const edited = source('daily_plan').replace(/\n---\n/, '\n---\nPLANNING NOTES FOR {{name}}.\n');
		const result = await tryCall(runId, call, edited, new OfflineProvider());
		const name = String(recorded.vars?.name);
		expect(result.prompt.startsWith(`PLANNING NOTES FOR ${name}.\n`)).toBe(true);
		expect(result.samePrompt).toBe(false);
		expect(result.prompt).toContain(recorded.prompt.split('\n')[0]);
		expect(result.model).toMatchObject({ provider: 'offline', offline: true });
		expect(result.error).toBeUndefined();
		// the offline stand-in answers from the variables: the same answer the run recorded
		expect(result.valid).toBe(true);
		expect(result.issues).toEqual([]);
		expect(result.value).toEqual(recorded.value);
		expect(result.recorded).toMatchObject({ prompt: recorded.prompt, answer: recorded.answer, failsafe: recorded.failsafe, valid: true });
	});

	it('answers 404 for a key the run does not have', async () => {
		const err = await findCall((f) => manager.queries.calls(runId, f), runId, '1/nobody/99').catch((e: unknown) => e);
		expect(err).toBeInstanceOf(TryError);
		expect(err).toMatchObject({ status: 404 });
		expect((err as Error).message).toContain('1/nobody/99');
	});
});

describe('judging the answer against the tried text', () => {
	it('sends the call\'s JSON schema, so a structured-output endpoint is asked as a run asks it', async () => {
		const seen: ChatRequest[] = [];
		await tryCall('r', reactCall(), source('react'), fixed('{"react": false, "talk": false, "reaction": ""}', seen));
		expect(seen[0].jsonSchema).toMatchObject({ type: 'object', additionalProperties: false, required: ['react', 'talk', 'reaction'] });
	});

	it('validates a good answer and reports a bad one with its JSON paths', async () => {
		const ok = await tryCall('r', reactCall(), source('react'), fixed('Sure: {"react": false, "talk": false, "reaction": ""}'));
		expect(ok).toMatchObject({ valid: true, issues: [], value: { react: false, talk: false, reaction: '' }, tokens: { prompt: 10, completion: 5 } });

		const bad = await tryCall('r', reactCall(), source('react'), fixed('{"react": "perhaps", "talk": false}'));
		expect(bad.valid).toBe(false);
		expect(bad.answer).toBe('{"react": "perhaps", "talk": false}');
		expect(bad.issues.join('\n')).toMatch(/\$\.react/);
		expect(bad.issues.join('\n')).toMatch(/reaction/);

		const prose = await tryCall('r', reactCall(), source('react'), fixed('I would keep working.'));
		expect(prose.valid).toBe(false);
		expect(prose.value).toBeUndefined();
		expect(prose.issues[0]).toMatch(/JSON/);
	});

	it('checks the recorded answer against the edited output schema', async () => {
		const call = { ...reactCall(), value: { react: true, talk: false, reaction: 'greets the neighbour warmly' } };
		const tight = source('react').replace('reaction: {type: string, maxLength: 300', 'reaction: {type: string, maxLength: 5');
		const result = await tryCall('r', call, tight, fixed('{"react": false, "talk": false, "reaction": ""}'));
		expect(result.valid).toBe(true);
		expect(result.recorded.valid).toBe(false);
		expect(result.recorded.issues.join('\n')).toMatch(/reaction/);
	});

	it('shows a model failure as an error, not an answer', async () => {
		const result = await tryCall('r', reactCall(), source('react'), fixed(new Error('connection refused')));
		expect(result.error).toBe('the model failed: connection refused');
		expect(result.answer).toBe('');
		expect(result.valid).toBe(false);
		expect(result.prompt).toBe(reactCall().prompt);
	});
});

describe('refusals', () => {
	it('refuses a text with an unknown placeholder, naming its line', () => {
		const text = source('react').replace('Observation: {{observation}}', 'Observation: {{observation}} near {{place}}');
		const line = text.split('\n').findIndex((l) => l.includes('{{place}}')) + 1;
		let err: unknown;
		try {
			renderRecorded(reactCall(), text);
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(TryError);
		const e = err as TryError;
		expect(e.status).toBe(400);
		expect(e.message).toContain('react.md');
		expect(e.issues).toContainEqual({ template: 'react', line, message: expect.stringContaining('unknown placeholder {{place}}') });
	});

	it('refuses variables the edited text does not declare', () => {
		// "context" no longer declared or used: the recorded call passes it all the same
		const text = source('react')
			.replace(/\n {2}context: \{[^\n]*\n/, '\n')
			.replace('What {{name}} knows about it: {{context}}\n', '');
		expect(() => renderRecorded(reactCall(), text)).toThrow(/do not fit this text: .*"context" is not an input/);
	});

	it('refuses a call recorded without its variables', () => {
		const { vars: _vars, ...old } = reactCall();
		expect(() => renderRecorded(old, source('react'))).toThrow(/without its template variables/);
	});

	it('reads the step from a call key', async () => {
		expect(stepOfKey('12/nora/3')).toBe(12);
		expect(stepOfKey('init/nora/0')).toBe(-1);
		expect(stepOfKey('interview-4/nora/0')).toBeUndefined();
		const seen: unknown[] = [];
		const calls = [{ ...reactCall(), step: 12, key: '12/nora/3' }] as CallView[];
		const found = await findCall(async (f) => (seen.push(f), calls), 'r', '12/nora/3');
		expect(found.key).toBe('12/nora/3');
		expect(seen).toEqual([{ from: 12, to: 12, limit: 2000 }]);
		await expect(findCall(async () => calls, 'r', 'interview-4/nora/0')).rejects.toThrow(/give the call's step/);
	});
});
