import { describe, expect, it } from 'vitest';
import { checkSchema, coerceOutput, validateOutput, type Schema } from './schema';

const lists = new Set(['options', 'memories']);

describe('checkSchema', () => {
	it('accepts a well-formed schema', () => {
		const s = {
			type: 'object',
			required: ['choice'],
			properties: { choice: { type: 'string', enumFrom: 'options' }, n: { type: 'integer', minimum: 1, maximum: 3 } }
		};
		expect(checkSchema(s, lists)).toEqual([]);
	});

	it('reports keywords that do not fit the type, with their path', () => {
		const issues = checkSchema({ type: 'object', properties: { a: { type: 'string', minimum: 2 } } }, lists);
		expect(issues).toHaveLength(1);
		expect(issues[0].path).toEqual(['properties', 'a', 'minimum']);
		expect(issues[0].message).toMatch(/not allowed for type string/);
	});

	it('reports unknown types, missing items, bad required and inverted bounds', () => {
		expect(checkSchema({ type: 'float' }, lists)[0].message).toMatch(/"type" must be one of/);
		expect(checkSchema({ type: 'array' }, lists)[0].message).toMatch(/needs "items"/);
		expect(checkSchema({ type: 'object', properties: {}, required: ['x'] }, lists)[0].message).toMatch(/"x" is not declared/);
		expect(checkSchema({ type: 'integer', minimum: 5, maximum: 1 }, lists)[0].message).toMatch(/greater than/);
		expect(checkSchema({ type: 'string', pattern: '(' }, lists)[0].message).toMatch(/not a valid regular expression/);
	});

	it('requires extension keywords to name a list input', () => {
		const issues = checkSchema({ type: 'string', enumFrom: 'places' }, lists);
		expect(issues[0].message).toMatch(/must name an input of type list.*options, memories/);
	});
});

describe('validateOutput', () => {
	const schema: Schema = {
		type: 'object',
		required: ['ratings', 'choice'],
		properties: {
			ratings: { type: 'array', lengthFrom: 'memories', items: { type: 'integer', minimum: 1, maximum: 10 } },
			choice: { type: 'string', enumFrom: 'options' },
			note: { type: 'string', maxLength: 3 },
			time: { type: 'string', pattern: '^\\d\\d:\\d\\d$' },
			cite: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'integer', indexFrom: 'memories' } },
			flag: { type: 'boolean' }
		}
	};
	const vars = { memories: ['a', 'b'], options: ['kitchen', 'bedroom'] };

	it('accepts a valid value', () => {
		expect(validateOutput(schema, { ratings: [1, 10], choice: 'kitchen', cite: [2], time: '07:30', flag: false }, vars)).toEqual({ ok: true, errors: [] });
	});

	it('names the path of each problem', () => {
		const r = validateOutput(schema, { ratings: [0, 2.5, 11], choice: 'attic', note: 'long text', time: '7:30', cite: [3, 1, 1], flag: 'yes' }, vars);
		expect(r.ok).toBe(false);
		expect(r.errors).toEqual(
			expect.arrayContaining([
				'$.ratings: expected exactly 2 items (one per item of memories), got 3',
				'$.ratings[0]: 0 is below the minimum 1',
				'$.ratings[1]: expected an integer, got 2.5',
				'$.ratings[2]: 11 is above the maximum 10',
				expect.stringMatching(/^\$\.choice: "attic" is not one of the options: "kitchen", "bedroom"/),
				'$.note: text is longer than 3 characters',
				expect.stringMatching(/^\$\.time: "7:30" does not match/),
				'$.cite: expected at most 2 items, got 3',
				'$.cite[0]: 3 is not an item number of memories (1..2)',
				expect.stringMatching(/^\$\.flag: expected true or false/)
			])
		);
	});

	it('reports missing required properties and wrong container types', () => {
		expect(validateOutput(schema, {}, vars).errors).toEqual(['$: missing required property "ratings"', '$: missing required property "choice"']);
		expect(validateOutput(schema, [], vars).errors[0]).toMatch(/expected an object, got an array/);
		expect(validateOutput(schema, null, vars).errors[0]).toMatch(/got null/);
	});

	it('skips input-bound checks without variables', () => {
		expect(validateOutput(schema, { ratings: [3, 3, 3], choice: 'anything' }).ok).toBe(true);
	});

	it('rejects NaN and infinities as numbers', () => {
		const num: Schema = { type: 'object', properties: { x: { type: 'number' } } };
		expect(validateOutput(num, { x: Number.NaN }).ok).toBe(false);
		expect(validateOutput(num, { x: Infinity }).ok).toBe(false);
	});

	it('counts characters, not UTF-16 units, for lengths', () => {
		const emoji: Schema = { type: 'object', properties: { e: { type: 'string', maxLength: 2 } } };
		expect(validateOutput(emoji, { e: '🎉🎂' }).ok).toBe(true);
		expect(validateOutput(emoji, { e: '🎉🎂🎈' }).ok).toBe(false);
	});

	it('caps the number of errors it lists', () => {
		const arr: Schema = { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } } } };
		const r = validateOutput(arr, { a: Array.from({ length: 50 }, () => 'x') });
		expect(r.errors.length).toBe(21);
		expect(r.errors[20]).toMatch(/more/);
	});
});

describe('coerceOutput', () => {
	const schema: Schema = {
		type: 'object',
		properties: {
			choice: { type: 'string', enumFrom: 'options' },
			n: { type: 'integer' },
			ok: { type: 'boolean' }
		}
	};

	it('repairs harmless slips', () => {
		const out = coerceOutput(schema, { choice: ' Kitchen. ', n: '7', ok: 'true' }, { options: ['kitchen', 'bedroom'] });
		expect(out).toEqual({ choice: 'kitchen', n: 7, ok: true });
	});

	it('leaves real mistakes for validation to report', () => {
		const out = coerceOutput(schema, { choice: 'garage', n: 'seven' }, { options: ['kitchen'] }) as Record<string, unknown>;
		expect(out.choice).toBe('garage');
		expect(out.n).toBe('seven');
	});
});
