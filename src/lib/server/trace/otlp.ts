// A run as an OpenTelemetry trace, for the tracing tools a team already runs (Langfuse, Arize
// Phoenix, Jaeger, any OTLP/HTTP endpoint): one trace per run, a root span for the run, a span
// per step, and inside each step a span per model call following the GenAI semantic
// conventions (`gen_ai.operation.name`, `gen_ai.system`, `gen_ai.request.model`,
// `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`; the prompt and the answer as the
// span's `gen_ai.user.message` and `gen_ai.choice` events).
//
// The spans are the SDK's `ReadableSpan`s made from the journal (no tracer runs: the run
// already happened). Sending goes through the OTLP/HTTP exporter of the OpenTelemetry JS
// packages; the file holds, one per line, the very request bodies the exporter sends
// (`JsonTraceSerializer`), the JSON-lines form the OpenTelemetry Collector's `otlpjsonfile`
// receiver reads.
//
// Ids are derived from the run (SHA-256 of its id, of each step, of each call key), so an
// export is the same every time and a second export of the run replaces the first in a backend.
// Times are game time (the step's clock; a call lasts its recorded wall latency from the start
// of its step) unless `now` moves the whole trace to end at the moment of export.

import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { formatIso } from '../../engine/clock';
import type { RunMeta, RunReader } from '../journal/journal';
import type { CallLine } from '../journal/call-line';
import type { StepLine } from '../journal/commit-line';
import { dataHome } from '../paths';
import { openRun, runLineage, type Span } from '../store/store';

// GenAI semantic conventions (incubating: the names are written here, as the conventions advise)
export const GEN_AI = {
	operation: 'gen_ai.operation.name',
	system: 'gen_ai.system',
	provider: 'gen_ai.provider.name',
	requestModel: 'gen_ai.request.model',
	responseModel: 'gen_ai.response.model',
	inputTokens: 'gen_ai.usage.input_tokens',
	outputTokens: 'gen_ai.usage.output_tokens',
	userMessage: 'gen_ai.user.message',
	choice: 'gen_ai.choice'
} as const;

const SCOPE = { name: 'simulacra-studio', version: '0.1.0' };

/** Spans per request (a step span travels with its calls, so a request may hold a few more). */
export const SPANS_PER_REQUEST = 1000;
/** Characters of prompts and answers per request, about: keeps a request to a few megabytes. */
const TEXT_PER_REQUEST = 3_000_000;
/** Steps read from the journal at a time. */
const STEPS_PER_READ = 480;

export interface OtlpOptions {
	home?: string;
	/** steps [from, to) of the lineage (default: all of it) */
	from?: number;
	to?: number;
	/** move the trace to end now (times relative to each other kept), for tools that look back from now */
	now?: boolean;
}

export interface OtlpSummary {
	run: string;
	traceId: string;
	spans: number;
	steps: number;
	calls: number;
	requests: number;
	bytes: number;
	ms: number;
}

function hex(text: string, chars: number): string {
	return createHash('sha256').update(text).digest('hex').slice(0, chars);
}

export function traceIdOf(run: string): string {
	return hex(`simulacra:trace:${run}`, 32);
}

/**
 * A time `ms + extraMs` as [seconds, nanoseconds]: `ms` a whole number of milliseconds (game
 * times: around 1.7e12, where a double holds no nanoseconds), `extraMs` a wall latency.
 */
function hr(ms: number, extraMs = 0): HrTime {
	const whole = Math.floor(ms);
	let nanos = (whole % 1000) * 1_000_000 + Math.round((ms - whole + extraMs) * 1e6);
	let s = Math.floor(whole / 1000);
	s += Math.floor(nanos / 1e9);
	nanos = ((nanos % 1e9) + 1e9) % 1e9;
	return [s, nanos];
}

function secondsPerStepOf(reader: RunReader): number {
	const file = path.join(reader.dir, 'world', 'world.json');
	try {
		const s = (JSON.parse(readFileSync(file, 'utf8')) as { secondsPerStep?: unknown }).secondsPerStep;
		return typeof s === 'number' && s > 0 ? s : 10;
	} catch {
		return 10;
	}
}

class SpanBuilder {
	readonly resource: Resource;
	readonly traceId: string;
	constructor(
		readonly run: string,
		readonly meta: RunMeta,
		/** game ms -> exported ms */
		readonly shift: number
	) {
		this.traceId = traceIdOf(run);
		this.resource = resourceFromAttributes({
			[ATTR_SERVICE_NAME]: 'simulacra-studio',
			[ATTR_SERVICE_VERSION]: SCOPE.version,
			'simulacra.run': run,
			'simulacra.world': meta.world,
			'simulacra.seed': meta.seed,
			'simulacra.model': meta.model.label,
			'simulacra.prompt_set': meta.promptSet.version
		});
	}

	context(spanId: string): SpanContext {
		return { traceId: this.traceId, spanId, traceFlags: TraceFlags.SAMPLED };
	}

	/** `start` game ms (whole), `ms` how long it lasted */
	span(s: {
		name: string;
		id: string;
		parent?: string;
		kind?: SpanKind;
		start: number;
		ms: number;
		attributes: Attributes;
		events?: TimedEvent[];
		error?: string;
	}): ReadableSpan {
		const ms = Math.max(0, s.ms);
		const start = hr(s.start + this.shift);
		const end = hr(s.start + this.shift, ms);
		const ctx = this.context(s.id);
		return {
			name: s.name,
			kind: s.kind ?? SpanKind.INTERNAL,
			spanContext: () => ctx,
			...(s.parent ? { parentSpanContext: this.context(s.parent) } : {}),
			startTime: start,
			endTime: end,
			duration: hr(0, ms),
			status: s.error ? { code: SpanStatusCode.ERROR, message: s.error } : { code: SpanStatusCode.UNSET },
			attributes: s.attributes,
			links: [],
			events: s.events ?? [],
			ended: true,
			resource: this.resource,
			instrumentationScope: SCOPE,
			droppedAttributesCount: 0,
			droppedEventsCount: 0,
			droppedLinksCount: 0
		};
	}

	event(name: string, at: number, attributes: Attributes, extraMs = 0): TimedEvent {
		return { name, time: hr(at + this.shift, extraMs), attributes };
	}
}

/** The span ids of a run's root, a step, a call (of the lineage run that holds it). */
export const spanIds = {
	root: (run: string) => hex(`simulacra:run:${run}`, 16),
	step: (run: string, s: number) => hex(`simulacra:step:${run}:${s}`, 16),
	call: (holder: string, key: string) => hex(`simulacra:call:${holder}:${key}`, 16)
};

function callSpan(b: SpanBuilder, c: CallLine, holder: string, parent: string, start: number): ReadableSpan {
	const provider = c.provider ?? b.meta.model.provider;
	const model = c.model ?? b.meta.model.model;
	const at = start;
	const latency = Math.max(0, c.latencyMs);
	const attributes: Attributes = {
		[GEN_AI.operation]: 'chat',
		[GEN_AI.system]: provider,
		[GEN_AI.provider]: provider,
		[GEN_AI.requestModel]: model,
		[GEN_AI.responseModel]: model,
		[GEN_AI.inputTokens]: c.tokens.prompt,
		[GEN_AI.outputTokens]: c.tokens.completion,
		'simulacra.call_key': c.key,
		'simulacra.step': c.s,
		'simulacra.template': c.template,
		'simulacra.template_version': c.templateVersion,
		'simulacra.failsafe': c.failsafe,
		'simulacra.cache_hit': c.cacheHit,
		'simulacra.attempts': c.attempts,
		...(c.agent ? { 'simulacra.agent': c.agent } : {}),
		...(c.purpose ? { 'simulacra.purpose': c.purpose } : {}),
		...(c.endpoint ? { 'server.address': c.endpoint } : {})
	};
	return b.span({
		name: `chat ${model}`,
		id: spanIds.call(holder, c.key),
		parent,
		kind: SpanKind.CLIENT,
		start: at,
		ms: latency,
		attributes,
		events: [
			b.event(GEN_AI.userMessage, at, { [GEN_AI.system]: provider, role: 'user', content: c.prompt }),
			b.event(GEN_AI.choice, at, {
				[GEN_AI.system]: provider,
				index: 0,
				finish_reason: c.failsafe ? 'error' : 'stop',
				message: JSON.stringify({ role: 'assistant', content: c.answer })
			}, latency)
		],
		...(c.error ? { error: c.error } : c.failsafe ? { error: 'fail-safe: the answer was not valid; a safe default was used' } : {})
	});
}

function stepEvents(b: SpanBuilder, line: StepLine, at: number): TimedEvent[] {
	const out: TimedEvent[] = [];
	for (const e of line.events) {
		const attrs: Attributes = { 'simulacra.kind': e.kind };
		if ('agent' in e && e.agent) attrs['simulacra.agent'] = e.agent;
		if (e.kind === 'reaction') attrs['simulacra.reaction'] = e.reaction;
		if (e.kind === 'conversation') attrs['simulacra.agents'] = e.agents.join(',');
		if (e.kind === 'reflection') attrs['simulacra.memories'] = e.memories.join(',');
		if (e.kind === 'plan') attrs['simulacra.day'] = e.day;
		if (e.kind === 'failsafe') attrs['simulacra.template'] = e.template;
		if (e.kind === 'input') attrs['simulacra.input'] = e.input;
		out.push(b.event(`simulacra.${e.kind}`, at, attrs));
	}
	for (const c of line.conversations) {
		out.push(b.event('simulacra.conversation.lines', at, { 'simulacra.conversation': c.id, 'simulacra.agents': c.agents.join(','), 'simulacra.lines': c.lines.map((l) => `${l.speaker}: ${l.text}`).join('\n') }));
	}
	return out;
}

/**
 * The run's spans in requests (each a list of spans to send or write as one body), root span
 * first. Reads the journal a few hundred steps at a time.
 */
export function* runSpanBatches(id: string, opts: OtlpOptions = {}): Generator<ReadableSpan[]> {
	const home = opts.home ?? dataHome();
	const reader = openRun(id, home);
	const spans = runLineage(id, { home });
	const first = spans[0]?.from ?? 0;
	const last = spans.at(-1)?.to ?? first;
	const from = Math.max(first, opts.from ?? first);
	const to = Math.min(last, opts.to ?? last);
	if (to < from) throw new Error(`run ${id} has steps ${first}..${last}; ${opts.from}..${opts.to} is not among them`);
	const secondsPerStep = secondsPerStepOf(reader);
	const stepMs = secondsPerStep * 1000;
	// game time of the state after `from` steps, from the first line we read (or the one before)
	const startLine = readLines(id, spans, home, Math.max(first, from - 1), from + 1)[0];
	const startTime = startLine ? startLine.time + (from - startLine.step) * stepMs : 0;
	const endTime = startTime + (to - from) * stepMs;
	const shift = opts.now ? Date.now() - endTime : 0;
	const b = new SpanBuilder(id, reader.meta, shift);
	const root = spanIds.root(id);
	let batch: ReadableSpan[] = [
		b.span({
			name: `simulacra run ${id}`,
			id: root,
			start: startTime,
			ms: endTime - startTime,
			attributes: {
				'simulacra.run': id,
				'simulacra.world': reader.meta.world,
				'simulacra.from_step': from,
				'simulacra.to_step': to,
				'simulacra.game_start': formatIso(startTime),
				...(reader.meta.parent ? { 'simulacra.parent': `${reader.meta.parent.run}@${reader.meta.parent.step}` } : {})
			}
		})
	];
	let text = 0;
	for (let a = from; a < to; a += STEPS_PER_READ) {
		const z = Math.min(to, a + STEPS_PER_READ);
		for (const span of spans) {
			const lo = Math.max(a, span.from);
			const hi = Math.min(z, span.to);
			// a run's creation calls (s = firstStep - 1) go with its first step
			const withCreation = lo === span.from && lo < hi;
			if (lo >= hi && !withCreation) continue;
			const r = span.run === id ? reader : openRun(span.run, home);
			const lines = lo < hi ? r.steps({ from: lo, to: hi }) : [];
			const calls = r.calls({ from: withCreation ? lo - 1 : lo, to: Math.max(hi, lo) });
			const byStep = new Map<number, (CallLine)[]>();
			for (const c of calls) {
				const s = Math.max(c.s, lo);
				let list = byStep.get(s);
				if (!list) byStep.set(s, (list = []));
				list.push(c);
			}
			for (const line of lines) {
				const stepId = spanIds.step(span.run, line.step);
				const start = line.time;
				const stepCalls = byStep.get(line.step) ?? [];
				batch.push(
					b.span({
						name: `step ${line.step}`,
						id: stepId,
						parent: root,
						start,
						ms: stepMs,
						attributes: {
							'simulacra.step': line.step,
							'simulacra.game_time': formatIso(start),
							'simulacra.calls': line.calls,
							'simulacra.memories': line.memories,
							'simulacra.events': line.events.length,
							...(span.run !== id ? { 'simulacra.held_by': span.run } : {})
						},
						events: stepEvents(b, line, start)
					})
				);
				for (const c of stepCalls) {
					batch.push(callSpan(b, c, span.run, stepId, start));
					text += c.prompt.length + c.answer.length;
				}
				if (batch.length >= SPANS_PER_REQUEST || text >= TEXT_PER_REQUEST) {
					yield batch;
					batch = [];
					text = 0;
				}
			}
		}
	}
	if (batch.length) yield batch;
}

function readLines(id: string, spans: readonly Span[], home: string, from: number, to: number): StepLine[] {
	const out: StepLine[] = [];
	for (const span of spans) {
		const lo = Math.max(from, span.from);
		const hi = Math.min(to, span.to);
		if (lo < hi) out.push(...openRun(span.run, home).steps({ from: lo, to: hi }));
	}
	return out;
}

function countOf(batch: readonly ReadableSpan[], summary: OtlpSummary): void {
	summary.spans += batch.length;
	for (const s of batch) {
		if (s.kind === SpanKind.CLIENT) summary.calls++;
		else if (s.parentSpanContext) summary.steps++;
	}
}

function emptySummary(id: string): OtlpSummary {
	return { run: id, traceId: traceIdOf(id), spans: 0, steps: 0, calls: 0, requests: 0, bytes: 0, ms: 0 };
}

/** One request body as the OTLP/HTTP JSON exporter sends it. */
export function otlpJsonBody(batch: ReadableSpan[]): Uint8Array {
	const body = JsonTraceSerializer.serializeRequest(batch);
	if (!body) throw new Error('OTLP: the spans could not be serialised');
	return body;
}

/** Writes the run as OTLP/JSON: one ExportTraceServiceRequest per line. */
export function exportOtlpFile(id: string, file: string, opts: OtlpOptions = {}): OtlpSummary {
	const t0 = performance.now();
	const summary = emptySummary(id);
	const fd = openSync(file, 'w');
	try {
		for (const batch of runSpanBatches(id, opts)) {
			const body = otlpJsonBody(batch);
			writeSync(fd, body);
			writeSync(fd, '\n');
			summary.bytes += body.byteLength + 1;
			summary.requests++;
			countOf(batch, summary);
		}
	} finally {
		closeSync(fd);
	}
	summary.ms = Math.round(performance.now() - t0);
	return summary;
}

/**
 * The URL spans are posted to: an endpoint given as a bare origin (`http://localhost:4318`)
 * gets the OTLP traces path; any other path is used as it is (Langfuse's `/api/public/otel/v1/traces`).
 */
export function tracesUrl(endpoint: string): string {
	let u: URL;
	try {
		u = new URL(endpoint);
	} catch {
		throw new Error(`--otlp-endpoint: "${endpoint}" is not a URL`);
	}
	if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`--otlp-endpoint: "${endpoint}" is not an http(s) URL`);
	if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/traces';
	return u.toString();
}

/**
 * Sends the run over OTLP/HTTP (JSON) with the OpenTelemetry exporter, one request at a time.
 * Headers come from OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_TRACES_HEADERS (e.g.
 * `Authorization=Basic ...` for Langfuse), or `headers`.
 */
export async function sendOtlp(id: string, endpoint: string, opts: OtlpOptions & { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<OtlpSummary> {
	const t0 = performance.now();
	const summary = emptySummary(id);
	const url = tracesUrl(endpoint);
	const exporter = new OTLPTraceExporter({ url, headers: opts.headers, timeoutMillis: opts.timeoutMs ?? 30_000 });
	try {
		for (const batch of runSpanBatches(id, opts)) {
			const result = await new Promise<ExportResult>((resolve) => exporter.export(batch, resolve));
			if (result.code !== ExportResultCode.SUCCESS) {
				throw new Error(`OTLP endpoint ${url} refused the spans after ${summary.spans} were sent: ${result.error?.message ?? 'export failed'}`);
			}
			summary.requests++;
			countOf(batch, summary);
		}
	} finally {
		await exporter.shutdown();
	}
	summary.ms = Math.round(performance.now() - t0);
	return summary;
}
