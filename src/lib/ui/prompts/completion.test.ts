// What `{{` offers in the template editor and where the chosen name goes.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredInputs, placeholderSlot } from './completion';

describe('placeholderSlot', () => {
	it('finds the name being typed after {{', () => {
		expect(placeholderSlot('Hello {{', 9)).toEqual({ typed: '', startColumn: 9, endColumn: 9, closed: false });
		expect(placeholderSlot('Hello {{na', 11)).toEqual({ typed: 'na', startColumn: 9, endColumn: 11, closed: false });
		// inside an existing placeholder: the whole name is replaced and }} is not written again
		expect(placeholderSlot('Hi {{name}} there', 8)).toEqual({ typed: 'na', startColumn: 6, endColumn: 10, closed: true });
		expect(placeholderSlot('Hi {{ na', 9)).toMatchObject({ typed: 'na', startColumn: 7 });
	});

	it('offers nothing outside a placeholder', () => {
		expect(placeholderSlot('Hello {', 8)).toBeNull();
		expect(placeholderSlot('Hello {{name}} ', 16)).toBeNull();
		expect(placeholderSlot('{"react": true}', 3)).toBeNull();
	});
});

describe('declaredInputs', () => {
	it('reads the inputs the front matter declares now', () => {
		const source = readFileSync(path.resolve('prompts/react.md'), 'utf8');
		expect(declaredInputs(source, 'react').map((i) => i.name)).toEqual(['name', 'summary', 'time', 'status', 'observation', 'other', 'other_status', 'context', 'hours_since_chat']);
		const added = source.replace('inputs:\n', 'inputs:\n  mood: {type: text, description: "How they feel."}\n');
		expect(declaredInputs(added, 'react')[0]).toEqual({ name: 'mood', type: 'text', description: 'How they feel.' });
	});

	it('falls back to what the engine passes while the front matter cannot be read', () => {
		const broken = '---\nid: importance\ninputs: {name: [\n---\n{{';
		expect(declaredInputs(broken, 'importance')).toEqual([
			{ name: 'name', type: 'text', description: '' },
			{ name: 'memories', type: 'numbered', description: '' }
		]);
		expect(declaredInputs(broken, 'not_a_template')).toEqual([]);
	});
});
