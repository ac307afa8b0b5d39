// /runs/<id>/eval[?step=N]: the run (for the header and the step bounds) and the step asked for.
// The report itself is fetched by the page, which shows what is happening while the server
// computes it.

import { error } from '@sveltejs/kit';
import type { RunInfo } from '$lib/api-types';
import { ApiError, createApi } from '$lib/ui/api';
import type { PageServerLoad } from './$types';

/** Run ids are folder names; anything else never reaches the file system. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const load: PageServerLoad = async ({ params, url, fetch }) => {
	if (!RUN_ID.test(params.id)) error(404, `No run "${params.id.slice(0, 200)}"`);
	const stepText = url.searchParams.get('step');
	if (stepText !== null && !/^\d{1,9}$/.test(stepText)) error(400, `step must be a whole number of steps, not "${stepText.slice(0, 40)}"`);
	let info: RunInfo;
	try {
		info = await createApi(fetch).run(params.id);
	} catch (err) {
		if (err instanceof ApiError) error(err.status === 404 ? 404 : 500, err.message);
		throw err;
	}
	return { info, step: stepText === null ? null : Number(stepText) };
};
