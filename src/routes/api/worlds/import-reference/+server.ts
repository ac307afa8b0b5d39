// A new world from a checkout of the reference implementation: its town and one of its simulations.
import { worldsDir } from '$lib/server/paths';
import { readJsonBody, respond } from '$lib/server/world/edit';
import { importReferenceRequest, simulationsOf } from '$lib/server/world/import-reference-api';
import type { RequestHandler } from './$types';

/** ?checkout=PATH -> { checkout, simulations } */
export const GET: RequestHandler = ({ url }) => respond(() => simulationsOf(url.searchParams.get('checkout')));

/** { checkout, storage, id } -> 201 WorldListing & { report } */
export const POST: RequestHandler = ({ request }) => respond(async () => importReferenceRequest(worldsDir(), await readJsonBody(request)), 201);
