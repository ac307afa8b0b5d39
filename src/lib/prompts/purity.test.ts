// src/lib/prompts runs in the browser too (the prompt workbench): no Node built-ins there.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('src/lib/prompts', () => {
	it('imports nothing from Node or the server', () => {
		const dir = fileURLToPath(new URL('.', import.meta.url));
		const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
		expect(files.length).toBeGreaterThanOrEqual(5);
		for (const f of files) {
			const code = readFileSync(dir + f, 'utf8');
			const imports = [...code.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
			for (const i of imports) {
				expect(i, `${f} imports ${i}`).not.toMatch(/^node:|^(fs|path|crypto|os)$|\/server\//);
			}
		}
	});
});
