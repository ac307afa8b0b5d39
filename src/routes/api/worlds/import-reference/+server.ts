// A new world from a checkout of the reference implementation: its town and one of its simulations.
import { answer } from '$lib/server/http';
import { worldsDir } from '$lib/server/paths';
import { readWorldJsonBody } from '$lib/server/world/edit';
import { importReferenceRequest, simulationsOf } from '$lib/server/world/import-reference-api';
import type { RequestHandler } from './$types';

/** ?checkout=PATH -> { checkout, simulations } */
export const GET: RequestHandler = ({ url }) => answer(() => simulationsOf(url.searchParams.get('checkout')));

/** ReferenceImportRequest { checkout, storage, id, name? } -> 201 WorldListing & { report } */
export const POST: RequestHandler = ({ request }) => answer(async () => importReferenceRequest(worldsDir(), await readWorldJsonBody(request)), 201);
