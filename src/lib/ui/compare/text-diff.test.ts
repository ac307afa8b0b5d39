// The compact diff of two prompts or answers: shared lines folded, the first differing line
// marked down to its column.

import { describe, expect, it } from 'vitest';
import { compactDiff, firstDifferentColumn } from './text-diff';

describe('compact text diff', () => {
	it('says equal texts are equal', () => {
		const d = compactDiff('a\nb', 'a\nb');
		expect(d.equal).toBe(true);
		expect(d.firstLine).toBe(-1);
		expect(d.a.lines).toEqual([]);
	});

	it('marks the first differing line and the column where it parts', () => {
		const a = ['Name: Klaus', 'Age: 20', 'Plan: study at the cafe', 'Mood: calm', 'End'].join('\n');
		const b = ['Name: Klaus', 'Age: 20', 'Plan: study at the library', 'Mood: calm', 'End'].join('\n');
		const d = compactDiff(a, b, { context: 1 });
		expect(d.equal).toBe(false);
		expect(d.firstLine).toBe(2);
		expect(d.hiddenBefore).toBe(1);
		expect(d.hiddenEnd).toBe(2);
		expect(d.a.lines).toEqual([
			{ n: 2, text: 'Age: 20', kind: 'same' },
			{ n: 3, text: 'Plan: study at the cafe', kind: 'changed', from: 19 }
		]);
		expect(d.b.lines[1]).toEqual({ n: 3, text: 'Plan: study at the library', kind: 'changed', from: 19 });
	});

	it('shows a block of changed lines per side, capped', () => {
		const a = ['same', ...Array.from({ length: 30 }, (_, i) => `a${i}`), 'tail'].join('\n');
		const b = ['same', 'b0', 'tail'].join('\n');
		const d = compactDiff(a, b, { context: 2, maxChanged: 5 });
		expect(d.firstLine).toBe(1);
		expect(d.a.lines.map((l) => l.text)).toEqual(['same', 'a0', 'a1', 'a2', 'a3', 'a4']);
		expect(d.a.hiddenAfter).toBe(25);
		expect(d.b.lines.map((l) => l.text)).toEqual(['same', 'b0']);
		expect(d.b.hiddenAfter).toBe(0);
		expect(d.hiddenEnd).toBe(1);
	});

	it('handles a text that only adds lines at the end', () => {
		const d = compactDiff('x\ny', 'x\ny\nz');
		expect(d.firstLine).toBe(2);
		expect(d.a.lines.filter((l) => l.kind === 'changed')).toEqual([]);
		expect(d.b.lines.filter((l) => l.kind === 'changed')).toEqual([{ n: 3, text: 'z', kind: 'changed', from: 0 }]);
	});

	it('treats CRLF and LF line ends alike', () => {
		expect(compactDiff('a\r\nb\r\nc', 'a\nb\nd').firstLine).toBe(2);
	});

	it('finds the first differing column', () => {
		expect(firstDifferentColumn('abcd', 'abXd')).toBe(2);
		expect(firstDifferentColumn('abc', 'abcdef')).toBe(3);
		expect(firstDifferentColumn('', 'x')).toBe(0);
	});
});
