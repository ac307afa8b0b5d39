// /runs/<id>/rescore: the run (for the header and its agents); the page asks for re-scorings.

import { checkRunId, pageAnswer } from '$lib/server/ide/run-pages';
import { createApi } from '$lib/shared/api';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, fetch }) => {
	checkRunId(params.id);
	return { info: await pageAnswer(createApi(fetch).run(params.id)) };
};
