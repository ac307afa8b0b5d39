// A run as an OpenTelemetry trace: the OTLP/JSON file checked span by span against the journal,
// and the same spans sent over OTLP/HTTP by the OpenTelemetry exporter to a local receiver that
// parses what it gets (headers from the environment, a 503 retried, a refusal reported).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRun, startRun } from '../run/runner';
import { exportOtlpFile, GEN_AI, sendOtlp, spanIds, traceIdOf, tracesUrl } from './otlp';
import { attr, spansOf, startOtlpReceiver, type OtlpReceiver, type OtlpRequest } from './otlp-receiver';

const home = mkdtempSync(path.join(tmpdir(), 'otlp-'));
let receiver: OtlpReceiver;
let id = '';

beforeAll(async () => {
	receiver = await startOtlpReceiver();
	id = (await startRun({ world: 'the-ville-3', steps: 300, seed: 2, home })).run;
}, 120_000);

afterAll(async () => {
	await receiver.close();
	rmSync(home, { recursive: true, force: true });
});

function readFile(file: string): OtlpRequest[] {
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as OtlpRequest);
}

describe('OTLP export', () => {
	it('one trace: a root span, a span per step, a GenAI span per model call with its prompt and answer as events', () => {
		const file = path.join(home, 'run.otlp.jsonl');
		const summary = exportOtlpFile(id, file, { home });
		const requests = readFile(file);
		expect(requests).toHaveLength(summary.requests);
		const spans = spansOf(requests);
		const reader = openRun(id, home);
		const calls = reader.calls();
		const lines = reader.steps();
		expect(summary).toMatchObject({ spans: 1 + lines.length + calls.length, steps: lines.length, calls: calls.length });
		expect(spans).toHaveLength(summary.spans);
		expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceIdOf(id)]));
		expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);

		const root = spans.filter((s) => !s.parentSpanId);
		expect(root).toHaveLength(1);
		const steps = spans.filter((s) => s.parentSpanId === root[0].spanId);
		expect(steps.map((s) => attr(s.attributes, 'simulacra.step'))).toEqual(lines.map((l) => l.step));
		// game time: step n starts n steps of 10 s after the first
		expect(BigInt(steps[5].startTimeUnixNano) - BigInt(steps[0].startTimeUnixNano)).toBe(50_000_000_000n);

		const byId = new Map(spans.map((s) => [s.spanId, s]));
		const model = reader.meta.model;
		for (const c of calls) {
			const span = byId.get(spanIds.call(id, c.key));
			expect(span, c.key).toBeDefined();
			expect(span!.kind).toBe(3); // CLIENT
			expect(span!.parentSpanId).toBe(spanIds.step(id, Math.max(c.s, 0)));
			const a = span!.attributes;
			expect(attr(a, GEN_AI.operation)).toBe('chat');
			expect(attr(a, GEN_AI.system)).toBe(c.provider ?? model.provider);
			expect(attr(a, GEN_AI.requestModel)).toBe(c.model ?? model.model);
			expect(attr(a, GEN_AI.inputTokens)).toBe(c.tokens.prompt);
			expect(attr(a, GEN_AI.outputTokens)).toBe(c.tokens.completion);
			expect(attr(a, 'simulacra.template')).toBe(c.template);
			const [prompt, answer] = span!.events;
			expect(prompt.name).toBe('gen_ai.user.message');
			expect(attr(prompt.attributes, 'content')).toBe(c.prompt);
			expect(answer.name).toBe('gen_ai.choice');
			expect(JSON.parse(attr(answer.attributes, 'message') as string)).toEqual({ role: 'assistant', content: c.answer });
			expect(BigInt(span!.endTimeUnixNano) - BigInt(span!.startTimeUnixNano)).toBe(BigInt(Math.round(c.latencyMs * 1e6)));
		}
		// the same export twice is the same file
		const again = path.join(home, 'again.otlp.jsonl');
		exportOtlpFile(id, again, { home });
		expect(readFileSync(again, 'utf8')).toBe(readFileSync(file, 'utf8'));
	}, 60_000);

	it('sent over OTLP/HTTP: the receiver gets exactly the file, with the headers of OTEL_EXPORTER_OTLP_HEADERS', async () => {
		const file = path.join(home, 'sent.otlp.jsonl');
		exportOtlpFile(id, file, { home });
		receiver.received.length = 0;
		process.env.OTEL_EXPORTER_OTLP_HEADERS = 'Authorization=Basic dGVzdDp0ZXN0';
		try {
			const sent = await sendOtlp(id, receiver.url, { home });
			expect(receiver.received.map((r) => r.path)).toEqual(receiver.received.map(() => '/v1/traces'));
			expect(receiver.received.every((r) => r.headers.authorization === 'Basic dGVzdDp0ZXN0')).toBe(true);
			expect(receiver.received.map((r) => r.body)).toEqual(readFile(file));
			expect(sent.spans).toBe(spansOf(readFile(file)).length);
		} finally {
			delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
		}
	}, 60_000);

	it('a 503 is retried; a refusal is reported naming the endpoint; a game day from a range', async () => {
		receiver.received.length = 0;
		receiver.script.push(503);
		const sent = await sendOtlp(id, `${receiver.url}/v1/traces`, { home, from: 100, to: 160 });
		expect(sent).toMatchObject({ steps: 60 });
		expect(spansOf(receiver.received.map((r) => r.body))).toHaveLength(sent.spans);

		receiver.script.push(400);
		await expect(sendOtlp(id, receiver.url, { home, to: 10 })).rejects.toThrow(new RegExp(`${receiver.url.replace(/[.]/g, '\\.')}/v1/traces refused`));

		// --now: the trace ends at the moment of export
		const file = path.join(home, 'now.otlp.jsonl');
		exportOtlpFile(id, file, { home, now: true });
		const root = spansOf(readFile(file)).find((s) => !s.parentSpanId)!;
		expect(Math.abs(Number(BigInt(root.endTimeUnixNano) / 1_000_000n) - Date.now())).toBeLessThan(60_000);
	}, 60_000);

	it('the endpoint URL: a bare origin gets /v1/traces, a full path is kept, other schemes are refused', () => {
		expect(tracesUrl('http://localhost:4318')).toBe('http://localhost:4318/v1/traces');
		expect(tracesUrl('https://cloud.langfuse.com/api/public/otel/v1/traces')).toBe('https://cloud.langfuse.com/api/public/otel/v1/traces');
		expect(() => tracesUrl('ftp://x')).toThrow(/http/);
		expect(() => tracesUrl('not a url')).toThrow(/not a URL/);
	});
});
