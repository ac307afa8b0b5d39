import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataHome, projectRoot, promptsDir } from './paths';

describe('paths', () => {
	it('finds the project root by its package.json', () => {
		expect(existsSync(path.join(projectRoot(), 'package.json'))).toBe(true);
		expect(existsSync(path.join(projectRoot(), 'src', 'lib', 'server', 'paths.ts'))).toBe(true);
		expect(promptsDir()).toBe(path.join(projectRoot(), 'prompts'));
	});

	it('puts the data home in .simulacra unless SIMULACRA_HOME says otherwise', () => {
		expect(dataHome({})).toBe(path.join(projectRoot(), '.simulacra'));
		expect(dataHome({ SIMULACRA_HOME: '  ' })).toBe(path.join(projectRoot(), '.simulacra'));
		expect(dataHome({ SIMULACRA_HOME: '/tmp/sim-home' })).toBe('/tmp/sim-home');
		expect(dataHome({ SIMULACRA_HOME: 'rel/home' })).toBe(path.resolve('rel/home'));
	});
});
