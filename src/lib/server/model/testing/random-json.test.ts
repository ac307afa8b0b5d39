import { Ajv } from 'ajv';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../../../engine/model';
import { extractJson } from '../../../prompts/json';
import { outputJsonSchema } from '../../../prompts/json-schema';
import { getTemplate } from '../../../prompts/promptset';
import { validateOutput } from '../../../prompts/schema';
import { loadPromptSet } from '../load';
import { SAMPLE_VARS } from './sample-vars';
import { jsonSchemaArbitrary, JsonSchemaError, randomJson, randomUnitVector, type JsonSchema } from './random-json';
import { startSchemaServer, type SchemaServer } from './schema-server';
import { addTrailingCommas, presentLoosely, startProseServer } from './prose-server';

const ajv = new Ajv({ strict: true, allErrors: true });

const CLOCK = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const SCHEMAS: Record<string, JsonSchema> = {
	plan: {
		type: 'object',
		additionalProperties: false,
		required: ['blocks'],
		properties: {
			blocks: {
				type: 'array',
				minItems: 1,
				maxItems: 40,
				items: {
					type: 'object',
					additionalProperties: false,
					required: ['start', 'minutes', 'activity'],
					properties: {
						start: { type: 'string', pattern: CLOCK },
						minutes: { type: 'integer', minimum: 5, maximum: 720 },
						activity: { type: 'string', minLength: 1, maxLength: 200 }
					}
				}
			}
		}
	},
	choice: { type: 'object', additionalProperties: false, required: ['choice'], properties: { choice: { type: 'string', enum: ['kitchen', 'bedroom', 'café ☕'] } } },
	mixed: {
		type: 'object',
		required: ['flag', 'ratio', 'note', 'evidence'],
		properties: {
			flag: { type: 'boolean' },
			ratio: { type: 'number', minimum: 0, maximum: 1 },
			note: { type: ['string', 'null'], maxLength: 5 },
			evidence: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'integer', minimum: 1, maximum: 4 } },
			optional: { type: 'string', const: 'fixed' },
			either: { anyOf: [{ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 }, { type: 'string', minLength: 2, maxLength: 2 }] }
		}
	}
};

describe('random schema-valid JSON', () => {
	for (const [name, schema] of Object.entries(SCHEMAS)) {
		it(`every value is valid for the ${name} schema (checked by Ajv)`, () => {
			const validate = ajv.compile(schema);
			fc.assert(
				fc.property(jsonSchemaArbitrary(schema), (value) => {
					if (!validate(value)) throw new Error(`${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
				}),
				{ numRuns: 300 }
			);
		});
	}

	it("every template's answers pass the gateway's own validation with the call's inputs", async () => {
		const templates = await loadPromptSet();
		for (const id of TEMPLATE_IDS) {
			const t = getTemplate(templates, id);
			const vars = SAMPLE_VARS[id];
			const schema = outputJsonSchema(t.output, vars);
			const validate = ajv.compile(schema);
			fc.assert(
				fc.property(jsonSchemaArbitrary(schema), (value) => {
					const check = validateOutput(t.output, value, vars);
					if (!check.ok) throw new Error(`${id}: ${JSON.stringify(value)}: ${check.errors.join('; ')}`);
					if (!validate(value)) throw new Error(`${id}: ${ajv.errorsText(validate.errors)}`);
				}),
				{ numRuns: 100 }
			);
		}
	});

	it('is deterministic per seed and varies across seeds', () => {
		const schema = SCHEMAS.plan;
		expect(randomJson(schema, 7)).toEqual(randomJson(schema, 7));
		const distinct = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(randomJson(schema, i))));
		expect(distinct.size).toBeGreaterThan(15);
	});

	it('leans toward edge cases: empty, blank, one-word and long unicode text, bounds, out-of-order times', () => {
		const text = { type: 'string', maxLength: 300 };
		const texts = Array.from({ length: 400 }, (_, i) => randomJson(text, i) as string);
		expect(texts).toContain('');
		expect(texts.some((t) => t.length > 0 && t.trim() === '')).toBe(true);
		expect(texts.some((t) => /^\S+$/.test(t))).toBe(true);
		expect(texts.some((t) => [...t].length === 300 && /[\u{1F300}-\u{1FAFF}]/u.test(t))).toBe(true);
		expect(texts.some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(true);
		expect(texts.some((t) => /[\u0590-\u06ff]/.test(t))).toBe(true);

		const ints = Array.from({ length: 200 }, (_, i) => randomJson({ type: 'integer', minimum: 5, maximum: 720 }, i));
		expect(ints).toContain(5);
		expect(ints).toContain(720);

		const plans = Array.from({ length: 200 }, (_, i) => randomJson(SCHEMAS.plan, i) as { blocks: { start: string }[] });
		const lengths = plans.map((p) => p.blocks.length);
		expect(lengths).toContain(1);
		expect(lengths).toContain(40);
		const starts = plans.flatMap((p) => p.blocks.map((b) => b.start));
		expect(starts).toContain('00:00');
		expect(starts).toContain('23:59');
		expect(plans.some((p) => p.blocks.some((b, i) => i > 0 && b.start < p.blocks[i - 1].start))).toBe(true);
	});

	it('refuses what it cannot honour, naming where', () => {
		expect(() => jsonSchemaArbitrary({ type: 'object', properties: { a: { type: 'string', format: 'email' } } })).toThrow(JsonSchemaError);
		expect(() => jsonSchemaArbitrary({ type: 'object', properties: { a: { type: 'string', format: 'email' } } })).toThrow(/\$\.a: keyword "format"/);
		expect(() => jsonSchemaArbitrary({ type: 'array', items: { type: 'integer', minimum: 3, maximum: 2 } })).toThrow(/\$\[\]: no integer/);
		expect(() => jsonSchemaArbitrary({ type: 'object', required: ['b'], properties: {} })).toThrow(/"required"/);
	});

	it('makes unit vectors, the same for the same text', () => {
		const v = randomUnitVector('hello', 32, 3);
		expect(v.length).toBe(32);
		expect(Math.hypot(...v)).toBeCloseTo(1, 5);
		expect(randomUnitVector('hello', 32, 3)).toEqual(v);
		expect(randomUnitVector('hello', 32, 4)).not.toEqual(v);
	});
});

describe('loose presentation', () => {
	it('trailing commas break JSON.parse but not the lenient extraction', () => {
		const value = { a: [1, 2, { b: 'x, }' }], c: '"]' };
		const bent = addTrailingCommas(JSON.stringify(value), () => 0);
		expect(bent).toBe('{"a":[1,2,{"b":"x, }",},],"c":"\\"]",}');
		expect(bent).toMatch(/,[}\]]/);
		expect(() => JSON.parse(bent)).toThrow();
		expect(extractJson(bent)).toEqual(value);
	});

	it('wraps in prose, fences and think blocks; the JSON inside stays the value', () => {
		const kinds = new Set<string>();
		for (let i = 0; i < 200; i++) {
			let s = i + 1;
			const rand = () => ((s = (s * 48271) % 2147483647) / 2147483647);
			const { text } = presentLoosely({ choice: 'kitchen', n: [1] }, rand);
			if (text.includes('```')) kinds.add('fence');
			if (text.includes('<think>')) kinds.add('think');
			if (/^[A-Z(]/.test(text)) kinds.add('prose');
			if (/,\s*[}\]]/.test(text)) kinds.add('comma');
		}
		expect([...kinds].sort()).toEqual(['comma', 'fence', 'prose', 'think']);
	});
});

describe('test servers', () => {
	const servers: SchemaServer[] = [];
	afterAll(async () => {
		for (const s of servers) await s.close();
	});
	const chat = (url: string, body: unknown) =>
		fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	const request = (n: number) => ({
		model: 'any-model',
		messages: [{ role: 'user', content: `plan the day ${n}` }],
		response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: SCHEMAS.plan } }
	});

	it('the schema server answers JSON valid for the request schema, seeded, with usage and unit embeddings', async () => {
		const server = await startSchemaServer({ seed: 5, dims: 16 });
		servers.push(server);
		const validate = ajv.compile(SCHEMAS.plan);
		const contents: string[] = [];
		for (let n = 0; n < 30; n++) {
			const res = await chat(server.url, request(n));
			expect(res.status).toBe(200);
			const body = (await res.json()) as { model: string; choices: { message: { content: string } }[]; usage: { prompt_tokens: number; completion_tokens: number } };
			expect(body.model).toBe('any-model');
			expect(body.usage.prompt_tokens).toBeGreaterThan(0);
			expect(body.usage.completion_tokens).toBeGreaterThan(0);
			const value = JSON.parse(body.choices[0].message.content);
			expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
			contents.push(body.choices[0].message.content);
		}
		expect(new Set(contents).size).toBe(30);
		const again = (await (await chat(server.url, request(3))).json()) as { choices: { message: { content: string } }[] };
		expect(again.choices[0].message.content).toBe(contents[3]);

		const missing = await chat(server.url, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
		expect(missing.status).toBe(400);
		expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/json_schema/);
		expect(server.counts).toMatchObject({ chat: 32, withoutSchema: 1 });

		const emb = await fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'e', input: ['a', 'b'] }) });
		const vectors = ((await emb.json()) as { data: { embedding: number[] }[] }).data.map((d) => d.embedding);
		expect(vectors).toHaveLength(2);
		for (const v of vectors) {
			expect(v).toHaveLength(16);
			expect(Math.hypot(...v)).toBeCloseTo(1, 5);
		}
	});

	it('the prose server wraps valid answers so that plain JSON.parse fails, lenient extraction does not', async () => {
		const server = await startProseServer({ seed: 2, keepRequests: false });
		servers.push(server);
		const validate = ajv.compile(SCHEMAS.plan);
		let unparsable = 0;
		for (let n = 0; n < 60; n++) {
			const body = (await (await chat(server.url, request(n))).json()) as { choices: { message: { content: string } }[]; usage: { completion_tokens: number } };
			const text = body.choices[0].message.content;
			expect(body.usage.completion_tokens).toBeGreaterThan(0);
			try {
				JSON.parse(text);
			} catch {
				unparsable++;
			}
			expect(validate(extractJson(text)), text).toBe(true);
		}
		expect(unparsable).toBeGreaterThan(30);
		expect(server.counts.wrapped).toBeGreaterThan(30);
		expect(server.requests).toHaveLength(0);
	});
});
