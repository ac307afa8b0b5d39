import { describe, expect, it } from 'vitest';
import { dropNullOptionals, outputJsonSchema, STRICT_UNSUPPORTED } from './json-schema';
import { validateOutput, type Schema } from './schema';

const choose: Schema = {
	type: 'object',
	required: ['choice'],
	properties: { choice: { type: 'string', enumFrom: 'options', description: 'One of the options, copied exactly.' } }
};

const importance: Schema = {
	type: 'object',
	required: ['ratings'],
	properties: { ratings: { type: 'array', lengthFrom: 'memories', items: { type: 'integer', minimum: 1, maximum: 10 } } }
};

const mixed: Schema = {
	type: 'object',
	required: ['summary', 'pick'],
	properties: {
		summary: { type: 'string', minLength: 1, maxLength: 80, pattern: '^[A-Z]' },
		pick: { type: 'integer', indexFrom: 'memories' },
		note: { type: 'string', maxLength: 10 },
		steps: {
			type: 'array',
			minItems: 1,
			maxItems: 4,
			items: { type: 'object', required: ['minutes'], properties: { minutes: { type: 'integer', minimum: 5, maximum: 15 }, label: { type: 'string' } } }
		}
	}
};

/** Every schema node, with its path. */
function nodes(s: unknown, at = '$'): [string, Record<string, unknown>][] {
	if (typeof s !== 'object' || s === null) return [];
	const node = s as Record<string, unknown>;
	const out: [string, Record<string, unknown>][] = [[at, node]];
	for (const [name, sub] of Object.entries((node.properties as Record<string, unknown>) ?? {})) out.push(...nodes(sub, `${at}.${name}`));
	if (node.items) out.push(...nodes(node.items, `${at}[]`));
	for (const [i, sub] of ((node.anyOf as unknown[]) ?? []).entries()) out.push(...nodes(sub, `${at}|${i}`));
	return out;
}

describe('outputJsonSchema', () => {
	it('turns enumFrom into the enum of the call\'s options', () => {
		const vars = { options: ['kitchen', 'bedroom', 'kitchen', 'garden'] };
		expect(outputJsonSchema(choose, vars, { strict: true })).toEqual({
			type: 'object',
			properties: { choice: { type: 'string', description: 'One of the options, copied exactly.', enum: ['kitchen', 'bedroom', 'garden'] } },
			required: ['choice'],
			additionalProperties: false
		});
	});

	it('keeps only the options a fixed enum also allows', () => {
		const s: Schema = { type: 'object', required: ['c'], properties: { c: { type: 'string', enum: ['a', 'b', 'z'], enumFrom: 'options' } } };
		const out = outputJsonSchema(s, { options: ['b', 'c', 'a'] }) as { properties: { c: { enum: string[] } } };
		expect(out.properties.c.enum).toEqual(['a', 'b']);
	});

	it('turns lengthFrom into exact item counts and indexFrom into item numbers', () => {
		const memories = ['a', 'b', 'c'];
		const imp = outputJsonSchema(importance, { memories }) as { properties: { ratings: Record<string, unknown> } };
		expect(imp.properties.ratings).toEqual({ type: 'array', items: { type: 'integer', minimum: 1, maximum: 10 }, minItems: 3, maxItems: 3 });
		const m = outputJsonSchema(mixed, { memories }) as { properties: { pick: Record<string, unknown> } };
		expect(m.properties.pick).toEqual({ type: 'integer', minimum: 1, maximum: 3 });
	});

	it('leaves out bounds no answer could meet, and bounds whose input is missing', () => {
		expect((outputJsonSchema(mixed, { memories: [] }) as { properties: { pick: unknown } }).properties.pick).toEqual({ type: 'integer' });
		expect((outputJsonSchema(choose, {}) as { properties: { choice: Record<string, unknown> } }).properties.choice.enum).toBeUndefined();
		expect((outputJsonSchema(choose, { options: [] }) as { properties: { choice: Record<string, unknown> } }).properties.choice.enum).toBeUndefined();
		const bounded: Schema = { type: 'object', required: ['r'], properties: { r: { type: 'array', minItems: 2, lengthFrom: 'memories', items: { type: 'integer' } } } };
		expect((outputJsonSchema(bounded, { memories: ['x'] }) as { properties: { r: Record<string, unknown> } }).properties.r).toEqual({ type: 'array', items: { type: 'integer' } });
	});

	it('keeps length limits and optional properties in the plain form', () => {
		const out = outputJsonSchema(mixed, { memories: ['a'] }) as { required: string[]; properties: Record<string, Record<string, unknown>> };
		expect(out.required).toEqual(['summary', 'pick']);
		expect(out.properties.summary).toEqual({ type: 'string', minLength: 1, maxLength: 80, pattern: '^[A-Z]' });
		expect(out.properties.note).toEqual({ type: 'string', maxLength: 10 });
	});

	it('strict form: every object closed, every property required, optional ones nullable, no refused keywords', () => {
		const out = outputJsonSchema(mixed, { memories: ['a', 'b'] }, { strict: true });
		for (const [at, node] of nodes(out)) {
			for (const k of STRICT_UNSUPPORTED) expect(node, `${at} has ${k}`).not.toHaveProperty(k);
			if (node.type === 'object') {
				expect(node.additionalProperties, at).toBe(false);
				expect([...(node.required as string[])].sort(), at).toEqual(Object.keys(node.properties as object).sort());
			}
		}
		const props = (out as { properties: Record<string, unknown> }).properties;
		expect(props.note).toEqual({ anyOf: [{ type: 'string', pattern: '^[\\s\\S]{0,10}$' }, { type: 'null' }] });
		expect(props.summary).toEqual({ type: 'string', pattern: '^[A-Z]' });
		const item = (props.steps as { anyOf: [{ items: { properties: Record<string, unknown> } }] }).anyOf[0].items;
		expect(item.properties.label).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
	});

	it('strict form writes length limits as a pattern that accepts exactly what validation accepts', () => {
		const text: Schema = { type: 'object', required: ['t'], properties: { t: { type: 'string', minLength: 1, maxLength: 3 } } };
		const out = outputJsonSchema(text, {}, { strict: true }) as { properties: { t: { pattern: string } } };
		const re = new RegExp(out.properties.t.pattern, 'u');
		for (const t of ['', 'a', 'abc', 'abcd', '🙂🙂🙂', '🙂🙂🙂🙂', 'a\nb', ' ']) {
			expect(re.test(t), JSON.stringify(t)).toBe(validateOutput(text, { t }, {}).ok);
		}
	});

	it('strict form leaves out an enum larger than strict mode allows (validation still checks it)', () => {
		const options = Array.from({ length: 1001 }, (_, i) => `place ${i}`);
		const out = outputJsonSchema(choose, { options }, { strict: true }) as { properties: { choice: Record<string, unknown> } };
		expect(out.properties.choice.enum).toBeUndefined();
		expect((outputJsonSchema(choose, { options }) as { properties: { choice: { enum: string[] } } }).properties.choice.enum).toHaveLength(1001);
		expect(validateOutput(choose, { choice: 'nowhere' }, { options }).ok).toBe(false);
	});

	it('does not change the template schema it is given', () => {
		const before = JSON.stringify(mixed);
		outputJsonSchema(mixed, { memories: ['a'] }, { strict: true });
		expect(JSON.stringify(mixed)).toBe(before);
	});
});

describe('dropNullOptionals', () => {
	it('turns null optional properties (the strict form\'s "absent") back into absent ones, at any depth', () => {
		const answer = { summary: 'Hi', pick: 1, note: null, steps: [{ minutes: 5, label: null }] };
		const out = dropNullOptionals(mixed, answer);
		expect(out).toEqual({ summary: 'Hi', pick: 1, steps: [{ minutes: 5 }] });
		expect(validateOutput(mixed, out, { memories: ['a'] }).ok).toBe(true);
		expect(validateOutput(mixed, answer, { memories: ['a'] }).ok).toBe(false);
	});

	it('leaves a null required property for validation to refuse', () => {
		const out = dropNullOptionals(mixed, { summary: null, pick: 1 });
		expect(out).toEqual({ summary: null, pick: 1 });
		expect(validateOutput(mixed, out).errors[0]).toMatch(/\$\.summary: expected text, got null/);
	});
});
