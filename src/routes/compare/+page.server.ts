// /compare?a=RUN&b=RUN[&step=N]: the two runs, the towns their maps draw (each run's own copy
// of its world, loaded once when both copies hold the same files), and the behaviour diff,
// streamed: the page is sent while the diff is computed.

import { error } from '@sveltejs/kit';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunDiff } from '$lib/api/diff';
import type { RunInfo } from '$lib/api/types';
import { listWorlds, resolveInside } from '$lib/server/files';
import { worldsDir, dataHome } from '$lib/server/paths';
import { assetWorld, checkRunId, pageAnswer, runWorldProblems } from '$lib/server/ide/run-pages';
import { runsDir } from '$lib/server/run/runner';
import { loadWorld } from '$lib/server/world/load';
import { createApi } from '$lib/shared/api';
import { fetchDiff } from '$lib/ui/diff-api';
import { worldView, type ProblemView, type WorldView } from '$lib/shared/world-view';
import type { PageServerLoad } from './$types';

export interface CompareSide {
	info: RunInfo;
	world: WorldView | null;
	problems: ProblemView[];
}

export type DiffAnswer = { diff: RunDiff; error: null } | { diff: null; error: string };

/** Every file below `dir`, relative, sorted. */
async function filesOf(dir: string, prefix = ''): Promise<string[]> {
	const out: string[] = [];
	for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
		const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
		if (entry.isDirectory()) out.push(...(await filesOf(dir, rel)));
		else if (entry.isFile()) out.push(rel);
	}
	return out.sort();
}

/** true when the two folders hold the same files with the same bytes. */
async function sameFiles(x: string, y: string): Promise<boolean> {
	try {
		const [fx, fy] = await Promise.all([filesOf(x), filesOf(y)]);
		if (fx.length !== fy.length || fx.some((f, i) => f !== fy[i])) return false;
		for (const f of fx) {
			const [bx, by] = await Promise.all([readFile(path.join(x, f)), readFile(path.join(y, f))]);
			if (!bx.equals(by)) return false;
		}
		return true;
	} catch {
		return false;
	}
}

// A run's world copy is written when the run starts and never changes: loaded worlds are kept
// (a few), keyed by folder and its modification time.
const worldCache = new Map<string, { stamp: number; view: WorldView }>();
const WORLD_CACHE_SIZE = 4;

async function loadRunWorld(dir: string, assetId: string): Promise<WorldView> {
	const stamp = (await stat(dir)).mtimeMs;
	const key = `${dir}\n${assetId}`;
	const hit = worldCache.get(key);
	if (hit && hit.stamp === stamp) {
		worldCache.delete(key);
		worldCache.set(key, hit);
		return hit.view;
	}
	const view = worldView(assetId, await loadWorld(dir));
	worldCache.set(key, { stamp, view });
	while (worldCache.size > WORLD_CACHE_SIZE) worldCache.delete(worldCache.keys().next().value as string);
	return view;
}

export const load: PageServerLoad = async ({ url, fetch }) => {
	const a = url.searchParams.get('a') ?? '';
	const b = url.searchParams.get('b') ?? '';
	if (!a || !b) error(400, 'Compare two runs: /compare?a=RUN&b=RUN (pick them on the runs page)');
	for (const id of [a, b]) checkRunId(id);

	// The diff is computed meanwhile and streamed to the page; it never rejects.
	const diff: Promise<DiffAnswer> = fetchDiff(a, b, fetch).then(
		(d): DiffAnswer => ({ diff: d, error: null }),
		(err: unknown): DiffAnswer => ({ diff: null, error: err instanceof Error ? err.message : String(err) })
	);

	const api = createApi(fetch);
	const [infoA, infoB] = await pageAnswer(Promise.all([api.run(a), api.run(b)]));

	const known = new Set((await listWorlds(worldsDir())).map((w) => w.id));
	const runs = runsDir(dataHome());
	const side = async (info: RunInfo, dir: string | null, reuse?: CompareSide): Promise<CompareSide> => {
		if (reuse?.world && reuse.info.world === info.world) return { info, world: reuse.world, problems: [] };
		if (!dir) return { info, world: null, problems: [{ file: `runs/${info.id}/world`, message: 'The run has no copy of its world' }] };
		try {
			return { info, world: await loadRunWorld(dir, await assetWorld(api, info, known)), problems: [] };
		} catch (err) {
			return { info, world: null, problems: runWorldProblems(err, info.id) };
		}
	};
	const [dirA, dirB] = await Promise.all(
		[infoA, infoB].map((info) => resolveInside(runs, `${info.id}/world`, 'directory').catch(() => null))
	);
	const sideA = await side(infoA, dirA);
	// The same town (a fork and its parent, usually) is loaded and sent once.
	const same = dirA !== null && dirB !== null && (dirA === dirB || (await sameFiles(dirA, dirB)));
	const sideB = await side(infoB, dirB, same ? sideA : undefined);

	return { a: sideA, b: sideB, step: url.searchParams.get('step'), diff };
};
