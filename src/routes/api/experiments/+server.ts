import { ExperimentStartRequestSchema } from '$lib/api/experiments';
import { answer, readBody } from '$lib/server/http';
import { startExperiment } from '$lib/server/experiments/manager';
import { listExperiments } from '$lib/server/experiments/store';
import type { RequestHandler } from './$types';

/** Every experiment in the data home, newest first (ExperimentListing[]). */
export const GET: RequestHandler = () => answer(() => listExperiments());

/** Starts (or continues) an experiment from its definition, the file format as JSON (-> { id }). */
export const POST: RequestHandler = ({ request }) => answer(async () => startExperiment(await readBody(request, ExperimentStartRequestSchema)));
