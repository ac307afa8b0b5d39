import { error } from '@sveltejs/kit';
import { readFile } from 'node:fs/promises';
import { listWorlds, PathError, resolveInside } from '$lib/server/files';
import { worldsDir } from '$lib/server/paths';
import { readMapDoc } from '$lib/server/world/tmx-doc';
import { WorldError } from '$lib/world/problems';
import type { PageServerLoad } from './$types';

// Opens a world's map for editing. A map the editor cannot hold without loss is refused here,
// with the problems listed, before anything can be changed.
export const load: PageServerLoad = async ({ params }) => {
	const dir = worldsDir();
	const world = (await listWorlds(dir)).find((w) => w.id === params.world);
	if (!world) error(404, `No world "${params.world}"`);
	try {
		const worldDir = await resolveInside(dir, world.id, 'directory');
		const manifest: unknown = JSON.parse(await readFile(await resolveInside(worldDir, 'world.json'), 'utf8'));
		const map = manifest && typeof manifest === 'object' && 'map' in manifest ? manifest.map : undefined;
		if (typeof map !== 'string') return { world, doc: null, problems: [{ file: 'world.json', message: '"map" must name the map file' }] };
		return { world, doc: await readMapDoc(worldDir, map), problems: [] };
	} catch (e) {
		if (e instanceof WorldError) return { world, doc: null, problems: e.problems };
		if (e instanceof PathError) return { world, doc: null, problems: [{ file: world.id, message: e.message }] };
		if (e instanceof SyntaxError) return { world, doc: null, problems: [{ file: 'world.json', message: `not valid JSON: ${e.message}` }] };
		throw e;
	}
};
