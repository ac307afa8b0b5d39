// A local OpenAI-compatible test server that behaves like a small local model behind Ollama,
// llama.cpp or LM Studio that does not enforce `response_format`: the answer's content is
// valid for the request's JSON Schema, but it comes wrapped in prose, in code fences, after a
// <think> block, pretty-printed or with trailing commas. Seeded like the schema server (the same
// request gets the same answer); embeddings are random unit vectors; usage tokens are reported.

import { hash32, mulberry32 } from '../../../engine/rng';
import { startFakeOpenAI, type FakeRequest } from './fake-openai';
import { randomJson, type JsonSchema } from './random-json';
import {
	completion,
	embeddingsHandler,
	requestSchema,
	requestSeed,
	withCounts,
	type SchemaServer,
	type SchemaServerOptions,
	type ServerCounts
} from './schema-server';

const INTROS = [
	'Sure! Here is the JSON you asked for:',
	"Here's my answer:",
	'Okay, let me think about what this character would do.',
	'Based on the information provided, the answer is:',
	'Answer:',
	'Of course. Note: I kept it short {as requested}.'
];
const OUTROS = ['', 'Let me know if you need anything else!', 'I hope this helps.', '(The values above follow the requested format.)'];

/** Puts a comma before some closing brackets outside strings: `{"a": 1,}`. */
export function addTrailingCommas(json: string, rand: () => number): string {
	let out = '';
	let inString = false;
	let last = '';
	for (let i = 0; i < json.length; i++) {
		const c = json[i];
		if (inString) {
			out += c;
			if (c === '\\') {
				out += json[i + 1] ?? '';
				i++;
			} else if (c === '"') inString = false;
			continue;
		}
		if (c === '"') inString = true;
		if ((c === '}' || c === ']') && last !== '{' && last !== '[' && last !== ',' && rand() < 0.5) out += ',';
		out += c;
		if (!/\s/.test(c)) last = c;
	}
	return out;
}

/** The ways a loose model presents a JSON value: the text and whether it was more than bare JSON. */
export function presentLoosely(value: unknown, rand: () => number): { text: string; wrapped: boolean } {
	const pretty = rand() < 0.5;
	let json = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
	if (rand() < 0.3) json = addTrailingCommas(json, rand);
	const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
	const style = Math.floor(rand() * 6);
	switch (style) {
		case 0:
			return { text: json, wrapped: json !== JSON.stringify(value) };
		case 1:
			return { text: `${pick(INTROS)}\n\`\`\`json\n${json}\n\`\`\`\n${pick(OUTROS)}`, wrapped: true };
		case 2:
			return { text: `\`\`\`\n${json}\n\`\`\``, wrapped: true };
		case 3:
			return { text: `${pick(INTROS)} ${json} ${pick(OUTROS)}`, wrapped: true };
		case 4:
			return { text: `<think>\nThe character is busy; keep the answer simple.\n</think>\n\n${json}`, wrapped: true };
		default:
			return { text: `${pick(INTROS)}\n\n${json}\n\n${pick(OUTROS)}`.trim(), wrapped: true };
	}
}

export async function startProseServer(opts: SchemaServerOptions = {}): Promise<SchemaServer> {
	const seed = opts.seed ?? 1;
	const dims = opts.dims ?? 64;
	const counts: ServerCounts = { chat: 0, embeddings: 0, withoutSchema: 0, wrapped: 0 };
	const server = await startFakeOpenAI({
		chat: (req: FakeRequest) => {
			counts.chat++;
			const sent = requestSchema(req.body);
			if (!sent) counts.withoutSchema++;
			const schema: JsonSchema | undefined = sent ?? opts.schemaFor?.(req);
			const draw = requestSeed(req.body, seed);
			const rand = mulberry32(hash32('prose', draw));
			if (!schema) {
				// Nothing says what to answer: a small model then just talks.
				const content = `${INTROS[draw % INTROS.length]} I am not sure what to say.`;
				counts.wrapped++;
				return { json: completion(req, content) };
			}
			const { text, wrapped } = presentLoosely(randomJson(schema, draw), rand);
			if (wrapped) counts.wrapped++;
			return { json: completion(req, text) };
		},
		embeddings: embeddingsHandler(seed, dims, counts),
		dims
	});
	return withCounts(server, counts, opts.keepRequests ?? true);
}
