// The IDE's import of the reference implementation's town (the new-world form): the request
// checks and answers of `/api/worlds/import-reference`. The checkout is a folder on the machine
// the studio runs on; nothing outside its `environment/frontend_server/` is read.

import { RequestError } from '../errors';
import { frontendOf, importReference, listSimulations, type ReferenceImportReport } from './import-reference';
import { WORLD_ID } from '../../shared/ids';
import type { WorldListing } from '../../api/types';

/** What the form sends. */
export interface ReferenceImportRequest {
	checkout: string;
	storage: string;
	id: string;
	/** the world's name (default: the town's, with the number of agents) */
	name?: string;
}

/** The simulations of a checkout's storage/ folder (a folder that is no checkout: 400 naming what it expected). */
export function simulationsOf(checkout: string | null): { checkout: string; simulations: string[] } {
	if (!checkout?.trim()) throw new RequestError(400, 'give the folder of a checkout of the reference implementation (?checkout=PATH)');
	return { checkout, simulations: listSimulations(frontendOf(checkout.trim())) };
}

/** Imports the checkout's town with the personas of `storage` as the world `id`: the new world and the report. */
export async function importReferenceRequest(worldsDir: string, req: unknown): Promise<WorldListing & { report: ReferenceImportReport }> {
	if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new RequestError(400, 'the body must be an object { checkout, storage, id, name? }');
	for (const key of Object.keys(req)) if (!['checkout', 'storage', 'id', 'name'].includes(key)) throw new RequestError(400, `unknown field "${key}"`);
	const { checkout, storage, id, name } = req as Partial<ReferenceImportRequest>;
	if (name !== undefined && typeof name !== 'string') throw new RequestError(400, '"name" must be text');
	if (typeof checkout !== 'string' || !checkout.trim()) throw new RequestError(400, '"checkout" must be the folder of a checkout of the reference implementation');
	if (typeof storage !== 'string' || !storage.trim()) throw new RequestError(400, '"storage" must name a simulation of the checkout\'s storage/ folder');
	if (typeof id !== 'string' || !WORLD_ID.test(id))
		throw new RequestError(400, `the world id must be 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit (got ${JSON.stringify(id)})`);
	const report = await importReference(checkout.trim(), { simulation: storage.trim(), name: id, worldsDir, ...(name?.trim() ? { title: name } : {}) });
	return { id: report.world, name: report.name, report };
}
