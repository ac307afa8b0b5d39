import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyConfined } from './copy';
import { lineageSpans, spanOfState, spanOfStep, type LineageNode } from './lineage';

const tmp = mkdtempSync(path.join(tmpdir(), 'store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function folder(): string {
	const dir = path.join(tmp, `d${n++}`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

describe('lineage', () => {
	const runs: Record<string, LineageNode> = {
		root: { firstStep: 0, parent: null, committed: 100 },
		a: { firstStep: 40, parent: { run: 'root', step: 40 }, committed: 90 },
		b: { firstStep: 60, parent: { run: 'a', step: 60 }, committed: 60 },
		at0: { firstStep: 0, parent: { run: 'root', step: 0 }, committed: 10 },
		loop1: { firstStep: 5, parent: { run: 'loop2', step: 5 }, committed: 9 },
		loop2: { firstStep: 3, parent: { run: 'loop1', step: 3 }, committed: 9 },
		orphan: { firstStep: 5, parent: { run: 'gone', step: 5 }, committed: 9 }
	};
	const node = (id: string) => runs[id] ?? null;

	it('spans root first, each up to its child fork step', () => {
		const spans = lineageSpans('b', node);
		expect(spans).toEqual([
			{ run: 'root', from: 0, to: 40 },
			{ run: 'a', from: 40, to: 60 },
			{ run: 'b', from: 60, to: 60 }
		]);
		expect(spanOfStep(spans, 39)?.run).toBe('root');
		expect(spanOfStep(spans, 40)?.run).toBe('a');
		expect(spanOfStep(spans, 60)).toBeUndefined();
		expect(spanOfState(spans, 40)?.run).toBe('a');
		expect(spanOfState(spans, 60)?.run).toBe('b');
		expect(lineageSpans('a', node, 50)).toEqual([
			{ run: 'root', from: 0, to: 40 },
			{ run: 'a', from: 40, to: 50 }
		]);
		expect(lineageSpans('at0', node)).toEqual([{ run: 'at0', from: 0, to: 10 }]);
	});

	it('refuses a loop of parents and a missing parent', () => {
		expect(() => lineageSpans('loop1', node)).toThrow(/run loop1: run loop1 is its own ancestor \(run.json parents form a loop\)/);
		expect(() => lineageSpans('orphan', node)).toThrow(/run orphan is a fork of gone, which is not among the runs/);
		expect(() => lineageSpans('nope', node)).toThrow(/no run "nope"/);
	});
});

describe('confined copies', () => {
	it('copies files and links inside the folder; refuses a link out of it', () => {
		const outside = folder();
		writeFileSync(path.join(outside, 'secret.txt'), 'secret');
		const world = folder();
		writeFileSync(path.join(world, 'world.json'), '{}');
		mkdirSync(path.join(world, 'maps'));
		writeFileSync(path.join(world, 'maps', 'a.tmx'), 'map');
		symlinkSync(path.join(world, 'maps', 'a.tmx'), path.join(world, 'alias.tmx'));
		symlinkSync('maps', path.join(world, 'maps-link'));
		const to = path.join(folder(), 'copy');
		copyConfined(world, to, 'world folder');
		expect(readFileSync(path.join(to, 'alias.tmx'), 'utf8')).toBe('map');
		expect(readFileSync(path.join(to, 'maps-link', 'a.tmx'), 'utf8')).toBe('map');

		symlinkSync(path.join(outside, 'secret.txt'), path.join(world, 'maps', 'leak.txt'));
		const to2 = path.join(folder(), 'copy');
		expect(() => copyConfined(world, to2, 'world folder')).toThrow(/maps\/leak.txt is a link to .*secret.txt, outside the world folder/);
		expect(existsSync(path.join(to2, 'maps', 'leak.txt'))).toBe(false);

		const world2 = folder();
		symlinkSync(outside, path.join(world2, 'dir-out'));
		expect(() => copyConfined(world2, path.join(folder(), 'c'), 'world folder')).toThrow(/dir-out is a link to .*, outside the world folder/);
		const world3 = folder();
		symlinkSync(path.join(world3, 'missing'), path.join(world3, 'dangling'));
		expect(() => copyConfined(world3, path.join(folder(), 'c'), 'world folder')).toThrow(/dangling is a link to nothing/);
	});
});
