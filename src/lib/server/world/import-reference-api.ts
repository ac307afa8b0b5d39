// The IDE's import of the reference implementation's town (the new-world form): the request
// checks and answers of `/api/worlds/import-reference`. The checkout is a folder on the machine
// the studio runs on; nothing outside its `environment/frontend_server/` is read.

import { InvalidError } from '../errors';
import { parseWith } from '../validate';
import { frontendOf, importReference, listSimulations, type ReferenceImportReport } from './import-reference';
import { ReferenceImportRequestSchema, type WorldListing } from '../../api/types';

export type { ReferenceImportRequest } from '../../api/types';

/** The simulations of a checkout's storage/ folder (a folder that is no checkout: invalid, naming what it expected). */
export function simulationsOf(checkout: string | null): { checkout: string; simulations: string[] } {
	if (!checkout?.trim()) throw new InvalidError('give the folder of a checkout of the reference implementation (?checkout=PATH)');
	return { checkout, simulations: listSimulations(frontendOf(checkout.trim())) };
}

/** Imports the checkout's town with the personas of `storage` as the world `id`: the new world and the report. */
export async function importReferenceRequest(worldsDir: string, body: unknown): Promise<WorldListing & { report: ReferenceImportReport }> {
	const { checkout, storage, id, name } = parseWith(ReferenceImportRequestSchema, body);
	const report = await importReference(checkout.trim(), { simulation: storage.trim(), name: id, worldsDir, ...(name?.trim() ? { title: name } : {}) });
	return { id: report.world, name: report.name, report };
}
