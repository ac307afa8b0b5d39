// How closely the OpenAI-compatible provider keeps its deadline for a whole request (headers and
// body) against a local server that answers slowly: a body dripped 5 bytes a second, a body that
// never ends, headers that never come. Each case is asked 5 times with no retries; the figure is
// the time from the request to its failure.

import { OpenAIProvider } from '../src/lib/server/model/providers/openai';
import { chatCompletion, startFakeOpenAI, type FakeReply } from '../src/lib/server/model/testing/fake-openai';

const DEADLINE_MS = 1000;
const TRIES = 5;

const good = chatCompletion('{"choice": "kitchen"}');
const CASES: [string, FakeReply][] = [
	['a body dripped 5 bytes a second', { json: good, drip: { bytesPerSecond: 5 } }],
	['a body that never ends', { json: good, drip: { chunk: 4, intervalMs: 20, forever: true } }],
	['headers that never come (10 s)', { json: good, delayMs: 10_000 }]
];

export async function benchDeadline() {
	const rows = [];
	for (const [what, reply] of CASES) {
		const server = await startFakeOpenAI({ chat: () => reply });
		try {
			const provider = new OpenAIProvider({ baseURL: server.url, chatModel: 'slow', timeoutMs: DEADLINE_MS, maxRetries: 0 });
			const times: number[] = [];
			for (let i = 0; i < TRIES; i++) {
				const t0 = performance.now();
				const failed = await provider.chat({ template: 'choose_arena', vars: {}, messages: [{ role: 'user', content: 'where?' }], sampling: {} }).then(
					() => false,
					() => true
				);
				if (!failed) throw new Error(`${what}: the request did not fail at its deadline`);
				times.push(performance.now() - t0);
			}
			rows.push({
				bench: `request deadline ${DEADLINE_MS.toLocaleString('en')} ms (headers and body), OpenAI-compatible provider`,
				figure: what,
				value: `failed after ${Math.round(Math.min(...times)).toLocaleString('en')}-${Math.round(Math.max(...times)).toLocaleString('en')} ms (${TRIES} requests)`
			});
		} finally {
			await server.close();
		}
	}
	return rows;
}
