// Trying a template text on a model call a run recorded: the text (a draft from the prompt
// workbench) is rendered with the call's recorded variables, sent once to the configured model
// (the offline stand-in unless SIMULACRA_PROVIDER says otherwise), and the answer is parsed and
// validated against the draft's output schema, beside what the run recorded. Nothing is cached,
// journalled or stored; a template that does not parse, or variables that do not fit it, are
// refused with their lines.

import type { PromptIssue, TryRequest, TryResult } from '../../api/prompts';

export type { TryRequest, TryResult };
import type { CallView } from '../../api/types';
import type { TemplateVars } from '../../engine/model';
import { outputJsonSchema, readAnswer } from '../../prompts/json-schema';
import { validateOutput } from '../../prompts/schema';
import { parseTemplate, RenderError, renderTemplate, TemplateError, type Template } from '../../prompts/template';
import { SYSTEM_PROMPT } from '../model/gateway';
import type { ChatMessage, ModelProvider } from '../model/providers/types';
import { PromptStoreError } from './store';

/** A refused try: `invalid` (a template or variables that do not fit) or `not-found` (no such call). */
export class TryError extends PromptStoreError {
	constructor(kind: 'invalid' | 'not-found', message: string, issues: PromptIssue[] = []) {
		super(kind, message, issues);
		this.name = 'TryError';
	}
}

/** The recorded call a try starts from. */
export type RecordedCallView = Pick<CallView, 'key' | 'step' | 'template' | 'prompt' | 'answer' | 'value' | 'failsafe' | 'error' | 'vars'>;

/** The step a call key names: `12/nora/3` -> 12; the run's creation (`init/...`) -> -1. */
export function stepOfKey(key: string): number | undefined {
	const head = key.split('/')[0];
	if (head === 'init') return -1;
	return /^\d+$/.test(head) ? Number(head) : undefined;
}

/** Calls of one step, as the calls API answers them (the run manager's `calls`). */
export type CallsOfStep = (filter: { from: number; to: number; limit: number }) => Promise<CallView[]>;

/** The call with `key`, looked up among the calls of its step. */
export async function findCall(callsOf: CallsOfStep, run: string, key: string, step?: number): Promise<CallView> {
	const s = step ?? stepOfKey(key);
	if (s === undefined) throw new TryError('invalid', `"${key.slice(0, 80)}" is not a model call key (step/agent/n); give the call's step too`);
	const calls = await callsOf({ from: s, to: s, limit: 2000 });
	const call = calls.find((c) => c.key === key);
	if (!call) throw new TryError('not-found', `run ${run} has no model call "${key}" at step ${s}`);
	return call;
}

/** The tried text parsed as the call's template and rendered with the call's variables. */
export function renderRecorded(call: RecordedCallView, source: string): { template: Template; vars: TemplateVars; prompt: string } {
	const vars = call.vars;
	if (!vars) {
		throw new TryError(
			'invalid',
			`the call ${call.key} was recorded without its template variables (runs made before they were kept in calls.jsonl); start a new run to try templates on its calls`
		);
	}
	let template: Template;
	try {
		template = parseTemplate(source, `${call.template}.md`);
	} catch (e) {
		if (!(e instanceof TemplateError)) throw e;
		const n = e.issues.length;
		throw new TryError(
			'invalid',
			`${call.template}.md cannot be rendered: ${n === 1 ? e.issues[0].message : `${n} problems`} (line ${e.issues[0]?.line ?? 1})`,
			e.issues.map((i) => ({ template: call.template, line: i.line, message: i.message }))
		);
	}
	try {
		return { template, vars, prompt: renderTemplate(template, vars) };
	} catch (e) {
		if (!(e instanceof RenderError)) throw e;
		throw new TryError('invalid', `the variables of call ${call.key} do not fit this text: ${e.message}`);
	}
}

/** The answer text's JSON object, coerced and validated against the template's output. */
export function judgeAnswer(template: Template, vars: TemplateVars, text: string): { value?: unknown; valid: boolean; issues: string[] } {
	let value: unknown;
	try {
		value = readAnswer(template.output, text, vars);
	} catch (e) {
		return { valid: false, issues: [e instanceof Error ? e.message : String(e)] };
	}
	const check = validateOutput(template.output, value, vars);
	return { value, valid: check.ok, issues: check.errors };
}

/**
 * Sends the tried text, rendered with the call's variables, to `provider` once (no repair round,
 * no fail-safe, no cache) and judges the answer. Throws TryError when the text cannot be rendered.
 */
export async function tryCall(
	run: string,
	call: RecordedCallView,
	source: string,
	provider: ModelProvider,
	now: () => number = () => performance.now()
): Promise<TryResult> {
	const { template, vars, prompt } = renderRecorded(call, source);
	const messages: ChatMessage[] = [
		{ role: 'system', content: SYSTEM_PROMPT },
		{ role: 'user', content: prompt }
	];
	const recordedCheck = validateOutput(template.output, call.value, vars);
	const base = {
		run,
		key: call.key,
		step: call.step,
		template: template.id,
		prompt,
		samePrompt: prompt === call.prompt,
		model: { provider: provider.name, model: provider.model, label: provider.label, offline: provider.name === 'offline' },
		recorded: {
			prompt: call.prompt,
			answer: call.answer,
			value: call.value,
			failsafe: call.failsafe,
			...(call.error ? { error: call.error } : {}),
			valid: recordedCheck.ok,
			issues: recordedCheck.errors
		}
	};
	const started = now();
	let text: string;
	let tokens = { prompt: 0, completion: 0 };
	try {
		const jsonSchema = outputJsonSchema(template.output, vars, { strict: true });
		const result = await provider.chat({ template: template.id, vars, messages, sampling: template.sampling, jsonSchema });
		text = result.text;
		tokens = { ...result.tokens };
	} catch (e) {
		const message = e instanceof Error ? e.message : String(e);
		return { ...base, answer: '', valid: false, issues: [], error: `the model failed: ${message}`, latencyMs: now() - started, tokens };
	}
	const latencyMs = now() - started;
	return { ...base, answer: text, ...judgeAnswer(template, vars, text), latencyMs, tokens };
}
