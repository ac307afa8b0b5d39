// A local OTLP/HTTP trace receiver for tests: node:http on 127.0.0.1, POST /v1/traces with a
// JSON body (gzip or not), each request parsed and kept with its headers. It answers as a
// collector does ({} with 200), or with the statuses a test scripts (a 503 to be retried, a 400).

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface OtlpAttribute {
	key: string;
	value: { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number; arrayValue?: unknown };
}

export interface OtlpSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	attributes: OtlpAttribute[];
	events: { name: string; timeUnixNano: string; attributes: OtlpAttribute[] }[];
	status: { code: number; message?: string };
}

export interface OtlpRequest {
	resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { scope: { name: string; version?: string }; spans: OtlpSpan[] }[] }[];
}

export interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	body: OtlpRequest;
}

export interface OtlpReceiver {
	url: string;
	received: Received[];
	/** statuses to answer the next requests with, in order (then 200) */
	script: number[];
	close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
	const received: Received[] = [];
	const script: number[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const status = script.shift() ?? 200;
			if (status !== 200) {
				res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: status, message: `scripted ${status}` }));
				return;
			}
			if (req.method !== 'POST' || req.url !== '/v1/traces') {
				res.writeHead(404).end();
				return;
			}
			try {
				let raw = Buffer.concat(chunks);
				if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
				if (!/json/.test(req.headers['content-type'] ?? '')) throw new Error(`content-type ${req.headers['content-type']}`);
				received.push({ path: req.url, headers: req.headers, body: JSON.parse(raw.toString('utf8')) as OtlpRequest });
				res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
			} catch (e) {
				res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: (e as Error).message }));
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		script,
		close: () => new Promise((resolve) => server.close(() => resolve()))
	};
}

/** Every span of some requests. */
export function spansOf(requests: readonly OtlpRequest[]): OtlpSpan[] {
	return requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
}

/** An attribute's value as a plain value. */
export function attr(attributes: readonly OtlpAttribute[], key: string): unknown {
	const v = attributes.find((a) => a.key === key)?.value;
	if (!v) return undefined;
	if (v.intValue !== undefined) return Number(v.intValue);
	return v.stringValue ?? v.boolValue ?? v.doubleValue ?? v.arrayValue;
}
