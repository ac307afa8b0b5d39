// /runs/<id>/eval[?step=N]: the run (for the header and the step bounds) and the step asked for.
// The report itself is fetched by the page, which shows what is happening while the server
// computes it.

import { error } from '@sveltejs/kit';
import { checkRunId, pageAnswer } from '$lib/server/ide/run-pages';
import { createApi } from '$lib/shared/api';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, url, fetch }) => {
	checkRunId(params.id);
	const stepText = url.searchParams.get('step');
	if (stepText !== null && !/^\d{1,9}$/.test(stepText)) error(400, `step must be a whole number of steps, not "${stepText.slice(0, 40)}"`);
	const info = await pageAnswer(createApi(fetch).run(params.id));
	return { info, step: stepText === null ? null : Number(stepText) };
};
