import { listExperiments } from '$lib/server/experiments/store';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({ experiments: listExperiments() });
