// Fuzzing the readers of outside data: Tiled maps (.tmx) and tilesets (.tsx), Tiled JSON maps
// and tilesets (.tmj/.tsj, through the import), a world's JSON files (world.json, personas,
// scenario) and prompt templates. Inputs are valid files mutated at random (fast-check), plus
// random values. Every input must be read or refused with a clear error: no other exception,
// no stack trace in a message, no more than `maxMs` per input and the process within
// `maxRssMb`. The unit tests run a few hundred inputs; `npm run bench -- --only fuzz` runs more.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { ProblemList, WorldError, formatProblem } from '../../world/problems';
import { parseXml, XmlSyntaxError } from '../../world/xml';
import { parseTemplate, TemplateError } from '../../prompts/template';
import { checkTemplateSource } from '../../prompts/check';
import { PathError } from '../files';
import { analyseWorld } from '../world/analyse';
import { projectRoot } from '../paths';
import { importMap } from '../world/import';
import { readMap } from '../world/tmx';
import { readMapDoc } from '../world/tmx-doc';
import { TINY_WORLD_DIR } from '../world/testing';

/** Bounds every input must stay within. */
export const FUZZ_BOUNDS = { maxMs: 3000, maxRssMb: 1024 };

/** What one fuzz target did. */
export interface FuzzReport {
	target: string;
	inputs: number;
	accepted: number;
	refused: number;
	slowestMs: number;
	maxRssMb: number;
}

/** A broken promise about an input: thrown so fast-check shrinks and reports the input. */
class FuzzFailure extends Error {}

const STACK = /\n\s+at \S.*:\d+:\d+/;

// ---- mutations -----------------------------------------------------------------------------------

type Mutation =
	| { kind: 'insert'; at: number; text: string }
	| { kind: 'delete'; at: number; len: number }
	| { kind: 'number'; nth: number; value: string }
	| { kind: 'repeat'; at: number; len: number; times: number };

/** Text fragments that have broken readers before: declarations, references, paths, sizes. */
const XML_SPICE = [
	'<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>',
	'&a;',
	'&#0;',
	'&#x110000;',
	'&#xD800;',
	'&#99999999999999999999;',
	'&amp',
	'<group name="g">',
	'<chunk x="0" y="0" width="16" height="16">',
	' encoding="base64" compression="zlib"',
	' encoding="base64" compression="gzip"',
	' compression="zstd"',
	'eJzt0DEBAAAAwqD1T20ND6AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgZCYAAAQ==',
	'<![CDATA[',
	'<layer id="9" name="x" width="2" height="2"><data encoding="csv">1,2,3,4</data></layer>',
	'</map>',
	' source="/etc/passwd"',
	' source="../../../../etc/passwd"',
	' source="/dev/zero"',
	' source="tilesets/tiny.tsx"',
	' width="100000" height="100000"',
	' width="-1"',
	' firstgid="4294967296"',
	'<imagelayer id="8" name="sky"><image source="/etc/passwd"/></imagelayer>',
	'<object id="99" x="1e308" y="-1e308" width="NaN" height="Infinity"/>',
	'<a>'.repeat(80),
	'<?xml version="1.0"?>',
	'\u0000',
	'\ufeff',
	',,,,,,,,,,,,,,,,,,,,',
	'4294967295',
	'2147483648'
];

const JSON_SPICE = [
	'{',
	'}',
	'[',
	'"__proto__"',
	'{"__proto__":{"polluted":1}}',
	'"constructor"',
	'1e999',
	'-0',
	'null',
	'"/etc/passwd"',
	'"../../etc/shadow"',
	'"/dev/zero"',
	'[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
	'"\\ud800"',
	'"\u0000"',
	'100000',
	'4294967296',
	'"eJzt0DEBAAAAwqD1T20ND6AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgZCYAAAQ=="',
	'"zlib"',
	'"base64"',
	',',
	':'
];

function mutationArb(spice: readonly string[]): fc.Arbitrary<Mutation> {
	return fc.oneof(
		{ weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...spice), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 })) }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 300 }) }) },
		{
			weight: 3,
			arbitrary: fc.record({
				kind: fc.constant('number' as const),
				nth: fc.nat(),
				value: fc.oneof(fc.integer().map(String), fc.constantFrom('0', '-1', '99999999', '4294967296', '1e308', 'NaN', '0x10', '1.5', ''))
			})
		},
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }), times: fc.integer({ min: 2, max: 50 }) }) }
	);
}

export function applyMutations(base: string, ms: readonly Mutation[]): string {
	let s = base;
	for (const m of ms) {
		const at = s.length ? m.kind === 'number' ? 0 : m.at % (s.length + 1) : 0;
		if (m.kind === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
		else if (m.kind === 'delete') s = s.slice(0, at) + s.slice(at + m.len);
		else if (m.kind === 'repeat') s = s.slice(0, at) + s.slice(at, at + m.len).repeat(m.times) + s.slice(at + m.len);
		else {
			const numbers = [...s.matchAll(/-?\d+(\.\d+)?/g)];
			if (!numbers.length) continue;
			const n = numbers[m.nth % numbers.length];
			s = s.slice(0, n.index) + m.value + s.slice(n.index! + n[0].length);
		}
	}
	return s;
}

/** A valid text, mutated 0 to 6 times. */
const mutated = (base: string, spice: readonly string[]) => fc.array(mutationArb(spice), { minLength: 0, maxLength: 6 }).map((ms) => applyMutations(base, ms));

// ---- the harness ---------------------------------------------------------------------------------

interface Outcome {
	accepted: boolean;
	/** the messages shown for a refusal */
	messages: string[];
}

async function runTarget<T>(
	target: string,
	arb: fc.Arbitrary<T>,
	numRuns: number,
	seed: number | undefined,
	once: (input: T) => Promise<Outcome>
): Promise<FuzzReport> {
	const report: FuzzReport = { target, inputs: 0, accepted: 0, refused: 0, slowestMs: 0, maxRssMb: 0 };
	await fc.assert(
		fc.asyncProperty(arb, async (input) => {
			const t0 = performance.now();
			let outcome: Outcome;
			try {
				outcome = await once(input);
			} catch (e) {
				if (e instanceof FuzzFailure) throw e;
				throw new FuzzFailure(`${target}: an input raised ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)} instead of being read or refused`);
			}
			const ms = performance.now() - t0;
			const rss = process.memoryUsage().rss / 1024 / 1024;
			report.inputs++;
			if (outcome.accepted) report.accepted++;
			else report.refused++;
			report.slowestMs = Math.max(report.slowestMs, ms);
			report.maxRssMb = Math.max(report.maxRssMb, rss);
			if (ms > FUZZ_BOUNDS.maxMs) throw new FuzzFailure(`${target}: an input took ${ms.toFixed(0)} ms (at most ${FUZZ_BOUNDS.maxMs})`);
			if (rss > FUZZ_BOUNDS.maxRssMb) throw new FuzzFailure(`${target}: the process reached ${rss.toFixed(0)} MB (at most ${FUZZ_BOUNDS.maxRssMb})`);
			if (!outcome.accepted && !outcome.messages.length) throw new FuzzFailure(`${target}: an input was refused without a message`);
			for (const m of outcome.messages) {
				if (!m.trim()) throw new FuzzFailure(`${target}: an empty message`);
				if (STACK.test(m)) throw new FuzzFailure(`${target}: a message holds a stack trace: ${m}`);
			}
		}),
		{ numRuns, ...(seed === undefined ? {} : { seed }), endOnFailure: true }
	);
	return report;
}

const refusedBy = (e: unknown, ...kinds: (abstract new (...a: never[]) => Error)[]): Outcome => {
	if (kinds.some((k) => e instanceof k)) {
		const problems = (e as { problems?: Parameters<typeof formatProblem>[0][] }).problems;
		return { accepted: false, messages: problems?.length ? problems.map(formatProblem) : [(e as Error).message] };
	}
	throw e;
};

// ---- targets -------------------------------------------------------------------------------------

/** A scratch copy of the tiny world for one target. */
function scratchWorld(): { root: string; dir: string } {
	const root = mkdtempSync(path.join(tmpdir(), 'fuzz-'));
	const dir = path.join(root, 'tiny');
	cpSync(TINY_WORLD_DIR, dir, { recursive: true });
	return { root, dir };
}

const TINY_TMX = () => readFileSync(path.join(TINY_WORLD_DIR, 'tiny.tmx'), 'utf8');
const TINY_TSX = () => readFileSync(path.join(TINY_WORLD_DIR, 'tilesets', 'tiny.tsx'), 'utf8');

/** .tmx maps, read by the world's reader and by the editor's reader. */
async function fuzzTmx(numRuns: number, seed?: number): Promise<FuzzReport> {
	const { root, dir } = scratchWorld();
	try {
		return await runTarget('.tmx maps (world and editor readers)', mutated(TINY_TMX(), XML_SPICE), numRuns, seed, async (text) => {
			writeFileSync(path.join(dir, 'tiny.tmx'), text);
			const problems = new ProblemList();
			const parsed = await readMap(path.join(dir, 'tiny.tmx'), dir, problems);
			if (!parsed && !problems.errors.length) throw new FuzzFailure('readMap refused a map without saying why');
			try {
				await readMapDoc(dir, 'tiny.tmx');
			} catch (e) {
				refusedBy(e, WorldError, PathError);
				if (parsed) throw new FuzzFailure(`the editor refused a map the world reads: ${(e as Error).message}`);
			}
			return { accepted: !!parsed, messages: problems.errors.map(formatProblem) };
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** .tsx tilesets, through the map that uses them. */
async function fuzzTsx(numRuns: number, seed?: number): Promise<FuzzReport> {
	const { root, dir } = scratchWorld();
	try {
		return await runTarget('.tsx tilesets', mutated(TINY_TSX(), XML_SPICE), numRuns, seed, async (text) => {
			writeFileSync(path.join(dir, 'tilesets', 'tiny.tsx'), text);
			const problems = new ProblemList();
			const parsed = await readMap(path.join(dir, 'tiny.tmx'), dir, problems);
			if (!parsed && !problems.errors.length) throw new FuzzFailure('readMap refused a tileset without saying why');
			return { accepted: !!parsed, messages: problems.errors.map(formatProblem) };
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** A Tiled JSON map of the tiny world: tile layers as lists and as zlib base64, one .tsj tileset. */
function tinyTmj(): { map: string; tsj: string } {
	const tsj = JSON.stringify({ type: 'tileset', name: 'tiny', tilewidth: 32, tileheight: 32, tilecount: 2, columns: 2, image: 'tiny.png', imagewidth: 64, imageheight: 32 }, null, 1);
	const map = JSON.stringify(
		{
			type: 'map',
			orientation: 'orthogonal',
			width: 3,
			height: 2,
			tilewidth: 32,
			tileheight: 32,
			nextlayerid: 4,
			nextobjectid: 3,
			tilesets: [{ firstgid: 1, source: 'tiny.tsj' }, { firstgid: 3, name: 'e', tilewidth: 32, tileheight: 32, tilecount: 2, columns: 2, image: 'tiny.png', imagewidth: 64, imageheight: 32 }],
			layers: [
				{ id: 1, name: 'ground', type: 'tilelayer', width: 3, height: 2, data: [1, 2, 1, 3, 4, 0] },
				{ id: 2, name: 'collisions', type: 'tilelayer', width: 3, height: 2, encoding: 'base64', compression: 'zlib', data: zlib.deflateSync(Buffer.alloc(24)).toString('base64') },
				{ id: 3, name: 'sectors', type: 'objectgroup', objects: [{ id: 1, name: 'Town', x: 0, y: 0, width: 96, height: 64, properties: [{ name: 'kind', type: 'string', value: 'house' }] }] }
			]
		},
		null,
		1
	);
	return { map, tsj };
}

/** .tmj maps and .tsj tilesets, through the import. */
async function fuzzTmj(numRuns: number, seed?: number): Promise<FuzzReport> {
	const root = mkdtempSync(path.join(tmpdir(), 'fuzz-tmj-'));
	const src = path.join(root, 'src');
	const worlds = path.join(root, 'worlds');
	cpSync(path.join(TINY_WORLD_DIR, 'tilesets'), src, { recursive: true });
	mkdirSync(worlds);
	const base = tinyTmj();
	let n = 0;
	const arb = fc.oneof(
		fc.record({ map: mutated(base.map, JSON_SPICE), tsj: fc.constant(base.tsj) }),
		fc.record({ map: fc.constant(base.map), tsj: mutated(base.tsj, JSON_SPICE) }),
		fc.record({ map: fc.json({ maxDepth: 4 }), tsj: fc.constant(base.tsj) })
	);
	try {
		return await runTarget('.tmj maps and .tsj tilesets (import)', arb, numRuns, seed, async ({ map, tsj }) => {
			writeFileSync(path.join(src, 'town.tmj'), map);
			writeFileSync(path.join(src, 'tiny.tsj'), tsj);
			try {
				await importMap(path.join(src, 'town.tmj'), { name: `w${++n}`, worldsDir: worlds });
				rmSync(path.join(worlds, `w${n}`), { recursive: true, force: true });
				return { accepted: true, messages: [] };
			} catch (e) {
				return refusedBy(e, WorldError);
			}
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** world.json, a persona and scenario.json, through the world's whole check. */
async function fuzzWorldJson(numRuns: number, seed?: number): Promise<FuzzReport> {
	const { root, dir } = scratchWorld();
	const files = ['world.json', 'personas/alice-chen.json', 'scenario.json'];
	const bases = files.map((f) => readFileSync(path.join(TINY_WORLD_DIR, f), 'utf8'));
	const arb = fc.record({
		which: fc.nat(files.length - 1),
		text: fc.oneof(fc.nat(files.length - 1).chain((k) => mutated(bases[k], JSON_SPICE).map((t) => [k, t] as const)), fc.json({ maxDepth: 4 }).map((t) => [-1, t] as const))
	});
	try {
		return await runTarget('world.json, personas and scenario.json', arb, numRuns, seed, async ({ which, text: [k, text] }) => {
			const file = files[k >= 0 ? k : which];
			for (const [j, f] of files.entries()) writeFileSync(path.join(dir, f), bases[j]);
			writeFileSync(path.join(dir, file), text);
			const a = await analyseWorld(dir);
			return { accepted: a.errors.length === 0, messages: a.errors.map(formatProblem) };
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** Prompt templates: parsed (TemplateError or a template) and checked (a list of issues). */
async function fuzzTemplates(numRuns: number, seed?: number): Promise<FuzzReport> {
	const dir = path.join(projectRoot(), 'prompts');
	const sources = readdirSync(dir)
		.filter((f) => f.endsWith('.md') && f !== 'README.md')
		.sort()
		.slice(0, 8)
		.map((f) => ({ id: f.slice(0, -3), file: f, text: readFileSync(path.join(dir, f), 'utf8') }));
	const spice = ['---', '{{', '}}', '{{#each x}}', '{{/each}}', 'inputs:', 'output:', '  type: object', '\n', ': [', '&a', '*a', '!!js/function', '<<: *x', ...JSON_SPICE];
	const arb = fc.nat(sources.length - 1).chain((k) => mutated(sources[k].text, spice).map((text) => ({ ...sources[k], text })));
	return runTarget('prompt templates', arb, numRuns, seed, async ({ id, file, text }) => {
		const issues = checkTemplateSource(text, id);
		let accepted = true;
		let messages: string[] = [];
		try {
			parseTemplate(text, file);
		} catch (e) {
			({ accepted, messages } = refusedBy(e, TemplateError));
		}
		return { accepted, messages: [...messages, ...issues.map((i) => i.message)] };
	});
}

/** The XML reader on its own: any text parses or fails with a line. */
async function fuzzXml(numRuns: number, seed?: number): Promise<FuzzReport> {
	const arb = fc.oneof(mutated(TINY_TMX(), XML_SPICE), fc.string({ unit: 'binary', maxLength: 200 }));
	return runTarget('XML reader', arb, numRuns, seed, async (text) => {
		try {
			parseXml(text);
			return { accepted: true, messages: [] };
		} catch (e) {
			if (e instanceof XmlSyntaxError && !(e.line >= 1)) throw new FuzzFailure('an XML error without a line');
			return refusedBy(e, XmlSyntaxError);
		}
	});
}

export const FUZZ_TARGETS: Record<string, (numRuns: number, seed?: number) => Promise<FuzzReport>> = {
	xml: fuzzXml,
	tmx: fuzzTmx,
	tsx: fuzzTsx,
	tmj: fuzzTmj,
	world: fuzzWorldJson,
	templates: fuzzTemplates
};
